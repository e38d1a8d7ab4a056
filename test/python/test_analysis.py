# SPDX-License-Identifier: GPL-2.0-only
"""Tests of analysis/aifabric_analysis and analysis/plot-tails.

Run: python3 -m pytest test/python/test_analysis.py
"""

import csv
import io
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

ANALYSIS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis")
sys.path.insert(0, ANALYSIS)

from aifabric_analysis import AnalysisError  # noqa: E402
from aifabric_analysis import cli, stats, sweepplot, tails  # noqa: E402

PLOT_TAILS = os.path.join(ANALYSIS, "plot-tails")
HAVE_GNUPLOT = shutil.which("gnuplot") is not None
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# --- percentile definition -------------------------------------------------------------

@pytest.mark.parametrize("use_numpy", [False, True])
def test_percentile_hand_computed(use_numpy):
    if use_numpy and not stats.HAVE_NUMPY:
        pytest.skip("numpy not installed for this interpreter")
    p = lambda v, q: stats.percentile(v, q, use_numpy=use_numpy)  # noqa: E731
    data = [4, 1, 3, 2]  # unsorted on purpose
    assert p(data, 50) == pytest.approx(2.5)   # h = 1.5
    assert p(data, 25) == pytest.approx(1.75)  # h = 0.75
    assert p(data, 90) == pytest.approx(3.7)   # h = 2.7
    # edges: p0 = min, p100 = max, one value = every percentile
    assert p(data, 0) == 1
    assert p(data, 100) == 4
    assert p([7], 0) == p([7], 99.9) == p([7], 100) == 7
    # p99.9 of 1..1000: h = 999 * 0.999 = 998.001 -> 999 + 0.001
    assert p(list(range(1, 1001)), 99.9) == pytest.approx(999.001)
    with pytest.raises(ValueError):
        p([], 50)
    with pytest.raises(ValueError):
        p([1, 2], 100.5)


def test_fallback_matches_numpy():
    if not stats.HAVE_NUMPY:
        pytest.skip("numpy not installed for this interpreter")
    rng = random.Random(5)
    for n in (1, 2, 3, 10, 101, 997):
        xs = [rng.expovariate(1.0) for _ in range(n)]
        for q in (0, 1, 50, 90, 99, 99.9, 100):
            assert stats.percentile_py(xs, q) == pytest.approx(
                stats.percentile(xs, q, use_numpy=True), rel=1e-12, abs=1e-15)


def test_size_buckets():
    assert tails.size_bucket(0) == "<10KB"
    assert tails.size_bucket(9999) == "<10KB"
    assert tails.size_bucket(10000) == "10KB-100KB"
    assert tails.size_bucket(999999) == "100KB-1MB"
    assert tails.size_bucket(1000000) == "1MB-10MB"
    assert tails.size_bucket(10 ** 7) == ">=10MB"


# --- a synthetic out/ directory ---------------------------------------------------------

def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def make_out(d, scale=1.0):
    """fct/collective/qlen/pfc.csv with hand-checkable numbers (slowdowns times scale)."""
    os.makedirs(d, exist_ok=True)
    fct = []
    small = [1, 2, 3, 4, 5]
    for i, s in enumerate(small):
        fct.append([i, 0, 1, 1000, 0, 1000 * s, 1000, s * scale, "background"])
    for i, s in enumerate([10, 20]):
        fct.append([10 + i, 1, 2, 500000, 0, 40000 * s, 40000, s * scale, "background"])
    _write(os.path.join(d, "fct.csv"), ["flow_id", "src", "dst", "size_bytes", "start_ns",
                                        "fct_ns", "ideal_fct_ns", "slowdown", "kind"], fct)
    _write(os.path.join(d, "collective.csv"),
           ["op_id", "algorithm", "ranks", "bytes", "start_ns", "end_ns", "duration_ns",
            "algbw_gbps", "busbw_gbps"],
           [[k, "ring", 8, 1 << 20, 0, t, t, 1, 1.75] for k, t in
            enumerate([100 * scale, 200 * scale, 300 * scale])])
    qlen = [[t * 1000, 5, 1, 3, min(t, 5) * 10000] for t in range(10)]
    qlen += [[t * 1000, 6, 2, 0, 100000] for t in range(10)]
    _write(os.path.join(d, "qlen.csv"), ["time_ns", "node", "port", "queue", "bytes"], qlen)
    _write(os.path.join(d, "pfc.csv"), ["time_ns", "node", "port", "priority", "event"],
           [[1000, 5, 1, 3, "pause"], [3000, 5, 1, 3, "resume"], [5000, 5, 1, 3, "pause"],
            [7000, 5, 1, 3, "resume"], [2000, 6, 2, 3, "pause"]])
    return d


