# SPDX-License-Identifier: GPL-2.0-only
"""Reads ai-fabric-files.txt for waf-era ns-3 trees (wscript-compat/wscript).

This is the Python twin of cmake/AiFabricFiles.cmake: the same regular
expressions, in the same order, sort each line of the one list into library
sources, public headers, test sources, test headers and the command-line
program; examples come from the set(ai_fabric_examples ...) block of
examples/CMakeLists.txt. test/python/test_wscript_sync.py checks, under CTest,
that what this file and the wscript make of the list is exactly what CMake made
of it, so the two builds cannot drift apart.

Plain Python 3.5+ (waf of ns-3.26 .. 3.35 runs under the system python3), no
third-party imports.
"""

import glob
import os
import re

LIST_FILE = "ai-fabric-files.txt"

# Same patterns as ai_fabric_read_file_list() in cmake/AiFabricFiles.cmake.
_SOURCE = re.compile(r"^(model|helper)/.+\.cc$")
_HEADER = re.compile(r"^(model|helper)/.+\.h$")
_TEST_SOURCE = re.compile(r"^test/[^/]+\.cc$")
_TEST_HEADER = re.compile(r"^test/[^/]+\.h$")
_RUNNER = "test/ai-fabric-test-runner.cc"
_CLI = "utils/ai-fabric-sim.cc"
_FUZZ_SOURCE = re.compile(r"^test/fuzz/[^/]+\.cc$")
_PROTO = re.compile(r"^model/.+\.proto$")

# fuzz_sources: libFuzzer targets (CMake's AI_FABRIC_FUZZ=ON); protos: protobuf schemas
# (CMake compiles them when protobuf is found). The wscript ignores both: a waf-era build
# has no Chakra traces (--workload=chakra is refused, saying so).
KINDS = ("sources", "headers", "test_sources", "test_headers", "cli_source", "fuzz_sources",
         "protos")


def read_file_list(root):
    """Sort the entries of <root>/ai-fabric-files.txt by kind.

    Returns a dict with 'listed' (every entry, in file order), one list per
    name in KINDS (cli_source has at most one entry) and 'errors' (one message
    per bad line, worded as CMake words it).
    """
    path = os.path.join(root, LIST_FILE)
    if not os.path.isfile(path):
        raise IOError("ai-fabric: %s is missing; it lists the module's files" % path)
    result = {"listed": [], "errors": []}
    for kind in KINDS:
        result[kind] = []
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            entry = line.split("#", 1)[0].strip()
            if not entry:
                continue
            where = "%s:%d: '%s'" % (LIST_FILE, number, entry)
            if entry in result["listed"]:
                result["errors"].append(where + " is listed twice")
                continue
            result["listed"].append(entry)
            if _SOURCE.match(entry):
                result["sources"].append(entry)
            elif _HEADER.match(entry):
                result["headers"].append(entry)
            elif entry == _RUNNER:
                result["errors"].append(
                    where + " is built by CMakeLists.txt itself; remove the line"
                )
            elif _TEST_SOURCE.match(entry):
                result["test_sources"].append(entry)
            elif _TEST_HEADER.match(entry):
                result["test_headers"].append(entry)
            elif entry == _CLI:
                result["cli_source"] = [entry]
            elif _FUZZ_SOURCE.match(entry):
                result["fuzz_sources"].append(entry)
            elif _PROTO.match(entry):
                result["protos"].append(entry)
            else:
                result["errors"].append(
                    where + " is not a known kind of file; allowed: "
                    "model/**/*.cc|h, helper/**/*.cc|h, test/*.cc|h, utils/ai-fabric-sim.cc, "
                    "test/fuzz/*.cc, model/**/*.proto"
                )
    return result


def present(root, lists):
    """The lists with entries that do not exist on disk left out.

    CMake's ai_fabric_load_file_list() does the same (with a warning), so one
    colleague's half-landed change does not stop the build. Returns
    (filtered dict, list of missing paths).
    """
    filtered = dict(lists)
    missing = []
    for kind in KINDS:
        kept = []
        for entry in lists[kind]:
            if os.path.isfile(os.path.join(root, entry)):
                kept.append(entry)
            else:
                missing.append(entry)
        filtered[kind] = kept
    return filtered, missing


def files_on_disk(root):
    """Files that must be listed, as ai_fabric_files_on_disk() finds them."""
    found = []
    for folder in ("model", "helper"):
        for dirpath, _dirnames, filenames in os.walk(os.path.join(root, folder)):
            for name in filenames:
                if name.endswith(".cc") or name.endswith(".h") or (
                    folder == "model" and name.endswith(".proto")
                ):
                    found.append(os.path.relpath(os.path.join(dirpath, name), root))
    for pattern in ("test/*.cc", "test/*.h", "utils/*.cc", "test/fuzz/*.cc"):
        found.extend(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, pattern)))
    found = [p.replace(os.sep, "/") for p in found if p.replace(os.sep, "/") != _RUNNER]
    return sorted(set(found))


def listed_examples(root):
    """Names in the set(ai_fabric_examples ...) block of examples/CMakeLists.txt."""
    path = os.path.join(root, "examples", "CMakeLists.txt")
    if not os.path.isfile(path):
        return []
    names = []
    inside = False
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            line = line.split("#", 1)[0]
            if not inside:
                match = re.search(r"set\([ \t]*ai_fabric_examples(.*)$", line)
                if not match:
                    continue
                inside = True
                line = match.group(1)
            closing = ")" in line
            if closing:
                line = line.split(")", 1)[0]
                inside = False
            names.extend(re.findall(r"[A-Za-z0-9_.+-]+", line))
            if closing:
                break
    return names


def find_test_suites(root, test_sources):
    """Suite names: the first string literal of each `TestSuite(` call."""
    suites = []
    pattern = re.compile(r'TestSuite\s*\(\s*"([^"]+)"')
    for source in test_sources:
        path = os.path.join(root, source)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as stream:
            for name in pattern.findall(stream.read()):
                if name not in suites:
                    suites.append(name)
    return suites


def header_name_clashes(headers):
    """Headers are staged as ns3/<basename>; two with one basename collide."""
    seen = {}
    clashes = []
    for header in headers:
        name = os.path.basename(header)
        if name in seen:
            clashes.append((seen[name], header))
        else:
            seen[name] = header
    return clashes
