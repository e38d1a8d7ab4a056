# SPDX-License-Identifier: GPL-2.0-only
"""plot-sweep: a sweep's aggregated table (sweep.csv) and one figure per metric.

The x axis is the sweep's first varying knob (or --x); each other varying knob but the
seed splits the points into lines; runs differing only in their seed are averaged, with
95% confidence intervals of the mean (Student's t) as error bars.
"""

import argparse
import csv
import os
import sys

from . import AnalysisError
from .cli import command_main
from .gnuplot import datablock, find_gnuplot, quote, render
from .sweepdir import SEED, axes_and_derived, group_points, read_points, value_key

#: (figure, title, y label, scale) of the plotted metrics; per-class slowdowns are added
#: when the runs have several traffic classes.
METRICS = (
    ("slowdown_p99", "p99 FCT slowdown (all flows)", "p99 slowdown (FCT / ideal FCT)", 1.0),
    ("busbw_gbps", "collective bus bandwidth (nccl-tests busbw)", "busbw (Gbit/s)", 1.0),
    ("step_time_ns_mean", "mean collective step time (one iteration)", "step time (us)",
     1e-3),
)

USAGE_EPILOG = """\
DIR is the out= folder of aifabric.sweep(): one run directory per point, each with its
summary.json. Writes DIR/sweep.csv (one row per point, the seeds aggregated: runs,
<figure>_mean, _std, _ci95) and DIR/sweep-<figure>.png with its .gp script.
exit status: 0 done, 2 bad input (no runs, nothing varies; message on stderr)."""