def _tails(path):
    with open(path, newline="") as f:
        return {(r["run"], r["metric"], r["bucket"]): r for r in csv.DictReader(f)}


def _check_png(path):
    assert os.path.getsize(path) > 1000, path
    with open(path, "rb") as f:
        assert f.read(8) == PNG_MAGIC, path


def test_tails_table_numbers(tmp_path):
    d = make_out(str(tmp_path / "run1"))
    cli.run([d, "--no-plots"], out=open(os.devnull, "w"))
    t = _tails(os.path.join(d, "tails.csv"))
    small = t[("run1", "fct_slowdown", "<10KB")]
    assert int(small["count"]) == 5
    assert float(small["p50"]) == pytest.approx(3)
    assert float(small["p90"]) == pytest.approx(4.6)    # h = 3.6
    assert float(small["p99"]) == pytest.approx(4.96)
    assert float(small["p99_9"]) == pytest.approx(4.996)
    assert float(small["max"]) == 5
    mid = t[("run1", "fct_slowdown", "100KB-1MB")]
    assert (int(mid["count"]), float(mid["p50"]), float(mid["p99"])) == (2, 15, pytest.approx(19.9))
    assert ("run1", "fct_slowdown", "10KB-100KB") not in t  # empty buckets left out
    alls = t[("run1", "fct_slowdown", "all")]
    assert float(alls["p50"]) == pytest.approx(4)        # 1,2,3,4,5,10,20: h = 3
    assert float(alls["p90"]) == pytest.approx(14)       # h = 5.4
    ring = t[("run1", "collective_duration_ns", "ring")]
    assert (int(ring["count"]), float(ring["p50"]), float(ring["p90"]), float(ring["max"])) == \
        (3, 200, pytest.approx(280), 300)


def test_tails_table_per_traffic_class(tmp_path):
    """Two classes in fct.csv: each gets its own rows; the all-flows rows stay."""
    d = str(tmp_path / "mixed")
    os.makedirs(d)
    rows = [[i, 0, 1, 1000, 0, 1000, 1000, s, "background"] for i, s in enumerate([1, 2, 3, 40])]
    rows += [[10 + i, 1, 2, 500000, 0, 1, 1, s, "collective"] for i, s in enumerate([1, 1, 2])]
    _write(os.path.join(d, "fct.csv"), ["flow_id", "src", "dst", "size_bytes", "start_ns",
                                        "fct_ns", "ideal_fct_ns", "slowdown", "kind"], rows)
    cli.run([d, "--no-plots"], out=open(os.devnull, "w"))
    t = _tails(os.path.join(d, "tails.csv"))
    bg = t[("mixed", "fct_slowdown_background", "all")]
    assert (int(bg["count"]), float(bg["max"])) == (4, 40)
    assert float(bg["p50"]) == pytest.approx(2.5)
    coll = t[("mixed", "fct_slowdown_collective", "all")]
    assert (int(coll["count"]), float(coll["max"])) == (3, 2)
    assert ("mixed", "fct_slowdown_collective", "100KB-1MB") in t
    assert ("mixed", "fct_slowdown_collective", "<10KB") not in t
    assert int(t[("mixed", "fct_slowdown", "all")]["count"]) == 7
    # one class only: no per-class rows
    one = make_out(str(tmp_path / "one"))
    cli.run([one, "--no-plots"], out=open(os.devnull, "w"))
    assert not any(m.startswith("fct_slowdown_") for _, m, _ in _tails(os.path.join(one, "tails.csv")))


