# SPDX-License-Identifier: GPL-2.0-only
"""--algorithm=collnet from the command line: NCCL's CollNet with SHARP on InfiniBand.

The switches reduce between servers, so each server's NICs together carry S into the
network and S out of it for an allreduce of S (ports.csv, --port-bytes=1), where the ring
carries 2 (N-1)/N S (N GPUs); a RoCEv2 fabric has no Aggregation Manager: exit 2, nothing
written. The C++ suite ai-fabric-collnet asserts the busbw, the fallback and the events.
"""

import json
import subprocess

import pytest

RAIL = ["--fabric=infiniband", "--topology=rail", "--servers=4", "--gpus-per-server=4",
        "--host-rate=100Gbps", "--workload=allreduce", "--bytes=8MB", "--mtu=4096",
        "--port-bytes=1"]
S = 8_000_000
FRAME = (4096 + 42) / 4096  # SHARP frame: LRH, BTH, 16-byte header, ICRC, VCRC


@pytest.fixture(scope="module")
def run(ai_fabric_sim):
    def _run(*args, timeout=600):
        return subprocess.run([str(ai_fabric_sim), *args], capture_output=True, text=True,
                              timeout=timeout, check=False)

    return _run


def _per_server(nics):
    up, down = {}, {}
    for (server, _rail), (u, d) in nics.items():
        up[server] = up.get(server, 0) + u
        down[server] = down.get(server, 0) + d
    return up, down


def test_collnet_sends_s_per_server(run, tmp_path, nic_bytes):
    out = tmp_path / "collnet"
    r = run(*RAIL, "--algorithm=collnet", f"--out={out}")
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "summary.json").read_text())
    block = summary["collectives"][0]
    assert block["algorithm"] == "collnet" and "algorithm_fallback" not in block, block
    assert block["complete"], block
    up, down = _per_server(nic_bytes(out))
    assert sorted(up) == [0, 1, 2, 3]
    for server in up:
        assert up[server] / (S * FRAME) == pytest.approx(1.0, abs=0.01), (server, up[server])
        assert down[server] / (S * FRAME) == pytest.approx(1.0, abs=0.01), (server, down[server])
    ring = tmp_path / "ring"
    r = run(*RAIL, "--algorithm=ring", f"--out={ring}")
    assert r.returncode == 0, r.stderr
    ring_up, _ = _per_server(nic_bytes(ring))
    for server in ring_up:
        assert ring_up[server] / S > 2 * 15 / 16, (server, ring_up[server])


def test_collnet_refuses_rocev2(run, tmp_path):
    out = tmp_path / "out"
    r = run(*[f for f in RAIL if f != "--fabric=infiniband"], "--fabric=rocev2",
            "--algorithm=collnet", f"--out={out}")
    assert r.returncode == 2, r.stderr
    assert "fabric 'rocev2' is not allowed" in r.stderr, r.stderr
    assert not out.exists() or not any(out.iterdir())
