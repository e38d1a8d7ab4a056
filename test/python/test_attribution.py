# SPDX-License-Identifier: GPL-2.0-only
"""--attribution=1 through the CLI (doc/attribution.md): every message's components add
up to its FCT exactly in eight scenarios of the three fabrics, each scenario shows the cause it
is built for, the other outputs do not change, and analysis/explain-tail writes its
report and plots for a run and for a sweep directory."""

import csv
import json
import re
import shutil
import subprocess
import sys

import pytest

COMPONENTS = ("serialization", "propagation", "forwarding", "queueing", "pause", "cc",
              "qp_cache", "rnr", "retransmission", "host")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
HAVE_GNUPLOT = shutil.which("gnuplot") is not None

#: name -> (flags, the component each message's FCT must have some of)
SCENARIOS = {
    "incast-pfc": (["--topology=leafspine", "--workload=incast", "--pfc=1", "--buffer=600KB"],
                   "pause"),
    "permutation-ecmp": (["--topology=fattree", "--k=4", "--workload=permutation",
                          "--lb=ecmp"], "serialization"),
    "ring-background": (["--topology=fattree", "--k=4", "--workload=allreduce",
                         "--algorithm=ring", "--bytes=2MB", "--background=websearch",
                         "--load=0.3", "--background-duration=200us"], "propagation"),
    "ib-incast": (["--fabric=infiniband", "--mtu=4096", "--topology=leafspine",
                   "--workload=incast"], "pause"),
    "lossy-incast": (["--topology=leafspine", "--workload=incast", "--pfc=0",
                      "--buffer=600KB"], "retransmission"),
    "dcqcn-incast": (["--topology=leafspine", "--workload=incast", "--pfc=1",
                      "--cc=dcqcn", "--ecn=1"], "cc"),
    # UET: trimmed headers NACKed and resent; its ACKs (ACK_CC with SACK) are rewritten
    # frames, which must keep their journeys
    "uet-incast": (["--fabric=uet", "--topology=leafspine", "--workload=incast",
                    "--cc=nscc"], "retransmission"),
    "uet-incast-sack": (["--fabric=uet", "--topology=leafspine", "--workload=incast",
                         "--cc=nscc", "--ns3::UetNic::Sack=1"], "retransmission"),
}


