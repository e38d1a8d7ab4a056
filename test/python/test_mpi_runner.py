# SPDX-License-Identifier: GPL-2.0-only
"""ai-fabric-sim --mpi: one scenario across MPI ranks writes what one process writes
(doc/distributed.md, The scenario runner across ranks).

A k=4 fat-tree (16 hosts, 20 switches), a permutation of 256 KiB messages (every pair
chosen by the seed; most messages cross pods, so their frames cross the
aggregation-core cables that --mpi-partition=group cuts): once in one process, once
under `mpirun -np 2 ai-fabric-sim --mpi`. Rank 0's merged fct.csv, pfc.csv, qlen.csv
and drops.csv must hold the one-process rows (sorted by their key columns), and
summary.json must be the one-process one but for the keys that describe the run.
Also: background traffic (--qp-sharing=pair), allreduce (ring, tree) on RoCEv2 and
InfiniBand, collectives of several iterations, the flags' errors (exit 2), what collectives across ranks still refuse, and
aifabric.sweep(ranks=2). Skipped, saying why, without an MPI build or mpirun.
"""

import csv
import json
import os

import pytest

from mpi_runs import assert_same_rows, mpirun, one_and_two, rows, run

# Queue samples every 1 us: samples at the picosecond a frame from another rank arrives
# are equal-time ties (under ns-3's DistributedSimulatorImpl one of the ~600 here
# differed; the ranks' engine orders them as one process does).
K4 = ["--topology=fattree", "--k=4", "--workload=permutation", "--bytes=256KiB",
      "--qlen-interval=1us"]
# summary.json keys that describe the run rather than the simulated fabric
RUN_KEYS = {"wall_s", "events", "events_per_s", "packet_hops_per_s", "peak_rss_bytes",
            "simulator_impl", "mpi", "output"}


def test_flag_errors(ai_fabric_sim, tmp_path):
    cases = [
        (["--mpi-partition=block"], "--mpi-partition=block applies only to a run across ranks"),
        (["--mpi-partition=ring"], "'ring' is not one of group, block, graph"),
        (["--mpi"], "--mpi=1: "),
    ]
    for flags, message in cases:
        p = run([ai_fabric_sim, *flags, f"--out={tmp_path}/x"])
        assert p.returncode == 2, (flags, p.stderr)
        assert message in p.stderr, (flags, p.stderr)
        assert p.stderr.count("\n") == 1, p.stderr  # one line, no crash report


def test_event_list_refused_across_ranks(mpi_sim, tmp_path):
    p = run([*mpirun(2), mpi_sim, "--mpi", *K4, "--scheduler=map", f"--out={tmp_path}/m"])
    assert p.returncode == 2, p.stdout + p.stderr
    assert "--scheduler=map does not apply with --mpi" in p.stderr, p.stderr
    assert "allowed: timing-wheel, quaternary-heap" in p.stderr


def test_two_ranks_equal_one_process_rocev2(mpi_sim, tmp_path):
    one, two, stdout = one_and_two(mpi_sim, tmp_path, K4)
    # rank 0's header: the partition of the k=4 fat-tree (doc/distributed.md's closed form)
    assert "2 ranks on ns3::FabricDistributedSimulatorImpl, partition group, 8 cables cut" in stdout
    assert_same_rows(one, two, ["fct.csv", "pfc.csv", "qlen.csv", "drops.csv",
                                 "collective.csv", "topology.csv"])
    _, fct = rows(two / "fct.csv")
    assert len(fct) == 16
    # the merged rows are in completion order (start_ns + fct_ns, then flow_id)
    with open(two / "fct.csv", encoding="utf-8") as f:
        merged = list(csv.DictReader(f))
    ends = [(int(r["start_ns"]) + int(r["fct_ns"]), int(r["flow_id"])) for r in merged]
    assert ends == sorted(ends)
    assert not list(two.glob(".rank*")), "the ranks' part folders are removed"
    s1 = json.loads((one / "summary.json").read_text())
    s2 = json.loads((two / "summary.json").read_text())
    assert s2["config"].pop("mpi") == 1 and s1["config"].pop("mpi") == 0
    assert s1["config"].pop("out") != s2["config"].pop("out")
    for key in sorted(set(s1) | set(s2)):
        if key not in RUN_KEYS:
            assert s1.get(key) == s2.get(key), key
    assert s2["output"]["rows"] == s1["output"]["rows"]
    m = s2["mpi"]
    assert (m["ranks"], m["partition"], m["cut_cables"], m["lookahead_ns"]) == (2, "group", 8, 1000)
    assert [(r["nodes"], r["hosts"], r["cut_cables"]) for r in m["per_rank"]] == [(18, 8, 8)] * 2
    assert sum(r["events"] for r in m["per_rank"]) == s2["events"]