def build_parser():
    p = argparse.ArgumentParser(
        prog="plot-sweep",
        description="Aggregate a parameter sweep's runs (mean and 95%% CI over seeds) into "
                    "sweep.csv and plot p99 slowdown, busbw and step time against its "
                    "first varying knob.",
        epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("directory", metavar="DIR", help="folder of a sweep's run directories")
    p.add_argument("--x", metavar="KNOB",
                   help="the knob on the x axis (default: the sweep's first varying knob)")
    p.add_argument("--format", choices=("png", "svg"), default="png", help="image format")
    p.add_argument("--no-plots", action="store_true", help="sweep.csv only (no gnuplot needed)")
    p.add_argument("--gnuplot", metavar="PATH", help="gnuplot executable (default: on PATH)")
    return p


def _short(key):
    return key.rsplit("::", 1)[-1]


def _text(v):
    if v is None:
        return "default"
    if isinstance(v, float):
        return format(v, "g")
    return str(v)


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return format(v, ".10g")
    return str(v)


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def figure_names(groups):
    names = []
    for g in groups:
        names.extend(k for k in g.stats if k not in names)
    return names


def write_sweep_csv(path, axes, groups):
    """One row per group: its settings, runs, seeds, then mean/std/ci95 of each figure."""
    names = figure_names(groups)
    header = list(axes) + ["runs", "seeds", "incomplete_runs"]
    for n in names:
        header += [n + "_mean", n + "_std", n + "_ci95"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for g in groups:
            row = [_cell(g.settings[a]) for a in axes]
            row += [len(g.points), " ".join(_text(s) for s in g.seeds), g.incomplete]
            for n in names:
                mean, std, ci, _ = g.stats.get(n, (None, None, None, 0))
                row += [_cell(mean), _cell(std), _cell(ci)]
            w.writerow(row)
    return header


def format_table(axes, groups, names):
    """The aggregated figures as aligned text: mean ± ci95 (ci95 when runs > 1)."""
    header = [_short(a) for a in axes] + ["runs"] + names
    body = []
    for g in groups:
        row = [_text(g.settings[a]) for a in axes] + [str(len(g.points))]
        for n in names:
            mean, _, ci, _ = g.stats.get(n, (None, None, None, 0))
            if mean is None:
                row.append("-")
            elif ci is None:
                row.append(format(mean, ".4g"))
            else:
                row.append("%s ± %s" % (format(mean, ".4g"), format(ci, ".2g")))
        body.append(row)
    widths = [max(len(x) for x in col) for col in zip(header, *body)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip()
                     for line in [header] + body)


def plot_metric(groups, x_axis, line_axes, figure, title, ylabel, scale, directory, gp, fmt,
                seeded):
    """One figure: the metric's mean against x_axis, one line per line_axes combination,
    95% CI error bars where a point has several seeds. None when no point has it."""
    if not any(g.stats.get(figure, (None,))[0] is not None for g in groups):
        return None
    xs = []
    for g in groups:
        if value_key(g.settings[x_axis]) not in [value_key(x) for x in xs]:
            xs.append(g.settings[x_axis])
    numeric = all(_number(x) for x in xs)
    if numeric:
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        xs = [xs[i] for i in order]
    position = {value_key(x): (float(x) if numeric else float(i)) for i, x in enumerate(xs)}

    series = []  # (label, [groups])
    for g in groups:
        key = tuple(value_key(g.settings[a]) for a in line_axes)
        for label_key, members in series:
            if label_key == key:
                members.append(g)
                break
        else:
            series.append((key, [g]))
    blocks, plots = [], []
    any_bars = False
    for k, (_, members) in enumerate(series):
        members = sorted(members, key=lambda g: position[value_key(g.settings[x_axis])])
        # categorical x: the lines' points side by side, so that their error bars do not
        # hide one another
        shift = 0.0 if numeric else 0.06 * (k - (len(series) - 1) / 2.0)
        rows = []
        for g in members:
            mean, _, ci, _ = g.stats.get(figure, (None, None, None, 0))
            if mean is None:
                continue
            rows.append((position[value_key(g.settings[x_axis])] + shift, mean * scale,
                         ci * scale if ci is not None else "NaN", len(g.points)))
        if not rows:
            continue
        label = ", ".join("%s=%s" % (_short(a), _text(members[0].settings[a]))
                          for a in line_axes) or title
        blocks.append(datablock("s%d" % k, rows))
        plots.append("$s%d using 1:2 with linespoints lw 2 pt 7 lc %d title %s" % (
            k, k + 1, quote(label)))
        if any(r[2] != "NaN" for r in rows):
            any_bars = True
            plots.append("$s%d using 1:2:3 with yerrorbars lw 1 pt 7 lc %d notitle" % (k, k + 1))
    xlabel = _short(x_axis)
    lines = blocks + [
        "set grid",
        "set key outside right top",
        "set title %s" % quote(title),
        ("set label 1 %s at screen 0.01, screen 0.02 left font ',9'" % quote(
            "mean of the seeds; bars: 95% confidence interval of the mean (Student's t)")
         if seeded and any_bars else ""),
        "set xlabel %s" % quote(xlabel),
        "set ylabel %s" % quote(ylabel),
        "set bmargin 5",
        "set yrange [0:*]" if figure != "slowdown_p99" and not figure.endswith("slowdown_p99")
        else "set yrange [*:*]",
    ]
    if numeric:
        positive = all(float(x) > 0 for x in xs)
        if positive and max(xs) / min(xs) >= 100:
            lines.append("set logscale x 2" if all(float(x).is_integer() for x in xs)
                         and _powers_of_two(xs) else "set logscale x")
        pad = 0.05 * (max(xs) - min(xs)) if max(xs) > min(xs) else 1.0
        if not any("logscale" in ln for ln in lines):
            lines.append("set xrange [%g:%g]" % (min(xs) - pad, max(xs) + pad))
        lines.append("set xtics (%s)" % ", ".join(
            "%s %s" % (quote(_text(x)), format(float(x), ".10g")) for x in xs))
    else:
        lines.append("set xrange [-0.5:%g]" % (len(xs) - 0.5))
        lines.append("set xtics (%s)" % ", ".join(
            "%s %d" % (quote(_text(x)), i) for i, x in enumerate(xs)))
    lines.append("plot " + ", \\\n     ".join(plots))
    image = os.path.join(directory, "sweep-%s.%s" % (figure, fmt))
    return render(gp, fmt, image, "\n".join(lines))


def _powers_of_two(xs):
    return all(int(x) > 0 and int(x) & (int(x) - 1) == 0 for x in xs)


def run(argv=None, out=sys.stdout):
    """Do the work; raises AnalysisError on bad input. Returns the files written."""
    args = build_parser().parse_args(argv)
    points = read_points(args.directory)
    axes, derived = axes_and_derived(points)
    settings_axes = [a for a in axes if a != SEED]
    if not settings_axes:
        what = ("only the seed varies (%d runs)" % len(points)) if axes else \
            ("all %d runs have the same config" % len(points))
        raise AnalysisError(
            "%s: nothing varies across the runs: %s; plot-sweep needs a knob with several "
            "values (use plot-tails for single runs)" % (args.directory, what))
    if args.x:
        names = {a: a for a in settings_axes}
        names.update({a.replace("-", "_"): a for a in settings_axes})
        names.update({_short(a): a for a in settings_axes})
        if args.x not in names:
            raise AnalysisError("--x %s: not a knob that varies in this sweep; allowed: %s" % (
                args.x, ", ".join(settings_axes)))
        x_axis = names[args.x]
    else:
        x_axis = settings_axes[0]
    line_axes = [a for a in settings_axes if a != x_axis]
    groups = group_points(points, axes)
    seeded = SEED in axes

    written = []
    csv_path = os.path.join(args.directory, "sweep.csv")
    write_sweep_csv(csv_path, settings_axes, groups)
    written.append(csv_path)

    names = figure_names(groups)
    metrics = list(METRICS)
    kinds = [n[:-len("_slowdown_p99")] for n in names if n.endswith("_slowdown_p99")]
    for kind in kinds:
        metrics.insert(1, (kind + "_slowdown_p99", "p99 FCT slowdown, %s flows" % kind,
                           "p99 slowdown (FCT / ideal FCT)", 1.0))
    shown = [m[0] for m in metrics if m[0] in names]
    print("%d runs, %d points; varying: %s%s" % (
        len(points), len(groups), ", ".join(settings_axes),
        " (and seed: mean ± 95% CI)" if seeded else ""), file=out)
    print(format_table(settings_axes, groups, shown), file=out)

    notes = []
    if derived:
        notes.append("not axes, they follow from the swept knobs: %s" % ", ".join(derived))
    incomplete = sum(g.incomplete for g in groups)
    if incomplete:
        notes.append("%d run(s) stopped by --stop-time with work unfinished (summary.json "
                     "complete=false): their figures cover what finished" % incomplete)
    if not args.no_plots:
        gp = find_gnuplot(args.gnuplot)
        for figure, title, ylabel, scale in metrics:
            image = plot_metric(groups, x_axis, line_axes, figure, title, ylabel, scale,
                                args.directory, gp, args.format, seeded)
            if image:
                written.append(image)
            elif figure != "slowdown_p99" or not kinds:
                notes.append("%s: no run has it, not plotted" % figure)
    for n in notes:
        print("note: " + n, file=out)
    print("wrote: " + ", ".join(written), file=out)
    return written


def main(argv=None):
    return command_main(run, "plot-sweep", argv)
