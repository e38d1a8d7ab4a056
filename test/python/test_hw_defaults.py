# SPDX-License-Identifier: GPL-2.0-only
"""ai-fabric-sim's cable and buffer defaults (doc/topologies.md, Cable tiers;
doc/infiniband.md, VL buffer sizing): --cable-lengths and --propagation-delay are
validated before --out is touched (exit 2, one line naming the value and what is
allowed), echoed in summary.json's config, and a port whose buffer cannot cover its
bandwidth-delay product is named in one warning on stderr and in summary.json's
warnings.
"""

import json
import subprocess

import pytest

SMALL = [
    "--topology=leafspine",
    "--leaves=2",
    "--spines=1",
    "--hosts-per-switch=2",
    "--workload=incast",
    "--fanin=2",
    "--bytes=10KB",
    "--qlen-interval=0",
]


def run(sim, *args):
    return subprocess.run(
        [str(sim), *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.parametrize(
    "args, part",
    [
        (["--cable-lengths=0"], "--cable-lengths: cable lengths '0': '0' is not a length"),
        (["--cable-lengths=3,abc"], "'abc' is not a length; allowed: 1 to 3 lengths"),
        (["--cable-lengths=1,2,3,4"], "'1,2,3,4': 4 values; allowed: 1 to 3 lengths"),
        (["--cable-lengths=200000"], "each a number > 0 and <= 100000"),
        (["--cable-lengths=3", "--propagation-delay=0ns"], "--propagation-delay: '0ns'"),
        (["--cable-lengths=3", "--propagation-delay=1us"], "allowed a time in 1ps..100ns"),
        (["--propagation-delay=4ns"], "applies only with --cable-lengths"),
        (["--cable-lengths=3,30", "--link-delay=2us"], "--link-delay=2us and --cable-lengths=3,30"),
    ],
)
def test_bad_cable_flags_exit_2_and_leave_out_alone(ai_fabric_sim, tmp_path, args, part):
    out = tmp_path / "out"
    r = run(ai_fabric_sim, *SMALL, *args, f"--out={out}")
    assert r.returncode == 2, r.stderr
    assert part in r.stderr
    assert r.stderr.count("\n") == 1, "one line"
    assert not out.exists(), "--out untouched"


def test_cable_lengths_echoed_and_delays_applied(ai_fabric_sim, tmp_path):
    out = tmp_path / "out"
    r = run(ai_fabric_sim, *SMALL, "--cable-lengths=2,40", "--propagation-delay=4ns", f"--out={out}")
    assert r.returncode == 0, r.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["config"]["cable-lengths"] == "2,40"
    assert s["config"]["propagation-delay"] == "4ns"
    # 2 m host cables (8 ns) instead of 1 us: the unloaded FCT is ~4 us shorter
    # on a host-leaf-spine-leaf-host path (4 cables each way, ACK included)
    base = tmp_path / "base"
    assert run(ai_fabric_sim, *SMALL, f"--out={base}").returncode == 0
    ideal = lambda d: [int(row.split(",")[6]) for row in (d / "fct.csv").read_text().splitlines()[1:]]
    assert min(ideal(base)) - min(ideal(out)) > 3000
    # a sub-nanosecond delay per metre is kept (flags are read in picoseconds)
    fine = tmp_path / "fine"
    r = run(ai_fabric_sim, *SMALL, "--cable-lengths=2", "--propagation-delay=4900ps", f"--out={fine}")
    assert r.returncode == 0, r.stderr
    assert json.loads((fine / "summary.json").read_text())["config"]["propagation-delay"] == "4900ps"


@pytest.mark.parametrize(
    "fabric, extra, part",
    [
        (
            "infiniband",
            ["--ns3::IbNetDevice::VlBufferBytes=65536"],
            "ports like leaf0 port 0: VL buffer 65536 B < credit round trip 115840 B",
        ),
        (
            "rocev2",
            ["--allow-lossy-headroom=1", "--ns3::SharedBufferMmu::HeadroomBytes=50000"],
            "ports like leaf0 port 0: PFC headroom 50000 B < bytes arriving after XOFF",
        ),
    ],
)
def test_buffer_below_bdp_is_one_warning(ai_fabric_sim, tmp_path, fabric, extra, part):
    out = tmp_path / "out"
    rate = ["--host-rate=400Gbps", "--fabric-rate=400Gbps", "--mtu=4096"]
    r = run(ai_fabric_sim, *SMALL, *rate, f"--fabric={fabric}", *extra, f"--out={out}")
    assert r.returncode == 0, r.stderr
    warnings = [line for line in r.stderr.splitlines() if "bandwidth-delay product" in line]
    assert len(warnings) == 1, r.stderr
    assert part in warnings[0]
    s = json.loads((out / "summary.json").read_text())
    assert any(part in w for w in s["warnings"])
    # with the defaults, nothing to say
    clean = tmp_path / "clean"
    r = run(ai_fabric_sim, *SMALL, *rate, f"--fabric={fabric}", f"--out={clean}")
    assert r.returncode == 0 and "bandwidth-delay product" not in r.stderr
    assert "warnings" not in json.loads((clean / "summary.json").read_text())
