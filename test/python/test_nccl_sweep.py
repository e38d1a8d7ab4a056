# SPDX-License-Identifier: GPL-2.0-only
"""analysis/nccl-table's one-command form: the nccl-tests sweep on a preset cluster.

`nccl-table --cluster=NAME --servers=N --min-bytes --max-bytes --step-factor
--algorithms=...` runs ai-fabric-sim once per algorithm and size, prints nccl-tests'
table per algorithm (with what ran: NCCL's tuner's pick under auto) and plots busbw and
time against size (nccl-sweep.png). A small version (three sizes, two algorithms, one
DGX H100-class server) checks the table, the CSV against the runs' summaries, the plot,
and the refusals of bad input (exit 2, one message).
"""

import json
import pathlib
import subprocess
import sys

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
NCCL_TABLE = SOURCE / "analysis" / "nccl-table"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def nccl_table(sim, *args):
    return subprocess.run([sys.executable, str(NCCL_TABLE), "--sim=%s" % sim, *args],
                          capture_output=True, text=True, timeout=600, check=False)


def test_sweep_on_a_preset_cluster(ai_fabric_sim, tmp_path):
    out = tmp_path / "sweep"
    r = nccl_table(ai_fabric_sim, "--cluster=dgx-h100-ndr", "--servers=1", "--min-bytes=8",
                   "--max-bytes=32K", "--step-factor=64", "--algorithms=ring,auto",
                   "--out=%s" % out)
    assert r.returncode == 0, r.stderr
    # one nccl-tests block per algorithm, sizes 8, 512, 32768 (-b 8 -e 32K -f 64)
    assert "# allreduce, --algorithm=ring, 8 ranks; --cluster=dgx-h100-ndr --servers=1" \
        in r.stdout
    assert "# allreduce, --algorithm=auto, 8 ranks" in r.stdout
    assert r.stdout.count("# Avg bus bandwidth") == 2
    rows = (out / "nccl-table.csv").read_text().strip().split("\n")
    header = rows[0].split(",")
    body = [dict(zip(header, row.split(","))) for row in rows[1:]]
    assert [(b["requested_algorithm"], int(b["size_bytes"])) for b in body] == [
        (a, s) for a in ("ring", "auto") for s in (8, 512, 32768)]
    for b in body:
        run = next((out / b["requested_algorithm"]).glob("*-bytes=%s" % b["size_bytes"]))
        job = json.loads((run / "summary.json").read_text())["collectives"][0]
        assert float(b["time_us"]) == pytest.approx(job["durations_ns"][0] / 1e3, rel=1e-9)
        assert float(b["busbw_GBps"]) == pytest.approx(job["busbw_gbps"] / 8, rel=1e-6)
        assert b["algorithm_protocol"] == "%s/%s" % (job["algorithm"], job["protocol"])
        line = "%12d  %12d  %8s  %6s  %9.2f" % (int(b["size_bytes"]), int(b["count"]),
                                                  "float", "sum", float(b["time_us"]))
        assert line in r.stdout
        # NCCL_PROTO unset: LL for the small sizes, as NCCL's model picks on one server
        assert job["protocol"] == "ll", b
    # the plot: busbw and time against size, one line per algorithm
    png = out / "nccl-sweep.png"
    assert png.read_bytes()[:8] == PNG_MAGIC and png.stat().st_size > 5000
    script = png.with_suffix(".gp").read_text()
    assert "busbw (GB/s)" in script and "time (us)" in script
    assert "title 'ring'" in script and "title 'auto'" in script


@pytest.mark.parametrize("args,message", [
    (["--min-bytes=8x"], "--min-bytes: '8x' is not a size"),
    (["--min-bytes=1K", "--max-bytes=8"], "--max-bytes: 8 is below --min-bytes 1024"),
    (["--step-factor=1"], "--step-factor: 1; allowed: an integer of at least 2"),
    (["--algorithms=ring,bogus"], "--algorithm: 'bogus'"),
], ids=["size", "order", "factor", "algorithm"])
def test_sweep_refuses_bad_input(ai_fabric_sim, tmp_path, args, message):
    out = tmp_path / "sweep"
    r = nccl_table(ai_fabric_sim, "--cluster=dgx-h100-ndr", "--max-bytes=8",
                   "--out=%s" % out, "--no-plots", *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.startswith("nccl-table: error: ") and message in r.stderr, r.stderr
