# SPDX-License-Identifier: GPL-2.0-only
"""examples/training-job.cc, a training job from plain ns-3 code (topology helper,
RoceFabricHelper, TrainingWorkload and its Options), writes the same training.csv as
ai-fabric-sim --workload=training for the same configuration."""

import subprocess

import pytest

# The example's defaults, said to the runner (whose own MTU, switch buffer, chunk,
# channels and event list differ from the helpers').
RUNNER_FLAGS = [
    "--workload=training",
    "--topology=leafspine",
    "--leaves=4",
    "--spines=2",
    "--hosts-per-switch=8",
    "--mtu=4096",
    "--buffer=32MiB",
    "--chunk=524288",
    "--channels=2",
    "--scheduler=map",
]


def test_training_job_example_writes_the_runners_training_csv(build_dir, source_dir, tmp_path,
                                                               ai_fabric_sim):
    program = build_dir / "examples" / "training-job"
    if not program.is_file():
        pytest.skip(f"{program} is not built")
    model = source_dir / "examples" / "gpt-tiny.json"
    example = subprocess.run(
        [str(program), f"--training={model}", f"--out={tmp_path / 'example'}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert example.returncode == 0, example.stderr
    assert "complete yes, 2 iterations" in example.stdout, example.stdout
    runner = subprocess.run(
        [str(ai_fabric_sim), *RUNNER_FLAGS, f"--training={model}", f"--out={tmp_path / 'runner'}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert runner.returncode == 0, runner.stderr
    mine = (tmp_path / "example" / "training.csv").read_bytes()
    assert mine.count(b"\n") == 1 + 2 * 2  # header, 2 iterations x 2 pipeline stages
    assert mine == (tmp_path / "runner" / "training.csv").read_bytes()


def test_training_job_example_names_a_bad_model(build_dir, tmp_path):
    program = build_dir / "examples" / "training-job"
    if not program.is_file():
        pytest.skip(f"{program} is not built")
    bad = tmp_path / "bad.json"
    bad.write_text('{\n "layers": [\n  {"forward_ns": -1}\n ]\n}')
    r = subprocess.run([str(program), f"--training={bad}", f"--out={tmp_path / 'o'}"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2
    assert "layers[0].forward_ns: -1 is not allowed" in r.stderr
