# SPDX-License-Identifier: GPL-2.0-only
"""pytest set-up shared by test/python/test_*.py.

CTest runs each file with AI_FABRIC_BUILD_DIR (the CMake build directory),
AI_FABRIC_SIM (the ai-fabric-sim program, empty when it is not built) and
AI_FABRIC_SOURCE_DIR set. Run by hand (`python3 -m pytest test/python`), the
defaults are build/ and build/ai-fabric-sim of this checkout.
"""

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
