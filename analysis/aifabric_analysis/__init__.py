# SPDX-License-Identifier: GPL-2.0-only
"""Analysis of ai-fabric output directories (out/) and sweeps: tables and gnuplot plots.

Modules:
  stats   -- percentile() (numpy's default "linear" definition, pure-Python fallback)
  outdir  -- reading fct.csv, collective.csv, qlen.csv, pfc.csv, delay.csv, summary.json
  tails   -- flow-size buckets and the percentile table (tails.csv)
  gnuplot -- script generation and invocation
  plots   -- the single-run and comparison plots
  cli     -- the plot-tails command line
  sweepdir  -- a sweep's runs (one summary.json each), its axes and per-run figures
  sweepplot -- the plot-sweep command line: sweep.csv (mean, std, 95% CI) and plots
  nccl      -- the nccl-table command line: nccl-tests' table of a --bytes sweep
"""


class AnalysisError(Exception):
    """A user-facing error: bad input file, empty directory, missing gnuplot."""


__all__ = ["AnalysisError"]
