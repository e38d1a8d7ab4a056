# SPDX-License-Identifier: GPL-2.0-only
"""NCCL's tree on GPU servers, end to end through ai-fabric-sim (doc/gpu-servers.md,
"NCCL's tree"): `--algorithm=tree` on 2 and 4 rail-only servers of 8 GPUs with 400 Gb/s
NICs, on RoCEv2 and InfiniBand. Every NIC carries 1/8 of its server's inter-server bytes
each way (ports.csv), the inter-server bytes are the double binary tree's over the
servers (ncclGetDtree), network hops join the heads of one rail (fct.csv), and busbw
reaches the bound of the cables the model says bind it."""

import csv
import json
import subprocess

import pytest


@pytest.fixture
def run(ai_fabric_sim):
    def _run(*args, timeout=600):
        return subprocess.run([str(ai_fabric_sim), *args], capture_output=True, text=True,
                              timeout=timeout, check=False)

    return _run


FABRICS = {
    # fabric flags, per-packet overhead bytes on a NIC cable, MTU, scale-up goodput GB/s
    "rocev2": (["--fabric=rocev2"], 82, 1000),
    # as test_cli.py's rail rings: 128 KiB per VL and 50 ns scale-up cables, so that the
    # crossbar's credit loop does not cap a GPU's scale-up cable below what the tree needs
    "infiniband": (["--fabric=infiniband", "--mtu=4096",
                    "--ns3::IbNetDevice::VlBufferBytes=131072", "--scaleup-latency=50ns"], 26, 4096),
}
GPUS = 8
# measured share of the binding cables' bound, less a margin (doc/gpu-servers.md)
LOWER = {"rocev2": {2: 0.95, 4: 0.85}, "infiniband": {2: 0.95, 4: 0.8}}


def _flags(servers, size, algorithm="tree"):
    return ["--topology=rail", f"--servers={servers}", f"--gpus-per-server={GPUS}",
            "--host-rate=400Gbps", "--workload=allreduce", f"--algorithm={algorithm}",
            f"--bytes={size}", "--port-bytes=1"]


def _btree_edges(n, tree):
    """NCCL's ncclGetDtree over n nodes: {node: number of tree edges it sends on}
    (to its parent if any, to each child)."""
    def btree(rank):
        bit = 1
        while bit < n and not bit & rank:
            bit <<= 1
        if rank == 0:
            return -1, [bit >> 1] if n > 1 else []
        up = (rank ^ bit) | (bit << 1)
        if up >= n:
            up = rank ^ bit
        low = bit >> 1
        kids = []
        if low:
            kids.append(rank - low)
            d1 = rank + low
            while d1 >= n:
                d1 = rank + low
                low >>= 1
            kids.append(d1)
        return up, kids

    sends = {}
    for node in range(n):
        if tree == 0:
            up, kids = btree(node)
        elif n % 2:
            up, kids = btree((node - 1) % n)
            up = -1 if up == -1 else (up + 1) % n
            kids = [(k + 1) % n for k in kids]
        else:
            up, kids = btree(n - 1 - node)
            up = -1 if up == -1 else n - 1 - up
            kids = [n - 1 - k for k in kids]
        sends[node] = (up != -1) + len(kids)
    return sends


@pytest.mark.figures
@pytest.mark.parametrize("fabric", sorted(FABRICS))
@pytest.mark.parametrize("servers", [2, 4])
def test_nccl_tree_uses_every_nic(run, tmp_path, fabric, servers, nic_bytes):
    flags, overhead, mtu = FABRICS[fabric]
    size = 64 * 2**20
    out = tmp_path / "tree"
    r = run(*flags, *_flags(servers, size), f"--out={out}")
    assert r.returncode == 0, r.stderr
    s = json.loads((out / "summary.json").read_text())
    c = s["collectives"][0]
    assert c["channels"] == 16
    ranks = servers * GPUS
    nic = 400.0 * mtu / (mtu + overhead) / 8  # GB/s of payload per NIC
    nics = nic_bytes(out)
    assert len(nics) == servers * GPUS
    # per server: each tree sends S / 2 on every edge it has (parent, children)
    sends = [_btree_edges(servers, 0)[v] + _btree_edges(servers, 1)[v] for v in range(servers)]
    for server in range(servers):
        up = [nics[(server, rail)][0] for rail in range(GPUS)]
        down = [nics[(server, rail)][1] for rail in range(GPUS)]
        for b in up + down:
            # every NIC carries 1/8 of its server's inter-server bytes, each way
            assert abs(b / (sum(up) / GPUS) - 1) < 0.02, (server, up, down)
        payload = sends[server] * size / 2
        assert 1.0 < sum(up) / payload < 1.1, (server, sum(up), payload)
    # every network hop joins two heads of one rail
    hops = 0
    with open(out / "fct.csv") as f:
        for row in csv.DictReader(f):
            src, dst = int(row["src"]), int(row["dst"])
            if row["kind"] == "collective" and src // GPUS != dst // GPUS:
                hops += 1
                assert src % GPUS == dst % GPUS, (src, dst)
    assert hops > 0
    busbw = c["busbw_gbps"] / 8  # GB/s (collective.csv's nccl-tests busbw is in Gb/s)
    busiest = max(sends)
    # the NICs' bound: the busiest server sends busiest x S/2 over its 8 NICs
    nic_bound = 2 * (ranks - 1) / ranks * size / (busiest * size / 2 / GPUS / nic)
    # the scale-up cables' bound: every GPU sends (and receives) 2 (N-1)/N x S over its
    # one cable to the crossbar, as in a ring (each tree edge carries each chunk up and
    # down; every GPU is head, tail and middle of the same number of chains)
    up_bound = 3600.0 * mtu / (mtu + overhead) / 8
    print(f"{fabric} {servers} x 8, {size >> 20} MiB: tree busbw {busbw:.1f} GB/s = "
          f"{busbw / min(nic_bound, up_bound):.3f} of min(NICs {nic_bound:.1f}, "
          f"scale-up {up_bound:.1f})")
    if servers == 2:
        # 2 servers: each NIC carries S/8 each way, half the ring's: the scale-up cables bind
        assert busiest == 2 and up_bound < nic_bound
        assert LOWER[fabric][servers] * up_bound <= busbw <= up_bound, (busbw, up_bound)
        # so it beats NCCL's rings, which the NICs bind (8 NICs' goodput)
        ring_out = tmp_path / "ring"
        r = run(*flags, *_flags(servers, size, "ring"), f"--out={ring_out}")
        assert r.returncode == 0, r.stderr
        ring = json.loads((ring_out / "summary.json").read_text())["collectives"][0]
        ring_busbw = ring["busbw_gbps"] / 8
        print(f"  ring busbw {ring_busbw:.1f} GB/s, tree / ring {busbw / ring_busbw:.3f}")
        assert ring_busbw <= GPUS * nic and busbw > 1.05 * ring_busbw, (busbw, ring_busbw)
    else:
        # 4 servers: the inner servers send 4 x S/2 (parent and two children in one tree,
        # parent in the other), and the NICs bind: NCCL's (N-1)/N x 8 NICs
        assert busiest == 4 and nic_bound < up_bound
        assert abs(nic_bound / ((ranks - 1) / ranks * GPUS * nic) - 1) < 1e-9
        assert LOWER[fabric][servers] * nic_bound <= busbw <= nic_bound, (busbw, nic_bound)
