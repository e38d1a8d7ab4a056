# SPDX-License-Identifier: GPL-2.0-only
"""The Debian package list: utils/debian-packages.txt, ./ai-fabric and the README
name the same packages, and every file the CMake configuration uses comes from
one of them or from what they depend on.

The last check is what a fresh Debian 12 machine needs: a path that ns-3's
targets name (e.g. /usr/include/libxml2) but that no listed package brings would
configure here, where someone installed it, and fail there.
"""

import os
import re
import shutil
import subprocess

import pytest


def listed_packages(source_dir, optional=False):
    """Package names of utils/debian-packages.txt, in order: those ./ai-fabric
    installs, and with optional=True also those used only when present."""
    names = []
    for line in (source_dir / "utils" / "debian-packages.txt").read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words and (optional or words[1:] != ["optional"]):
            names.append(words[0])
    return names


def path_rules(source_dir):
    """(package, regex) of the list's `path=` entries."""
    rules = []
    for line in (source_dir / "utils" / "debian-packages.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        match = re.match(r"^(\S+)\s+path=(.+)$", line)
        if match:
            rules.append((match.group(1), match.group(2)))
    return rules


def test_readme_names_the_list(source_dir):
    readme = (source_dir / "README.md").read_text()
    match = re.search(r"printing what they install: `([^`]+)`", readme)
    assert match, "README.md: no 'printing what they install: `...`' list"
    assert match.group(1).split() == listed_packages(source_dir)


def test_script_installs_the_list(source_dir):
    out = subprocess.run(
        [str(source_dir / "ai-fabric"), "packages"],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "AI_FABRIC_SKIP_DEPS": "1"},
    ).stdout
    assert out.split() == listed_packages(source_dir)
    extra = subprocess.run(
        [str(source_dir / "ai-fabric"), "packages", "--all"], capture_output=True, text=True
    )
    assert extra.returncode == 2
    assert extra.stderr.strip() == "ai-fabric: packages takes no arguments (got: --all)"


@pytest.mark.parametrize(
    "args, message",
    [
        (["test", "--bogus"], "test: unknown argument '--bogus' (allowed: --sanitize, --mpi)"),
        (["mpi"], "mpi: the number of processes is missing"),
        (["mpi", "0"], "mpi: N '0' is not allowed (allowed: a whole number of processes"),
        (["mpi-setup", "x"], "mpi-setup takes no arguments (got: x)"),
        (["fuzz", "0"], "fuzz: SECONDS '0' is not allowed (allowed: a whole number of seconds"),
        (["fuzz", "30", "nosuch"], "fuzz: unknown target 'nosuch' (allowed: cdf flow-file "
         "json-config size-parser topology-file)"),
        (["frobnicate"], "unknown command 'frobnicate' (allowed: run, test, fuzz, packages"),
    ],
)
def test_script_refuses_bad_arguments_before_building(source_dir, args, message):
    # Checked before any package, configure or build step: at once, exit 2.
    r = subprocess.run([str(source_dir / "ai-fabric"), *args], capture_output=True, text=True,
                       env={**os.environ, "AI_FABRIC_SKIP_DEPS": "1"}, timeout=20)
    assert r.returncode == 2
    assert f"ai-fabric: {message}" in r.stderr


def test_fuzz_targets_are_listed_with_seeds(source_dir):
    # Every test/fuzz/<name>-fuzz.cc is listed (the script's and CMake's target list)
    # and has a non-empty seed corpus.
    on_disk = sorted(p.name[: -len("-fuzz.cc")] for p in (source_dir / "test" / "fuzz").glob("*-fuzz.cc"))
    listed = sorted(line[len("test/fuzz/"): -len("-fuzz.cc")]
                    for line in (source_dir / "ai-fabric-files.txt").read_text().split("\n")
                    if line.startswith("test/fuzz/") and line.endswith("-fuzz.cc"))
    assert on_disk == listed == ["cdf", "flow-file", "json-config", "size-parser", "topology-file"]
    for name in listed:
        assert any((source_dir / "test" / "fuzz" / "corpus" / name).iterdir()), name


