# SPDX-License-Identifier: GPL-2.0-only
"""--fabric=uet runs every workload the runner offers (issue: "works with every
workload"): each one on a k=4 fat-tree completes, every message row has an end, and a
collective writes its collective.csv row. The workload list is read from
`ai-fabric-sim --help`, so a workload added later is run here too (and fails until
this test knows its arguments)."""

import csv
import json
import re
import subprocess

import pytest

# Arguments each workload needs beyond --workload (a small run of each).
EXTRA = {
    "allgather": ["--bytes=256KB"],
    "allreduce": ["--bytes=256KB", "--iterations=2"],
    "alltoall": ["--bytes=256KB"],
    "incast": ["--fanin=8", "--bytes=256KB"],
    "permutation": ["--bytes=256KB"],
    "reducescatter": ["--bytes=256KB"],
    "none": ["--flows=examples/flows-hpcc-example.txt", "--stop-time=3s"],
    "training": ["--training={model}"],
    "jobs": ["--jobs={jobs}"],
}
COLLECTIVES = {"allgather", "allreduce", "reducescatter"}


def workloads(sim):
    """The --workload choices `ai-fabric-sim --help` lists ({a, b, ...} [default])."""
    text = subprocess.run([str(sim), "--help"], capture_output=True, text=True).stdout
    line = next(l for l in text.splitlines() if l.strip().startswith("--workload:"))
    return re.search(r"\{([^}]*)\}\s*\[[^]]*\]\s*$", line).group(1).replace(" ", "").split(",")


def test_every_workload_is_known_here(ai_fabric_sim):
    assert set(workloads(ai_fabric_sim)) == set(EXTRA)


@pytest.mark.parametrize("workload", sorted(EXTRA))
def test_uet_runs_the_workload(ai_fabric_sim, source_dir, tmp_path, workload):
    # An 8-GPU version of examples/gpt-tiny.json (tp 2 x pp 2 x dp 2) for 16 hosts.
    model = json.loads((source_dir / "examples" / "gpt-tiny.json").read_text())
    model["parallelism"] = {"tp": 2, "pp": 2, "dp": 2, "ep": 1}
    model["iterations"] = 1
    (tmp_path / "model.json").write_text(json.dumps(model))
    (tmp_path / "jobs.json").write_text(json.dumps([
        {"name": "a", "workload": "training", "model": str(tmp_path / "model.json"),
         "gpus": 8, "placement": "packed"},
        {"name": "b", "workload": "allreduce", "bytes": "256KB", "iterations": 2,
         "gpus": 8, "placement": "packed", "class": 4},
    ]))
    args = [a.format(model=tmp_path / "model.json", jobs=tmp_path / "jobs.json")
            for a in EXTRA[workload]]
    out = tmp_path / "out"
    run = subprocess.run([str(ai_fabric_sim), "--fabric=uet", "--topology=fattree", "--k=4",
                          "--workload=" + workload, *args, "--out=" + str(out)],
                         capture_output=True, text=True, cwd=source_dir, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True
    assert summary["config"]["fabric"] == "uet"
    with open(out / "fct.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows, "no message ran"
    assert all(int(r["fct_ns"]) > 0 for r in rows)
    if workload in COLLECTIVES:
        with open(out / "collective.csv") as f:
            assert len(list(csv.DictReader(f))) >= 1


def test_a_uet_summary_replays(ai_fabric_sim, source_dir, tmp_path):
    """summary.json echoes PFC as run (off on UET), so --config=summary.json replays."""
    first, again = tmp_path / "first", tmp_path / "again"
    for out, args in ((first, ["--fabric=uet", "--topology=fattree", "--k=4",
                               "--workload=permutation", "--bytes=64KB"]),
                      (again, ["--config=" + str(first / "summary.json")])):
        run = subprocess.run([str(ai_fabric_sim), *args, "--out=" + str(out)],
                             capture_output=True, text=True, cwd=source_dir, timeout=600)
        assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads((first / "summary.json").read_text())["config"]["pfc"] == 0
    assert (first / "fct.csv").read_bytes() == (again / "fct.csv").read_bytes()