@pytest.mark.skipif(not HAVE_GNUPLOT, reason="gnuplot (Debian: gnuplot-nox) not installed")
def test_single_run_plots(tmp_path):
    d = make_out(str(tmp_path / "run1"))
    r = subprocess.run([sys.executable, PLOT_TAILS, d], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "fct_slowdown" in r.stdout
    for name in ("slowdown-vs-size", "slowdown-cdf", "slowdown-ccdf", "collective-cdf",
                 "qlen-5-1", "pfc-5-1"):  # 5:1 has the most pause events
        _check_png(os.path.join(d, "tails-%s.png" % name))
        assert os.path.exists(os.path.join(d, "tails-%s.gp" % name))
    assert os.path.exists(os.path.join(d, "tails.csv"))
    with open(os.path.join(d, "tails-pfc-5-1.gp")) as f:
        assert "at node 5 port 1 (high" in f.read()  # no topology.csv: ids only
    # with topology.csv the timelines name the cable
    _write(os.path.join(d, "topology.csv"),
           ["node", "port", "name", "peer", "peer_port", "peer_name", "link"],
           [[5, 1, "pod0-edge1", 7, 0, "pod0-agg0", 9], [7, 0, "pod0-agg0", 5, 1, "pod0-edge1", 9]])
    r = subprocess.run([sys.executable, PLOT_TAILS, d], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for name in ("pfc-5-1", "qlen-5-1"):
        with open(os.path.join(d, "tails-%s.gp" % name)) as f:
            assert "at pod0-edge1->pod0-agg0 (node 5 port 1)" in f.read(), name
    # explicit port and svg
    r = subprocess.run([sys.executable, PLOT_TAILS, d, "--port", "6:2", "--format", "svg"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(d, "tails-qlen-6-2.svg")) as f:
        assert "<svg" in f.read()


@pytest.mark.skipif(not HAVE_GNUPLOT, reason="gnuplot (Debian: gnuplot-nox) not installed")
def test_comparison_two_runs(tmp_path):
    a = make_out(str(tmp_path / "base"))
    b = make_out(str(tmp_path / "dcqcn"), scale=2.0)
    into = str(tmp_path / "cmp")
    r = subprocess.run([sys.executable, PLOT_TAILS, a, b, "--into", into],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    t = _tails(os.path.join(into, "tails.csv"))
    assert float(t[("base", "fct_slowdown", "all")]["max"]) == 20
    assert float(t[("dcqcn", "fct_slowdown", "all")]["max"]) == 40
    for name in ("compare-slowdown-vs-size", "compare-slowdown-cdf", "compare-slowdown-ccdf",
                 "compare-collective-cdf"):
        path = os.path.join(into, "tails-%s.png" % name)
        _check_png(path)
        with open(os.path.splitext(path)[0] + ".gp") as f:
            script = f.read()
        assert "'base" in script and "'dcqcn" in script  # one line per run, labelled
    assert not os.path.exists(os.path.join(a, "tails.csv"))  # inputs untouched
    # several runs without --into is refused with a clear message
    r = subprocess.run([sys.executable, PLOT_TAILS, a, b], capture_output=True, text=True)
    assert r.returncode == 2 and "--into" in r.stderr


def test_empty_directory_is_a_clear_error(tmp_path):
    d = tmp_path / "empty"
    d.mkdir()
    r = subprocess.run([sys.executable, PLOT_TAILS, str(d)], capture_output=True, text=True)
    assert r.returncode == 2
    assert "nothing to analyse" in r.stderr and str(d) in r.stderr
    # header-only files are empty too
    _write(str(d / "fct.csv"), ["flow_id", "src", "dst", "size_bytes", "start_ns", "fct_ns",
                                "ideal_fct_ns", "slowdown", "kind"], [])
    with pytest.raises(AnalysisError, match="nothing to analyse"):
        cli.run([str(d)], out=open(os.devnull, "w"))


def test_bad_inputs(tmp_path):
    d = make_out(str(tmp_path / "r"))
    with pytest.raises(AnalysisError, match="NODE:PORT"):
        cli.run([d, "--port", "5-1", "--no-plots"], out=open(os.devnull, "w"))
    _write(os.path.join(d, "collective.csv"), ["op_id", "duration_ns"], [[0, 5]])
    with pytest.raises(AnalysisError, match="lacks column.*algorithm"):
        cli.run([d, "--no-plots"], out=open(os.devnull, "w"))
    _write(os.path.join(d, "collective.csv"), ["algorithm", "duration_ns"], [["ring", "x"]])
    with pytest.raises(AnalysisError, match="line 2: column duration_ns"):
        cli.run([d, "--no-plots"], out=open(os.devnull, "w"))


def test_missing_gnuplot_names_the_package(tmp_path, monkeypatch):
    d = make_out(str(tmp_path / "r"))
    monkeypatch.setenv("AIFABRIC_GNUPLOT", "gnuplot-that-does-not-exist")
    with pytest.raises(AnalysisError, match="gnuplot-nox"):
        cli.run([d], out=open(os.devnull, "w"))


# --- the research plots: bucket counts, thin buckets, CCDF, step CDF ------------------

def _gp(d, name):
    with open(os.path.join(d, "tails-%s.gp" % name)) as f:
        return f.read()


def _datablock(script, name):
    """Rows of datablock $name in a generated script, as lists of words."""
    lines = script.splitlines()
    start = lines.index("$%s << EOD" % name)
    end = lines.index("EOD", start)
    return [ln.split() for ln in lines[start + 1:end]]


def test_ccdf_points_and_mean_ci95():
    assert stats.ccdf_points([3, 1, 4, 2]) == [(1, 1.0), (2, 0.75), (3, 0.5), (4, 0.25)]
    mean, std, ci = stats.mean_ci95([1.0, 2.0, 3.0])
    assert (mean, std) == (2.0, 1.0)
    assert ci == pytest.approx(4.303 / 3 ** 0.5)           # t(0.975; 2) = 4.303
    assert stats.mean_ci95([5.0]) == (5.0, None, None)
    assert stats.t95(1) == 12.706 and stats.t95(30) == 2.042 and stats.t95(31) == 1.96


@pytest.mark.skipif(not HAVE_GNUPLOT, reason="gnuplot (Debian: gnuplot-nox) not installed")
def test_size_buckets_show_counts_and_thin_p99(tmp_path):
    """120 flows under 10KB (p99 solid) and 7 at 500KB (p99 hollow: fewer than 100)."""
    d = str(tmp_path / "thin")
    os.makedirs(d)
    rows = [[i, 0, 1, 1000, 0, 1, 1, 1 + i / 100.0, "background"] for i in range(120)]
    rows += [[200 + i, 1, 2, 500000, 0, 1, 1, s, "incast"] for i, s in enumerate(range(1, 8))]
    _write(os.path.join(d, "fct.csv"), ["flow_id", "src", "dst", "size_bytes", "start_ns",
                                        "fct_ns", "ideal_fct_ns", "slowdown", "kind"], rows)
    cli.run([d], out=open(os.devnull, "w"))
    script = _gp(d, "slowdown-vs-size")
    # position, bucket, p50, p99, flows, thin
    block = {r[1]: r for r in _datablock(script, "d0")}
    assert block["<10KB"][4:] == ["120", "0"]
    assert block["100KB-1MB"][4:] == ["7", "1"]
    assert float(block["100KB-1MB"][3]) == pytest.approx(6.94)   # 6 + 0.94 * (7 - 6)
    assert '"<10KB\\nn=120" 0' in script and '"100KB-1MB\\nn=7" 2' in script
    assert "($6 == 1 ? $4 : NaN) with points pt 4" in script    # hollow square
    assert "($6 == 0 ? $4 : NaN) with points pt 5" in script    # filled square
    assert "fewer than 100 flows" in script
    _check_png(os.path.join(d, "tails-slowdown-vs-size.png"))
    # CCDF: one line per class, log-log, down to 1/n
    ccdf = _gp(d, "slowdown-ccdf")
    assert "set logscale xy" in ccdf and "'background (120)'" in ccdf and "'incast (7)'" in ccdf
    incast = [[float(x) for x in r] for r in _datablock(ccdf, "d1")]
    assert incast[0] == [1.0, 1.0] and incast[-1] == [7.0, pytest.approx(1 / 7.0)]
    _check_png(os.path.join(d, "tails-slowdown-ccdf.png"))
    # no bucket under 100 flows: no hollow-point note
    d2 = str(tmp_path / "thick")
    os.makedirs(d2)
    _write(os.path.join(d2, "fct.csv"), ["flow_id", "src", "dst", "size_bytes", "start_ns",
                                         "fct_ns", "ideal_fct_ns", "slowdown", "kind"], rows[:120])
    cli.run([d2], out=open(os.devnull, "w"))
    assert "fewer than 100 flows" not in _gp(d2, "slowdown-vs-size")


@pytest.mark.skipif(not HAVE_GNUPLOT, reason="gnuplot (Debian: gnuplot-nox) not installed")
def test_collective_cdf_is_a_step_function(tmp_path):
    d = make_out(str(tmp_path / "run1"))
    cli.run([d], out=open(os.devnull, "w"))
    script = _gp(d, "collective-cdf")
    assert "with steps" in script
    # durations 100, 200, 300 ns -> 0.1, 0.2, 0.3 us; starts at 0 at the smallest
    pts = [[float(x) for x in r] for r in _datablock(script, "d0")]
    assert pts == [[0.1, 0.0], [0.1, pytest.approx(1 / 3.0)], [0.2, pytest.approx(2 / 3.0)],
                   [0.3, 1.0]]


# --- plot-sweep and nccl-table on hand-made sweeps ----------------------------------------

PLOT_SWEEP = os.path.join(ANALYSIS, "plot-sweep")
NCCL_TABLE = os.path.join(ANALYSIS, "nccl-table")


def _point(root, name, config, p99, kinds=None, collectives=None):
    d = os.path.join(str(root), name)
    os.makedirs(d)
    summary = {"complete": True, "config": dict(config, out=d),
               "fct": {"count": 10, "slowdown": {"p50": 1.0, "p99": p99}},
               "fct_by_kind": kinds or {}, "collectives": collectives or [],
               "pfc_pause_frames": 0, "sim_time_s": 0.001}
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary, f)
    return d


def _sweep_csv(d):
    with open(os.path.join(str(d), "sweep.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_plot_sweep_axes_and_aggregation(tmp_path):
    """Axes in the order of the point names (kmin before cc, though config order is
    alphabetical); cc-preset follows cc and is no axis; seeds aggregated with Student's t."""
    root = tmp_path / "sw"
    p99 = {("5KB", "none", 1): 10.0, ("5KB", "none", 2): 14.0,
           ("5KB", "dcqcn", 1): 4.0, ("5KB", "dcqcn", 2): 5.0,
           ("50KB", "none", 1): 9.0, ("50KB", "none", 2): 11.0,
           ("50KB", "dcqcn", 1): 6.0, ("50KB", "dcqcn", 2): 6.0}
    for i, ((kmin, cc, seed), v) in enumerate(p99.items()):
        _point(root, "%04d-kmin=%s-cc=%s-seed=%d" % (i, kmin, cc, seed),
               {"cc": cc, "cc-preset": "default" if cc == "none" else "hpcc-run",
                "kmin": {"5KB": 5000, "50KB": 50000}[kmin], "seed": seed, "topology": "x"}, v)
    buf = io.StringIO()
    sweepplot.run([str(root), "--no-plots"], out=buf)
    text = buf.getvalue()
    assert "varying: kmin, cc (and seed" in text and "cc-preset" in text  # noted as derived
    rows = _sweep_csv(root)
    assert [(r["kmin"], r["cc"], r["runs"], r["seeds"]) for r in rows] == [
        ("5000", "none", "2", "1 2"), ("5000", "dcqcn", "2", "1 2"),
        ("50000", "none", "2", "1 2"), ("50000", "dcqcn", "2", "1 2")]
    assert "cc-preset" not in rows[0]
    first = rows[0]
    assert float(first["slowdown_p99_mean"]) == 12.0
    assert float(first["slowdown_p99_std"]) == pytest.approx(2 ** 0.5 * 2)   # 10, 14
    assert float(first["slowdown_p99_ci95"]) == pytest.approx(12.706 * 2.0)  # t * s / sqrt(2)
    assert float(rows[3]["slowdown_p99_ci95"]) == 0.0


def test_plot_sweep_errors(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = subprocess.run([sys.executable, PLOT_SWEEP, str(empty)], capture_output=True, text=True)
    assert r.returncode == 2 and "no runs" in r.stderr and str(empty) in r.stderr
    same = tmp_path / "same"
    for i in range(2):
        _point(same, "%04d" % i, {"cc": "none", "seed": 1}, 3.0)
    r = subprocess.run([sys.executable, PLOT_SWEEP, str(same)], capture_output=True, text=True)
    assert r.returncode == 2 and "nothing varies" in r.stderr and "same config" in r.stderr
    seeds = tmp_path / "seeds"
    for i in range(2):
        _point(seeds, "%04d-seed=%d" % (i, i + 1), {"cc": "none", "seed": i + 1}, 3.0)
    r = subprocess.run([sys.executable, PLOT_SWEEP, str(seeds)], capture_output=True, text=True)
    assert r.returncode == 2 and "only the seed varies" in r.stderr
    r = subprocess.run([sys.executable, PLOT_SWEEP, str(tmp_path / "missing")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "not a directory" in r.stderr
    two = tmp_path / "two"
    _point(two, "0000-cc=none", {"cc": "none"}, 3.0)
    _point(two, "0001-cc=dcqcn", {"cc": "dcqcn"}, 2.0)
    r = subprocess.run([sys.executable, PLOT_SWEEP, str(two), "--x", "lb", "--no-plots"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--x lb" in r.stderr and "allowed: cc" in r.stderr
    # nccl-table without collectives
    r = subprocess.run([sys.executable, NCCL_TABLE, str(two)], capture_output=True, text=True)
    assert r.returncode == 2 and "no finished collective" in r.stderr


def test_nccl_table_hand_made(tmp_path):
    """S = 1 MB over 4 ranks in 100 us and 300 us (mean 200 us): algbw 5 GB/s; busbw
    allreduce x 2*3/4 = 7.5, allgather x 3/4 = 3.75."""
    root = tmp_path / "nc"
    for i, op in enumerate(("allreduce", "allgather")):
        job = {"operation": op, "algorithm": "ring", "ranks": 4, "bytes": 1000000,
               "durations_ns": [100000, 300000], "finished_iterations": 2}
        _point(root, "%04d-workload=%s" % (i, op), {"workload": op, "bytes": 1000000}, 1.0,
               collectives=[job])
    r = subprocess.run([sys.executable, NCCL_TABLE, str(root)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "# allreduce, ring, 4 ranks; workload=allreduce" in r.stdout
    assert "     1000000        250000     float     sum     200.00     5.00     7.50" in r.stdout
    assert "     1000000        250000     float    none     200.00     5.00     3.75" in r.stdout
    with open(os.path.join(str(root), "nccl-table.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["operation"], float(r["busbw_GBps"]), r["iterations"]) for r in rows] == [
        ("allgather", 3.75, "2"), ("allreduce", 7.5, "2")]
