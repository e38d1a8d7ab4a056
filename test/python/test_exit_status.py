# SPDX-License-Identifier: GPL-2.0-only
"""ai-fabric-sim's exit statuses: --help lists all five, and the docs say the same.

The statuses (helper/scenario/exit-status.h): 0 done, 1 environment failure, 2 bad
configuration, 3 stopped by --stop-time with work unfinished, 4 deadlock detected.
Here: --help and --PrintHelp exit 0 and list each status with its meaning;
doc/scenario-runner.md's "Exit codes" table has one row per status, each starting
with the help's words for it, and README.md's one-line list agrees; memory that
runs out is exit 1 with "out of memory" (the other statuses are produced and
checked in test_cli.py: 2 throughout, 3 by a short --stop-time, 4 by the deadlock
cases, 1 by a file size limit).
"""

import os
import re
import resource
import subprocess

import pytest

CODES = [0, 1, 2, 3, 4]
# the words each status must be described with, in the help and both documents
LABELS = {
    0: "done",
    1: "environment failure",
    2: "bad configuration",
    3: "stopped by --stop-time with work unfinished",
    4: "deadlock detected",
}


def normalize(text):
    """Markdown to plain words: no backticks, links reduced to their text, one space."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"\s+", " ", text.replace("`", "")).strip()


def help_statuses(text):
    """{status: meaning} of the help's "Exit status:" block."""
    block = text.split("Exit status:", 1)
    assert len(block) == 2, "no 'Exit status:' in the help text"
    statuses = {}
    for line in block[1].splitlines()[1:]:
        m = re.match(r"^\s+(\d)\s+(.+)$", line)
        if not m:
            break
        statuses[int(m.group(1))] = m.group(2).strip()
    return statuses


@pytest.mark.parametrize("flag", ["--help", "--PrintHelp"])
def test_help_lists_every_exit_status(ai_fabric_sim, flag):
    r = subprocess.run([str(ai_fabric_sim), flag], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    statuses = help_statuses(r.stdout)
    assert sorted(statuses) == CODES, statuses
    for code, label in LABELS.items():
        assert statuses[code].startswith(label), (code, statuses[code])
    # the flags follow, as before
    assert "--topology" in r.stdout


def test_doc_table_agrees_with_the_help(source_dir):
    text = (source_dir / "doc" / "scenario-runner.md").read_text()
    section = text.split("### Exit codes", 1)[1].split("\n#", 1)[0]
    rows = {int(m.group(1)): normalize(m.group(2))
            for m in re.finditer(r"^\| (\d) \| (.+) \|$", section, re.M)}
    assert sorted(rows) == CODES, rows
    for code, label in LABELS.items():
        assert rows[code].startswith(label), (code, rows[code])
    assert "--help" in section


def test_readme_lists_the_same(source_dir):
    text = normalize((source_dir / "README.md").read_text())
    m = re.search(r"Exit status: (.+?)\(doc/scenario-runner\.md", text)
    assert m, "README.md: no 'Exit status: ...' line pointing at doc/scenario-runner.md"
    line = m.group(1)
    for code, label in LABELS.items():
        assert f"{code} {label}" in line, (code, line)


def test_out_of_memory_is_exit_1_named(ai_fabric_sim, tmp_path):
    # An address-space limit makes allocations fail with std::bad_alloc (a real
    # machine's OOM killer would send SIGKILL instead, which no program can report).
    # The memory estimate reads /proc/meminfo, not the limit, so the fabric is built
    # until it runs out: a k=40 fat-tree (16,000 hosts) needs far more than 192 MiB
    # (a k=24 one peaks at about 100 MB), while the program starts in under 40 MB.
    cache = os.path.join(os.environ.get("AI_FABRIC_BUILD_DIR", ""), "CMakeCache.txt")
    if os.path.exists(cache) and "AI_FABRIC_SANITIZE:BOOL=ON" in open(cache).read():
        pytest.skip("AddressSanitizer reserves terabytes of shadow address space: no "
                    "program starts under an address-space limit")
    limit = 192 << 20

    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    r = subprocess.run(
        [str(ai_fabric_sim), "--topology=fattree", "--k=40", "--workload=none",
         "--stop-time=1us", f"--out={tmp_path / 'o'}"],
        capture_output=True, text=True, timeout=600, preexec_fn=apply, check=False)
    if r.returncode == 2 and "of memory" in r.stderr:
        pytest.skip(f"this machine is too small for the k=40 fabric: {r.stderr.strip()}")
    assert r.returncode == 1, (r.returncode, r.stderr[-2000:])
    assert r.stderr.startswith("ai-fabric-sim: error: out of memory"), r.stderr[-2000:]
    assert r.stderr.count("\n") == 1, r.stderr[-2000:]
