# SPDX-License-Identifier: GPL-2.0-only
"""doc/validation.md's table shows what the tests measure.

Every row names, in its last column, the test suite that measures it and the key the
suite prints ("validation: KEY = VALUE", ReportValidation in test/ai-fabric-test-util.h;
"KEY.expected" too when the expected value is computed, e.g. a closed form). This runs
each named suite once and checks that the table's "ours" (and a computed "expected")
is the printed value at the precision the table shows, and that the ratio column is
ours / expected. The suites themselves assert the bounds.
"""

import os
import re
import subprocess

import pytest

NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def _runner(build_dir):
    runner = build_dir / "ai-fabric-test-runner"
    if not runner.is_file() or not os.access(runner, os.X_OK):
        pytest.skip(f"ai-fabric-test-runner is not built ({runner})")
    return runner


def _rows(source_dir):
    lines = (source_dir / "doc" / "validation.md").read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| figure |"))
    names = [c.strip() for c in lines[header].strip("|").split("|")]
    rows = []
    for line in lines[header + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append(dict(zip(names, cells)))
    return rows


def _number(cell):
    """The first number of a cell and its decimals ('1,234.5 us' -> (1234.5, 1))."""
    m = NUMBER.search(cell)
    assert m, f"no number in {cell!r}"
    text = m.group(0).replace(",", "")
    decimals = len(text.split(".")[1]) if "." in text else 0
    return float(text), decimals


def _shown(doc_cell, value):
    """True if doc_cell's number is value rounded to the decimals it shows."""
    shown, decimals = _number(doc_cell)
    return abs(shown - value) <= 0.5 * 10 ** -decimals * 1.001


def test_every_row_is_what_its_suite_prints(source_dir, build_dir):
    cache = build_dir / "CMakeCache.txt"
    if cache.is_file() and "AI_FABRIC_SANITIZE:BOOL=ON" in cache.read_text():
        # The sanitizer run already runs these suites; their figures are the same.
        pytest.skip("the table is checked by the plain build's run")
    runner = _runner(build_dir)
    rows = _rows(source_dir)
    assert len(rows) >= 10
    suites = {}
    for row in rows:
        m = re.fullmatch(r"`(ai-fabric-[\w-]+)` `([\w.-]+)`", row["measured by"])
        assert m, f"row {row['figure']!r}: 'measured by' is not `SUITE` `KEY`"
        suites.setdefault(m.group(1), []).append((m.group(2), row))
    for suite, keyed in suites.items():
        r = subprocess.run([str(runner), f"--suite={suite}", "--fullness=EXTENSIVE", "--verbose"],
                           capture_output=True, text=True, timeout=900, check=False,
                           cwd=build_dir)
        assert r.returncode == 0, f"{suite} failed:\n{r.stdout[-3000:]}"
        printed = dict(re.findall(r"^validation: (\S+) = (\S+)$", r.stdout, re.M))
        for key, row in keyed:
            assert key in printed, f"{suite} does not print {key}"
            ours = float(printed[key])
            assert _shown(row["ours"], ours), f"{key}: table {row['ours']!r}, measured {ours}"
            if key + ".expected" in printed:
                expected = float(printed[key + ".expected"])
                assert _shown(row["expected"], expected), \
                    f"{key}: table expects {row['expected']!r}, computed {expected}"
            else:
                expected, _ = _number(row["expected"])
            ratio, decimals = _number(row["ours / expected"])
            assert abs(ratio - ours / expected) <= 10 ** -decimals, \
                f"{key}: ratio {ratio} is not {ours / expected:.4f}"