def test_two_ranks_gpu_servers(mpi_sim, tmp_path):
    # A k=4 fat-tree of two 8-GPU servers: --mpi-partition=group keeps each server (its
    # GPUs and scale-up crossbar, 150 ns cables) whole on one rank, its pods with it and
    # the cores spread, so only aggregation-core cables (1 us) are cut.
    flags = ["--topology=fattree", "--k=4", "--gpus-per-server=8", "--workload=permutation",
             "--bytes=64KiB"]
    one, two, stdout = one_and_two(mpi_sim, tmp_path, flags)
    assert "partition group, 8 cables cut, lookahead 1us" in stdout, stdout
    assert "group: servers (GPUs and scale-up crossbar) whole in contiguous blocks" in stdout
    assert_same_rows(one, two, ["fct.csv", "pfc.csv", "drops.csv", "topology.csv"])
    _, fct = rows(two / "fct.csv")
    assert len(fct) == 16
    s1 = json.loads((one / "summary.json").read_text())
    s2 = json.loads((two / "summary.json").read_text())
    assert s1["fct"] == s2["fct"] and s1["sim_time_s"] == s2["sim_time_s"]
    m = s2["mpi"]
    assert (m["cut_cables"], m["lookahead_ns"]) == (8, 1000)
    # 8 GPUs, their crossbar, 2 pods' 8 switches and 2 of the 4 cores per rank
    assert [(r["nodes"], r["hosts"], r["cut_cables"]) for r in m["per_rank"]] == [(19, 8, 8)] * 2


def test_two_ranks_background(mpi_sim, tmp_path):
    # websearch flows on shared connections (--qp-sharing=pair), posted by every rank at
    # the times the seeded generator gives; the default (a connection per flow, released
    # when done) is refused across ranks
    flags = ["--topology=fattree", "--k=4", "--workload=none", "--background=websearch",
             "--load=0.5", "--background-duration=200us"]
    one, two, _ = one_and_two(mpi_sim, tmp_path, [*flags, "--qp-sharing=pair"])
    assert_same_rows(one, two, ["fct.csv", "pfc.csv", "qlen.csv", "drops.csv"])
    _, fct = rows(two / "fct.csv")
    assert len(fct) >= 10 and all(r[-1] == "background" for r in fct)
    s1 = json.loads((one / "summary.json").read_text())
    s2 = json.loads((two / "summary.json").read_text())
    assert s1["fct_by_kind"] == s2["fct_by_kind"] and s1["messages"] == s2["messages"]
    p = run([*mpirun(2), mpi_sim, "--mpi", *flags, f"--out={tmp_path}/flow"])
    assert p.returncode == 2 and "--qp-sharing=pair" in p.stderr, p.stderr


# Equal-time ties: where frames contend (InfiniBand heads at once; RoCEv2 in the incast
# below, where frames of two senders reach a core switch in the same picosecond) the
# ranks' engine takes them in the order one process does (doc/distributed.md,
# Lookahead and ties); under ns-3's DistributedSimulatorImpl these two differed.


def test_two_ranks_equal_one_process_infiniband(mpi_sim, tmp_path):
    one, two, _ = one_and_two(mpi_sim, tmp_path, ["--fabric=infiniband", "--mtu=4096", *K4])
    assert_same_rows(one, two, ["fct.csv"])


def test_two_ranks_pcaps_infiniband(mpi_sim, tmp_path):
    # InfiniBand packets cross ranks as their headers (IbFrameHeaders) and are written
    # again there: every port's pcap, received packets included, holds the bytes one
    # process writes, computed ICRCs and VCRCs and the pad of each message's odd last
    # packet (10,001 bytes: 2 x 4096 + 1809, 3 pad bytes) included.
    flags = ["--fabric=infiniband", "--mtu=4096", "--topology=fattree", "--k=4",
             "--workload=permutation", "--bytes=10001", "--checksums=1", "--pcap=1"]
    one, two, _ = one_and_two(mpi_sim, tmp_path, flags)
    pcaps = sorted(p.name for p in one.glob("*.pcap"))
    assert len(pcaps) == 96  # every port of the 36 nodes: 16 hosts x 1 + 20 switches x 4
    assert sorted(p.name for p in two.glob("*.pcap")) == pcaps
    differ = [n for n in pcaps if (one / n).read_bytes() != (two / n).read_bytes()]
    assert differ == [], f"{len(differ)} of {len(pcaps)} pcaps differ across ranks"


def test_two_ranks_equal_one_process_rocev2_pfc(mpi_sim, tmp_path):
    flags = ["--topology=fattree", "--k=4", "--workload=incast", "--bytes=256KiB",
             "--buffer=400KB"]
    one, two, _ = one_and_two(mpi_sim, tmp_path, flags)
    _, pfc = rows(one / "pfc.csv")
    assert len(pfc) > 100  # the 8-to-1 incast pauses
    assert_same_rows(one, two, ["fct.csv", "pfc.csv"])


