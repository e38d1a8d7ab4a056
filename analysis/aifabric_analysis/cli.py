# SPDX-License-Identifier: GPL-2.0-only
"""plot-tails: tail tables and plots from ai-fabric output directories."""

import argparse
import os
import sys

from . import AnalysisError
from . import plots
from .gnuplot import find_gnuplot
from .outdir import Run, parse_port
from .tails import format_table, tail_rows, write_tails_csv

USAGE_EPILOG = """\
one OUT_DIR: tails.csv and tails-*.png are written into it (or into --into DIR).
several OUT_DIRs: a comparison (one line per run) is written into --into DIR,
  which is required then. Runs are labelled by summary.json's "label" / "name"
  (top level or under "config"), else by the directory name.
exit status: 0 done, 2 bad input (message on stderr)."""


def build_parser():
    p = argparse.ArgumentParser(
        prog="plot-tails",
        description="Percentile tables (count, p50, p90, p99, p99.9, max) of FCT slowdown "
                    "by flow size, collective duration and packet delay, and gnuplot plots.",
        epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out_dirs", nargs="+", metavar="OUT_DIR", help="ai-fabric --out directory")
    p.add_argument("--into", metavar="DIR", help="write here instead of into OUT_DIR")
    p.add_argument("--port", metavar="NODE:PORT",
                   help="port for the queue / pause timelines (default: most pause events, "
                        "else the largest queue)")
    p.add_argument("--format", choices=("png", "svg"), default="png", help="image format")
    p.add_argument("--no-plots", action="store_true", help="tables only (no gnuplot needed)")
    p.add_argument("--gnuplot", metavar="PATH", help="gnuplot executable (default: on PATH)")
    return p


def run(argv=None, out=sys.stdout):
    """Do the work; raises AnalysisError on bad input. Returns the files written."""
    args = build_parser().parse_args(argv)
    port = parse_port(args.port) if args.port else None
    if len(args.out_dirs) > 1 and not args.into:
        raise AnalysisError("comparing %d runs needs --into DIR for the combined output"
                            % len(args.out_dirs))
    runs = [Run(d) for d in args.out_dirs]
    for r in runs:
        if not r.has_data():
            raise AnalysisError(
                "%s: nothing to analyse: no data rows in fct.csv, collective.csv, delay.csv, "
                "qlen.csv or pfc.csv" % r.directory)
    labels = [r.label for r in runs]
    if len(set(labels)) < len(labels):  # same basenames: fall back to the paths given
        for r in runs:
            r.label = os.path.normpath(r.directory)

    target = args.into or runs[0].directory
    os.makedirs(target, exist_ok=True)
    rows = [row for r in runs for row in tail_rows(r)]
    written = []
    tails_path = os.path.join(target, "tails.csv")
    write_tails_csv(tails_path, rows)
    written.append(tails_path)
    print(format_table(rows) if rows else
          "(no flows, collectives or packet delays: the table is empty)", file=out)

    notes = []
    if not args.no_plots:
        gp = find_gnuplot(args.gnuplot)
        if len(runs) == 1:
            written += plots.single_run(runs[0], target, gp, args.format, port, notes)
        else:
            written += plots.comparison(runs, target, gp, args.format, notes)
    for n in notes:
        print("note: " + n, file=out)
    print("wrote: " + ", ".join(written), file=out)
    return written


def command_main(run_fn, prog, argv=None):
    """Run one analysis command: exit status 0, or 2 with one 'PROG: error: ...' line."""
    try:
        run_fn(argv)
    except AnalysisError as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        return 2
    return 0


def main(argv=None):
    return command_main(run, "plot-tails", argv)
