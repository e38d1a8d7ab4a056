# SPDX-License-Identifier: GPL-2.0-only
"""explain-tail: where a run's tail comes from, from its attribution.csv
(--attribution=1, doc/attribution.md).

  analysis/explain-tail DIR [--format png|svg] [--no-plots] [--gnuplot PATH]

DIR is a run's --out (it holds attribution.csv) or a sweep's out= folder (one run
directory per point). Writes into DIR:
  explain-tail.txt                 the report (also printed): the dominant cause of the
                                   messages at or above the p99 slowdown, their mean
                                   shares, the ports where they waited longest
  explain-tail-components.png      stacked mean shares of the components per flow-size
                                   bucket and per message kind (a sweep: one panel per
                                   point)
  explain-tail-ports.png           the top ports by the tail messages' waits (queueing
                                   and pause), as a bar chart (a sweep: one panel per
                                   point)
  explain-tail-critical-path.png   with a collective (critical-path.csv): the critical
                                   path of its slowest operation as a timeline, each
                                   transfer's bar split by cause (a sweep: one panel per
                                   point)
"""

import argparse
import csv
import json
import os
import sys

from . import AnalysisError
from .gnuplot import datablock, find_gnuplot, quote, render
from .stats import percentile
from .tails import SIZE_BUCKETS, size_bucket

COMPONENTS = ("serialization", "propagation", "forwarding", "queueing", "pause", "cc",
              "qp_cache", "rnr", "retransmission", "host")
#: Each component's colour in the plots.
COLOURS = ("#7b3294", "#1b9e77", "#66a61e", "#e6ab02", "#d95f02", "#1f78b4", "#e7298a",
           "#333333", "#e31a1c", "#a6761d")
#: What each component means, for the report.
MEANING = {
    "serialization": "serialization (its own bytes on the wire)",
    "propagation": "propagation (cable delays)",
    "forwarding": "switch forwarding latency",
    "queueing": "queueing behind other packets",
    "pause": "PFC pause (RoCEv2) or credit starvation (InfiniBand)",
    "cc": "the sender held by its congestion control",
    "qp_cache": "QP-context cache misses",
    "rnr": "RNR waits",
    "retransmission": "retransmissions",
    "host": "host delays (receiver and sender)",
}


class Attributed:
    """One run's attribution rows, joined with fct.csv's slowdown and kind."""

    def __init__(self, directory):
        self.directory = directory
        self.label = os.path.basename(os.path.normpath(directory))
        path = os.path.join(directory, "attribution.csv")
        if not os.path.isfile(path):
            raise AnalysisError("%s: no attribution.csv (run with --attribution=1)"
                                % directory)
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c + "_ns" for c in COMPONENTS if c + "_ns" not in (reader.fieldnames
                                                                          or [])]
            if missing:
                raise AnalysisError("%s: not an attribution.csv (no column %s)"
                                    % (path, missing[0]))
            self.rows = list(reader)
        fct = {}
        fct_path = os.path.join(directory, "fct.csv")
        if os.path.isfile(fct_path):
            with open(fct_path, newline="") as f:
                for r in csv.DictReader(f):
                    fct[r["flow_id"]] = r
        for r in self.rows:
            f = fct.get(r["message_id"], {})
            r["kind"] = f.get("kind", "all")
            r["slowdown"] = float(f.get("slowdown", 1.0))
        self.path = []
        cpath = os.path.join(directory, "critical-path.csv")
        if os.path.isfile(cpath):
            with open(cpath, newline="") as f:
                self.path = list(csv.DictReader(f))
        self.summary = {}
        spath = os.path.join(directory, "summary.json")
        if os.path.isfile(spath):
            with open(spath) as f:
                self.summary = json.load(f)

    def tail(self):
        """The rows at or above the p99 slowdown, and that p99."""
        if not self.rows:
            return [], 0.0
        p99 = percentile([r["slowdown"] for r in self.rows], 99)
        return [r for r in self.rows if r["slowdown"] >= p99], p99


def shares(rows):
    """Mean share of each component of the FCTs of rows (0 for none)."""
    out = [0.0] * len(COMPONENTS)
    n = 0
    for r in rows:
        fct = float(r["fct_ns"])
        if fct <= 0:
            continue
        n += 1
        for i, c in enumerate(COMPONENTS):
            out[i] += float(r[c + "_ns"]) / fct
    return [s / n for s in out] if n else out


