# SPDX-License-Identifier: GPL-2.0-only
"""wscript-compat/wscript (waf-era ns-3) builds exactly what CMake builds.

CMake writes what it made of ai-fabric-files.txt and examples/CMakeLists.txt to
<build>/ai-fabric-cmake-files.txt (cmake/AiFabricWafSync.cmake). These tests
run the wscript's build() against a stand-in for waf's build context, rooted at
this checkout as if the wscript had been copied to contrib/ai-fabric/wscript,
and compare what it hands to create_ns3_module() and friends with CMake's
lists. A file on disk that the waf build would leave out fails here.
"""

import collections
import importlib.machinery
import importlib.util
import os
import pathlib
import re
import shutil
import types

import pytest

SOURCE_DIR = pathlib.Path(
    os.environ.get("AI_FABRIC_SOURCE_DIR") or pathlib.Path(__file__).resolve().parents[2]
)
WSCRIPT = SOURCE_DIR / "wscript-compat" / "wscript"
CMAKE_LISTS = (
    pathlib.Path(os.environ["AI_FABRIC_BUILD_DIR"]) / "ai-fabric-cmake-files.txt"
    if os.environ.get("AI_FABRIC_BUILD_DIR")
    else None
)


def load_wscript():
    loader = importlib.machinery.SourceFileLoader("ai_fabric_wscript", str(WSCRIPT))
    spec = importlib.util.spec_from_loader("ai_fabric_wscript", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Node:
    """waf's Node, as far as the wscript uses it."""

    def __init__(self, path):
        self._path = str(path)

    def abspath(self):
        return self._path


class WafError(Exception):
    pass


class FakeBuild:
    """Records what the wscript asks waf's build context (ns-3.31 API) for."""

    def __init__(self, root, tests=True, examples=True):
        self.path = Node(root)
        self.env = {
            "AI_FABRIC_HAVE_DEPS": True,
            "ENABLE_TESTS": tests,
            "ENABLE_EXAMPLES": examples,
        }
        self.modules = {}
        self.test_libraries = {}
        self.programs = {}
        self.header_sets = []

    def create_ns3_module(self, name, dependencies=()):
        module = types.SimpleNamespace(name=name, dependencies=list(dependencies), source=[])
        self.modules[name] = module
        return module

    def create_ns3_module_test_library(self, name):
        library = types.SimpleNamespace(module=name, source=[], includes=[])
        self.test_libraries[name] = library
        return library

    def create_ns3_program(self, name, dependencies=("core",)):
        program = types.SimpleNamespace(dependencies=list(dependencies), source=None)
        assert name not in self.programs, "program %s created twice" % name
        self.programs[name] = program
        return program

    def __call__(self, features="", **_kwargs):
        generator = types.SimpleNamespace(features=features, module=None, source=[])
        if "ns3header" in features:
            self.header_sets.append(generator)
        return generator

    def fatal(self, message):
        raise WafError(message)


def run_wscript(root, **flags):
    bld = FakeBuild(root, **flags)
    load_wscript().build(bld)
    return bld


def waf_lists(bld):
    """kind -> sorted paths, in the vocabulary of ai-fabric-cmake-files.txt."""
    result = {
        "sources": sorted(bld.modules["ai-fabric"].source),
        "headers": sorted(p for h in bld.header_sets for p in h.source),
        "test_sources": sorted(bld.test_libraries["ai-fabric"].source)
        if "ai-fabric" in bld.test_libraries
        else [],
        "cli_source": sorted(
            p.source for n, p in bld.programs.items() if n == "ai-fabric-sim"
        ),
        "examples": sorted(n for n in bld.programs if n != "ai-fabric-sim"),
    }
    return result


def cmake_lists():
    if CMAKE_LISTS is None:
        pytest.skip("AI_FABRIC_BUILD_DIR is not set (run under CTest to compare with CMake)")
    assert CMAKE_LISTS.is_file(), (
        "%s is missing: cmake/AiFabricWafSync.cmake did not run at configure time" % CMAKE_LISTS
    )
    lists = collections.defaultdict(list)
    for line in CMAKE_LISTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, path = line.split(" ", 1)
            lists[kind].append(path)
    return {kind: sorted(paths) for kind, paths in lists.items()}


def test_waf_build_uses_exactly_cmakes_files():
    cmake = cmake_lists()
    waf = waf_lists(run_wscript(SOURCE_DIR))
    for kind in ("sources", "headers", "test_sources", "cli_source", "examples"):
        only_waf = sorted(set(waf[kind]) - set(cmake.get(kind, [])))
        only_cmake = sorted(set(cmake.get(kind, [])) - set(waf[kind]))
        assert not only_waf and not only_cmake, "%s differ: only in waf %s, only in CMake %s" % (
            kind,
            only_waf,
            only_cmake,
        )
    # The module has real content: a sync of two empty lists proves nothing.
    assert len(waf["sources"]) > 20 and len(waf["headers"]) > 20
    assert "utils/ai-fabric-sim.cc" in waf["cli_source"]


def test_raw_classification_and_suites_match_cmake():
    cmake = cmake_lists()
    files = load_wscript()._files_module(str(SOURCE_DIR))
    raw = files.read_file_list(str(SOURCE_DIR))
    assert raw["errors"] == []
    for kind in files.KINDS:
        assert sorted(raw[kind]) == cmake.get("listed-" + kind, []), kind
    kept, _missing = files.present(str(SOURCE_DIR), raw)
    suites = files.find_test_suites(str(SOURCE_DIR), kept["test_sources"])
    assert sorted(suites) == cmake.get("test_suites", [])
    assert "ai-fabric-rocev2-fabric" in suites


def disk_files(root):
    """Independent of ai_fabric_files.py: what must be built, found on disk."""
    root = pathlib.Path(root)
    found = set()
    for folder in ("model", "helper"):
        for suffix in ("*.cc", "*.h"):
            found.update(p.relative_to(root).as_posix() for p in (root / folder).rglob(suffix))
    for pattern in ("test/*.cc", "test/*.h", "utils/*.cc"):
        found.update(p.relative_to(root).as_posix() for p in root.glob(pattern))
    found.discard("test/ai-fabric-test-runner.cc")
    return found


def unbuilt_files(root):
    """Files on disk that the waf build would not compile, stage or ship."""
    bld = run_wscript(root)
    waf = waf_lists(bld)
    built = set(waf["sources"]) | set(waf["headers"]) | set(waf["test_sources"])
    built |= set(waf["cli_source"])
    # Test headers are compiled through the test sources that include them.
    built |= set(load_wscript().collect(str(root))["test_headers"])
    return sorted(disk_files(root) - built)


def test_every_file_on_disk_is_in_the_waf_build():
    assert unbuilt_files(SOURCE_DIR) == []


def mirror(tmp_path):
    """A copy of the checkout's list and scripts, with the code folders linked."""
    root = tmp_path / "ai-fabric"
    root.mkdir()
    for name in ("model", "helper", "test", "utils", "examples"):
        (root / name).symlink_to(SOURCE_DIR / name, target_is_directory=True)
    shutil.copytree(SOURCE_DIR / "wscript-compat", root / "wscript-compat")
    return root


def test_a_file_missing_from_the_list_is_reported(tmp_path):
    root = mirror(tmp_path)
    lines = (SOURCE_DIR / "ai-fabric-files.txt").read_text(encoding="utf-8").splitlines()
    dropped = "model/rocev2/roce-switch.cc"
    assert dropped in lines
    kept = [line for line in lines if line.strip() != dropped]
    (root / "ai-fabric-files.txt").write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert unbuilt_files(root) == [dropped]


def test_bad_lines_stop_the_waf_build(tmp_path):
    root = mirror(tmp_path)
    text = (SOURCE_DIR / "ai-fabric-files.txt").read_text(encoding="utf-8")
    (root / "ai-fabric-files.txt").write_text(
        text + "model/rdma/rdma-queue-pair.cc\ndoc/building.md\n", encoding="utf-8"
    )
    with pytest.raises(WafError) as error:
        run_wscript(root)
    message = str(error.value)
    assert "'model/rdma/rdma-queue-pair.cc' is listed twice" in message
    assert "'doc/building.md' is not a known kind of file" in message


def test_tests_and_examples_follow_waf_switches():
    bld = run_wscript(SOURCE_DIR, tests=False, examples=False)
    assert bld.test_libraries == {}
    assert sorted(bld.programs) == ["ai-fabric-sim"]
    assert bld.modules["ai-fabric"].dependencies == [
        "core",
        "network",
        "internet",
        "applications",
        "flow-monitor",
    ]


def test_wscript_names_no_source_files():
    """The lists live in ai-fabric-files.txt only; a literal path here could drift."""
    text = WSCRIPT.read_text(encoding="utf-8")
    literals = re.findall(r"[\"']((?:model|helper|test|utils)/[\w./-]+\.(?:cc|h))[\"']", text)
    assert literals == []


class FakeConfigure:
    def __init__(self, root, cxxflags):
        self.path = Node(root)
        self.env = {"CXXFLAGS": cxxflags}

    def fatal(self, message):
        raise WafError(message)

    def msg(self, *_args, **_kwargs):
        pass

    def check_cxx(self, header_name, mandatory=True):
        return os.path.isfile(os.path.join("/usr/include", header_name))


def test_configure_insists_on_cxx17():
    wscript = load_wscript()
    assert wscript._cxx_standard(["-O2", "-std=c++11"]) == 11
    assert wscript._cxx_standard(["-std=c++11", "-std=c++17"]) == 17
    assert wscript._cxx_standard(["-std=gnu++1z"]) == 17
    assert wscript._cxx_standard(["-std=c++98"]) == 98
    assert wscript._cxx_standard(["-Wall"]) is None
    for flags in (["-std=c++11"], ["-std=c++14"], ["-std=c++98"]):
        with pytest.raises(WafError, match="--cxx-standard=-std=c\\+\\+17"):
            wscript.configure(FakeConfigure(SOURCE_DIR, flags))
    conf = FakeConfigure(SOURCE_DIR, ["-std=c++11", "-std=c++17"])
    wscript.configure(conf)
    assert conf.env["AI_FABRIC_HAVE_DEPS"] is True
