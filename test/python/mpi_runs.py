# SPDX-License-Identifier: GPL-2.0-only
"""What the MPI tests share: running ai-fabric-sim in one process and across ranks, and
comparing the rows of their CSVs (test_mpi_runner.py, test_mpi_training.py)."""

import csv
import os
import shutil
import subprocess


def mpi_skip_reason(sim):
    """The skip reason when this ai-fabric-sim has no MPI (asks the program itself)."""
    p = subprocess.run([str(sim), "--mpi", "--out=/nonexistent-dir-not-used"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 2, p.stderr
    if "built without MPI support" in p.stderr:
        return ("ai-fabric-sim was built without MPI: run ./ai-fabric mpi-setup and "
                "configure with -DAI_FABRIC_MPI=ON")
    assert "not started by mpirun" in p.stderr, p.stderr
    if shutil.which("mpirun") is None:
        return "mpirun is missing (Debian: openmpi-bin; ./ai-fabric mpi-setup)"
    return None


def mpirun(n):
    """mpirun's command line for n ranks (root allowed: CI runs as root)."""
    cmd = ["mpirun", "-np", str(n), "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def run(cmd):
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1")
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300,
                          env=env, check=False)


def rows(path):
    """A CSV's header and its rows, sorted (ranks write rows in their own order)."""
    with open(path, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    return table[0], sorted(table[1:])


def one_and_two(sim, tmp_path, flags):
    """The same run in one process (tmp_path/one) and across 2 ranks (tmp_path/two)."""
    one, two = tmp_path / "one", tmp_path / "two"
    p = run([sim, *flags, f"--out={one}"])
    assert p.returncode == 0, p.stderr
    p = run([*mpirun(2), sim, "--mpi", *flags, f"--out={two}"])
    assert p.returncode == 0, p.stdout + p.stderr
    return one, two, p.stdout


def assert_same_rows(one, two, names):
    for name in names:
        h1, r1 = rows(one / name)
        h2, r2 = rows(two / name)
        assert h1 == h2, name
        assert r1 == r2, f"{name}: {len(r1)} rows in one process, {len(r2)} across ranks"
