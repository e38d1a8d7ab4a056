# SPDX-License-Identifier: GPL-2.0-only
"""--fast-forward=1 (doc/fast-forward.md): each run twice, packet by packet and fast-forwarded.
A ring allreduce and a small training iteration skip most of their messages and keep the
step or iteration time within 1% of the packet-level run, also when gradient buckets
overlap on the same connections; the medium benchmark scenario (a collective under
web-search background) skips nothing, says why in summary.json, and its fct.csv (FCT
p50/p99) is the packet-level run's byte for byte; the flag is refused where it cannot hold."""

import json
import subprocess

import pytest

#: the bound issue #52 asks for (Wormhole, NSDI 2026, reports < 1%)
BOUND = 0.01


def run(sim, out, *args, code=0):
    r = subprocess.run([str(sim), *args, f"--out={out}"], capture_output=True, text=True,
                       timeout=900, check=False)
    assert r.returncode == code, r.stdout + r.stderr
    return r


def summary(out):
    with open(out / "summary.json") as f:
        return json.load(f)


def both(sim, base, name, *args):
    """(packet-level summary, fast-forwarded summary) of one scenario."""
    run(sim, base / f"{name}-packets", *args)
    run(sim, base / f"{name}-ff", *args, "--fast-forward=1")
    return summary(base / f"{name}-packets"), summary(base / f"{name}-ff")


def test_ring_allreduce_within_one_percent(ai_fabric_sim, tmp_path):
    packets, ff = both(ai_fabric_sim, tmp_path, "ring", "--topology=fattree", "--k=4",
                       "--workload=allreduce", "--algorithm=ring", "--bytes=16MB",
                       "--mtu=4096", "--iterations=2")
    assert "fast_forward" not in packets
    block = ff["fast_forward"]
    assert block["active"] is True
    # it skips: most of the 30 messages per connection and channel come after the window
    assert block["skipped_messages"] > block["simulated_messages"], block
    assert ff["events"] < packets["events"] / 2
    for p, f in zip(packets["collectives"][0]["durations_ns"],
                    ff["collectives"][0]["durations_ns"]):
        assert abs(f - p) <= BOUND * p, (p, f)
    # every message still has its fct.csv row
    assert ff["fct"]["count"] == packets["fct"]["count"]


@pytest.mark.figures
def test_training_iteration_within_one_percent(ai_fabric_sim, source_dir, tmp_path):
    # bench/training-1024-gpus.json on 16 servers (DP 16) with 2 of its 8 layers
    with open(source_dir / "bench" / "training-1024-gpus.json") as f:
        model = json.load(f)
    model["name"] = "training-128-gpus"
    model["parallelism"]["dp"] = 16
    model["layers"] = model["layers"][:2]
    path = tmp_path / "t128.json"
    path.write_text(json.dumps(model))
    packets, ff = both(ai_fabric_sim, tmp_path, "training", "--workload=training",
                       f"--training={path}", "--topology=rail", "--servers=16",
                       "--gpus-per-server=8", "--rail-spines=8", "--mtu=4096")
    block = ff["fast_forward"]
    assert block["active"] is True and block["skipped_messages"] > 0
    assert ff["events"] < packets["events"] / 2
    p = packets["training"]["iteration_ns"]["mean"]
    f = ff["training"]["iteration_ns"]["mean"]
    assert abs(f - p) <= BOUND * p, (p, f)


