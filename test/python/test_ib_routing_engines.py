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
    assert "--routing: 'lash' is not one of auto, dor, ecmp, ftree, minhop," in r.stderr, r.stderr


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