def run(sim, out, *args):
    r = subprocess.run([str(sim), *args, f"--out={out}"], capture_output=True, text=True,
                       timeout=600, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def ps(text):
    """ns with three decimals -> integer picoseconds, exactly."""
    whole, _, frac = text.partition(".")
    sign = -1 if whole.startswith("-") else 1
    return sign * (abs(int(whole)) * 1000 + int((frac + "000")[:3]))


@pytest.fixture(scope="module")
def runs(ai_fabric_sim, tmp_path_factory):
    base = tmp_path_factory.mktemp("attribution")
    for name, (flags, _) in SCENARIOS.items():
        run(ai_fabric_sim, base / name, *flags, "--attribution=1")
    return base


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_components_add_up(runs, name):
    out = runs / name
    with open(out / "attribution.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(out / "fct.csv", newline="") as f:
        fct = {r["flow_id"]: r for r in csv.DictReader(f)}
    assert rows and len(rows) == len(fct)
    cause = SCENARIOS[name][1]
    total = {c: 0 for c in COMPONENTS}
    for r in rows:
        parts = [ps(r[c + "_ns"]) for c in COMPONENTS]
        assert all(p >= 0 for p in parts), r
        assert ps(r["unattributed_ns"]) == 0, r
        # Exactly (picoseconds), so within 1 ns; and the FCT is fct.csv's.
        assert sum(parts) == ps(r["fct_ns"]), r
        assert abs(ps(r["fct_ns"]) - 1000 * int(fct[r["message_id"]]["fct_ns"])) < 1000, r
        for c in COMPONENTS:
            total[c] += ps(r[c + "_ns"])
    assert total[cause] > 0, (name, cause, total)
    summary = json.loads((out / "summary.json").read_text())
    tail = summary["tail_attribution"]
    assert tail["messages"] == len(rows) and tail["unattributed_messages"] == 0
    assert tail["tail_messages"] >= 1
    assert abs(sum(tail["mean_share"].values()) - 1) < 1e-9
    assert tail["dominant"] == max(tail["mean_share"], key=tail["mean_share"].get)


def test_incast_tail_is_pause_at_a_port(runs):
    tail = json.loads((runs / "incast-pfc" / "summary.json").read_text())["tail_attribution"]
    assert tail["dominant"] == "pause"
    assert tail["top_ports"][0]["pause_ns"] > 0


def test_off_changes_nothing(ai_fabric_sim, runs, tmp_path):
    flags, _ = SCENARIOS["incast-pfc"]
    run(ai_fabric_sim, tmp_path / "off", *flags)
    assert not (tmp_path / "off" / "attribution.csv").exists()
    assert "tail_attribution" not in json.loads((tmp_path / "off" / "summary.json").read_text())
    for f in ("fct.csv", "pfc.csv", "qlen.csv", "drops.csv", "collective.csv"):
        assert (tmp_path / "off" / f).read_bytes() == (runs / "incast-pfc" / f).read_bytes(), f


def test_deterministic(ai_fabric_sim, runs, tmp_path):
    flags, _ = SCENARIOS["ring-background"]
    run(ai_fabric_sim, tmp_path / "again", *flags, "--attribution=1")
    assert (tmp_path / "again" / "attribution.csv").read_bytes() == \
        (runs / "ring-background" / "attribution.csv").read_bytes()


def test_refused_with_mpi(ai_fabric_sim, tmp_path):
    r = subprocess.run([str(ai_fabric_sim), "--attribution=1", "--mpi=1",
                        f"--out={tmp_path / 'x'}"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--attribution" in r.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("sweep", [False, True])
def test_explain_tail(runs, source_dir, tmp_path, sweep):
    if sweep:
        target = tmp_path / "sweep"
        for name in ("incast-pfc", "dcqcn-incast"):
            shutil.copytree(runs / name, target / name)
    else:
        target = tmp_path / "one"
        shutil.copytree(runs / "incast-pfc", target)
    args = [sys.executable, str(source_dir / "analysis" / "explain-tail"), str(target)]
    if not HAVE_GNUPLOT:
        args.append("--no-plots")
    r = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    report = (target / "explain-tail.txt").read_text()
    assert "dominant cause of the tail: PFC pause" in report
    if sweep:
        assert "dcqcn-incast:" in report and "incast-pfc:" in report
    if HAVE_GNUPLOT:
        for name in ("components", "ports"):
            png = target / f"explain-tail-{name}.png"
            assert png.is_file() and png.read_bytes()[:8] == PNG_MAGIC


def test_explain_tail_without_attribution(source_dir, tmp_path):
    r = subprocess.run([sys.executable, str(source_dir / "analysis" / "explain-tail"),
                        str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "--attribution=1" in r.stderr


def test_critical_path_names_the_delayed_transfer(ai_fabric_sim, source_dir, tmp_path):
    # Host 2's NIC stops draining for its first 40 us (a PFC storm): the ring's transfer
    # into rank 2 waits behind the pause at leaf0's port to host 2, and the critical path
    # of the allreduce runs through it.
    out = tmp_path / "ring-storm"
    run(ai_fabric_sim, out, "--topology=leafspine", "--workload=allreduce",
        "--algorithm=ring", "--bytes=1MB", "--pfc-storm=2@0us-40us", "--attribution=1")
    path = json.loads((out / "summary.json").read_text())["critical_path"]
    assert path["operations"] == 1
    slow = path["slowest"]
    assert slow["culprit_dst_rank"] == 2 and slow["culprit_cause"] == "pause"
    assert slow["culprit_cause_ns"] > 20000
    assert slow["culprit_port"]["name"] == "leaf0" and slow["culprit_port"]["port"] == 2
    assert "to rank 2" in slow["explanation"] and "leaf0 port 2" in slow["explanation"]
    with open(out / "critical-path.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["position"]) for r in rows] == list(range(len(rows)))
    assert any(r["dst_rank"] == "2" and ps(r["pause_ns"]) > 20000 * 1000 for r in rows)
    # Each transfer ends after the one before it on the path was delivered (it waited
    # for it), and the path ends with the operation's last transfer.
    ends = [ps(r["end_ns"]) for r in rows]
    assert ends[-1] == max(ends)
    # Without the storm the path carries no pause.
    calm = tmp_path / "ring-calm"
    run(ai_fabric_sim, calm, "--topology=leafspine", "--workload=allreduce",
        "--algorithm=ring", "--bytes=1MB", "--attribution=1")
    with open(calm / "critical-path.csv", newline="") as f:
        assert all(ps(r["pause_ns"]) == 0 for r in csv.DictReader(f))
    if HAVE_GNUPLOT:
        r = subprocess.run([sys.executable, str(source_dir / "analysis" / "explain-tail"),
                            str(out)], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        assert "critical path: operation 0" in r.stdout
        png = out / "explain-tail-critical-path.png"
        assert png.is_file() and png.read_bytes()[:8] == PNG_MAGIC


def test_default_scenario_prints_its_tail(ai_fabric_sim, source_dir, tmp_path):
    # The default scenario (./ai-fabric run) has attribution on and prints where its tail
    # comes from; README's sample of that output is this run's, but for the wall time and
    # the engine's counts.
    r = run(ai_fabric_sim, tmp_path / "default",
            f"--config={source_dir / 'examples' / 'default-scenario.json'}")
    lines = r.stdout.splitlines()
    assert any(line.startswith("  tail:") and "dominant cause cc" in line for line in lines)
    assert any(line.startswith("  critical path: operation ") for line in lines)
    readme = (source_dir / "README.md").read_text()
    sample = readme.split("```text\nai-fabric-sim: rocev2, fattree k=4", 1)[1].split("```", 1)[0]
    sample = ("ai-fabric-sim: rocev2, fattree k=4" + sample).splitlines()

    def stable(text_lines):
        # (Wall time, and the engine's event and hop counts, are not the model's.)
        return [re.sub(r", wall .*", "", line) for line in text_lines
                if not line.startswith("  files:")]

    assert stable(sample) == stable(lines), "README's default-scenario sample is out of date"


@pytest.mark.parametrize("algorithm", ["tree", "hd"])
def test_tree_and_hd_under_ecmp_wait_at_uplinks(ai_fabric_sim, tmp_path, algorithm):
    # doc/collectives.md: the tree and halving-doubling lose a third of the ring's busbw
    # under flow-hash ECMP on a k=4 fat-tree; their tail waits at ports between switches
    # (an uplink two of their flows were hashed to), which per-packet adaptive choice
    # leaves without any wait among the ten largest.
    def top_ports(lb):
        out = tmp_path / f"{algorithm}-{lb}"
        run(ai_fabric_sim, out, "--topology=fattree", "--k=4", "--workload=allreduce",
            "--bytes=16MB", f"--algorithm={algorithm}", f"--lb={lb}", "--attribution=1")
        with open(out / "topology.csv", newline="") as f:
            peer = {(int(r["node"]), int(r["port"])): r["peer_name"] for r in csv.DictReader(f)}
        ports = json.loads((out / "summary.json").read_text())["tail_attribution"]["top_ports"]
        # A port between switches: neither it nor its peer is a host.
        return [(not p["name"].startswith("host")
                 and not peer[(p["node"], p["port"])].startswith("host"), p) for p in ports]

    ecmp = top_ports("ecmp")
    assert ecmp[0][0] and "edge" in ecmp[0][1]["name"], ecmp[0]
    assert ecmp[0][1]["pause_ns"] == 0 and ecmp[0][1]["queueing_ns"] > 0
    assert sum(between for between, _ in ecmp) >= 3
    adaptive = top_ports("adaptive")
    assert adaptive and not any(between for between, _ in adaptive), adaptive
