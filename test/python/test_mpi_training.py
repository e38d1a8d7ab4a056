# SPDX-License-Identifier: GPL-2.0-only
"""--workload=training across MPI ranks (doc/distributed.md, The scenario runner across
ranks, Training): with ns3::TrainingEngine::IterationStart=per-rank, one process and
`mpirun -np 2 ai-fabric-sim --mpi` write the same rows of training.csv, collective.csv,
fct.csv, pfc.csv, qlen.csv and drops.csv and the same summary.json "training" block, for
several iterations, with data-parallel
groups and pipeline sends that cross the ranks, on RoCEv2 (with PFC pauses) and
InfiniBand, on GPU servers; what training across ranks still refuses (exit 2, one
message naming the attribute). Skipped, saying why, without an MPI build or mpirun.
"""

import csv
import json

from mpi_runs import assert_same_rows, mpirun, one_and_two, rows, run

PER_RANK = "--ns3::TrainingEngine::IterationStart=per-rank"
ROWS = ["training.csv", "collective.csv", "fct.csv", "pfc.csv", "qlen.csv", "drops.csv"]


def _model(path, tp, pp, dp, microbatches=2, iterations=2):
    """gpt-tiny's layers (examples/gpt-tiny.json) in another shape."""
    layer = {"forward_flops": 8.4e7, "input_grad_flops": 8.4e7, "weight_grad_flops": 8.4e7,
             "update_ns": 2000, "activation_bytes": 262144}
    layers = [dict(layer, name=f"block{i}", parameter_bytes=262144 * (1 + i % 2))
              for i in range(4)]
    path.write_text(json.dumps({
        "format": "ai-fabric-training", "name": "tiny",
        "parallelism": {"tp": tp, "pp": pp, "dp": dp, "ep": 1},
        "microbatches": microbatches, "iterations": iterations, "gpu_flops": 1.5e14,
        "gradient_bucket_bytes": 524288, "overlap": True, "layers": layers}))
    return path


def _one_and_two(sim, tmp_path, flags):
    one, two, _ = one_and_two(sim, tmp_path, [*flags, PER_RANK])
    assert_same_rows(one, two, ROWS)
    assert not list(two.glob(".rank*")), "the ranks' part folders are removed"
    # summary.json's training block: iterations and every GPU's communication durations
    s1 = json.loads((one / "summary.json").read_text())["training"]
    s2 = json.loads((two / "summary.json").read_text())["training"]
    assert s1.pop("file") == s2.pop("file")
    assert s1 == s2
    return one, two


def _training(out):
    with open(out / "training.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_training_two_ranks_data_parallel_across_ranks(mpi_sim, tmp_path):
    """TP 2 x DP 8 on a k=4 fat-tree: each data-parallel group has GPUs on both ranks."""
    model = _model(tmp_path / "dp8.json", tp=2, pp=1, dp=8)
    one, two = _one_and_two(mpi_sim, tmp_path, ["--topology=fattree", "--k=4",
                                                "--workload=training", f"--training={model}"])
    stages = _training(two)
    assert [(r["iteration"], r["stage"], r["gpus"]) for r in stages] == [("0", "0", "16"),
                                                                       ("1", "0", "16")]
    # the second iteration starts when the first GPU ended its first, before the last did
    assert 0 < int(stages[1]["start_ns"]) < int(stages[0]["end_ns"])
    assert int(stages[0]["exposed_dp_ns"]) > 0 and int(stages[0]["compute_ns"]) > 0
    _, fct = rows(two / "fct.csv")
    assert len(fct) > 1000
    s = json.loads((two / "summary.json").read_text())
    assert s["training"]["finished_iterations"] == 2 and s["training"]["complete"]


def test_training_two_ranks_pipeline_and_pfc(mpi_sim, tmp_path):
    """TP 2 x PP 2 x DP 4: the pipeline sends cross the ranks; a 1 MB switch buffer pauses."""
    model = _model(tmp_path / "pp.json", tp=2, pp=2, dp=4, microbatches=4)
    one, _two = _one_and_two(mpi_sim, tmp_path, ["--topology=fattree", "--k=4", "--buffer=1MB",
                                                 "--workload=training", f"--training={model}"])
    _, pfc = rows(one / "pfc.csv")
    assert len(pfc) > 0, "the buffer paused nothing: the test lost its point"
    assert len(_training(one)) == 4  # 2 iterations x 2 stages


def test_training_two_ranks_infiniband_tree(mpi_sim, tmp_path):
    model = _model(tmp_path / "tp4.json", tp=4, pp=2, dp=2)
    _one_and_two(mpi_sim, tmp_path, ["--fabric=infiniband", "--mtu=4096",
                                     "--topology=leafspine", "--leaves=4", "--spines=2",
                                     "--hosts-per-switch=4", "--algorithm=tree",
                                     "--workload=training", f"--training={model}"])


def test_training_two_ranks_gpu_servers(mpi_sim, tmp_path, source_dir):
    """gpt-tiny (TP 8 x PP 2 x DP 2, 2 iterations) on 4 rail servers of 8 GPUs."""
    _one_and_two(mpi_sim, tmp_path, ["--topology=rail", "--servers=4", "--gpus-per-server=8",
                                     "--workload=training",
                                     f"--training={source_dir / 'examples' / 'gpt-tiny.json'}"])


def test_training_refusals_across_ranks(mpi_sim, tmp_path):
    model = _model(tmp_path / "m.json", tp=2, pp=1, dp=8)
    cases = [
        ([f"--training={model}"], "with ns3::TrainingEngine::IterationStart barrier"),
        ([f"--training={model}", "--ns3::TrainingEngine::IterationStart=barrier"],
         "allowed across ranks: --ns3::TrainingEngine::IterationStart=per-rank"),
        ([f"--training={model}", PER_RANK, "--background=websearch", "--qp-sharing=pair"],
         "with --background or --flows (their messages share"),
    ]
    for flags, message in cases:
        p = run([*mpirun(2), mpi_sim, "--mpi", "--topology=fattree", "--k=4",
                  "--workload=training", *flags, f"--out={tmp_path}/r"])
        assert p.returncode == 2, (flags, p.stdout + p.stderr)
        assert message in p.stderr, (flags, p.stderr)
        assert not (tmp_path / "r").exists()


def test_per_rank_refuses_shared_pairs(ai_fabric_sim, tmp_path):
    """Expert parallelism inside data parallelism: two groups would share connections whose
    receives are posted in advance; refused with one message (one process, no MPI needed)."""
    model = _model(tmp_path / "ep.json", tp=1, pp=1, dp=4, iterations=1)
    data = json.loads(model.read_text())
    data["parallelism"]["ep"] = 2
    data["layers"][0]["expert_alltoall_bytes"] = 65536
    model.write_text(json.dumps(data))
    p = run([ai_fabric_sim, "--topology=fattree", "--k=4", "--workload=training",
              f"--training={model}", PER_RANK, f"--out={tmp_path}/e"])
    assert p.returncode == 2, p.stderr
    assert "communicate in two groups" in p.stderr, p.stderr
    assert not (tmp_path / "e").exists()
