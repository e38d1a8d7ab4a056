# SPDX-License-Identifier: GPL-2.0-only
"""The cost of --attribution, asserted as instruction counts (doc/attribution.md, "Cost"):
"off costs nothing" and "on, the medium scenario within 1.3x of off" (issue 53).

callgrind counts the instructions a run executes, which do not depend on the machine's
load: the bounds hold or fail the same on an idle desk and on a busy CI runner. The run
is the medium benchmark scenario (bench/ai-fabric-bench.cc: fat-tree k=8, MTU 4096, ring
allreduce of 64 MB under DCQCN, WebSearch background at load 0.3 for 10 ms) scaled down
by 8: k=4 (16 ranks, so that each ring transfer is still 500 kB), 8 MB, 1.25 ms of
background (about 0.5 G instructions; both runs under valgrind at once took 30 s at load
12 on 2 cores, 71 s beside the rest of `ctest -j2`).

What it cannot see: the checks that stay inline on the packet path when attribution is
off (a frame's journey is 0, the NIC's attribution pointer is null). They are a few
instructions per hop, measured by comparing builds with and without them (the doc's
"Cost"), not by this test.
"""

import re
import shutil
import subprocess

import pytest

# The medium scenario scaled down (the module docstring says how).
SCALED_MEDIUM = ["--topology=fattree", "--k=4", "--mtu=4096", "--workload=allreduce",
                 "--algorithm=ring", "--bytes=8MB", "--cc=dcqcn", "--background=websearch",
                 "--load=0.3", "--background-duration=1250us", "--qlen-interval=0"]

# Functions that exist for attribution alone: the model, the recorder, the InfiniBand
# journey tag, and the fabrics' hooks (kept out of line: [[gnu::noinline, gnu::cold]]).
ATTRIBUTION_CODE = re.compile(
    r"\b(FctAttribution|AttributionRecorder|IbJourneyTag)::"
    r"|\b(RoceNetDevice|IbNetDevice)::(NoteJourney|NoteCreditStarvation)\("
    r"|\bRoceNic::NoteArrival\(")

ON_OFF_BOUND = 1.3  # the bound for the medium scenario
OFF_SHARE_BOUND = 0.005  # "off costs nothing": under 0.5% of the run in attribution code


def sanitizer_build(build_dir):
    cache = build_dir / "CMakeCache.txt"
    return cache.is_file() and "AI_FABRIC_SANITIZE:BOOL=ON" in cache.read_text()


@pytest.fixture(scope="module")
def callgrind(ai_fabric_sim, build_dir):
    """valgrind and callgrind_annotate: ./ai-fabric test installs them (valgrind is in
    utils/debian-packages.txt); a plain build without them fails rather than passing
    unchecked. Skipped only where the program cannot run under valgrind: the sanitizer
    build (ASan's shadow memory and valgrind's do not mix)."""
    if sanitizer_build(build_dir):
        pytest.skip("AddressSanitizer build: its programs cannot run under valgrind "
                    "(the plain build runs this test)")
    missing = [t for t in ("valgrind", "callgrind_annotate") if shutil.which(t) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: install the Debian package "
                    "valgrind (./ai-fabric test does; utils/debian-packages.txt)")
    return ai_fabric_sim


def total_instructions(profile):
    """The run's instruction count from callgrind's output file (its totals line)."""
    text = profile.read_text(errors="replace")
    match = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M)
    assert match, f"{profile}: no totals line"
    return int(match.group(1))


def function_costs(profile, inclusive):
    """{function: instructions} of every function of the profile (callgrind_annotate,
    no threshold), self or inclusive of what it calls."""
    out = subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}",
         "--threshold=100", str(profile)],
        capture_output=True, text=True, check=True, timeout=300).stdout
    costs = {}
    for line in out.splitlines():
        match = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S.*)$", line)
        if match and "PROGRAM TOTALS" not in line:
            name = match.group(2)
            costs[name] = costs.get(name, 0) + int(match.group(1).replace(",", ""))
    assert costs, f"callgrind_annotate printed no functions for {profile}"
    return costs


@pytest.fixture(scope="module")
def profiles(callgrind, tmp_path_factory):
    """callgrind profiles of the scaled medium run with attribution off and on (both
    at once: instruction counts do not care), with their output directories."""
    base = tmp_path_factory.mktemp("attribution-cost")
    runs = {}
    for on in (0, 1):
        profile = base / f"callgrind.{on}"
        out = base / f"out{on}"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
               str(callgrind), *SCALED_MEDIUM, f"--attribution={on}", f"--out={out}"]
        runs[on] = (subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True), profile, out)
    result = {}
    for on, (proc, profile, out) in runs.items():
        log, _ = proc.communicate(timeout=900)
        assert proc.returncode == 0, log[-3000:]
        result[on] = (profile, out)
    return result


def test_on_within_the_bound_of_off(profiles):
    off = total_instructions(profiles[0][0])
    on = total_instructions(profiles[1][0])
    # Attribution observes: the simulation itself is the same.
    assert (profiles[0][1] / "fct.csv").read_bytes() == (profiles[1][1] / "fct.csv").read_bytes()
    assert (profiles[1][1] / "attribution.csv").is_file()
    assert on / off <= ON_OFF_BOUND, (
        f"--attribution=1 took {on:,} instructions, {on / off:.3f}x the {off:,} of "
        f"--attribution=0 (bound {ON_OFF_BOUND}x)")


def test_off_runs_no_attribution_code(profiles):
    # Inclusive costs, summed over every attribution function (nested ones counted
    # twice: an upper bound), against the whole run.
    off_total = total_instructions(profiles[0][0])
    off = {f: c for f, c in function_costs(profiles[0][0], inclusive=True).items()
           if ATTRIBUTION_CODE.search(f)}
    share = sum(off.values()) / off_total
    assert share < OFF_SHARE_BOUND, (
        f"--attribution=0 spent {share:.3%} of {off_total:,} instructions in attribution "
        f"code (bound {OFF_SHARE_BOUND:.1%}): "
        + ", ".join(f"{f} {c:,}" for f, c in sorted(off.items(), key=lambda x: -x[1])[:5]))
    # The pattern finds the attribution code where it runs: with it on, its own
    # instructions (self cost) are a visible part of the run, so the check above
    # does not pass merely because the names moved.
    on_total = total_instructions(profiles[1][0])
    on = sum(c for f, c in function_costs(profiles[1][0], inclusive=False).items()
             if ATTRIBUTION_CODE.search(f))
    assert on / on_total > 0.01, (on, on_total)
