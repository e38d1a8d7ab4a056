# SPDX-License-Identifier: GPL-2.0-only
"""analysis/plot-jobs: the per-job step time over time (doc/jobs.md), from a run of two
jobs where a host of one fails and the job restarts on a free host."""

import json
import shutil
import struct
import subprocess
import sys

import pytest

JOBS = """[{"name": "a", "workload": "allreduce", "bytes": "4MB", "gpus": 2,
  "placement": [0, 3], "iterations": 6, "on_failure": "restart", "restart_delay": "100us"},
 {"name": "b", "workload": "allreduce", "bytes": "4MB", "gpus": 2, "placement": [1, 4],
  "iterations": 6}]"""


@pytest.fixture
def jobs_run(ai_fabric_sim, tmp_path):
    """The outputs of the two jobs' run, host 3 failing at 500 us."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(JOBS)
    out = tmp_path / "o"
    r = subprocess.run([str(ai_fabric_sim), "--topology=leafspine", "--leaves=2", "--spines=2",
                        "--hosts-per-switch=3", "--workload=jobs", f"--jobs={jobs}",
                        "--host-failure=3@500us",
                        "--ns3::RdmaQueuePair::RetransmitTimeout=20us",
                        "--ns3::RdmaQueuePair::RetryTimeout=20us", "--stop-time=5ms",
                        # (as test/jobs-test-suite.cc's host failure: with per-rank
                        # iterations job b's queue pair also errs at this 20 us timeout)
                        "--ns3::CollectiveApplication::IterationStart=barrier",
                        f"--out={out}"], capture_output=True, text=True, check=False)
    assert r.returncode in (0, 3), r.stderr  # 3: the aborted collective's ids (doc/jobs.md)
    return out


def plot(source_dir, out, *flags):
    return subprocess.run([sys.executable, str(source_dir / "analysis" / "plot-jobs"), str(out),
                           *flags], capture_output=True, text=True, check=False)


def test_script_has_each_job_its_baseline_and_the_failure(jobs_run, source_dir):
    s = json.loads((jobs_run / "summary.json").read_text())
    a = next(j for j in s["jobs"] if j["name"] == "a")
    assert a["state"] == "restarted" and a["finished_iterations"] == 6
    p = plot(source_dir, jobs_run, "--no-render")
    assert p.returncode == 0, p.stderr
    gp = (jobs_run / "jobs-steps.gp").read_text()
    assert gp.count("<< EOD") == 2  # one data block per job
    assert gp.count("with linespoints") == 2 and gp.count("alone'") == 2
    # a point per jobs.csv row
    rows = (jobs_run / "jobs.csv").read_text().splitlines()[1:]
    points = [l for l in gp.splitlines() if l and l[0].isdigit() and l.count(" ") == 1]
    assert len(points) == len(rows) == 12
    assert "host 3 fails" in gp and "a restarted" in gp
    assert f"set arrow from {a['restarted_ns'] / 1e6:.6f}" in gp


def test_png_is_rendered(jobs_run, source_dir):
    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot is not installed")
    p = plot(source_dir, jobs_run)
    assert p.returncode == 0, p.stderr
    png = (jobs_run / "jobs-steps.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (1200, 600)
    assert len(png) > 10000  # lines, points and labels, not an empty frame


def test_missing_or_bad_jobs_csv_is_refused(tmp_path, source_dir):
    p = plot(source_dir, tmp_path)
    assert p.returncode == 2 and "jobs.csv: no such file" in p.stderr
    (tmp_path / "jobs.csv").write_text("job,name\n")
    p = plot(source_dir, tmp_path)
    assert p.returncode == 2 and "header" in p.stderr
