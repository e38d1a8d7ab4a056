# SPDX-License-Identifier: GPL-2.0-only
"""End to end: real sweeps with aifabric.sweep, then analysis/plot-sweep and
analysis/nccl-table on their out= folders.

* cc (none, dcqcn) x 2 seeds on an incast under websearch background load: sweep.csv
  has one row per cc with runs 2, and its p99 slowdown mean, std and 95% CI are the
  ones recomputed from the four summary.json files (and SweepTable.aggregate()'s);
  the PNGs are real images and their scripts draw the CI error bars.
* allreduce over --bytes 64 KiB and 1 MiB on 8 ranks: nccl-table.csv's size, count,
  time and busbw equal summary.json's bytes, bytes / 4, durations_ns / 1000 and
  busbw_gbps / 8 (nccl-tests' GB/s), and the printed table shows them.

Skipped when the aifabric module is not built; the plots need gnuplot.
"""

import csv
import json
import math
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

_BUILD = pathlib.Path(
    os.environ.get("AI_FABRIC_BUILD_DIR")
    or pathlib.Path(__file__).resolve().parents[2] / "build"
)
if (_BUILD / "python").is_dir() and str(_BUILD / "python") not in sys.path:
    sys.path.insert(0, str(_BUILD / "python"))

aifabric = pytest.importorskip("aifabric", reason="the aifabric Python module is not built")

ANALYSIS = pathlib.Path(__file__).resolve().parents[2] / "analysis"
HAVE_GNUPLOT = shutil.which("gnuplot") is not None
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def summaries(root):
    out = []
    for d in sorted(pathlib.Path(root).iterdir()):
        if (d / "summary.json").is_file():
            out.append(json.loads((d / "summary.json").read_text()))
    return out


@pytest.mark.skipif(not HAVE_GNUPLOT, reason="gnuplot (Debian: gnuplot-nox) not installed")
def test_plot_sweep_on_a_real_sweep(tmp_path):
    base = aifabric.Scenario(topology="leafspine", leaves=2, spines=2, hosts_per_switch=4,
                             workload="incast", fanin=4, bytes="500KB",
                             background="websearch", load=0.5, background_duration="2ms",
                             out=str(tmp_path / "sw"))
    table = aifabric.sweep(base, {"cc": ["none", "dcqcn"]}, workers=2, seeds=[1, 2],
                           progress=False)
    assert not table.failed, table.failed
    r = subprocess.run([sys.executable, str(ANALYSIS / "plot-sweep"), str(tmp_path / "sw")],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert "varying: cc (and seed" in r.stdout
    rows = read_csv(tmp_path / "sw" / "sweep.csv")
    assert [(x["cc"], x["runs"], x["seeds"]) for x in rows] == [("none", "2", "1 2"),
                                                                 ("dcqcn", "2", "1 2")]
    by_cc = {}
    for s in summaries(tmp_path / "sw"):
        by_cc.setdefault(s["config"]["cc"], []).append(s)
    agg = {row["cc"]: row for row in table.aggregate()}
    for row in rows:
        runs = by_cc[row["cc"]]
        for figure, get in (
                ("slowdown_p99", lambda s: s["fct"]["slowdown"]["p99"]),
                ("background_slowdown_p99",
                 lambda s: s["fct_by_kind"]["background"]["slowdown"]["p99"]),
                ("ecn_marks", lambda s: s["ecn_marks"])):
            values = [float(get(s)) for s in runs]
            mean = sum(values) / 2
            std = math.sqrt(sum((v - mean) ** 2 for v in values))  # n - 1 = 1
            assert float(row[figure + "_mean"]) == pytest.approx(mean, rel=1e-9)
            assert float(row[figure + "_std"]) == pytest.approx(std, rel=1e-9, abs=1e-12)
            assert float(row[figure + "_ci95"]) == pytest.approx(12.706 * std / math.sqrt(2),
                                                                 rel=1e-9, abs=1e-12)
            # the bindings' aggregate agrees
            assert agg[row["cc"]][figure + "_mean"] == pytest.approx(mean, rel=1e-9)
            assert agg[row["cc"]][figure + "_ci95"] == pytest.approx(
                float(row[figure + "_ci95"]), rel=1e-9, abs=1e-12)
    # the knob matters here: DCQCN cuts the background's p99 slowdown
    assert float(rows[1]["background_slowdown_p99_mean"]) < \
        float(rows[0]["background_slowdown_p99_mean"])
    # the seeds differ: a CI that is not zero
    assert float(rows[0]["background_slowdown_p99_ci95"]) > 0
    for name in ("slowdown_p99", "background_slowdown_p99", "incast_slowdown_p99"):
        png = tmp_path / "sw" / ("sweep-%s.png" % name)
        assert png.stat().st_size > 5000, png
        assert png.read_bytes()[:8] == PNG_MAGIC
        script = png.with_suffix(".gp").read_text()
        assert "with yerrorbars" in script and "95% confidence interval" in script
    # no collective: no busbw figure
    assert not (tmp_path / "sw" / "sweep-busbw_gbps.png").exists()


def test_nccl_table_on_a_bytes_sweep(tmp_path):
    base = aifabric.Scenario(topology="leafspine", leaves=2, spines=1, hosts_per_switch=4,
                             workload="allreduce", out=str(tmp_path / "nc"))
    sizes = [64 * 1024, 1 << 20]
    table = aifabric.sweep(base, {"bytes": sizes}, workers=2, progress=False)
    assert not table.failed, table.failed
    r = subprocess.run([sys.executable, str(ANALYSIS / "nccl-table"), str(tmp_path / "nc")],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    rows = read_csv(tmp_path / "nc" / "nccl-table.csv")
    assert [int(x["size_bytes"]) for x in rows] == sizes
    jobs = {s["config"]["bytes"]: s["collectives"][0] for s in summaries(tmp_path / "nc")}
    assert "# allreduce, ring, 8 ranks" in r.stdout
    for row in rows:
        job = jobs[int(row["size_bytes"])]
        assert (row["operation"], int(row["ranks"]), row["type"], row["redop"]) == \
            ("allreduce", 8, "float", "sum")
        assert int(row["count"]) == int(row["size_bytes"]) // 4
        assert float(row["time_us"]) == pytest.approx(job["durations_ns"][0] / 1e3, rel=1e-9)
        # nccl-tests' GB/s = the simulator's Gbit/s / 8 (one iteration: the same mean)
        assert float(row["busbw_GBps"]) == pytest.approx(job["busbw_gbps"] / 8, rel=1e-6)
        assert float(row["algbw_GBps"]) == pytest.approx(job["algbw_gbps"] / 8, rel=1e-6)
        line = "%12d  %12d  %8s  %6s  %9.2f  %7.2f  %7.2f" % (
            int(row["size_bytes"]), int(row["count"]), "float", "sum",
            job["durations_ns"][0] / 1e3, job["algbw_gbps"] / 8, job["busbw_gbps"] / 8)
        assert line in r.stdout
    # a larger allreduce gets closer to the link: busbw grows with the size
    assert float(rows[1]["busbw_GBps"]) > float(rows[0]["busbw_GBps"])
