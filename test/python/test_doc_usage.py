# SPDX-License-Identifier: GPL-2.0-only
"""The C++ snippets of the model pages' Usage sections compile and run as written.

Each doc/*.md page with a `## Usage` section has one ```cpp block there: statements of
a function body, against this module's umbrella header and ns-3's core. The test makes
each a function of one program (which adds only includes and `using namespace ns3`),
compiles that once with the build's compiler against the build tree, runs each snippet
and expects exit status 0, so a snippet cannot fall behind the API. (The pages'
attribute and trace-source tables are checked by the suite ai-fabric-doc-reference.)
"""

import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("AI_FABRIC_SOURCE_DIR") or pathlib.Path(__file__).resolve().parents[2])
BUILD = pathlib.Path(os.environ.get("AI_FABRIC_BUILD_DIR") or ROOT / "build")

HEADER = """#include "ns3/ai-fabric-module.h"
#include "ns3/config.h"
#include "ns3/core-module.h"

#include <cstring>
#include <iostream>

using namespace ns3;
"""

def cache_value(name):
    cache = BUILD / "CMakeCache.txt"
    if not cache.is_file():
        return None
    m = re.search(r"^" + re.escape(name) + r":[A-Z]+=(.*)$", cache.read_text(), re.M)
    return m.group(1) if m else None


def usage_snippets():
    out = []
    for page in sorted((ROOT / "doc").glob("*.md")):
        text = page.read_text()
        m = re.search(r"^## Usage\n(.*?)(?=^## )", text, re.S | re.M)
        if not m:
            continue
        blocks = re.findall(r"```cpp\n(.*?)```", m.group(1), re.S)
        out.append((page.name, blocks))
    return out


def test_model_pages_have_usage():
    pages = dict(usage_snippets())
    for page in ("rocev2-fabric.md", "infiniband.md", "dcqcn.md", "swift.md", "timely.md",
                 "switch-buffer.md", "collectives.md", "topologies.md", "load-balancing.md",
                 "traffic-and-analysis.md", "failures.md", "hpcc.md", "dctcp.md",
                 "theta-powertcp.md", "powertcp.md", "tcp-over-fabric.md"):
        assert page in pages, f"doc/{page} has no '## Usage' section"
        assert len(pages[page]) == 1, f"doc/{page}: one ```cpp block in Usage"


@pytest.fixture(scope="module")
def usage_program(tmp_path_factory):
    """One program holding every page's snippet as a function, chosen by argv[1]: one
    compilation for all pages."""
    if not (BUILD / "libns3-ai-fabric.so").is_file():
        pytest.skip(f"no standalone build in {BUILD}")
    if cache_value("AI_FABRIC_SANITIZE") in ("ON", "TRUE", "1"):
        pytest.skip("sanitizer build: the library needs -fsanitize programs")
    tmp = tmp_path_factory.mktemp("usage")
    source = HEADER
    dispatch = ""
    for i, (page, blocks) in enumerate(usage_snippets()):
        body = "\n".join("    " + line if line else "" for line in blocks[0].splitlines())
        source += f"\n// doc/{page}\nvoid\nUsage{i}()\n{{\n{body}\n}}\n"
        dispatch += f'    if (std::strcmp(argv[1], "{page}") == 0) {{ Usage{i}(); return 0; }}\n'
    source += "\nint\nmain(int argc, char* argv[])\n{\n    if (argc != 2) { return 2; }\n"
    source += dispatch + "    return 2;\n}\n"
    src = tmp / "usage.cc"
    src.write_text(source)
    exe = tmp / "usage"
    cxx = cache_value("CMAKE_CXX_COMPILER") or "c++"
    build = BUILD.resolve()
    r = subprocess.run([cxx, "-std=c++17", "-O0", "-DNS3_LOG_ENABLE", f"-I{build}/include",
                        str(src), "-o", str(exe), f"-L{build}", f"-Wl,-rpath,{build}",
                        "-lns3-ai-fabric", "-lns3-core", "-lns3-network", "-lns3-internet"],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"a Usage snippet does not compile (see doc/<page> in the messages):\n{r.stderr}"
    return exe


@pytest.mark.parametrize("page", [page for page, _ in usage_snippets()])
def test_usage_snippet_runs(page, usage_program, tmp_path):
    r = subprocess.run([str(usage_program), page], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, f"doc/{page}: the Usage snippet exits {r.returncode}:\n{r.stderr}"
