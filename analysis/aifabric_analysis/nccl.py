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
        usage="%(prog)s DIR\n       %(prog)s --cluster=NAME [--servers=N] [--min-bytes=8] "
              "[--max-bytes=8G] [--step-factor=2] [--algorithms=ring,tree,auto] [--out=DIR] "
              "[--flag=value of ai-fabric-sim ...]",
        description="The table nccl-tests prints (size, count, type, redop, time, algbw, "
                    "busbw) for a sweep of a collective over --bytes; also DIR/nccl-table.csv. "
                    "With --cluster it runs the sweep itself (ai-fabric-sim, one run per "
                    "algorithm and size, as all_reduce_perf -b -e -f) on GPU servers of that "
                    "preset, prints a table per algorithm and plots busbw and time against "
                    "size (OUT/nccl-sweep.png).",
        epilog="DIR: the out= folder of aifabric.sweep(base, {'bytes': [...]}), one run "
               "directory per size. Knobs other than bytes and seed that vary split the "
               "table in one block per combination. With --cluster, flags nccl-table does "
               "not know are passed to every run.\n"
               "exit status: 0 done, 2 bad input (no runs, no collective, a failed run; "
               "message on stderr)")
    p.add_argument("directory", metavar="DIR", nargs="?", default=None,
                   help="folder of a sweep's run directories")
    g = p.add_argument_group("running the sweep (--cluster)")
    g.add_argument("--cluster", help="hardware preset (ai-fabric-sim --cluster), e.g. "
                   "dgx-h100-ndr; runs the sweep on --topology=rail")
    g.add_argument("--servers", type=int, default=1, help="GPU servers (default 1)")
    g.add_argument("--min-bytes", default="8", help="smallest size (-b): bytes or K/M/G "
                   "(powers of 1024); default 8")
    g.add_argument("--max-bytes", default="8G", help="largest size (-e); default 8G")
    g.add_argument("--step-factor", type=int, default=2, help="size factor (-f); default 2")
    g.add_argument("--algorithms", default="ring,tree,auto",
                   help="comma-separated --algorithm values, one table each (auto: NCCL's "
                        "tuner, as NCCL_ALGO unset); default ring,tree,auto")
    g.add_argument("--protocol", default="auto", help="--protocol of every run; default auto "
                   "(NCCL_PROTO unset: the tuner picks it per size)")
    g.add_argument("--workload", default="allreduce", help="collective; default allreduce")
    g.add_argument("--out", help="new folder for the runs, table and plot; default "
                   "nccl-sweep-CLUSTER-SERVERS")
    g.add_argument("--sim", help="ai-fabric-sim to run (default: $AI_FABRIC_SIM, this "
                   "checkout's build/, PATH)")
    g.add_argument("--no-plots", action="store_true", help="the tables only (no gnuplot)")
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
    args, extra = build_parser().parse_known_args(argv)
    if args.cluster is not None:
        from .ncclsweep import run_sweep  # (imports this module's tables)

        return run_sweep(args, extra, out)
    if extra:
        raise AnalysisError("unrecognized arguments: %s (flags for ai-fabric-sim need "
                            "--cluster)" % " ".join(extra))
    if args.directory is None:
        raise AnalysisError("give DIR (a sweep's folder) or --cluster=NAME (run the sweep)")
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
