# SPDX-License-Identifier: GPL-2.0-only
"""Reading a sweep: a folder of run output directories, one per point.

aifabric.sweep() writes point i of a grid to out/<index>-<knob>=<value>-...; any folder
whose subdirectories hold an ai-fabric summary.json is read the same way. A point's
settings are its summary.json "config" (every flag, and any "ns3::Class::Attribute"
given); the knobs that vary across the points are the sweep's axes. "out" always
differs and is not an axis; "seed" is the replication axis: points that differ only in
their seed are runs of one point, averaged with a 95% confidence interval.
"""

import json
import math
import os
import re

from . import AnalysisError
from .stats import mean_ci95, percentile

#: config keys that differ between points without being a setting of the model
NOT_AXES = ("out", "label", "name")
SEED = "seed"


class Point:
    """One run of a sweep: its directory, config and summary."""

    def __init__(self, directory, summary):
        self.directory = directory
        self.name = os.path.basename(os.path.normpath(directory))
        self.summary = summary
        cfg = summary.get("config")
        self.config = cfg if isinstance(cfg, dict) else {}


def read_points(directory):
    """The points under directory (its subdirectories holding summary.json), by name."""
    if not os.path.isdir(directory):
        raise AnalysisError("%s: not a directory (expected the out= folder of a sweep, "
                            "one run directory per point)" % directory)
    points = []
    for name in sorted(os.listdir(directory)):
        sub = os.path.join(directory, name)
        path = os.path.join(sub, "summary.json")
        if not os.path.isfile(path):
            continue
        try:
            with open(path) as f:
                summary = json.load(f)
        except ValueError as e:
            raise AnalysisError("%s: not valid JSON (%s)" % (path, e)) from None
        if not isinstance(summary, dict) or not isinstance(summary.get("config"), dict):
            raise AnalysisError("%s: no \"config\" object; expected an ai-fabric summary.json"
                                % path)
        points.append(Point(sub, summary))
    if not points:
        raise AnalysisError("%s: no runs: no subdirectory holds a summary.json (a sweep "
                            "writes one run directory per point, e.g. %s/0000-kmin=5KB)"
                            % (directory, os.path.normpath(directory)))
    return points


def value_key(v):
    """A hashable, order-stable key of a config value."""
    return json.dumps(v, sort_keys=True)


def varying_keys(points):
    """The sweep's axes: axes_and_derived(points)[0]."""
    return axes_and_derived(points)[0]


def axes_and_derived(points):
    """(axes, derived): the config keys whose value is not the same in every point, in
    sweep-grid order, and those of them that follow from the others (derived_keys).

    A key missing from some configs (an ns-3 attribute given only for some points)
    counts as None there. The order is the order the knobs appear in the point
    directory names aifabric.sweep writes (<index>-<knob>=<value>-...), so the first
    axis is the grid's first knob; keys not in the names follow in config order.
    """
    keys = []
    for p in points:
        keys.extend(k for k in p.config if k not in keys)
    varying = [k for k in keys if k not in NOT_AXES and
               len(set(value_key(p.config.get(k)) for p in points)) > 1]

    def position(k):
        # the name as point_label() writes it: config "hosts-per-switch" was grid knob
        # "hosts_per_switch"; "ns3::Class::Attribute" is written as "Attribute"
        short = re.sub(r"[^A-Za-z0-9._=+-]", "_", k.rsplit("::", 1)[-1].replace("-", "_"))
        at = [m.start() for p in points
              for m in [re.search(r"(^|-)%s=" % re.escape(short), p.name)] if m]
        return min(at) if at else float("inf")

    ordered = sorted(varying, key=lambda k: (position(k), keys.index(k)))
    named = [k for k in ordered if position(k) != float("inf")]
    derived = derived_keys(points, ordered, named)
    return [k for k in ordered if k not in derived], derived


def _determined(points, key, by):
    """True if key's value is a function of the values of the keys in by."""
    seen = {}
    for p in points:
        cause = tuple(value_key(p.config.get(b)) for b in by)
        effect = value_key(p.config.get(key))
        if seen.setdefault(cause, effect) != effect:
            return False
    return True


