# SPDX-License-Identifier: GPL-2.0-only
"""The Subnet Manager's OpenSM-style engines through the runner (doc/infiniband.md,
Subnet Manager).

A shift permutation (host i sends to host i + 16 mod 128) on a k=8 InfiniBand
fat-tree: with --routing=ftree (D-mod-K) no two flows share a cable, so every flow
finishes at line rate, within 1% of its unloaded FCT; with --routing=ecmp (the
LFT's DLID mod n spread over all shortest paths) flows collide on the aggregation
switches' up cables and run at a third of it.
"""

import csv
import json
import subprocess

N_HOSTS = 128
SHIFT = 16
BYTES = 400_000


def _run_shift(sim, tmp_path, routing):
    flows = tmp_path / "shift.txt"
    lines = [str(N_HOSTS)] + [
        f"{i} {(i + SHIFT) % N_HOSTS} 3 100 {BYTES} 0" for i in range(N_HOSTS)
    ]
    flows.write_text("\n".join(lines) + "\n")
    out = tmp_path / routing
    r = subprocess.run(
        [
            str(sim),
            "--fabric=infiniband",
            "--mtu=4096",
            "--topology=fattree",
            "--k=8",
            f"--routing={routing}",
            "--workload=none",
            f"--flows={flows}",
            f"--out={out}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    with open(out / "fct.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    summary = json.loads((out / "summary.json").read_text())
    return rows, summary


def test_ftree_shift_permutation_runs_at_line_rate(ai_fabric_sim, tmp_path):
    rows, summary = _run_shift(ai_fabric_sim, tmp_path, "ftree")
    assert summary["complete"] is True
    assert summary["routing_deadlock_free"] is True
    assert len(rows) == N_HOSTS
    assert {(int(r["src"]), int(r["dst"])) for r in rows} == {
        (i, (i + SHIFT) % N_HOSTS) for i in range(N_HOSTS)
    }
    # Each flow alone on its path: its FCT is its unloaded one (line rate) within 1%.
    worst = min(float(r["ideal_fct_ns"]) / float(r["fct_ns"]) for r in rows)
    assert worst >= 0.99, worst
    # The same shift with the DLID-mod-n spread over ECMP candidates collides.
    plain, _ = _run_shift(ai_fabric_sim, tmp_path, "ecmp")
    worst_plain = min(float(r["ideal_fct_ns"]) / float(r["fct_ns"]) for r in plain)
    assert worst_plain < 0.5, worst_plain


def test_routing_choices_list_the_opensm_engines(ai_fabric_sim):
    r = subprocess.run(
        [str(ai_fabric_sim), "--fabric=infiniband", "--routing=lash"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert r.returncode == 2
    assert "--routing: 'lash' is not one of auto, dfsssp, dor, ecmp, ftree, minhop," in r.stderr, r.stderr


def test_minhop_says_it_is_not_deadlock_free_on_a_torus(ai_fabric_sim, tmp_path):
    """minhop's single shortest paths close a channel-dependency cycle on a 4x4 torus
    (one VL): the runner warns and summary.json says so; ftree refuses the torus."""
    common = ["--fabric=infiniband", "--mtu=4096", "--topology=torus", "--dims=4x4",
              "--workload=none"]
    out = tmp_path / "minhop"
    r = subprocess.run([str(ai_fabric_sim), *common, "--routing=minhop", f"--out={out}"],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert "warning: --routing=minhop is not deadlock free on this topology" in r.stderr
    assert json.loads((out / "summary.json").read_text())["routing_deadlock_free"] is False
    r = subprocess.run([str(ai_fabric_sim), *common, "--routing=ftree",
                        f"--out={tmp_path}/ftree"],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 2
    assert "routing 'ftree' does not fit topology 'torus'" in r.stderr, r.stderr


TORUS = ["--fabric=infiniband", "--mtu=4096", "--topology=torus", "--dims=4x4",
         "--workload=alltoall", "--bytes=1MB"]


def test_dfsssp_finishes_the_torus_all_to_all_that_deadlocks_minhop(ai_fabric_sim, tmp_path):
    """All-to-all on a 4x4 InfiniBand torus, 4 hosts per switch (credit flow control,
    lossless). minhop's
    single shortest paths share one VL and lock up: the deadlock detector finds the
    credit-wait cycle and stops the run (exit 4). dfsssp puts each path on the
    virtual layer (SL = VL) the Subnet Manager assigned, so every layer's channel
    dependencies are acyclic: the same all-to-all completes."""
    out = tmp_path / "minhop"
    r = subprocess.run([str(ai_fabric_sim), *TORUS, "--routing=minhop", f"--out={out}"],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 4, r.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["routing_deadlock_free"] is False
    assert s["complete"] is False
    assert s["deadlock"]["lane"] == "vl"
    assert len(s["deadlock"]["cycle"]) >= 2
    assert "routing minhop (NOT deadlock free)" in r.stdout, r.stdout

    out = tmp_path / "dfsssp"
    r = subprocess.run([str(ai_fabric_sim), *TORUS, "--routing=dfsssp", f"--out={out}"],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr, r.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["complete"] is True and "deadlock" not in s
    assert s["routing_deadlock_free"] is True
    # 4 hosts per switch: 4 layers (one host per switch needs 2: the ns-3 suite)
    assert s["routing_vls"] == 4
    assert "routing dfsssp (deadlock free, 4 VLs)" in r.stdout, r.stdout
    with open(out / "fct.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 64 * 63
    assert s["drops"]["lossless"] == 0
    # Balanced paths: the all-to-all ends sooner than under up*/down* (one VL, every
    # route through the root's side of the torus). Measured 395.7 us against 436.8 us.
    out = tmp_path / "updown"
    r = subprocess.run([str(ai_fabric_sim), *TORUS, "--routing=updown", f"--out={out}"],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    updown = json.loads((out / "summary.json").read_text())
    assert updown["complete"] is True
    assert s["sim_time_s"] < 0.95 * updown["sim_time_s"], (s["sim_time_s"], updown["sim_time_s"])


def test_dfsssp_is_refused_on_rocev2_where_it_needs_layers(ai_fabric_sim, tmp_path):
    """RoCEv2 queue pairs send on one priority: the per-destination layers cannot be
    stamped, so dfsssp needing more than one layer is refused (exit 2)."""
    r = subprocess.run([str(ai_fabric_sim), "--fabric=rocev2", "--topology=torus",
                        "--dims=4x4", "--workload=none", "--routing=dfsssp",
                        f"--out={tmp_path}/roce"],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 2, r.stderr
    assert "--routing=dfsssp needs" in r.stderr and "--fabric=infiniband" in r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    r = subprocess.run([str(ai_fabric_sim), *TORUS, "--routing=dfsssp", "--ack-priority=0",
                        f"--out={tmp_path}/ack"],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 2, r.stderr
    assert "--ack-priority=0" in r.stderr, r.stderr


def test_deadlock_freedom_is_reported_per_engine(ai_fabric_sim, tmp_path):
    """routing_deadlock_free for the Subnet Manager's engines: tree-shaped routes and
    dor's dateline VLs are deadlock free on their topologies, minhop on a torus not."""
    cases = [
        (["--topology=fattree", "--k=4"], "ftree", True),
        (["--topology=fattree", "--k=4"], "updown", True),
        (["--topology=fattree", "--k=4"], "minhop", True),
        (["--topology=fattree", "--k=4"], "dfsssp", True),
        (["--topology=torus", "--dims=4x4"], "updown", True),
        (["--topology=torus", "--dims=4x4"], "dor", True),
        (["--topology=torus", "--dims=4x4"], "minhop", False),
        (["--topology=torus", "--dims=4x4"], "dfsssp", True),
    ]
    for topo, routing, free in cases:
        out = tmp_path / f"{topo[0][11:]}-{routing}"
        r = subprocess.run([str(ai_fabric_sim), "--fabric=infiniband", "--mtu=4096", *topo,
                            "--workload=none", f"--routing={routing}", f"--out={out}"],
                           capture_output=True, text=True, timeout=120, check=False)
        assert r.returncode == 0, (routing, r.stderr)
        s = json.loads((out / "summary.json").read_text())
        assert s["routing_deadlock_free"] is free, (topo, routing)
        word = "deadlock free" if free else "NOT deadlock free"
        assert f"routing {routing} ({word}" in r.stdout, r.stdout
