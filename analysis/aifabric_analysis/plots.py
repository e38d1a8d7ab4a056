# SPDX-License-Identifier: GPL-2.0-only
"""The plots: one run (into its directory) or several overlaid (into --into DIR).

Each function returns the image path, or None after noting in `notes` why it
skipped (no data): an empty input gives a message, never an empty-looking plot.
"""

import os

from .gnuplot import datablock, quote, render
from .stats import ccdf_points, cdf_points, percentile
from .tails import SIZE_BUCKETS, THIN_FLOWS, slowdown_by_bucket
from .outdir import PAUSE_EVENTS, RESUME_EVENTS

_COMMON = "set grid\nset key top left"


def _image(directory, name, fmt):
    return os.path.join(directory, "tails-%s.%s" % (name, fmt))


def dq(text):
    """A gnuplot double-quoted string; a newline in text becomes a line break."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace(
        "\n", "\\n") + '"'


def slowdown_vs_size(runs, directory, gp, fmt, notes, name="slowdown-vs-size"):
    """p50 and p99 slowdown per size bucket (one pair of lines per run), with the flow
    count of each bucket; a p99 resting on fewer than THIN_FLOWS flows is a hollow point."""
    runs = [r for r in runs if r.fct]
    if not runs:
        notes.append("slowdown vs size: skipped, no rows in fct.csv")
        return None
    order = {b[0]: i for i, b in enumerate(SIZE_BUCKETS)}
    blocks, plots = [], []
    thin_any = False
    single = len(runs) == 1
    for k, run in enumerate(runs):
        # columns: position, bucket, p50, p99, flows, thin (1: fewer than THIN_FLOWS)
        rows = [(order[b], b, percentile(v, 50), percentile(v, 99), len(v),
                 1 if len(v) < THIN_FLOWS else 0)
                for b, v in slowdown_by_bucket(run.fct)]
        thin_any = thin_any or any(r[5] for r in rows)
        blocks.append(datablock("d%d" % k, rows))
        label = run.label if not single else ""
        lc = "lc %d" % (k + 1)
        plots.append("$d%d using 1:3 with linespoints lw 2 pt 7 %s title %s" % (
            k, lc, quote((label + " p50").strip())))
        plots.append("$d%d using 1:4 with lines lw 2 dt 2 %s title %s" % (
            k, lc, quote((label + " p99").strip())))
        plots.append("$d%d using 1:($6 == 0 ? $4 : NaN) with points pt 5 ps 1.2 %s notitle"
                     % (k, lc))
        plots.append("$d%d using 1:($6 == 1 ? $4 : NaN) with points pt 4 ps 1.6 %s notitle"
                     % (k, lc))
        if not single:  # counts differ per run: label each run's p99 point
            plots.append("$d%d using 1:4:(sprintf('n=%%d', $5)) with labels offset 0,0.9 "
                         "font ',8' tc %s notitle" % (k, lc.replace("lc", "lt")))
    if single:
        counts = {b: len(v) for b, v in slowdown_by_bucket(runs[0].fct)}
        xtics = ", ".join("%s %d" % (dq("%s\nn=%d" % (b, counts[b])), i)
                          for i, (b, _, _) in enumerate(SIZE_BUCKETS) if b in counts)
    else:
        xtics = ", ".join("%s %d" % (dq(b), i) for i, (b, _, _) in enumerate(SIZE_BUCKETS))
    lines = blocks + [
        _COMMON,
        "set title 'FCT slowdown by flow size (n = flows in the bucket)'",
        "set xlabel 'flow size (bytes; KB = 1000 B)' offset 0,%s" % ("-1" if single else "0"),
        "set ylabel 'slowdown (FCT / ideal FCT)'",
        "set logscale y",
        "set xrange [-0.5:%g]" % (len(SIZE_BUCKETS) - 0.5),
        "set xtics (%s)" % xtics,
        "set bmargin 6",
    ]
    if thin_any:
        lines.append("set label 1 %s at screen 0.01, screen 0.02 left font ',9'" % quote(
            "hollow square: p99 of a bucket with fewer than %d flows (interpolated "
            "between its two largest values)" % THIN_FLOWS))
    lines.append("plot " + ", \\\n     ".join(plots))
    return render(gp, fmt, _image(directory, name, fmt), "\n".join(lines))


def _cdf_plot(series, directory, gp, fmt, name, title, xlabel, logx, steps=False):
    """CDF lines; steps=True draws the empirical CDF as the step function it is (each
    value a jump of 1/n), starting from 0 at the smallest value."""
    blocks, plots = [], []
    for k, (label, values) in enumerate(series):
        pts = cdf_points(values)
        if steps:
            pts = [(pts[0][0], 0.0)] + pts
        blocks.append(datablock("d%d" % k, pts))
        plots.append("$d%d using 1:2 with %s lw 2 title %s" % (
            k, "steps" if steps else "lines", quote(label)))
    body = "\n".join(blocks + [
        _COMMON.replace("top left", "bottom right"),
        "set title %s" % quote(title),
        "set xlabel %s" % quote(xlabel),
        "set ylabel 'fraction'",
        "set yrange [0:1.02]",
        "set logscale x" if logx else "",
        "plot " + ", \\\n     ".join(plots),
    ])
    return render(gp, fmt, _image(directory, name, fmt), body)


def slowdown_cdf(runs, directory, gp, fmt, notes, name="slowdown-cdf"):
    series = [(r.label, [x["slowdown"] for x in r.fct]) for r in runs if r.fct]
    if not series:
        notes.append("slowdown CDF: skipped, no rows in fct.csv")
        return None
    return _cdf_plot(series, directory, gp, fmt, name, "CDF of FCT slowdown",
                     "slowdown (FCT / ideal FCT)", True)


def slowdown_ccdf(runs, directory, gp, fmt, notes, name="slowdown-ccdf"):
    """1 - CDF of slowdown on log-log axes, one line per traffic class (fct.csv kind) of
    each run: the tail a CDF squeezes into its top pixel, down to 1/n."""
    series = []
    for r in runs:
        kinds = sorted(set(x["kind"] for x in r.fct or []))
        for kind in kinds:
            values = [x["slowdown"] for x in r.fct if x["kind"] == kind]
            label = "%s (%d)" % (kind or "unlabelled", len(values))
            series.append((label if len(runs) == 1 else "%s %s" % (r.label, label), values))
    if not series:
        notes.append("slowdown CCDF: skipped, no rows in fct.csv")
        return None
    blocks, plots = [], []
    for k, (label, values) in enumerate(series):
        blocks.append(datablock("d%d" % k, ccdf_points(values)))
        # fsteps: the level P(X >= x[i]) holds from x[i-1] up to x[i]
        plots.append("$d%d using 1:2 with fsteps lw 2 title %s" % (k, quote(label)))
    smallest = min(1.0 / len(v) for _, v in series)
    body = "\n".join(blocks + [
        _COMMON.replace("top left", "top right"),
        "set title 'Tail of FCT slowdown per traffic class (1 - CDF; key: class (flows))'",
        "set xlabel 'slowdown x (FCT / ideal FCT)'",
        "set ylabel 'fraction of flows with slowdown >= x'",
        "set logscale xy",
        "set format y '10^{%L}'",
        "set yrange [%g:1.2]" % (smallest / 2),
        "plot " + ", \\\n     ".join(plots),
    ])
    return render(gp, fmt, _image(directory, name, fmt), body)


def collective_cdf(runs, directory, gp, fmt, notes, name="collective-cdf"):
    series = [(r.label, [x["duration_ns"] / 1e3 for x in r.collective])
              for r in runs if r.collective]
    if not series:
        notes.append("collective CDF: skipped, no rows in collective.csv")
        return None
    return _cdf_plot(series, directory, gp, fmt, name, "CDF of collective duration",
                     "duration (us)", False, steps=True)


def queue_timeline(run, port, directory, gp, fmt, notes):
    """Queue bytes over time at port (node, port), one line per queue."""
    node, p = port
    rows = [r for r in run.qlen or [] if int(r["node"]) == node and int(r["port"]) == p]
    if not rows:
        notes.append("queue timeline: skipped, no qlen.csv rows for port %d:%d" % port)
        return None
    queues = sorted(set(int(r["queue"]) for r in rows))
    blocks, plots = [], []
    for k, q in enumerate(queues):
        pts = sorted((r["time_ns"] / 1e3, r["bytes"] / 1e3) for r in rows
                     if int(r["queue"]) == q)
        blocks.append(datablock("q%d" % k, pts))
        plots.append("$q%d using 1:2 with steps lw 2 title 'queue %d'" % (k, q))
    body = "\n".join(blocks + [
        _COMMON,
        "set title %s" % quote("Queue depth at " + run.port_label(port)),
        "set xlabel 'time (us)'",
        "set ylabel 'queue (KB)'",
        "plot " + ", \\\n     ".join(plots),
    ])
    return render(gp, fmt, _image(directory, "qlen-%d-%d" % port, fmt), body)


def pause_timeline(run, port, directory, gp, fmt, notes):
    """Paused (high) / running (low) per priority at port, as steps offset by priority."""
    node, p = port
    rows = sorted(((r["time_ns"], int(r["priority"]), r["event"].strip().lower())
                   for r in run.pfc or [] if int(r["node"]) == node and int(r["port"]) == p))
    rows = [r for r in rows if r[2] in PAUSE_EVENTS or r[2] in RESUME_EVENTS]
    if not rows:
        notes.append("pause timeline: skipped, no pfc.csv pause/resume rows for port %d:%d"
                     % port)
        return None
    t0 = min(r[0] for r in rows) / 1e3
    t1 = max(r[0] for r in rows) / 1e3
    t1 = t1 if t1 > t0 else t0 + 1
    prios = sorted(set(r[1] for r in rows))
    blocks, plots = [], []
    for k, prio in enumerate(prios):
        pts = [(t0, float(prio))]
        for t, pr, ev in rows:
            if pr == prio:
                pts.append((t / 1e3, prio + (0.8 if ev in PAUSE_EVENTS else 0.0)))
        pts.append((t1, pts[-1][1]))
        blocks.append(datablock("p%d" % k, pts))
        plots.append("$p%d using 1:2 with steps lw 2 title 'priority %d'" % (k, prio))
    body = "\n".join(blocks + [
        _COMMON,
        "set key outside right",
        "set title %s" % quote("PFC pause timeline at " + run.port_label(port)
                               + " (high = paused)"),
        "set xlabel 'time (us)'",
        "set ylabel 'priority'",
        "set ytics 1",
        "set yrange [%g:%g]" % (min(prios) - 0.5, max(prios) + 1.3),
        "plot " + ", \\\n     ".join(plots),
    ])
    return render(gp, fmt, _image(directory, "pfc-%d-%d" % port, fmt), body)


def single_run(run, directory, gp, fmt, port, notes):
    """All single-run plots of run into directory; returns the image paths."""
    images = [slowdown_vs_size([run], directory, gp, fmt, notes),
              slowdown_cdf([run], directory, gp, fmt, notes),
              slowdown_ccdf([run], directory, gp, fmt, notes),
              collective_cdf([run], directory, gp, fmt, notes)]
    chosen = port or run.busiest_port()
    if chosen is None:
        notes.append("queue and pause timelines: skipped, no rows in qlen.csv or pfc.csv")
    else:
        images.append(queue_timeline(run, chosen, directory, gp, fmt, notes))
        images.append(pause_timeline(run, chosen, directory, gp, fmt, notes))
    return [i for i in images if i]


def comparison(runs, directory, gp, fmt, notes):
    """Overlay plots, one line per run."""
    images = [slowdown_vs_size(runs, directory, gp, fmt, notes, "compare-slowdown-vs-size"),
              slowdown_cdf(runs, directory, gp, fmt, notes, "compare-slowdown-cdf"),
              slowdown_ccdf(runs, directory, gp, fmt, notes, "compare-slowdown-ccdf"),
              collective_cdf(runs, directory, gp, fmt, notes, "compare-collective-cdf")]
    return [i for i in images if i]
