# SPDX-License-Identifier: GPL-2.0-only
"""One front door: what ai-fabric-sim does with --link-failure, --node-failure,
--pfc-storm, --pfc-watchdog and its output files, a plain ns-3 program does with
FaultInjectionHelper and RunRecorder (helper/), and gets the same files.

Each example (examples/fabric-failures.cc, pfc-storm-watchdog.cc, fabric-outputs.cc)
is run as built and the runner with the flags its comment names; their CSVs must be
byte-identical, and the summary blocks both write (failures, watchdog events, counters)
equal.
"""

import json
import subprocess

import pytest

# The files both write, row for row (summary.json differs: the runner's holds more).
CSVS = ["fct.csv", "pfc.csv", "drops.csv", "qlen.csv", "topology.csv"]


def run_example(build_dir, name, out, *args):
    program = build_dir / "examples" / name
    if not program.is_file():
        pytest.skip(f"{program} is not built")
    r = subprocess.run([str(program), f"--out={out}", *args], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout, json.loads((out / "summary.json").read_text())


def run_sim(sim, out, *flags):
    r = subprocess.run([str(sim), *flags, f"--out={out}"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads((out / "summary.json").read_text())


def assert_same_files(a, b, names):
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), f"{name} differs"


FABRIC_FLAGS = {"rocev2": [], "infiniband": ["--fabric=infiniband", "--mtu=4096"]}


@pytest.mark.parametrize("fabric", ["rocev2", "infiniband"])
def test_failures_example_equals_runner(build_dir, ai_fabric_sim, tmp_path, fabric):
    stdout, ex = run_example(build_dir, "fabric-failures", tmp_path / "ex", f"--fabric={fabric}")
    sim = run_sim(ai_fabric_sim, tmp_path / "sim", *FABRIC_FLAGS[fabric],
                  "--topology=fattree", "--k=4", "--workload=alltoall", "--bytes=4000000",
                  "--link-failure=16@100us", "--node-failure=33@150us")
    assert_same_files(tmp_path / "ex", tmp_path / "sim", CSVS)
    assert ex["complete"] is True and sim["complete"] is True
    # The same failures, drops and resends; the runner names the switch's cables "node".
    assert len(ex["failures"]) == 5  # cable 16, then core 33's four cables
    for f in sim["failures"]:
        f.pop("what"), f.pop("node")
    for f in ex["failures"]:
        f.pop("what"), f.pop("node")
    assert ex["failures"] == sim["failures"]
    assert ex["drops"] == sim["drops"] and ex["drops"]["link_down"] > 0
    assert ex["retransmissions"] == sim["retransmissions"] > 0
    assert "complete: yes" in stdout


def test_storm_example_equals_runner(build_dir, ai_fabric_sim, tmp_path):
    stdout, ex = run_example(build_dir, "pfc-storm-watchdog", tmp_path / "ex")
    sim = run_sim(ai_fabric_sim, tmp_path / "sim", "--topology=leafspine", "--leaves=2",
                  "--spines=1", "--hosts-per-switch=4", "--workload=incast", "--fanin=3",
                  "--bytes=2MB", "--pfc-storm=0@20us-1ms", "--pfc-watchdog=50us")
    assert_same_files(tmp_path / "ex", tmp_path / "sim", CSVS)
    assert ex["pfc_watchdog_events"] == sim["pfc_watchdog_events"]
    assert [e["event"] for e in ex["pfc_watchdog_events"]] == ["storm", "restored"]
    assert ex["drops"] == sim["drops"] and ex["drops"]["pfc_watchdog"] > 0
    assert ex["sim_time_s"] == sim["sim_time_s"]
    assert "storm detected" in stdout


def test_storm_without_watchdog_equals_runner(build_dir, ai_fabric_sim, tmp_path):
    _, ex = run_example(build_dir, "pfc-storm-watchdog", tmp_path / "ex", "--detect=0")
    sim = run_sim(ai_fabric_sim, tmp_path / "sim", "--topology=leafspine", "--leaves=2",
                  "--spines=1", "--hosts-per-switch=4", "--workload=incast", "--fanin=3",
                  "--bytes=2MB", "--pfc-storm=0@20us-1ms")
    assert_same_files(tmp_path / "ex", tmp_path / "sim", CSVS)
    assert "pfc_watchdog_events" not in ex and ex["drops"]["pfc_watchdog"] == 0
    assert ex["pfc_pauses"] == sim["pfc_pauses"] > 0


@pytest.mark.parametrize("fabric", ["rocev2", "infiniband"])
def test_outputs_example_equals_runner(build_dir, ai_fabric_sim, tmp_path, fabric):
    stdout, ex = run_example(build_dir, "fabric-outputs", tmp_path / "ex", f"--fabric={fabric}")
    sim = run_sim(ai_fabric_sim, tmp_path / "sim", *FABRIC_FLAGS[fabric],
                  "--topology=leafspine", "--leaves=2", "--spines=2", "--hosts-per-switch=4",
                  "--workload=incast", "--fanin=6", "--bytes=1MB", "--port-bytes=1",
                  *(["--buffer=600KB"] if fabric == "rocev2" else []))
    assert_same_files(tmp_path / "ex", tmp_path / "sim", CSVS + ["ports.csv"])
    for key in ("complete", "sim_time_s", "fct", "fct_by_kind", "drops", "pfc_pauses",
                "pfc_resumes", "retransmissions", "topology"):
        assert ex[key] == sim[key], key
    assert ex["output"]["rows"] == sim["output"]["rows"]
    if fabric == "rocev2":
        assert ex["pfc_pauses"] > 0
    assert "complete yes" in stdout


def test_fault_helper_refusals_name_the_value(build_dir, tmp_path):
    # The helper's checks are the runner's texts (test_cli checks them through the flags).
    program = build_dir / "examples" / "fabric-failures"
    if not program.is_file():
        pytest.skip(f"{program} is not built")
    for args, part in [
        (["--node=3"], "node 3 is a host; allowed: a switch, node 16..35"),
        (["--link=3"], "link 3 is a host cable"),
    ]:
        r = subprocess.run([str(program), f"--out={tmp_path}/o", *args], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 2 and part in r.stderr, (args, r.stderr)
