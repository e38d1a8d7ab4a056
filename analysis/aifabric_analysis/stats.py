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


def ccdf_points(values, max_points=2000, tail_points=200):
    """(value, fraction of values >= value) pairs for a complementary CDF on a log axis.

    For sorted x[0..n-1] the point of x[i] is (n - i) / n, so the largest value sits at
    1/n (never 0, which a log axis cannot show). Thinned like cdf_points, tail exact.
    """
    n = len(values)
    return [(x, 1.0 - f + 1.0 / n) for x, f in cdf_points(values, max_points, tail_points)]


# Two-sided 95% quantiles of Student's t, t(0.975; df), for df = 1..30 (any statistics
# table, e.g. NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2); beyond 30
# degrees of freedom the normal quantile 1.96 (t(0.975; 30) = 2.042).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df):
    """t(0.975; df) for df >= 1."""
    if df < 1:
        raise ValueError("Student's t needs df >= 1, got %r" % (df,))
    return T95[df - 1] if df <= len(T95) else 1.96


def mean_ci95(values):
    """(mean, sample standard deviation, half-width of the 95% confidence interval of the
    mean: t(0.975; n-1) * std / sqrt(n)); std and the half-width are None for one value."""
    if not values:
        raise ValueError("mean of an empty list is undefined")
    n = len(values)
    mean = sum(values) / float(n)
    if n == 1:
        return mean, None, None
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, std, t95(n - 1) * std / math.sqrt(n)
