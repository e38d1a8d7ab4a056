# SPDX-License-Identifier: GPL-2.0-only
"""nccl-table's one-command form: run nccl-tests' size sweep on a preset cluster.

  analysis/nccl-table --cluster=dgx-h100-ndr --servers=2 --min-bytes=8 --max-bytes=8G \\
      --algorithms=ring,tree,auto

runs ai-fabric-sim once per (algorithm, size) -- sizes from --min-bytes to --max-bytes by
--step-factor, as all_reduce_perf -b -e -f does -- on --servers GPU servers of the
--cluster preset (--topology=rail), prints nccl-tests' table per algorithm (with the
algorithm and protocol that ran, which NCCL's tuner picks under auto, and the protocol
of a named algorithm: --protocol=auto is NCCL_PROTO unset) and plots busbw and time
against size (OUT/nccl-sweep.png, with its gnuplot script). Flags nccl-table does not
know are passed to every run (e.g. --fabric=rocev2, --iterations=5).
"""

import csv
import os
import re
import shutil
import subprocess

from . import AnalysisError
from .gnuplot import datablock, find_gnuplot, quote, render
from .nccl import BUSBW_FACTOR, REDOP, TYPE, TYPE_BYTES
from .sweepdir import read_points

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(flag, text):
    """A size as all_reduce_perf's -b/-e take it: bytes, or K/M/G (powers of 1024)."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)B?\s*", str(text), re.IGNORECASE)
    if not m or int(m.group(1)) == 0:
        raise AnalysisError("%s: '%s' is not a size; allowed: a positive byte count, or with "
                            "K, M, G (powers of 1024, as all_reduce_perf's -b and -e)"
                            % (flag, text))
    return int(m.group(1)) * _UNITS[m.group(2).upper()]


def sizes(min_bytes, max_bytes, factor):
    """min, min x factor, ... up to max (all_reduce_perf -b -e -f)."""
    if max_bytes < min_bytes:
        raise AnalysisError("--max-bytes: %d is below --min-bytes %d" % (max_bytes, min_bytes))
    if factor < 2:
        raise AnalysisError("--step-factor: %d; allowed: an integer of at least 2" % factor)
    out, s = [], min_bytes
    while s <= max_bytes:
        out.append(s)
        s *= factor
    return out


def find_sim(explicit):
    """ai-fabric-sim: --sim, $AI_FABRIC_SIM, this checkout's build/, or PATH."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for candidate in (explicit, os.environ.get("AI_FABRIC_SIM"),
                      os.path.join(here, "build", "ai-fabric-sim"),
                      shutil.which("ai-fabric-sim")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
        if explicit and candidate == explicit:
            raise AnalysisError("--sim: '%s' is not an executable file" % explicit)
    raise AnalysisError("ai-fabric-sim not found (--sim, $AI_FABRIC_SIM, build/ai-fabric-sim "
                        "of this checkout, PATH); build it or give --sim=PATH")


def run_points(args, extra, out_dir):
    """Run every (algorithm, size); return {algorithm: folder of its runs}."""
    sim = find_sim(args.sim)
    algorithms = [a for a in args.algorithms.split(",") if a]
    if not algorithms:
        raise AnalysisError("--algorithms: '%s' names none; e.g. ring,tree,auto"
                            % args.algorithms)
    points = sizes(parse_size("--min-bytes", args.min_bytes),
                   parse_size("--max-bytes", args.max_bytes), args.step_factor)
    folders = {}
    for algo in algorithms:
        folder = os.path.join(out_dir, algo)
        os.makedirs(folder, exist_ok=True)
        folders[algo] = folder
        for i, size in enumerate(points):
            run_dir = os.path.join(folder, "%04d-bytes=%d" % (i, size))
            cmd = [sim, "--cluster=" + args.cluster, "--topology=rail",
                   "--servers=%d" % args.servers, "--workload=" + args.workload,
                   "--bytes=%d" % size, "--algorithm=" + algo, "--protocol=" + args.protocol,
                   "--out=" + run_dir] + extra
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                last = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
                raise AnalysisError("%s failed (exit %d): %s" % (" ".join(cmd), r.returncode,
                                                                  last))
    return folders


def table_rows(algo, folder):
    """One row per size of one requested algorithm: nccl-tests' figures and what ran."""
    rows = []
    for p in read_points(folder):
        for job in p.summary.get("collectives") or []:
            durations = [float(d) for d in job.get("durations_ns") or [] if d and d > 0]
            if not durations:
                continue
            op, n, size = str(job["operation"]), int(job["ranks"]), int(job["bytes"])
            t_ns = sum(durations) / len(durations)
            algbw = size / t_ns  # bytes per ns = GB/s
            rows.append({"requested": algo, "operation": op, "ranks": n, "size": size,
                         "count": size // TYPE_BYTES, "type": TYPE,
                         "redop": REDOP.get(op, "none"), "iterations": len(durations),
                         "time_us": t_ns / 1e3, "algbw": algbw,
                         "busbw": algbw * BUSBW_FACTOR[op](n),
                         "ran": "%s/%s" % (job.get("algorithm"), job.get("protocol"))})
    return sorted(rows, key=lambda r: r["size"])