def test_path_rules_match_what_they_name(source_dir):
    # Each rule must match the path Debian's libns3-dev 3.37 names for it.
    examples = {
        "libgsl-dev": ["/usr/lib/x86_64-linux-gnu/libgsl.so", "/usr/lib/x86_64-linux-gnu/libgslcblas.so"],
        "libsqlite3-dev": ["/usr/lib/x86_64-linux-gnu/libsqlite3.so"],
        "libxml2-dev": ["/usr/include/libxml2", "/usr/lib/x86_64-linux-gnu/libxml2.so"],
        "python3-dev": ["/usr/include/python3.11"],
    }
    rules = dict(path_rules(source_dir))
    assert sorted(rules) == sorted(examples)
    for package, paths in examples.items():
        for path in paths:
            assert re.search(rules[package], path), (package, path)
    assert not re.search(rules["python3-dev"], "/usr/include/python3.11/Python.h")


def installed_dependency_closure(packages):
    """The listed packages and, recursively, every installed package they
    depend on (Depends, Pre-Depends; each installed alternative; virtual
    packages through Provides)."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Depends}\t${Pre-Depends}\t${Provides}\n"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    depends = {}
    providers = {}
    for line in out.splitlines():
        name, status, dep, pre, provides = (line.split("\t") + [""] * 5)[:5]
        if not status.endswith(" installed"):
            continue
        alternatives = []
        for field in (dep, pre):
            for clause in filter(None, (c.strip() for c in field.split(","))):
                for alt in clause.split("|"):
                    alternatives.append(re.split(r"[\s(:]", alt.strip(), maxsplit=1)[0])
        depends[name] = alternatives
        for virtual in filter(None, (p.strip() for p in provides.split(","))):
            providers.setdefault(re.split(r"[\s(:]", virtual, maxsplit=1)[0], []).append(name)
    closure = set()
    pending = list(packages)
    while pending:
        name = pending.pop()
        for real in [name] if name in depends else providers.get(name, []):
            if real not in closure:
                closure.add(real)
                pending.extend(depends[real])
    return closure


def owners(path):
    """Packages dpkg says own `path` (empty when none does)."""
    result = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if result.returncode != 0:
        return set()
    found = set()
    for line in result.stdout.splitlines():
        if line.startswith("diversion by"):
            continue
        names, _, _ = line.rpartition(": ")
        found.update(n.strip().split(":")[0] for n in names.split(","))
    return found


def configuration_paths(build_dir):
    """Paths the configuration uses: those ns-3's (and the other) imported targets
    name, and the folders of the CMake packages it found."""
    record = build_dir / "ai-fabric-imported-paths.txt"
    if not record.is_file():
        pytest.skip(f"{record} is not there (not a standalone build)")
    paths = [p for p in record.read_text().splitlines() if p]
    cache = (build_dir / "CMakeCache.txt").read_text()
    # With -DAI_FABRIC_MPI=ON: ns-3's mpi module as ./ai-fabric mpi-setup built it into
    # its cache folder (doc/distributed.md), no Debian package's.
    mpi = re.search(r"^AI_FABRIC_MPI:BOOL=(ON|TRUE|1)$", cache, re.M)
    prefix = re.search(r"^AI_FABRIC_MPI_PREFIX:PATH=(/.+)$", cache, re.M)
    for line in cache.splitlines():
        match = re.match(r"^(\w+)_DIR:PATH=(/.+)$", line)
        if match and os.path.isdir(match.group(2)) and not match.group(2).startswith(str(build_dir)):
            if mpi and prefix and match.group(2).startswith(prefix.group(1)):
                continue
            paths.append(match.group(2))
    return paths


@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="not a Debian-like system")
def test_configuration_needs_only_listed_packages(source_dir, build_dir):
    paths = configuration_paths(build_dir)
    ns3_owners = [owners(p) for p in paths if "/cmake/ns3" in p]
    if ns3_owners and not any(ns3_owners):
        pytest.skip("ns-3 is not installed from Debian's packages here")
    packages = listed_packages(source_dir, optional=True)
    cache = (build_dir / "CMakeCache.txt").read_text()
    if re.search(r"^AI_FABRIC_MPI:BOOL=(ON|TRUE|1)$", cache, re.M):
        # -DAI_FABRIC_MPI=ON: also what `./ai-fabric mpi-setup` installs (MPI_PACKAGES).
        script = (source_dir / "ai-fabric").read_text()
        packages += re.search(r"^MPI_PACKAGES=\(([^)]*)\)", script, re.M).group(1).split()
    closure = installed_dependency_closure(packages)
    unlisted = {}
    for path in paths:
        found = owners(path)
        if not found or not found & closure:
            unlisted[path] = sorted(found) or ["no package"]
    assert not unlisted, (
        "the configuration uses paths that no package of utils/debian-packages.txt brings "
        f"(a fresh machine lacks them): {unlisted}"
    )
    assert len(paths) >= 5, paths
