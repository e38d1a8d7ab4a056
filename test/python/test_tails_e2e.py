# SPDX-License-Identifier: GPL-2.0-only
"""End to end: ai-fabric-sim with background traffic or a flow file, then
analysis/plot-tails on its --out directory.

Background: fbhadoop at load 0.3 for 200 us on an 8-host leaf-spine (about 50
flows). Checks the run completes, every fct.csv row is a background flow started
inside the window with slowdown >= 0.999 (never faster than the ideal FCT), and
that plot-tails writes tails.csv (the size buckets add up to "all", percentiles
are ordered, p50 >= 1) and the PNG plots. Flow file: the HPCC-format example
replays and fct.txt (their format) lists its 8 flows with the file's sizes.
"""

import csv
import json
import os
import shutil
import subprocess
import sys

import pytest

HAVE_GNUPLOT = shutil.which("gnuplot") is not None
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
WINDOW_NS = 200_000

SMALL = [
    "--topology=leafspine",
    "--leaves=2",
    "--spines=2",
    "--hosts-per-switch=4",
    "--workload=none",
]


def run_sim(sim, *args):
    r = subprocess.run([str(sim), *SMALL, *args], capture_output=True, text=True,
                       timeout=300, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load_summary(out):
    """The run's summary; the runner reports the flow workload it scheduled."""
    summary = json.loads((out / "summary.json").read_text())
    assert "flow_workload" in summary, "the runner did not schedule --background/--flows"
    return summary


def test_background_then_plot_tails(ai_fabric_sim, source_dir, tmp_path):
    out = tmp_path / "bg"
    run_sim(ai_fabric_sim, "--background=fbhadoop", "--load=0.3",
            "--background-duration=200us", "--stop-time=50ms",
            f"--out={out}")
    summary = load_summary(out)
    assert summary["complete"] is True
    assert summary["drops"]["lossless"] == 0

    rows = read_csv(out / "fct.csv")
    # 8 hosts x 200 us / 32.1 us mean gap (fbhadoop mean 120,420.75 B at 30 Gb/s)
    assert 20 <= len(rows) <= 120
    assert len(rows) == summary["messages"]["expected"] == summary["messages"]["finished"]
    for r in rows:
        assert r["kind"] == "background"
        assert 0 <= int(r["start_ns"]) < WINDOW_NS
        assert float(r["slowdown"]) >= 0.999, r
        assert int(r["fct_ns"]) >= 0.999 * int(r["ideal_fct_ns"]), r

    args = [sys.executable, str(source_dir / "analysis" / "plot-tails"), str(out)]
    if not HAVE_GNUPLOT:
        args.append("--no-plots")
    r = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stdout + r.stderr

    tails = [t for t in read_csv(out / "tails.csv") if t["metric"] == "fct_slowdown"]
    by_bucket = {t["bucket"]: t for t in tails}
    assert "all" in by_bucket
    assert int(by_bucket["all"]["count"]) == len(rows)
    assert sum(int(t["count"]) for t in tails if t["bucket"] != "all") == len(rows)
    for t in tails:
        p = [float(t[k]) for k in ("p50", "p90", "p99", "p99_9", "max")]
        assert p == sorted(p), t
        assert p[0] >= 0.999, t
    slowdowns = sorted(float(x["slowdown"]) for x in rows)
    assert float(by_bucket["all"]["max"]) == pytest.approx(slowdowns[-1], rel=1e-6)

    if HAVE_GNUPLOT:
        for name in ("slowdown-vs-size", "slowdown-cdf"):
            png = out / f"tails-{name}.png"
            assert png.is_file(), sorted(os.listdir(out))
            assert png.read_bytes()[:8] == PNG_MAGIC


def test_flow_file_writes_fct_txt(ai_fabric_sim, source_dir, tmp_path):
    example = source_dir / "examples" / "flows-hpcc-example.txt"
    out = tmp_path / "ff"
    run_sim(ai_fabric_sim, f"--flows={example}", "--stop-time=3s", "--qlen-interval=0s",
            f"--out={out}")
    load_summary(out)
    lines = example.read_text().split("\n")
    flows = [l.split() for l in lines[1:] if l.strip()]
    want = sorted((int(f[0]), int(f[1]), int(f[4]), round(float(f[5]) * 1e9)) for f in flows)

    rows = read_csv(out / "fct.csv")
    got = sorted((int(r["src"]), int(r["dst"]), int(r["size_bytes"]), int(r["start_ns"]))
                 for r in rows)
    assert got == want
    assert all(r["kind"] == "flow" for r in rows)

    fct = [l.split() for l in (out / "fct.txt").read_text().splitlines() if l.strip()]
    assert len(fct) == len(flows)
    # sip dip sport dport size start_ns fct_ns standalone_fct_ns; node i = 11.(i/256).(i%256).1
    got_txt = sorted(((int(f[0], 16) >> 8) & 0xFFFF, (int(f[1], 16) >> 8) & 0xFFFF,
                      int(f[4]), int(f[5])) for f in fct)
    assert got_txt == want
    for f in fct:
        assert int(f[3]) == 100
        assert int(f[6]) + 1 >= int(f[7]) > 0
