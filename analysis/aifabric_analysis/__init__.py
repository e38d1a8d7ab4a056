# SPDX-License-Identifier: GPL-2.0-only
"""Analysis of ai-fabric output directories (out/): tail tables and gnuplot plots.

Modules:
  stats   -- percentile() (numpy's default "linear" definition, pure-Python fallback)
  outdir  -- reading fct.csv, collective.csv, qlen.csv, pfc.csv, delay.csv, summary.json
  tails   -- flow-size buckets and the percentile table (tails.csv)
  gnuplot -- script generation and invocation
  plots   -- the single-run and comparison plots
  cli     -- the plot-tails command line
"""


class AnalysisError(Exception):
    """A user-facing error: bad input file, empty directory, missing gnuplot."""


__all__ = ["AnalysisError"]
