# SPDX-License-Identifier: GPL-2.0-only
"""Percentile tables: FCT slowdown by flow size, collective durations, packet delay.

Flow-size buckets (KB = 1000 B, MB = 10^6 B, as the simulator's size flags):
  <10KB        size < 10,000
  10KB-100KB   10,000 <= size < 100,000
  100KB-1MB    100,000 <= size < 1,000,000
  1MB-10MB     1,000,000 <= size < 10,000,000
  >=10MB       size >= 10,000,000
plus "all". When fct.csv holds several traffic classes (its kind column: background,
collective, flow, incast, ...), each class gets the same rows under the metric
"fct_slowdown_<kind>", so one class's tail is not read off the mix of all.
Collective durations are bucketed by algorithm plus "all".
Empty buckets are left out of the table.
"""

import csv

from .stats import SUMMARY_COLUMNS, summarize

SIZE_BUCKETS = (
    ("<10KB", 0, 10e3),
    ("10KB-100KB", 10e3, 100e3),
    ("100KB-1MB", 100e3, 1e6),
    ("1MB-10MB", 1e6, 10e6),
    (">=10MB", 10e6, float("inf")),
)

#: A bucket with fewer flows than this has no flow above its p99 but the largest: its
#: p99 is interpolated between its largest two values (see stats), so plots mark it.
THIN_FLOWS = 100

TAILS_HEADER = ("run", "metric", "bucket") + SUMMARY_COLUMNS


def size_bucket(size_bytes):
    """Name of the flow-size bucket holding size_bytes."""
    for name, lo, hi in SIZE_BUCKETS:
        if lo <= size_bytes < hi:
            return name
    raise ValueError("negative flow size %r" % (size_bytes,))


def slowdown_by_bucket(fct_rows):
    """[(bucket, [slowdowns])] in bucket order, non-empty buckets only."""
    groups = {name: [] for name, _, _ in SIZE_BUCKETS}
    for r in fct_rows:
        groups[size_bucket(r["size_bytes"])].append(r["slowdown"])
    return [(name, groups[name]) for name, _, _ in SIZE_BUCKETS if groups[name]]


def tail_rows(run, use_numpy=None):
    """Rows of the tail table for one Run: dicts keyed by TAILS_HEADER."""
    rows = []

    def add(metric, bucket, values):
        row = {"run": run.label, "metric": metric, "bucket": bucket}
        row.update(summarize(values, use_numpy))
        rows.append(row)

    if run.fct:
        for bucket, values in slowdown_by_bucket(run.fct):
            add("fct_slowdown", bucket, values)
        add("fct_slowdown", "all", [r["slowdown"] for r in run.fct])
        kinds = sorted(set(r["kind"] for r in run.fct))
        if len(kinds) > 1:
            for kind in kinds:
                rows_of_kind = [r for r in run.fct if r["kind"] == kind]
                for bucket, values in slowdown_by_bucket(rows_of_kind):
                    add("fct_slowdown_" + kind, bucket, values)
                add("fct_slowdown_" + kind, "all", [r["slowdown"] for r in rows_of_kind])
    if run.collective:
        algos = sorted(set(r["algorithm"] for r in run.collective))
        for a in algos:
            add("collective_duration_ns", a,
                [r["duration_ns"] for r in run.collective if r["algorithm"] == a])
        if len(algos) > 1:
            add("collective_duration_ns", "all", [r["duration_ns"] for r in run.collective])
    if run.delay:
        add("packet_delay_ns", "all", [r["delay_ns"] for r in run.delay])
    return rows


def _fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return format(v, ".10g")
    return str(v)


def write_tails_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(TAILS_HEADER)
        for r in rows:
            w.writerow([_fmt(r[c]) for c in TAILS_HEADER])


def format_table(rows):
    """The table as aligned text."""
    header = list(TAILS_HEADER)
    body = [[format(r[c], ".4g") if isinstance(r[c], float) else _fmt(r[c])
             for c in TAILS_HEADER] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(header, *body)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip()
             for line in [header] + body]
    return "\n".join(lines)
