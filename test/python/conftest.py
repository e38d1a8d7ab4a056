# SPDX-License-Identifier: GPL-2.0-only
"""pytest set-up shared by test/python/test_*.py.

CTest runs each file with AI_FABRIC_BUILD_DIR (the CMake build directory),
AI_FABRIC_SIM (the ai-fabric-sim program, empty when it is not built) and
AI_FABRIC_SOURCE_DIR set. Run by hand (`python3 -m pytest test/python`), the
defaults are build/ and build/ai-fabric-sim of this checkout.
"""

import csv
import os
import pathlib
import sys

import pytest

SOURCE_DIR = pathlib.Path(
    os.environ.get("AI_FABRIC_SOURCE_DIR") or pathlib.Path(__file__).resolve().parents[2]
)
BUILD_DIR = pathlib.Path(os.environ.get("AI_FABRIC_BUILD_DIR") or SOURCE_DIR / "build")

# The pybind11 module `aifabric` (bindings/) is built into the build tree, and
# analysis/ holds the Python readers of out/: make both importable.
for path in (BUILD_DIR / "python", BUILD_DIR, SOURCE_DIR / "analysis"):
    if path.is_dir() and str(path) not in sys.path:
        sys.path.insert(0, str(path))


@pytest.fixture(scope="session")
def source_dir():
    """The repository root."""
    return SOURCE_DIR


@pytest.fixture(scope="session")
def build_dir():
    """The CMake build directory."""
    return BUILD_DIR


@pytest.fixture(scope="session")
def ai_fabric_sim():
    """Path of the ai-fabric-sim program; the test is skipped when it is not built."""
    env = os.environ.get("AI_FABRIC_SIM")
    sim = pathlib.Path(env) if env else BUILD_DIR / "ai-fabric-sim"
    if not sim.is_file() or not os.access(sim, os.X_OK):
        pytest.skip(f"ai-fabric-sim is not built ({sim})")
    return sim


@pytest.fixture(scope="session")
def mpi_sim(ai_fabric_sim):
    """ai-fabric-sim for runs across MPI ranks; the test is skipped, saying why, without
    an MPI build or mpirun (mpi_runs.py)."""
    from mpi_runs import mpi_skip_reason  # pylint: disable=import-outside-toplevel
    reason = mpi_skip_reason(ai_fabric_sim)
    if reason:
        pytest.skip(reason)
    return ai_fabric_sim


def _read_nic_bytes(out):
    """{(server, rail): (bytes up the NIC cable, bytes down it)} of a rail topology's
    run with --port-bytes=1, from its ports.csv and topology.csv (the crossbar's port to
    rail leaf r is GPU r's NIC cable)."""
    tx = {}
    with open(out / "ports.csv") as f:
        for row in csv.DictReader(f):
            tx[(int(row["node"]), int(row["port"]))] = int(row["tx_bytes"])
    nics = {}
    with open(out / "topology.csv") as f:
        for row in csv.DictReader(f):
            if row["name"].endswith("-xbar") and row["peer_name"].startswith("rail"):
                server = int(row["name"][len("server"):-len("-xbar")])
                rail = int(row["peer_name"][len("rail"):])
                up = tx[(int(row["node"]), int(row["port"]))]
                down = tx[(int(row["peer"]), int(row["peer_port"]))]
                nics[(server, rail)] = (up, down)
    return nics


@pytest.fixture(scope="session")
def nic_bytes():
    """The reader of per-NIC bytes of a GPU-server run (see _read_nic_bytes)."""
    return _read_nic_bytes


def _sanitizer_build():
    """True in a build with AI_FABRIC_SANITIZE (./ai-fabric test --sanitize)."""
    cache = BUILD_DIR / "CMakeCache.txt"
    return cache.is_file() and "AI_FABRIC_SANITIZE:BOOL=ON" in cache.read_text()


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "figures: measures a figure (busbw, a validation row) on runs of many packets; "
        "skipped in sanitizer builds, where the same code paths run in the C++ suites "
        "and smaller runs, and the plain build checks the figure")


def pytest_collection_modifyitems(config, items):
    if not _sanitizer_build():
        return
    skip = pytest.mark.skip(reason="a figure on a large run: checked by the plain build")
    for item in items:
        if "figures" in item.keywords:
            item.add_marker(skip)
