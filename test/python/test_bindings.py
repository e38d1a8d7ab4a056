# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the Python package aifabric (bindings/).

Skipped when the module is not built (no pybind11 / python3-dev). Checks: every
CLI knob is a Scenario attribute; bad values raise ValueError with exactly the
CLI's message; a run from Python and from ai-fabric-sim write identical files;
two runs in one process do not leak settings; Result's records agree with
summary.json; sweeps (2 workers; a Dask LocalCluster when python3-distributed is
installed) keep going past failed points.
"""

import json
import os
import pathlib
import pickle
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

# Incast 3 -> 1 across a 2-leaf fabric with a small buffer: PFC pauses, queue
# samples and FCTs all appear, in well under a second.
SMALL = {
    "topology": "leafspine", "leaves": 2, "spines": 1, "hosts_per_switch": 2,
    "workload": "incast", "fanin": 3, "bytes": "200KB", "buffer": "300KB",
    "qlen_interval": "2us",
}
CSVS = ["fct.csv", "collective.csv", "pfc.csv", "qlen.csv", "drops.csv"]
# summary.json entries that legitimately differ between two runs of one scenario
VOLATILE = {"wall_s", "events_per_s", "packet_hops_per_s", "peak_rss_bytes"}


def cli_flags(params):
    return [f"--{k.replace('_', '-')}={v}" for k, v in params.items()]


def comparable_summary(path):
    s = json.loads(pathlib.Path(path).read_text())
    for k in VOLATILE:
        s.pop(k, None)
    s["config"].pop("out", None)
    s.get("output", {}).pop("dir", None)
    return s


def assert_same_outputs(a, b):
    for name in CSVS:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert comparable_summary(a / "summary.json") == comparable_summary(b / "summary.json")


# --- Scenario --------------------------------------------------------------------------
def test_every_cli_flag_is_a_scenario_attribute(ai_fabric_sim):
    help_text = subprocess.run([str(ai_fabric_sim), "--help"], capture_output=True, text=True,
                               check=True).stdout
    knobs = aifabric.Scenario.knobs()
    assert len(knobs) >= 40
    s = aifabric.Scenario()
    for k in knobs:
        assert k["flag"] == "--" + k["name"].replace("_", "-")
        assert k["flag"] in help_text, k["flag"]
        assert hasattr(s, k["name"])
    # Defaults are the CLI's (ScenarioConfig), typed as in summary.json.
    assert s.fabric == "rocev2" and s.topology == "leafspine"
    assert s.bytes == 1000000 and s.mtu == 1000 and s.pfc == 1
    assert s.kmin == ""  # unset optional knob


def test_setting_knobs_parses_like_the_cli():
    s = aifabric.Scenario(bytes="1MiB", host_rate="400Gbps", pfc=False)
    assert s.bytes == 1048576
    assert s.pfc == 0
    assert s.get("host-rate") == s.get("host_rate")
    s.bytes = 1e6  # an integral float is an integer
    assert s.bytes == 1000000
    s.load = 0.25
    assert s.load == pytest.approx(0.25)
    np = pytest.importorskip("numpy")
    s.fanin = np.int64(5)
    assert s.fanin == 5


@pytest.mark.parametrize(
    "flag,value",
    [
        ("topology", "fatree"),
        ("pfc", "2"),
        ("bytes", "12XB"),
        ("host_rate", "fast"),
        ("load", "1.5"),
        ("topolgy", "fattree"),  # unknown flag: the CLI's suggestion
    ],
)
def test_bad_value_raises_valueerror_with_cli_message(ai_fabric_sim, tmp_path, flag, value):
    with pytest.raises(ValueError) as err:
        aifabric.Scenario(**{flag: value})
    assert isinstance(err.value, aifabric.ConfigError)
    r = subprocess.run([str(ai_fabric_sim), f"--{flag.replace('_', '-')}={value}",
                        f"--out={tmp_path}"], capture_output=True, text=True, check=False)
    assert r.returncode == 2
    assert r.stderr == f"ai-fabric-sim: error: {err.value}\n"
    # Attribute assignment checks the same way and leaves the old value.
    if flag != "topolgy":
        s = aifabric.Scenario()
        before = getattr(s, flag)
        with pytest.raises(ValueError, match="^--"):
            setattr(s, flag, value)
        assert getattr(s, flag) == before


@pytest.mark.parametrize(
    "params",
    [
        {"kmin": "400KB", "kmax": "100KB"},  # cross-knob check (Validate)
        {"fanin": 99},  # only the runner knows the host count
    ],
)
def test_run_errors_match_cli(ai_fabric_sim, tmp_path, params):
    base = dict(SMALL, **params)
    with pytest.raises(ValueError) as err:
        aifabric.run(aifabric.Scenario(**base), out=str(tmp_path / "py"))
    r = subprocess.run([str(ai_fabric_sim), *cli_flags(base), f"--out={tmp_path / 'cli'}"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2
    assert r.stderr == f"ai-fabric-sim: error: {err.value}\n"


def test_dict_json_and_pickle_round_trip(tmp_path):
    s = aifabric.Scenario(topology="fattree", k=4, kmin="20KB", kmax="200KB", cc="dcqcn")
    d = s.to_dict()
    assert aifabric.Scenario.from_dict(d) == s
    assert pickle.loads(pickle.dumps(s)) == s
    s.save_json(tmp_path / "c.json")
    assert aifabric.Scenario.load_json(tmp_path / "c.json") == s
    assert "kmin=20000" in repr(s) and "topology='fattree'" in repr(s)
    assert aifabric.Scenario() != s


# --- run and Result -------------------------------------------------------------------
def test_python_and_cli_write_identical_files(ai_fabric_sim, tmp_path):
    r = aifabric.run(aifabric.Scenario(**SMALL), out=str(tmp_path / "py"))
    cli = subprocess.run([str(ai_fabric_sim), *cli_flags(SMALL), f"--out={tmp_path / 'cli'}"],
                         capture_output=True, text=True, check=False)
    assert cli.returncode == 0, cli.stderr
    assert_same_outputs(tmp_path / "py", tmp_path / "cli")
    # The scenario must exercise every record kind it claims to compare.
    assert r.complete and len(r.fct) == 3
    assert len(r.pfc) > 0 and len(r.qlen) > 0


def test_runs_in_one_process_do_not_leak_settings(ai_fabric_sim, tmp_path):
    # Explicit ECN thresholds switch the marker's rate scaling off through
    # Config::SetDefault; the next run must not inherit that.
    aifabric.run(dict(SMALL, kmin="1KB", kmax="2KB", pmax=1), out=str(tmp_path / "a"))
    aifabric.run(SMALL, out=str(tmp_path / "b"))
    cli = subprocess.run([str(ai_fabric_sim), *cli_flags(SMALL), f"--out={tmp_path / 'cli'}"],
                         capture_output=True, text=True, check=False)
    assert cli.returncode == 0, cli.stderr
    assert_same_outputs(tmp_path / "b", tmp_path / "cli")


def test_result_records_agree_with_summary(tmp_path):
    r = aifabric.run(SMALL, out=str(tmp_path / "r"))
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert r.summary == s
    assert r.sim_time_s == s["sim_time_s"] and r.pfc_pause_frames == s["pfc_pause_frames"]
    # The summary names what ran: --ecn, --cc-preset, --ack-interval, --channels,
    # --chunk and --protocol-latency '' are echoed as resolved (DCQCN: an ACK per 10
    # packets; NCCL's 2 channels on one-NIC hosts; Simple's 512 KiB step, no step latency).
    assert r.scenario == aifabric.Scenario(**SMALL, ecn=1, cc_preset="default",
                                           ack_interval=10, channels=2, chunk=524288,
                                           protocol_latency=0, out=str(tmp_path / "r"))
    fct = r.fct
    assert [f.kind for f in fct] == ["incast"] * 3
    assert {f.src for f in fct} == {3, 2, 1} and {f.dst for f in fct} == {0}
    for f in fct:
        assert f.size_bytes == 200000
        assert f.slowdown == pytest.approx(f.fct_ns / f.ideal_fct_ns, rel=1e-3)
    # 3 senders share the receiver's link: the last one finishes no earlier than
    # 3x one flow's serialization alone.
    assert max(f.fct_ns for f in fct) >= 2.9 * min(f.ideal_fct_ns for f in fct)
    assert max(f.slowdown for f in fct) == pytest.approx(s["fct"]["slowdown"]["max"], rel=1e-3)
    # Every PFC frame sent is a row, pauses and resumes counted apart (the summary's
    # pfc_pause_frames is both), and each resume follows a pause of the same port.
    assert len(r.pfc) == s["pfc_pause_frames"] == r.pfc_pauses + r.pfc_resumes
    events = [p.event for p in r.pfc]
    assert (events.count("pause"), events.count("resume")) == (r.pfc_pauses, r.pfc_resumes)
    assert 0 < r.pfc_resumes <= r.pfc_pauses
    np = pytest.importorskip("numpy")
    a = r.array("fct")
    assert a.dtype.names == fct[0]._fields
    assert a["fct_ns"].dtype == np.int64 and a["slowdown"].dtype == np.float64
    assert np.array_equal(a["fct_ns"], [f.fct_ns for f in fct])
    assert len(r.array("drops")) == 0


def test_figures_per_traffic_class_and_collective_durations(tmp_path):
    """figures() (a sweep row) carries each class's own tails and the collective's
    iteration times (summary.json's durations_ns)."""
    r = aifabric.run({"topology": "fattree", "k": 4, "workload": "allreduce",
                      "bytes": "1MB", "iterations": 2, "background": "websearch",
                      "load": 0.3, "background_duration": "0.3ms", "qlen_interval": "0"},
                     out=str(tmp_path / "c"))
    f = r.figures()
    durations = r.summary["collectives"][0]["durations_ns"]
    assert len(durations) == 2
    assert f["collective_ns_mean"] == pytest.approx(sum(durations) / 2)
    assert f["collective_ns_max"] == max(durations)
    kinds = r.summary["fct_by_kind"]
    assert set(r.slowdown_by_kind) == {"background", "collective"} == set(kinds)
    for kind in kinds:
        assert f[f"{kind}_flows"] == kinds[kind]["count"] > 0
        assert f[f"{kind}_slowdown_p99"] == r.slowdown_by_kind[kind]["p99"]
    assert f["background_flows"] + f["collective_flows"] == f["flows"]
    assert sum(1 for x in r.fct if x.kind == "background") == f["background_flows"]


# --- sweeps -------------------------------------------------------------------------------
def test_sweep_four_points_two_workers(tmp_path, capfd):
    grid = {"fanin": [1, 3], "pfc": [0, 1]}
    t = aifabric.sweep(SMALL, grid, workers=2, out=tmp_path / "sw")
    assert len(t) == 4 and not t.failed
    assert [(row["fanin"], row["pfc"]) for row in t] == [(1, 0), (1, 1), (3, 0), (3, 1)]
    for row in t:
        assert row["status"] == "ok"
        assert row["flows"] == row["fanin"]
        assert pathlib.Path(row["out"]).parent == tmp_path / "sw"
        assert (pathlib.Path(row["out"]) / "summary.json").is_file()
        assert t.result(row["index"]).summary["config"]["fanin"] == row["fanin"]
    # A lone flow meets no contention: slowdown 1 (within one ACK's return).
    assert t[0]["slowdown_max"] == pytest.approx(1.0, abs=0.05)
    # Without PFC nothing is paused; with it the 3->1 incast pauses.
    assert t[2]["pfc_pause_frames"] == 0 and t[3]["pfc_pause_frames"] > 0
    err = capfd.readouterr().err
    assert err.count("aifabric.sweep: [") == 4 and "[4/4]" in err
    assert "fanin" in str(t).splitlines()[0]


def test_sweep_reports_failed_points_and_keeps_the_rest(tmp_path):
    grid = [{"fanin": 2}, {"fanin": 99}, {"topology": "fatree"}, {"fanin": 1}]
    t = aifabric.sweep(SMALL, grid, workers=2, out=tmp_path / "f", progress=False)
    assert [row["status"] for row in t] == ["ok", "error", "error", "ok"]
    assert t[1]["fanin"] == 99 and t[1]["error"].startswith("--fanin: 99 senders")
    assert t[2]["topology"] == "fatree" and t[2]["error"].startswith("--topology: 'fatree'")
    assert [row["flows"] for row in t.ok] == [2, 1]
    with pytest.raises(ValueError, match="'fanni' is not a Scenario knob"):
        aifabric.sweep(SMALL, {"fanni": [1]})


def test_sweep_through_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        t = aifabric.sweep(SMALL, {"fanin": [1, 2, 3]}, executor=client,
                           out=tmp_path / "dask", progress=False)
    assert [row["status"] for row in t] == ["ok"] * 3
    assert [row["flows"] for row in t] == [1, 2, 3]


def test_sweep_over_an_ns3_attribute_and_seeds_through_dask(tmp_path):
    """An ns-3 attribute as a grid axis, 3 seeds per point, on 2 Dask workers: the
    attribute reaches the run (echoed, and it changes the marks), the seed changes
    the background, and aggregate() gives mean, std and 95% CI per point."""
    distributed = pytest.importorskip("distributed")
    base = {"topology": "fattree", "k": 4, "workload": "none", "background": "websearch",
            "load": 0.5, "background_duration": "0.2ms", "cc": "dcqcn", "qlen_interval": "0"}
    grid = {"ns3::EcnMarker::Kmin": ["5000", "100000"], "ns3::EcnMarker::Kmax": ["200000"]}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        t = aifabric.sweep(base, grid, seeds=[1, 2, 3], executor=client,
                           out=tmp_path / "seeds", progress=False)
    assert [row["status"] for row in t] == ["ok"] * 6, [row.get("error") for row in t]
    assert [(row["ns3::EcnMarker::Kmin"], row["seed"]) for row in t] == \
        [(k, x) for k in ("5000", "100000") for x in (1, 2, 3)]
    for row in t:
        config = t.result(row["index"]).summary["config"]
        assert config["ns3::EcnMarker::Kmin"] == row["ns3::EcnMarker::Kmin"]
        assert config["seed"] == row["seed"]
        assert "Kmin=" in pathlib.Path(row["out"]).name
    # the seed draws other background flows
    assert len({row["slowdown_p99"] for row in t[:3]}) > 1
    a = t.aggregate()
    assert len(a) == 2 and [row["runs"] for row in a] == [3, 3]
    assert a.params == ["ns3::EcnMarker::Kmin", "ns3::EcnMarker::Kmax"]
    for point, rows in ((a[0], t[:3]), (a[1], t[3:])):
        values = [row["slowdown_p99"] for row in rows]
        mean = sum(values) / 3
        std = (sum((v - mean) ** 2 for v in values) / 2) ** 0.5
        assert point["slowdown_p99_mean"] == pytest.approx(mean)
        assert point["slowdown_p99_std"] == pytest.approx(std)
        assert point["slowdown_p99_ci95"] == pytest.approx(4.303 * std / 3 ** 0.5)
    # the switches ran with it (summary.json's marking echo) and marked differently
    for row in t:
        marker = t.result(row["index"]).summary["congestion_control"]["ecn_marker"]
        assert marker["Kmin"] == row["ns3::EcnMarker::Kmin"] and marker["Kmax"] == "200000"
    assert a[0]["ecn_marks_mean"] != a[1]["ecn_marks_mean"]
    header = str(a).splitlines()[0]
    assert "slowdown_p99_mean" in header and "slowdown_p99_ci95" in header and "runs" in header
    with pytest.raises(ValueError, match="no attribute 'Kmn'"):
        aifabric.sweep(base, {"ns3::EcnMarker::Kmn": ["1"]})
    with pytest.raises(ValueError, match="seeds="):
        aifabric.sweep(base, {"load": [0.3]}, seeds=[0])


def test_scenario_carries_ns3_attributes(tmp_path):
    s = aifabric.Scenario.from_dict({"workload": "incast",
                                     "ns3::DcqcnCongestionControl::MinRate": "10Gbps"})
    s.set("ns3::EcnMarker::Pmax", "0.5")
    assert s.get("ns3::EcnMarker::Pmax") == "0.5"
    d = s.to_dict()
    assert d["ns3::DcqcnCongestionControl::MinRate"] == "10Gbps"
    assert pickle.loads(pickle.dumps(s)) == s and s.copy() == s
    assert "**{'ns3::DcqcnCongestionControl::MinRate': '10Gbps'" in repr(s)
    assert aifabric.Scenario.from_dict(d) == s
    assert s != aifabric.Scenario(workload="incast")
    with pytest.raises(aifabric.ConfigError, match="is not allowed"):
        s.set("ns3::EcnMarker::Pmax", "lots")


def test_available_fabrics_are_the_registered_ones():
    # The names come from the fabric builder registry (the --fabric knob).
    fabrics = aifabric.available_fabrics()
    assert sorted(fabrics) == ["infiniband", "rocev2", "uet"]
    assert fabrics["rocev2"] is None
    if fabrics["infiniband"] is not None:
        assert fabrics["infiniband"].startswith("--fabric: 'infiniband'")


def test_available_workloads_are_the_registered_ones():
    # The names come from the runner's workload registry (the --workload knob), and
    # every one of them runs on the probe scenario.
    workloads = aifabric.available_workloads()
    assert sorted(workloads) == ["allgather", "allreduce", "alltoall", "incast", "jobs", "none",
                                 "permutation", "reducescatter", "training"]
    assert all(message is None for message in workloads.values()), workloads


def test_readme_sweep_example_prints_what_the_readme_shows(tmp_path, capsys):
    """README's "Python sweeps" example, run as written (into tmp_path): it prints the
    table the README shows, byte for byte, and its points differ."""
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Python sweeps"):readme.index("## Building")]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    shown = section.split("It prints", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    assert 'out="out/readme-sweep"' in code
    code = code.replace('out="out/readme-sweep"', f'out="{tmp_path / "readme-sweep"}"')
    exec(compile(code, "README.md", "exec"), {})  # pylint: disable=exec-used
    printed = capsys.readouterr().out
    assert printed == shown
    rows = [line.split()[3] for line in shown.splitlines()[1:]]
    assert len(rows) == 4 and len(set(rows)) == 4  # the background p99 differs per point