def derived_keys(points, ordered, named):
    """Varying keys that follow from the others: the runner echoes what it used, e.g.
    --cc-preset's default differs with --cc. A key in the point names (a grid knob) is
    never derived; the others are tried last-first, each against the keys kept so far
    but the seed (with seeds every run is unique, so anything would follow from them)."""
    kept = list(ordered)
    for key in reversed(ordered):
        if key in named or key == SEED:
            continue
        others = [k for k in kept if k not in (key, SEED)]
        if others and _determined(points, key, others):
            kept.remove(key)
    return [k for k in ordered if k not in kept]


# --- the figures of one run -----------------------------------------------------------

def _num(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    return float(v)


def figures(summary):
    """The scalar figures of one summary.json, in a fixed order ({name: number or None}).

    Names follow aifabric.Result.figures(): flows, slowdown_p50/p99/p999/mean,
    <kind>_slowdown_p99 per traffic class (fct_by_kind), then the collective jobs'
    busbw_gbps and algbw_gbps (the mean over jobs of summary.json's per-job means,
    Gbit/s), step_time_ns_mean/p99 (over every iteration of every job) and the fabric's
    counters.
    """
    out = {}
    fct = summary.get("fct") or {}
    out["flows"] = _num(fct.get("count"))
    sd = fct.get("slowdown") or {}
    for q in ("p50", "p99", "p999", "mean"):
        out["slowdown_" + q] = _num(sd.get(q))
    by_kind = summary.get("fct_by_kind") or {}
    if len(by_kind) > 1:
        for kind in sorted(by_kind):
            stats = by_kind[kind] or {}
            out[kind + "_flows"] = _num(stats.get("count"))
            out[kind + "_slowdown_p99"] = _num((stats.get("slowdown") or {}).get("p99"))
    jobs = [j for j in summary.get("collectives") or [] if isinstance(j, dict)]
    if jobs:
        for key in ("busbw_gbps", "algbw_gbps"):
            vals = [_num(j.get(key)) for j in jobs if j.get("finished_iterations")]
            vals = [v for v in vals if v is not None]
            out[key] = sum(vals) / len(vals) if vals else None
        durations = sorted(float(d) for j in jobs for d in j.get("durations_ns") or []
                           if _num(d) is not None)
        if durations:
            out["step_time_ns_mean"] = sum(durations) / len(durations)
            out["step_time_ns_p99"] = percentile(durations, 99)
        else:
            out["step_time_ns_mean"] = out["step_time_ns_p99"] = None
    for key in ("pfc_pause_frames", "ecn_marks", "cnps", "retransmissions", "timeouts"):
        if key in summary:
            out[key] = _num(summary.get(key))
    drops = summary.get("drops") or {}
    for key in ("lossy", "lossless"):
        if key in drops:
            out["drops_" + key] = _num(drops.get(key))
    out["sim_time_s"] = _num(summary.get("sim_time_s"))
    return out


class Group:
    """The runs of one point (same settings but the seed) and their aggregated figures."""

    def __init__(self, settings, points):
        self.settings = settings  # {axis: value}, the seed excluded
        self.points = points
        self.seeds = [p.config.get(SEED) for p in points]
        self.incomplete = sum(1 for p in points if p.summary.get("complete") is False)
        per_run = [figures(p.summary) for p in points]
        names = []
        for f in per_run:
            names.extend(k for k in f if k not in names)
        self.stats = {}  # name -> (mean, std, ci95, n)
        for name in names:
            vals = [f[name] for f in per_run if f.get(name) is not None]
            if vals:
                mean, std, ci = mean_ci95(vals)
                self.stats[name] = (mean, std, ci, len(vals))
            else:
                self.stats[name] = (None, None, None, 0)


def group_points(points, axes):
    """Groups of points with the same values on every axis but the seed, in first-seen
    (directory name, i.e. grid) order."""
    settings_axes = [a for a in axes if a != SEED]
    groups = {}
    for p in points:
        key = tuple(value_key(p.config.get(a)) for a in settings_axes)
        groups.setdefault(key, []).append(p)
    return [Group({a: ps[0].config.get(a) for a in settings_axes}, ps)
            for ps in groups.values()]