# A collective across ranks: every rank makes the operation's connections and posts its
# receives at the start, in transfer order (RdmaCollectiveTransport MatchInAdvance), posts
# only what its own hosts send, completes what its hosts receive, and the ranks' counts
# are summed at the completion checks; rank 0 writes collective.csv with the latest
# completion over the ranks (doc/distributed.md, The scenario runner across ranks).
COLL = ["--topology=fattree", "--k=4", "--workload=allreduce", "--bytes=2MB"]


def _assert_collective_equal(one, two, transfers):
    assert_same_rows(one, two, ["collective.csv", "fct.csv", "pfc.csv"])
    _, coll = rows(two / "collective.csv")
    assert len(coll) == 1
    _, fct = rows(two / "fct.csv")
    assert len(fct) == transfers and all(r[-1] == "collective" for r in fct)
    # flow ids are the iteration's first id plus the transfer index: 0..transfers-1
    assert sorted(int(r[0]) for r in fct) == list(range(transfers))
    s1 = json.loads((one / "summary.json").read_text())
    s2 = json.loads((two / "summary.json").read_text())
    for key in ("collectives", "sim_time_s", "messages", "fct", "queue_pairs", "pfc_pauses"):
        assert s1[key] == s2[key], key
    assert s2["collectives"][0]["complete"] is True
    # each rank holds (pre-posts, tracks, posts) only the transfers whose source or
    # destination is one of its hosts: none of the other rank's own, all that cross
    held = [r["collective_transfers"] for r in s2["mpi"]["per_rank"]]
    assert all(h < transfers for h in held), held
    assert sum(held) > transfers, held
    return held


# Transfers of the k=4 allreduce of 2 MB (16 ranks, 2 channels by default): ring
# 2 channels x 2(n-1) steps x n ranks; tree (NCCL's chunk rule shrinks the chunk for
# its depth) 960; ring on one channel half the ring's.
TRANSFERS = {"ring": 2 * 2 * 15 * 16, "tree": 960}


@pytest.mark.parametrize("fabric,algorithm,extra", [
    ("rocev2", "tree", []),
    ("rocev2", "ring", ["--channels=1"]),
    ("infiniband", "tree", ["--mtu=4096"]),
    # The ring's two channels start together with equal messages on their own
    # connections: frames of both reach a switch in the same picosecond from different
    # ranks, equal-time ties that the ranks' engine takes as one process does (under
    # ns-3's DistributedSimulatorImpl these two differed).
    ("rocev2", "ring", []),
    ("infiniband", "ring", ["--mtu=4096"]),
])
def test_collective_two_ranks(mpi_sim, tmp_path, fabric, algorithm, extra):
    flags = [*COLL, f"--fabric={fabric}", f"--algorithm={algorithm}", *extra]
    one, two, _ = one_and_two(mpi_sim, tmp_path, flags)
    channels = 1 if "--channels=1" in extra else 2
    transfers = TRANSFERS[algorithm] // (2 // channels)
    held = _assert_collective_equal(one, two, transfers)
    if algorithm == "ring":
        # hosts 0-7 on rank 0, 8-15 on rank 1: each rank's 8 hosts send 2 x 15 transfers
        # per channel, and it receives those of the other rank's last host (7 -> 8, 15 -> 0)
        assert held == [9 * 2 * 15 * channels] * 2, held


@pytest.mark.parametrize("extra", [["--fabric=rocev2"], ["--fabric=infiniband", "--mtu=4096"]])
def test_acceptance_k8_allreduce(mpi_sim, tmp_path, extra):
    """The issue's command: ./ai-fabric mpi 2 --topology=fattree --k=8
    --workload=allreduce --bytes=16MB against one process with the same flags (the ring
    over 128 hosts on 2 channels: 65,024 messages)."""
    flags = ["--topology=fattree", "--k=8", "--workload=allreduce", "--bytes=16MB",
             "--qlen-interval=0", *extra]
    one, two, _ = one_and_two(mpi_sim, tmp_path, flags)
    held = _assert_collective_equal(one, two, 2 * 2 * 127 * 128)
    assert held == [65 * 2 * 127 * 2] * 2, held  # 64 hosts per rank, one sender in