@pytest.mark.figures
def test_overlapping_buckets_within_one_percent(ai_fabric_sim, source_dir, tmp_path):
    # The 1,024-GPU iteration's error, scaled down (doc/fast-forward.md): DP 32 over 32
    # servers, buckets of 4 MB (128 KB ring messages, as DP 128 sends with 32 MB buckets)
    # and a tenth of the compute, so a ring learns its messages alone (none waits) and the
    # next buckets then overlap it on the same connections. Before it placed such a
    # queue the fast-forwarded iteration came out 41% short.
    with open(source_dir / "bench" / "training-1024-gpus.json") as f:
        model = json.load(f)
    model["name"] = "overlapping-buckets-256-gpus"
    model["parallelism"]["dp"] = 32
    model["gradient_bucket_bytes"] = 8 * 1024 * 1024
    for layer in model["layers"]:
        layer["parameter_bytes"] = 4 * 1024 * 1024
        for k in ("forward_flops", "input_grad_flops", "weight_grad_flops"):
            layer[k] = 15e9
    path = tmp_path / "overlap.json"
    path.write_text(json.dumps(model))
    packets, ff = both(ai_fabric_sim, tmp_path, "overlap", "--workload=training",
                       f"--training={path}", "--topology=rail", "--servers=32",
                       "--gpus-per-server=8", "--rail-spines=8", "--mtu=4096")
    block = ff["fast_forward"]
    assert block["active"] is True and block["unseen_queue_messages"] > 0, block
    assert block["skipped_messages"] > block["simulated_messages"], block
    p = packets["training"]["iteration_ns"]["mean"]
    f = ff["training"]["iteration_ns"]["mean"]
    assert abs(f - p) <= BOUND * p, (p, f)
    dp = [[c["duration_ns"]["mean"] for c in s["training"]["collectives"]
           if c["parallelism"] == "dp"][0] for s in (packets, ff)]
    assert abs(dp[1] - dp[0]) <= BOUND * dp[0], dp


#: bench/training-1024-gpus.json's iteration packet by packet (128 servers x 8 GPUs, rail
#: with 8 spines, MTU 4096), measured on main c95e350: 34,006,521 ns, 617.4 M events,
#: 237.5 s of CPU (doc/fast-forward.md). Too slow for CTest, so the fast-forwarded run
#: is held to this figure; a change that moves the packet-level iteration re-measures it
#: with the command below minus --fast-forward=1.
PACKET_LEVEL_1024_GPUS_NS = 34_006_521


@pytest.mark.figures
def test_1024_gpus_within_one_percent_of_packet_level(ai_fabric_sim, source_dir, tmp_path):
    out = tmp_path / "ff1024"
    run(ai_fabric_sim, out, "--workload=training",
        f"--training={source_dir / 'bench' / 'training-1024-gpus.json'}", "--topology=rail",
        "--servers=128", "--gpus-per-server=8", "--rail-spines=8", "--mtu=4096",
        "--qlen-interval=0", "--fast-forward=1")
    s = summary(out)
    (out / "fct.csv").unlink()  # 5.75 M rows, 346 MB
    block = s["fast_forward"]
    assert block["skipped_messages"] > 20 * block["simulated_messages"], block
    f = s["training"]["iteration_ns"]["mean"]
    p = PACKET_LEVEL_1024_GPUS_NS
    assert abs(f - p) <= BOUND * p, (p, f)


@pytest.mark.figures
def test_background_skips_nothing(ai_fabric_sim, tmp_path):
    # the medium benchmark scenario (bench/ai-fabric-bench.cc "medium"): a 64 MB ring
    # allreduce on a k=8 fat-tree under web-search background at 30% for 10 ms
    args = ("--topology=fattree", "--k=8", "--mtu=4096", "--workload=allreduce",
            "--algorithm=ring", "--bytes=64000000", "--cc=dcqcn", "--background=websearch",
            "--load=0.3", "--background-duration=10ms")
    packets, ff = both(ai_fabric_sim, tmp_path, "medium", *args)
    block = ff["fast_forward"]
    assert block["active"] is False
    assert block["skipped_messages"] == 0
    assert "--background=websearch" in block["reason"]
    # FCT p50/p99 within the 1% bound (they are equal: nothing is skipped)
    for q in ("p50", "p99"):
        p, f = packets["fct"]["fct_ns"][q], ff["fct"]["fct_ns"][q]
        assert abs(f - p) <= BOUND * p, (q, p, f)
        assert f == p, (q, p, f)
    for name in ("fct.csv", "collective.csv", "pfc.csv"):
        assert (tmp_path / "medium-ff" / name).read_bytes() == \
            (tmp_path / "medium-packets" / name).read_bytes(), name


@pytest.mark.parametrize("flags, word", [(["--fast-forward=1", "--attribution=1"], "--attribution"),
                                         (["--fast-forward=2"], "2")])
def test_refused(ai_fabric_sim, tmp_path, flags, word):
    out = tmp_path / "refused"
    r = run(ai_fabric_sim, out, "--topology=fattree", "--k=4", "--workload=allreduce", *flags,
            code=2)
    assert "fast-forward" in r.stderr + r.stdout
    assert word in r.stderr + r.stdout
    assert not out.exists()
