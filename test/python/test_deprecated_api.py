# SPDX-License-Identifier: GPL-2.0-only
"""The public names renamed without a transition are back for one release, deprecated.

test/install/old-api-names.cc is a program written against the old names
(CHANGES.md, "Deprecated"). It is compiled against the build's headers
(build/include, as scratch/README.md's compile line does) with
-Wdeprecated-declarations and must:

* compile (a removed name fails here);
* draw, on every line marked "// OLD: <name>", a deprecation warning that names
  <name> (a name that lost its attribute fails here), every old name of OLD_NAMES
  being marked at least once;
* draw no deprecation warning on any other line: new code (the new names, copies
  and aggregate initialisation of the structs that carry an alias, a default
  RdmaFabric::Counters) stays silent;
* run and print "old names: all checks passed" (the old names read and write what
  they did: GB/s under algbwGbps, pauses plus resumes under pauseFramesSent, ...).
"""

import collections
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("AI_FABRIC_SOURCE_DIR") or pathlib.Path(__file__).resolve().parents[2])
BUILD = pathlib.Path(os.environ.get("AI_FABRIC_BUILD_DIR") or ROOT / "build")
PROGRAM = ROOT / "test" / "install" / "old-api-names.cc"

# Every deprecated public name (CHANGES.md) and the commit that renamed it.
OLD_NAMES = {
    "algbwGbps": "8abbc0e",
    "busbwGbps": "8abbc0e",
    "pauseFramesSent": "bef3edc",
    "GetPauseFramesSent": "bef3edc",
    "GetPauseFramesReceived": "bef3edc",
    "ValidateTopologyFlags": "1a2e136",
    "ChannelsFor": "d64ce1a",
    "TunerTopology": "d64ce1a",
}

WARNING = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): warning: (?P<text>.*)$", re.M)


def cache_value(name):
    cache = BUILD / "CMakeCache.txt"
    if not cache.is_file():
        return None
    m = re.search(r"^" + re.escape(name) + r":[A-Z]+=(.*)$", cache.read_text(), re.M)
    return m.group(1) if m else None


def marked_lines():
    """{line number: old name} of the program's "// OLD: name" lines."""
    marks = {}
    for number, line in enumerate(PROGRAM.read_text().splitlines(), start=1):
        m = re.search(r"// OLD: (\w+)\s*$", line)
        if m:
            marks[number] = m.group(1)
    return marks


def deprecation_warnings(stderr):
    """{line: [warning texts]} of the -Wdeprecated-declarations warnings in PROGRAM."""
    found = collections.defaultdict(list)
    for m in WARNING.finditer(stderr):
        if "[-Wdeprecated-declarations]" not in m.group("text"):
            continue
        if pathlib.Path(m.group("file")).name != PROGRAM.name:
            continue
        found[int(m.group("line"))].append(m.group("text"))
    return found


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    if not (BUILD / "libns3-ai-fabric.so").is_file():
        pytest.skip(f"no standalone build in {BUILD}")
    if cache_value("AI_FABRIC_SANITIZE") in ("ON", "TRUE", "1"):
        pytest.skip("sanitizer build: the library needs -fsanitize programs")
    exe = tmp_path_factory.mktemp("old-names") / "old-api-names"
    compiler = cache_value("CMAKE_CXX_COMPILER") or "c++"
    # -O0: the checks are about names, not speed; -fdiagnostics-plain-output (GCC 10+,
    # clang accepts it) keeps each warning on one line with its location
    cmd = [compiler, "-std=c++17", "-O0", "-DNS3_LOG_ENABLE", "-Wall", "-Wdeprecated-declarations",
           "-fdiagnostics-plain-output", f"-I{BUILD / 'include'}", str(PROGRAM), "-o", str(exe),
           f"-L{BUILD}", f"-Wl,-rpath,{BUILD.resolve()}", "-lns3-ai-fabric", "-lns3-core",
           "-lns3-network", "-lns3-internet"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, f"the program using the old names does not compile:\n{r.stderr[-6000:]}"
    return exe, r.stderr


def test_every_old_name_is_used_by_the_program():
    used = set(marked_lines().values())
    assert used == set(OLD_NAMES), (
        f"old-api-names.cc marks {sorted(used)}; the deprecated names are {sorted(OLD_NAMES)}")


def test_each_old_name_warns_where_used(compiled):
    _, stderr = compiled
    warnings = deprecation_warnings(stderr)
    missing = []
    for line, name in sorted(marked_lines().items()):
        texts = warnings.get(line, [])
        if not any(re.search(r"[‘'`\"][^‘'`\"]*\b" + name + r"\b[^’'`\"]*[’'`\"] is deprecated", t)
                   for t in texts):
            missing.append(f"line {line} ({name}): {texts or 'no deprecation warning'}")
    assert not missing, "old names without a deprecation warning:\n" + "\n".join(missing)
    # the message says what to use instead
    for name in OLD_NAMES:
        assert any(name in t and "CHANGES.md" in t for ts in warnings.values() for t in ts), name


def test_new_code_does_not_warn(compiled):
    _, stderr = compiled
    marks = marked_lines()
    stray = {line: texts for line, texts in deprecation_warnings(stderr).items() if line not in marks}
    assert not stray, f"deprecation warnings on lines that use only new names: {stray}"


def test_old_names_behave_as_before(compiled):
    exe, _ = compiled
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    print(r.stdout)
    assert r.returncode == 0 and "old names: all checks passed" in r.stdout, r.stdout + r.stderr
    m = re.search(r"PFC pauses (\d+), resumes (\d+), pauseFramesSent (\d+)", r.stdout)
    assert m and int(m.group(3)) == int(m.group(1)) + int(m.group(2)) > 0, r.stdout


def test_changes_md_lists_each_deprecated_name_with_its_commit():
    text = (ROOT / "CHANGES.md").read_text()
    for name, commit in OLD_NAMES.items():
        lines = [line for line in text.splitlines() if name in line and commit in line]
        assert lines, f"CHANGES.md names {name} without its commit {commit}"
