# SPDX-License-Identifier: GPL-2.0-only
"""Percentiles with one definition whether or not numpy is installed.

Definition (numpy's default, method="linear", Hyndman & Fan type 7): sort the n
values x[0..n-1]; for q in [0, 100] let h = (n - 1) * q / 100, i = floor(h);
the percentile is x[i] + (h - i) * (x[i+1] - x[i]) (x[n-1] when i = n - 1).
So p0 is the minimum, p100 the maximum, and a single value is every percentile.
"""

import math

try:  # numpy is optional: used when present, same definition either way
    import numpy as _np
except ImportError:  # pragma: no cover - depends on the interpreter
    _np = None

HAVE_NUMPY = _np is not None

#: The columns of a tail summary, in order: (name, percentile or None for count/max).
SUMMARY_COLUMNS = ("count", "p50", "p90", "p99", "p99_9", "max")
_QUANTILES = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9))


def _check(values, q):
    if len(values) == 0:
        raise ValueError("percentile of an empty list is undefined")
    if not 0.0 <= q <= 100.0:
        raise ValueError("percentile q=%r out of range; allowed: 0..100" % (q,))


def percentile_py(values, q):
    """Pure-Python percentile (linear interpolation between closest ranks)."""
    _check(values, q)
    xs = sorted(float(v) for v in values)
    h = (len(xs) - 1) * q / 100.0
    i = int(math.floor(h))
    if i >= len(xs) - 1:
        return xs[-1]
    return xs[i] + (h - i) * (xs[i + 1] - xs[i])


def percentile(values, q, use_numpy=None):
    """Percentile q (0..100) of values; numpy if available unless use_numpy=False."""
    if use_numpy is None:
        use_numpy = HAVE_NUMPY
    if use_numpy and HAVE_NUMPY:
        _check(values, q)
        return float(_np.percentile(_np.asarray(values, dtype=float), q))
    return percentile_py(values, q)


def summarize(values, use_numpy=None):
    """count, p50, p90, p99, p99.9 and max of values (a dict keyed by SUMMARY_COLUMNS)."""
    out = {"count": len(values)}
    for name, q in _QUANTILES:
        out[name] = percentile(values, q, use_numpy) if values else None
    out["max"] = float(max(values)) if values else None
    return out


def cdf_points(values, max_points=2000, tail_points=200):
    """(value, cumulative fraction) pairs for a CDF plot.

    Above max_points values, keeps evenly spaced ranks plus the last tail_points
    values, so the tail the plot is about is drawn exactly.
    """
    xs = sorted(float(v) for v in values)
    n = len(xs)
    if n <= max_points:
        idx = range(n)
    else:
        step = (n - tail_points) / float(max_points - tail_points)
        idx = sorted(set([int(k * step) for k in range(max_points - tail_points)] +
                         list(range(n - tail_points, n))))
    return [(xs[i], (i + 1) / float(n)) for i in idx]
