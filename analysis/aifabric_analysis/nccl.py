# SPDX-License-Identifier: GPL-2.0-only
"""nccl-table: a sweep over --bytes of a collective, printed as nccl-tests prints it.

nccl-tests' PERFORMANCE.md (https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md)
defines what it reports per size S:
  time   the average time of one operation (us)
  algbw  S / time (GB/s, 1 GB = 10^9 bytes)
  busbw  algbw x 2(n-1)/n for allreduce, x (n-1)/n for reducescatter, allgather and
         alltoall, x 1 for broadcast and reduce (n ranks)
S is the size in bytes of the whole array: what ai-fabric's --bytes is (its
collective.csv and summary.json compute algbw and busbw from it the same way, in Gbit/s).
The rows here take the mean of every iteration's duration of every seed as the time,
as nccl-tests averages its iterations; count is S / 4 float32 elements.
"""

import argparse
import csv
import os
import sys

from . import AnalysisError
from .cli import command_main
from .sweepdir import SEED, read_points, value_key, varying_keys

BUSBW_FACTOR = {
    "allreduce": lambda n: 2.0 * (n - 1) / n,
    "reducescatter": lambda n: (n - 1) / float(n),
    "allgather": lambda n: (n - 1) / float(n),
    "alltoall": lambda n: (n - 1) / float(n),
    "broadcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
}
REDOP = {"allreduce": "sum", "reducescatter": "sum", "reduce": "sum"}
TYPE, TYPE_BYTES = "float", 4

CSV_HEADER = ("operation", "algorithm", "ranks", "size_bytes", "count", "type", "redop",
              "iterations", "time_us", "algbw_GBps", "busbw_GBps")


def build_parser():
    p = argparse.ArgumentParser(
        prog="nccl-table",
        description="The table nccl-tests prints (size, count, type, redop, time, algbw, "
                    "busbw) for a sweep of a collective over --bytes; also DIR/nccl-table.csv.",
        epilog="DIR: the out= folder of aifabric.sweep(base, {'bytes': [...]}), one run "
               "directory per size. Knobs other than bytes and seed that vary split the "
               "table in one block per combination.\n"
               "exit status: 0 done, 2 bad input (no runs, no collective; message on stderr)")
    p.add_argument("directory", metavar="DIR", help="folder of a sweep's run directories")
    return p


def rows_of(points, split_axes):
    """Table rows: {settings, operation, algorithm, ranks, size, durations}, one per
    (settings, job's operation, algorithm, ranks, size) over every seed."""
    rows = {}
    for p in points:
        for job in p.summary.get("collectives") or []:
            if not isinstance(job, dict):
                continue
            durations = [float(d) for d in job.get("durations_ns") or []
                         if isinstance(d, (int, float)) and d > 0]
            if not durations:
                continue
            op = str(job.get("operation"))
            if op not in BUSBW_FACTOR:
                raise AnalysisError("%s: collective operation %r; allowed: %s" % (
                    p.directory, op, ", ".join(sorted(BUSBW_FACTOR))))
            settings = tuple((a, p.config.get(a)) for a in split_axes)
            key = (tuple(value_key(v) for _, v in settings), op, job.get("algorithm"),
                   int(job.get("ranks")), int(job.get("bytes")))
            row = rows.setdefault(key, {"settings": settings, "operation": op,
                                        "algorithm": str(job.get("algorithm")),
                                        "ranks": int(job.get("ranks")),
                                        "size": int(job.get("bytes")), "durations": []})
            row["durations"].extend(durations)
    out = []
    for row in rows.values():
        n = row["ranks"]
        t_ns = sum(row["durations"]) / len(row["durations"])
        algbw = row["size"] / t_ns  # bytes per ns = GB/s
        row.update(time_us=t_ns / 1e3, algbw=algbw,
                   busbw=algbw * BUSBW_FACTOR[row["operation"]](n),
                   count=row["size"] // TYPE_BYTES, type=TYPE,
                   redop=REDOP.get(row["operation"], "none"))
        out.append(row)
    return out


def format_tables(rows):
    """nccl-tests' layout, one block per (settings, operation, algorithm, ranks)."""
    blocks = {}
    for r in sorted(rows, key=lambda r: r["size"]):
        head = (r["settings"], r["operation"], r["algorithm"], r["ranks"])
        blocks.setdefault(head, []).append(r)
    text = []
    for (settings, op, algo, ranks), members in blocks.items():
        what = ", ".join("%s=%s" % (a.rsplit("::", 1)[-1], v) for a, v in settings)
        text.append("# %s, %s, %d ranks%s" % (op, algo, ranks, ("; " + what) if what else ""))
        text.append("# %10s  %12s  %8s  %6s  %9s  %7s  %7s" % (
            "size", "count", "type", "redop", "time", "algbw", "busbw"))
        text.append("# %10s  %12s  %8s  %6s  %9s  %7s  %7s" % (
            "(B)", "(elements)", "", "", "(us)", "(GB/s)", "(GB/s)"))
        for r in members:
            text.append("%12d  %12d  %8s  %6s  %9.2f  %7.2f  %7.2f" % (
                r["size"], r["count"], r["type"], r["redop"], r["time_us"], r["algbw"],
                r["busbw"]))
        text.append("# Avg bus bandwidth    : %g" % (
            sum(r["busbw"] for r in members) / len(members)))
        text.append("")
    return "\n".join(text).rstrip("\n")


def write_csv(path, rows, split_axes):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(split_axes) + list(CSV_HEADER))
        for r in sorted(rows, key=lambda r: (tuple(value_key(v) for _, v in r["settings"]),
                                             r["operation"], r["ranks"], r["size"])):
            w.writerow([("" if v is None else v) for _, v in r["settings"]] + [
                r["operation"], r["algorithm"], r["ranks"], r["size"], r["count"], r["type"],
                r["redop"], len(r["durations"]), format(r["time_us"], ".10g"),
                format(r["algbw"], ".10g"), format(r["busbw"], ".10g")])


def run(argv=None, out=sys.stdout):
    args = build_parser().parse_args(argv)
    points = read_points(args.directory)
    axes = varying_keys(points) if len(points) > 1 else []
    split_axes = [a for a in axes if a not in ("bytes", SEED)]
    rows = rows_of(points, split_axes)
    if not rows:
        raise AnalysisError(
            "%s: no finished collective in any of the %d runs (summary.json collectives[]."
            "durations_ns is empty); nccl-table needs --workload=allreduce, allgather or "
            "reducescatter" % (args.directory, len(points)))
    print(format_tables(rows), file=out)
    path = os.path.join(args.directory, "nccl-table.csv")
    write_csv(path, rows, split_axes)
    print("wrote: " + path, file=out)
    return [path]


def main(argv=None):
    return command_main(run, "nccl-table", argv)