# Several iterations across ranks: each host starts its next iteration when its own
# part of the last one is done (CollectiveApplication IterationStart per-rank, the
# default), which its rank sees; rank 0 writes each iteration's row from the earliest
# start to the latest end over the ranks.
@pytest.mark.parametrize("workload,extra", [
    ("allreduce", []),
    ("reducescatter", []),
    ("allgather", []),
    ("allreduce", ["--algorithm=tree"]),
    ("allreduce", ["--fabric=infiniband", "--mtu=4096"]),
])
def test_collective_iterations_two_ranks(mpi_sim, tmp_path, workload, extra):
    flags = ["--topology=fattree", "--k=4", f"--workload={workload}", "--bytes=2MB",
             "--iterations=3", "--qlen-interval=1us", *extra]
    one, two, _ = one_and_two(mpi_sim, tmp_path, flags)
    assert_same_rows(one, two, ["collective.csv", "fct.csv", "pfc.csv", "qlen.csv"])
    with open(two / "collective.csv", encoding="utf-8") as f:
        ops = list(csv.DictReader(f))
    assert [int(r["op_id"]) for r in ops] == [0, 1, 2]
    # each row from the previous one's end (the latest rank's) to its own latest rank's end
    for a, b in zip(ops, ops[1:]):
        assert int(b["start_ns"]) == int(a["end_ns"]), (a, b)
    transfers = {"allreduce": 2 * 2 * 15 * 16, "reducescatter": 2 * 15 * 16,
                 "allgather": 2 * 15 * 16}[workload]
    if "--algorithm=tree" in extra:
        transfers = TRANSFERS["tree"]
    _, fct = rows(two / "fct.csv")
    # flow ids: iteration i's first id (i x transfers) plus the transfer index
    assert sorted(int(r[0]) for r in fct) == list(range(3 * transfers))
    s1 = json.loads((one / "summary.json").read_text())
    s2 = json.loads((two / "summary.json").read_text())
    for key in ("collectives", "sim_time_s", "messages", "fct", "queue_pairs", "pfc_pauses"):
        assert s1[key] == s2[key], key
    assert s2["collectives"][0]["finished_iterations"] == 3
    assert s2["collectives"][0]["complete"] is True


def test_collective_iterations_barrier_refused_across_ranks(mpi_sim, tmp_path):
    p = run([*mpirun(2), mpi_sim, "--mpi", "--topology=fattree", "--k=4", "--bytes=1MB",
              "--workload=allreduce", "--iterations=2",
              "--ns3::CollectiveApplication::IterationStart=barrier", f"--out={tmp_path}/b"])
    assert p.returncode == 2, p.stdout + p.stderr
    assert "with iterations that start at a barrier" in p.stderr, p.stderr
    assert "--mpi=1 does not run --workload=allreduce --iterations=2 with iterations" in p.stderr
    assert not (tmp_path / "b").exists()


def test_collective_refusals_across_ranks(mpi_sim, tmp_path, source_dir):
    training = source_dir / "bench" / "training-1024-gpus.json"
    cases = [
        (["--workload=allreduce", "--background=websearch", "--qp-sharing=pair"],
         "with --background or --flows"),
        (["--workload=training", f"--training={training}"],
         "--mpi=1 does not run --workload=training"),
    ]
    for flags, message in cases:
        p = run([*mpirun(2), mpi_sim, "--mpi", "--topology=fattree", "--k=4",
                  "--bytes=1MB", *flags, f"--out={tmp_path}/c"])
        assert p.returncode == 2, (flags, p.stdout + p.stderr)
        assert message in p.stderr, (flags, p.stderr)
        assert "a collective --workload (allgather, allreduce, reducescatter)" in p.stderr, p.stderr


def test_sweep_ranks(mpi_sim, tmp_path, monkeypatch):
    aifabric = pytest.importorskip("aifabric", reason="the aifabric Python module is not built")
    monkeypatch.setenv("AI_FABRIC_SIM", str(mpi_sim))
    base = aifabric.Scenario(topology="fattree", k=4, workload="permutation", bytes=262144)
    with pytest.raises(ValueError, match="ranks=0"):
        aifabric.sweep(base, {"seed": [1]}, ranks=0, out=str(tmp_path / "bad"))
    # Seed 1's ECMP hashes keep the permutation's flows apart (other seeds draw other
    # hashes, and paths that meet give equal-time ties: test_two_ranks_..._pfc).
    tables = [aifabric.sweep(base, {"bytes": [131072, 262144]}, workers=1, ranks=r,
                             progress=False,
                             out=str(tmp_path / f"r{r}")) for r in (None, 2)]
    for one, two in zip(*tables):
        assert one["status"] == two["status"] == "ok", (one, two)
        _, a = rows(os.path.join(one["out"], "fct.csv"))
        _, b = rows(os.path.join(two["out"], "fct.csv"))
        assert a == b and len(a) == 16
    summary = json.loads(open(os.path.join(tables[1][0]["out"], "summary.json")).read())
    assert summary["mpi"]["ranks"] == 2