def format_block(args, rows):
    head = rows[0]
    text = ["# %s, --algorithm=%s, %d ranks; --cluster=%s --servers=%d" % (
        head["operation"], head["requested"], head["ranks"], args.cluster, args.servers),
        "# %10s  %12s  %8s  %6s  %9s  %7s  %7s  %s" % (
            "size", "count", "type", "redop", "time", "algbw", "busbw", "algorithm/protocol"),
        "# %10s  %12s  %8s  %6s  %9s  %7s  %7s" % (
            "(B)", "(elements)", "", "", "(us)", "(GB/s)", "(GB/s)")]
    for r in rows:
        text.append("%12d  %12d  %8s  %6s  %9.2f  %7.2f  %7.2f  %s" % (
            r["size"], r["count"], r["type"], r["redop"], r["time_us"], r["algbw"],
            r["busbw"], r["ran"]))
    text.append("# Avg bus bandwidth    : %g" % (sum(r["busbw"] for r in rows) / len(rows)))
    return "\n".join(text)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["requested_algorithm", "operation", "ranks", "size_bytes", "count", "type",
                    "redop", "iterations", "time_us", "algbw_GBps", "busbw_GBps",
                    "algorithm_protocol"])
        for r in rows:
            w.writerow([r["requested"], r["operation"], r["ranks"], r["size"], r["count"],
                        r["type"], r["redop"], r["iterations"], format(r["time_us"], ".10g"),
                        format(r["algbw"], ".10g"), format(r["busbw"], ".10g"), r["ran"]])


def plot(args, blocks, out_dir, gp):
    """busbw (left) and time (right) against size, one line per algorithm."""
    data, busbw, time = [], [], []
    for k, (algo, rows) in enumerate(blocks):
        data.append(datablock("a%d" % k, [(r["size"], r["busbw"], r["time_us"]) for r in rows]))
        busbw.append("$a%d using 1:2 with linespoints lw 2 pt 7 lc %d title %s"
                     % (k, k + 1, quote(algo)))
        time.append("$a%d using 1:3 with linespoints lw 2 pt 7 lc %d title %s"
                    % (k, k + 1, quote(algo)))
    what = "%s on %d x %s" % (blocks[0][1][0]["operation"], args.servers, args.cluster)
    body = data + [
        "set multiplot layout 1,2 title %s" % quote("nccl-tests sweep: " + what),
        "set grid", "set key top left", "set logscale x 2", "set format x '2^{%L}'",
        "set xlabel 'size (bytes)'", "set ylabel 'busbw (GB/s)'", "set yrange [0:*]",
        "set title 'bus bandwidth'",
        "plot " + ", \\\n     ".join(busbw),
        "set logscale y", "set yrange [*:*]", "set ylabel 'time (us)'",
        "set title 'time per operation'",
        "plot " + ", \\\n     ".join(time),
        "unset multiplot",
    ]
    image = os.path.join(out_dir, "nccl-sweep.png")
    return render(gp, "png", image, "\n".join(body))


def run_sweep(args, extra, out):
    """The one-command form: run, print the tables, write the CSV and the plot."""
    if args.directory is not None:
        raise AnalysisError("give either DIR (a sweep's folder) or --cluster (run one), "
                            "not both")
    if args.servers < 1:
        raise AnalysisError("--servers: %d; allowed: 1 or more" % args.servers)
    bad = [e for e in extra if not e.startswith("--")]
    if bad:
        raise AnalysisError("'%s': not a flag; allowed: nccl-table's options, or --flag=value "
                            "of ai-fabric-sim passed to every run" % bad[0])
    gp = None if args.no_plots else find_gnuplot()
    out_dir = args.out or "nccl-sweep-%s-%d" % (args.cluster, args.servers)
    if os.path.exists(out_dir) and os.listdir(out_dir):
        raise AnalysisError("--out: '%s' exists and is not empty; give a new folder" % out_dir)
    os.makedirs(out_dir, exist_ok=True)
    folders = run_points(args, extra, out_dir)
    blocks, everything = [], []
    for algo, folder in folders.items():
        rows = table_rows(algo, folder)
        if not rows:
            raise AnalysisError("%s: no finished collective" % folder)
        blocks.append((algo, rows))
        everything.extend(rows)
    print("\n\n".join(format_block(args, rows) for _, rows in blocks), file=out)
    written = [os.path.join(out_dir, "nccl-table.csv")]
    write_csv(written[0], everything)
    if gp is not None:
        written.append(plot(args, blocks, out_dir, gp))
    print("wrote: " + ", ".join(written), file=out)
    return written
