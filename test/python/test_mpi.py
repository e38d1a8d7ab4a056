# SPDX-License-Identifier: GPL-2.0-only
"""One simulation across MPI ranks gives what one process gives (doc/distributed.md).

Runs examples/mpi-fattree-flows (built only with -DAI_FABRIC_MPI=ON, after
./ai-fabric mpi-setup) on a k=4 fat-tree, every host writing to the host half the
fabric away (every message crosses the core, so every frame crosses ranks): once in
one process (FabricSimulatorImpl), once under `mpirun -np 2` (DistributedSimulatorImpl,
pods 0-1 and 2-3 on ranks 0 and 1, RoceRemoteChannel / IbRemoteChannel on the
aggregation-core cables). The union of the two ranks' message records (id, src, dst,
bytes, start, end in picoseconds) must equal the one-process records row for row, on
RoCEv2 and on InfiniBand. Skipped, saying why, when the program is not built or
mpirun is missing.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

BUILD = pathlib.Path(os.environ.get("AI_FABRIC_BUILD_DIR", "build"))
PROGRAM = BUILD / "examples" / "mpi-fattree-flows"


def _require():
    if not PROGRAM.exists():
        pytest.skip(
            "ns-3's mpi module is not built in: run ./ai-fabric mpi-setup and configure "
            "with -DAI_FABRIC_MPI=ON (examples/mpi-fattree-flows is missing)"
        )
    if shutil.which("mpirun") is None:
        pytest.skip("mpirun is missing (Debian: openmpi-bin; ./ai-fabric mpi-setup)")


def _mpirun(n):
    cmd = ["mpirun", "-np", str(n), "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def _rows(prefix, ranks):
    rows = []
    for r in range(ranks):
        lines = pathlib.Path(f"{prefix}.rank{r}").read_text().splitlines()
        assert lines[0] == "id,src,dst,bytes,start_ps,end_ps"
        rows += lines[1:]
    return sorted(rows, key=lambda line: int(line.split(",")[0]))


# InfiniBand: the same messages, but not yet the same times: ns-3's
# DistributedSimulatorImpl orders events of equal time stamp by when they were
# inserted, and a frame from another rank is inserted at the start of a window, not
# when its sender scheduled it, so equal-time arrivals at a switch (every host starts
# at once here) can be taken in another order than in one process. On this fabric that
# swaps which of two flows waits one packet time (doc/distributed.md, Lookahead and
# ties). strict: the test fails once the two agree, to be made a plain test then.
IB_TIES = pytest.mark.xfail(
    reason="equal-time ties across ranks (doc/distributed.md)", strict=True
)


@pytest.mark.parametrize("fabric", ["roce", pytest.param("ib", marks=IB_TIES)])
def test_two_ranks_equal_one_process(tmp_path, fabric):
    _require()
    args = [f"--fabric={fabric}", "--k=4", "--bytes=262144", "--stop=1ms"]
    one = subprocess.run(
        [str(PROGRAM), *args, f"--csv={tmp_path}/one"],
        capture_output=True, text=True, timeout=300,
    )
    assert one.returncode == 0, one.stderr
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1")
    two = subprocess.run(
        [*_mpirun(2), str(PROGRAM), "--mpi", *args, f"--csv={tmp_path}/two"],
        capture_output=True, text=True, timeout=300, env=env,
    )
    assert two.returncode == 0, two.stdout + two.stderr
    # Each rank reports its part: 8 of the 16 hosts, cables to the other rank.
    assert "rank 0/2" in two.stdout and "rank 1/2" in two.stdout, two.stdout
    assert "ns3::DistributedSimulatorImpl" in two.stdout, two.stdout
    expected = _rows(f"{tmp_path}/one", 1)
    got = _rows(f"{tmp_path}/two", 2)
    assert len(expected) == 16, one.stdout
    # Every message finished once, on the rank of its sender (hosts 0-7: rank 0).
    rank0 = pathlib.Path(f"{tmp_path}/two.rank0").read_text().splitlines()[1:]
    assert sorted(int(r.split(",")[1]) for r in rank0) == list(range(8))
    assert got == expected