def top_ports(run, rows, limit=10):
    """[(label, queueing_ns, pause_ns)]: summary.json's top_ports if present, else the
    rows' hottest hops summed."""
    tail = run.summary.get("tail_attribution", {})
    if tail.get("top_ports"):
        return [("%s:%s/q%s" % (p["name"], p["port"], p["queue"]), float(p["queueing_ns"]),
                 float(p["pause_ns"])) for p in tail["top_ports"][:limit]]
    sums = {}
    for r in rows:
        if r["hottest_node"] == "":
            continue
        key = "node%s:%s/q%s" % (r["hottest_node"], r["hottest_port"], r["hottest_queue"])
        sums[key] = sums.get(key, 0.0) + float(r["hottest_wait_ns"])
    ranked = sorted(sums.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return [(k, v, 0.0) for k, v in ranked]


def report(run):
    """The text report of one run."""
    tail, p99 = run.tail()
    lines = ["%s: %d messages, p99 slowdown %.3f, %d at or above it"
             % (run.label, len(run.rows), p99, len(tail))]
    if not tail:
        return "\n".join(lines + ["  no messages: nothing to explain"])
    s = shares(tail)
    order = sorted(range(len(COMPONENTS)), key=lambda i: -s[i])
    dominant = COMPONENTS[order[0]]
    lines.append("  dominant cause of the tail: %s (%.1f%% of their FCT on average)"
                 % (MEANING[dominant], 100 * s[order[0]]))
    lines.append("  mean shares: " + ", ".join("%s %.1f%%" % (COMPONENTS[i], 100 * s[i])
                                               for i in order if s[i] > 0.0005))
    ports = top_ports(run, tail)
    if ports:
        name, q, p = ports[0]
        lines.append("  hottest port: %s (queueing %.1f us, pause %.1f us summed over the "
                     "tail messages)" % (name, q / 1000, p / 1000))
    slowest = run.summary.get("critical_path", {}).get("slowest")
    if slowest:
        lines.append("  critical path: " + slowest["explanation"])
    unattributed = sum(1 for r in run.rows if float(r["unattributed_ns"]) != 0)
    if unattributed:
        lines.append("  %d messages not attributed (RDMA READs)" % unattributed)
    return "\n".join(lines)


def component_panel(run, index):
    """Gnuplot commands of one run's stacked-share panel, data in $c<index>."""
    groups = []
    for name, _, _ in SIZE_BUCKETS:
        rows = [r for r in run.rows if size_bucket(int(r["size_bytes"])) == name]
        if rows:
            groups.append((name, rows))
    kinds = sorted({r["kind"] for r in run.rows})
    if len(kinds) > 1:
        for k in kinds:
            groups.append(("kind:" + k, [r for r in run.rows if r["kind"] == k]))
    tail, _ = run.tail()
    if tail:
        groups.append(("p99 tail", tail))
    data = []
    for name, rows in groups:
        data.append([quote(name).replace("'", '"')] + [100.0 * v for v in shares(rows)])
    block = "c%d" % index
    cols = " ".join(COMPONENTS)
    body = [datablock(block, data),
            "set title %s" % quote(run.label + ": share of FCT by cause"),
            "set style data histograms", "set style histogram rowstacked",
            "set style fill solid 0.85 border -1", "set boxwidth 0.75",
            "set ylabel 'share of FCT (%)'", "set yrange [0:100]",
            "set xtics rotate by -30", "set key outside right",
            "plot " + ", ".join("$%s using %d:xtic(1) title %s noenhanced lc rgb %s"
                                % (block, i + 2, quote(c), quote(COLOURS[i]))
                                for i, c in enumerate(cols.split()))]
    return "\n".join(body)


def ports_panel(run, index):
    """Gnuplot commands of one run's hot-port bar chart, data in $p<index>."""
    tail, _ = run.tail()
    ports = top_ports(run, tail)
    if not ports:
        ports = [("none", 0.0, 0.0)]
    block = "p%d" % index
    data = [['"%s"' % name, q / 1000, p / 1000] for name, q, p in ports]
    return "\n".join([
        datablock(block, data),
        "set title %s" % quote(run.label + ": where the p99 tail waited"),
        "set style data histograms", "set style histogram rowstacked",
        "set style fill solid 0.85 border -1", "set boxwidth 0.75",
        "set ylabel 'wait (us, summed over tail messages)'", "set yrange [0:*]",
        "set xtics rotate by -30 noenhanced", "set key top right",
        "plot $%s using 2:xtic(1) title 'queueing' lc rgb %s, '' using 3 title 'pause' "
        "lc rgb %s" % (block, quote(COLOURS[3]), quote(COLOURS[4]))])


def slowest_path(run):
    """The critical-path.csv rows of the slowest operation (by its path's end)."""
    ops = {}
    for r in run.path:
        ops.setdefault(r["op_id"], []).append(r)
    if not ops:
        return []
    return max(ops.values(), key=lambda rows: (max(float(r["end_ns"]) for r in rows)
                                               - min(float(r["start_ns"]) for r in rows)))


def path_panel(run, index):
    """Gnuplot commands of one run's critical-path timeline, data in $t<index>: one row
    per transfer, a bar from its post to its end split by cause in that order."""
    rows = slowest_path(run)
    block = "t%d" % index
    data = []
    for pos, r in enumerate(rows):
        start = float(r["start_ns"]) / 1000
        parts = [float(r[c + "_ns"]) / 1000 for c in COMPONENTS]
        data.append([pos, start] + parts + ['"%s->%s"' % (r["src_rank"], r["dst_rank"])])
    if not data:
        data = [[0, 0.0] + [0.0] * len(COMPONENTS) + ['"none"']]
    plots = []
    for i, c in enumerate(COMPONENTS):
        # bar i spans [start + sum(parts before i), + part i]
        lo = "($2" + "".join("+$%d" % (3 + k) for k in range(i)) + ")"
        plots.append("$%s using %s:1:(%s):(%s+$%d):($1-0.35):($1+0.35)%s with boxxyerror "
                     "fs solid 0.85 lc rgb %s title %s noenhanced"
                     % (block, lo, lo, lo, 3 + i, ":ytic(%d)" % (3 + len(COMPONENTS))
                        if i == 0 else "", quote(COLOURS[i]), quote(c)))
    return "\n".join([
        datablock(block, data),
        "set title %s" % quote(run.label + ": critical path of the slowest operation"),
        "set xlabel 'time (us)'", "set ylabel 'transfer (rank -> rank)'",
        "set yrange [-1:%d] reverse" % max(1, len(data)), "set ytics noenhanced",
        "set key outside right",
        "plot " + ", ".join(plots)])


def multiplot(panels):
    """Panels side by side (one row per two panels)."""
    if len(panels) == 1:
        return panels[0]
    cols = 2
    rows = (len(panels) + cols - 1) // cols
    return "\n".join(["set multiplot layout %d,%d" % (rows, cols)] + panels +
                     ["unset multiplot"])


def find_runs(directory):
    """A run (DIR/attribution.csv) or a sweep's runs (subdirectories holding one)."""
    if not os.path.isdir(directory):
        raise AnalysisError("%s: not a directory" % directory)
    if os.path.isfile(os.path.join(directory, "attribution.csv")):
        return [Attributed(directory)]
    runs = [Attributed(os.path.join(directory, d)) for d in sorted(os.listdir(directory))
            if os.path.isfile(os.path.join(directory, d, "attribution.csv"))]
    if not runs:
        raise AnalysisError("%s: no attribution.csv in it or its subdirectories (run with "
                            "--attribution=1)" % directory)
    return runs


def build_parser():
    p = argparse.ArgumentParser(prog="explain-tail", description=__doc__.split("\n")[0])
    p.add_argument("directory", help="a run's --out, or a sweep's out= folder")
    p.add_argument("--format", choices=("png", "svg"), default="png")
    p.add_argument("--no-plots", action="store_true", help="the report only")
    p.add_argument("--gnuplot", help="gnuplot program (default: gnuplot on PATH)")
    return p


def run(argv=None, out=sys.stdout):
    args = build_parser().parse_args(argv)
    runs = find_runs(args.directory)
    text = "\n".join(report(r) for r in runs) + "\n"
    written = []
    path = os.path.join(args.directory, "explain-tail.txt")
    with open(path, "w") as f:
        f.write(text)
    written.append(path)
    print(text, end="", file=out)
    if not args.no_plots:
        gp = find_gnuplot(args.gnuplot)
        panels = [("components", component_panel), ("ports", ports_panel)]
        if any(r.path for r in runs):
            panels.append(("critical-path", path_panel))
        for name, panel in panels:
            image = os.path.join(args.directory, "explain-tail-%s.%s" % (name, args.format))
            body = multiplot([panel(r, i) for i, r in enumerate(runs)])
            written.append(render(gp, args.format, image, body))
    print("wrote: " + ", ".join(written), file=out)
    return written


def main(argv=None):
    try:
        run(argv)
    except AnalysisError as e:
        print("explain-tail: error: %s" % e, file=sys.stderr)
        return 2
    return 0
