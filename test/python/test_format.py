# SPDX-License-Identifier: GPL-2.0-only
"""Every C++ file of the module is formatted as the repository's .clang-format says.

The style is ns-3.37's (.clang-format at the root); Debian 12's clang-format 14 reads
it. A file that `clang-format -i` would change fails this test, with the files named.
Skipped only when no clang-format 14 is installed (the sanitizer stage's clang-14
packages do not include it: `apt-get install clang-format-14`).
"""

import pathlib
import shutil
import subprocess

import pytest

from conftest import SOURCE_DIR

# The folders that hold the module's C++ sources (build trees and fetched code live
# elsewhere or are ignored by git).
CXX_DIRS = ("model", "helper", "test", "examples", "bench", "bindings", "utils")


def _cxx_files():
    files = []
    for d in CXX_DIRS:
        root = SOURCE_DIR / d
        if root.is_dir():
            files += [p for p in root.rglob("*") if p.suffix in (".cc", ".h") and p.is_file()]
    return sorted(files)


def _clang_format():
    for name in ("clang-format-14", "clang-format"):
        exe = shutil.which(name)
        if exe:
            version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
            if "version 14." in version:
                return exe
    return None


def test_cxx_sources_are_clang_formatted():
    exe = _clang_format()
    if exe is None:
        pytest.skip("clang-format 14 is not installed (apt-get install clang-format-14)")
    files = _cxx_files()
    assert len(files) > 100, f"found only {len(files)} C++ files under {SOURCE_DIR}"
    bad = []
    # In batches: one process per file would take ~10x longer.
    for i in range(0, len(files), 100):
        batch = [str(p) for p in files[i : i + 100]]
        r = subprocess.run(
            [exe, "--dry-run", "--Werror", "--style=file", *batch],
            capture_output=True,
            text=True,
            cwd=SOURCE_DIR,
        )
        if r.returncode != 0:
            for line in r.stderr.splitlines():
                if ": error:" in line:
                    path = line.split(":", 1)[0]
                    if path not in bad:
                        bad.append(path)
            assert bad, f"clang-format failed without naming a file: {r.stderr[:2000]}"
    rel = [str(pathlib.Path(p).relative_to(SOURCE_DIR)) for p in bad]
    assert not rel, "not clang-format clean (run clang-format-14 -i on them): " + ", ".join(rel)
