# SPDX-License-Identifier: GPL-2.0-only
"""Parameter sweeps: every point of a grid in its own process.

ns-3's simulator is process-global, and a model bug may abort a process, so each
point runs in a fresh Python interpreter started with subprocess (run_point).
The executor only schedules those children: by default a thread pool of
``workers`` threads; any concurrent.futures-style executor works (a
ProcessPoolExecutor, a dask.distributed Client, ...). A failed point becomes a
row with its parameters and an ``error``; the other points are unaffected.
"""

import concurrent.futures
import csv
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

from .result import Result

# Scalar figures worth showing in the printed table, after the parameters.
_SHOWN = ("status", "flows", "slowdown_p50", "slowdown_p99", "background_slowdown_p99",
          "fct_ns_p99", "collective_ns_mean", "pfc_pauses", "pfc_resumes", "sim_time_s",
          "wall_s", "error")


def _package_parent():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def expand_grid(grid):
    """The points of a grid, as a list of {knob: value} dicts.

    ``grid`` is either {knob: [values...]} (every combination, the first knob
    varying slowest; a scalar counts as a one-value list) or a list of dicts
    (the points themselves).
    """
    if grid is None:
        return [{}]
    if isinstance(grid, dict):
        keys = list(grid)
        values = []
        for k in keys:
            v = grid[k]
            if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
                v = [v]
            values.append(list(v))
        return [dict(zip(keys, combo)) for combo in itertools.product(*values)]
    return [dict(p) for p in grid]


def point_label(index, params):
    """Folder name of a point: its index and parameters, e.g. 0003-kmin=20KB-kmax=200KB."""
    # an ns-3 attribute by its own name: ns3::DcqcnCongestionControl::MinRate -> MinRate
    text = "-".join([f"{index:04d}"] + [f"{k.rsplit('::', 1)[-1]}={v}" for k, v in params.items()])
    text = re.sub(r"[^A-Za-z0-9._=+-]", "_", text)
    return text[:120]


def _mpi_command(config, ranks):
    """The mpirun command that runs ``config`` across ``ranks`` MPI processes.

    ai-fabric-sim (AI_FABRIC_SIM, else on PATH) with --mpi and the configuration as a
    JSON file (--config=) in the point's output directory.
    """
    sim = os.environ.get("AI_FABRIC_SIM") or shutil.which("ai-fabric-sim")
    mpirun = shutil.which("mpirun")
    if not sim or not mpirun:
        missing = "ai-fabric-sim (set AI_FABRIC_SIM)" if not sim else "mpirun (OpenMPI)"
        raise RuntimeError(f"ranks={ranks}: {missing} not found")
    out_dir = config["out"]
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "mpi-config.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({**config, "mpi": 1}, f)
    cmd = [mpirun, "-np", str(ranks), "--oversubscribe"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd + [sim, f"--config={path}"]


def run_point(config, timeout=None, ranks=None):
    """Run one scenario (a to_dict()-style dict) in a fresh Python process, or with
    ``ranks`` (an integer >= 1) across that many MPI processes: mpirun -np ranks
    ai-fabric-sim --mpi (doc/distributed.md; ai-fabric-sim from AI_FABRIC_SIM or PATH).

    Returns {"status": "ok" | "incomplete" | "error", "error": message or None,
    "returncode", "wall_s", "summary": summary.json as a dict or None}. Never
    raises for a failed run: that is the row's "error".
    """
    env = dict(os.environ)
    parent = _package_parent()
    env["PYTHONPATH"] = parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    code = "from aifabric.sweep import _child_main; _child_main()"
    t0 = time.monotonic()
    cmd = [sys.executable, "-c", code]
    stdin = json.dumps(config)
    if ranks is not None:
        try:
            cmd = _mpi_command(config, ranks)
        except RuntimeError as e:
            return {"status": "error", "error": str(e), "returncode": None, "wall_s": 0.0,
                    "summary": None}
        stdin = None
    try:
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                              timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "error", "error": f"timed out after {timeout} s", "returncode": None,
                "wall_s": time.monotonic() - t0, "summary": None}
    wall = time.monotonic() - t0
    summary = None
    out_dir = config.get("out")
    path = os.path.join(out_dir, "summary.json") if out_dir else None
    if proc.returncode in (0, 3) and path and os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
    if proc.returncode == 0:
        return {"status": "ok", "error": None, "returncode": 0, "wall_s": wall,
                "summary": summary}
    if proc.returncode == 3:
        return {"status": "incomplete", "error": None, "returncode": 3, "wall_s": wall,
                "summary": summary}
    lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
    if ranks is not None:
        # mpirun adds its own report after the program's error
        errors = [ln for ln in lines if ln.startswith("ai-fabric-sim: error: ")]
        lines = errors[-1:] or lines
    if proc.returncode == 2 and lines:
        message = lines[-1]  # the ConfigError, as the CLI prints it
    elif proc.returncode < 0:
        message = f"killed by signal {-proc.returncode}" + (f": {lines[-1]}" if lines else "")
    else:
        message = f"exit status {proc.returncode}" + (
            ": " + " | ".join(lines[-3:]) if lines else "")
    return {"status": "error", "error": message, "returncode": proc.returncode, "wall_s": wall,
            "summary": None}


def _child_main():
    """Body of the child process: config JSON on stdin -> run; exit like ai-fabric-sim."""
    from . import ConfigError, Scenario, _run_native  # pylint: disable=import-outside-toplevel

    try:
        scenario = Scenario.from_dict(json.load(sys.stdin))
        summary = _run_native(scenario)
    except ConfigError as e:
        print(str(e), file=sys.stderr)
        sys.exit(2)
    except Exception as e:  # pylint: disable=broad-except
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
    sys.exit(0 if summary.get("complete") else 3)


class SweepTable(list):
    """The rows of a sweep (one dict per point, in grid order), with helpers.

    Each row holds ``index``, the point's parameters, ``out``, ``status``
    ("ok", "incomplete", "error"), ``error`` and the scalar summary figures
    (Result.figures()).
    """

    def __init__(self, rows, params):
        super().__init__(rows)
        self.params = list(params)

    @property
    def columns(self):
        cols = []
        for row in self:
            cols.extend(k for k in row if k not in cols)
        return cols

    def column(self, name):
        """One column as a list (None where a row lacks it)."""
        return [row.get(name) for row in self]

    @property
    def failed(self):
        return [row for row in self if row.get("error")]

    @property
    def ok(self):
        return [row for row in self if not row.get("error")]

    def result(self, index):
        """The Result of one point (its output directory)."""
        return Result(self[index]["out"])

    def to_csv(self, path):
        cols = self.columns
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            w.writerows(self)

    def to_pandas(self):
        import pandas  # pylint: disable=import-outside-toplevel

        return pandas.DataFrame(list(self), columns=self.columns)

    def format(self, columns=None):
        """A plain-text table: the parameters, then the key figures."""
        if columns is None:
            columns = ["index"] + self.params + [c for c in _SHOWN if c in self.columns]

        def cell(v):
            if isinstance(v, float):
                return f"{v:.4g}"
            return "" if v is None else str(v)

        rows = [[cell(r.get(c)) for c in columns] for r in self]
        widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(columns)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths))]
        lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)) for r in rows]
        return "\n".join(line.rstrip() for line in lines)

    def aggregate(self, over="seed"):
        """One row per point of the other parameters, over the runs that differ only in
        ``over`` (the seeds): ``runs``, and for every numeric figure ``f`` of the runs
        without error ``f_mean``, ``f_std`` (sample standard deviation) and ``f_ci95``
        (half-width of the 95% confidence interval of the mean, Student's t with
        runs - 1 degrees of freedom; None for one run)."""
        keys = [p for p in self.params if p != over]
        groups = {}
        for row in self:
            groups.setdefault(tuple(repr(row.get(k)) for k in keys), []).append(row)
        rows = []
        for i, members in enumerate(groups.values()):
            agg = {"index": i, **{k: members[0].get(k) for k in keys}}
            ok = [r for r in members if not r.get("error")]
            agg["runs"] = len(ok)
            agg["failed_runs"] = len(members) - len(ok)
            figures = []
            for r in ok:
                figures.extend(k for k, v in r.items() if k not in figures and k not in keys
                               and k not in (over, "index") and isinstance(v, (int, float))
                               and not isinstance(v, bool))
            for f in figures:
                values = [float(r[f]) for r in ok if isinstance(r.get(f), (int, float))
                          and not isinstance(r.get(f), bool)]
                if not values:
                    continue
                mean = sum(values) / len(values)
                agg[f + "_mean"] = mean
                if len(values) > 1:
                    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
                    std = math.sqrt(var)
                    agg[f + "_std"] = std
                    agg[f + "_ci95"] = _t95(len(values) - 1) * std / math.sqrt(len(values))
                else:
                    agg[f + "_std"] = None
                    agg[f + "_ci95"] = None
            rows.append(agg)
        table = SweepTable(rows, keys)
        table.aggregated_over = over
        return table

    def __str__(self):
        if getattr(self, "aggregated_over", None):
            columns = ["index"] + self.params + ["runs"]
            for f in _SHOWN:
                if f + "_mean" in self.columns:
                    columns += [f + "_mean", f + "_ci95"]
            return self.format(columns)
        return self.format()


# Two-sided 95% quantiles of Student's t by degrees of freedom (1..30); the normal
# distribution's 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def _t95(df):
    return _T95[df - 1] if df <= len(_T95) else 1.96


def _is_dask_client(executor):
    return type(executor).__module__.split(".")[0] == "distributed"


def sweep(base=None, grid=None, workers=None, executor=None, out=None, progress=True,
          timeout=None, seeds=None, ranks=None):
    """Run ``base`` with every point of ``grid``, each point in its own process.

    base      a Scenario, a dict of knobs, or None (ai-fabric-sim's defaults)
    grid      {knob: [values]} (all combinations) or a list of {knob: value} dicts
    workers   points run at once by the default executor (default: CPU count)
    executor  any object with submit(fn, *args) returning futures with done() and
              result(): concurrent.futures executors, a dask.distributed Client, ...
    out       folder of the points' output directories (default: base's ``out``);
              point i writes to out/<point_label(i, params)>
    progress  True: one line per finished point on stderr; or a callable(done, total, row)
    timeout   seconds one point may run before it counts as failed
    seeds     a list of --seed values: every point runs once per seed (a "seed"
              column); SweepTable.aggregate() then gives each point's mean, standard
              deviation and 95% confidence interval per figure
    ranks     None (each point in one process) or an integer >= 1: each point runs
              across that many MPI processes (mpirun -np ranks ai-fabric-sim --mpi;
              a build with -DAI_FABRIC_MPI=ON, doc/distributed.md); mind that
              workers x ranks processes then run at once

    Returns a SweepTable (a list of row dicts, in grid order). A point that fails
    (bad value, runtime error, crash, timeout) is a row with ``error`` set; the
    other points are not affected.
    """
    from . import ConfigError, Scenario  # pylint: disable=import-outside-toplevel

    if ranks is not None and (isinstance(ranks, bool) or not isinstance(ranks, int) or ranks < 1):
        raise ValueError(f"sweep: ranks={ranks!r}; allowed: None or an integer >= 1 (MPI "
                         "processes per point)")
    if base is None:
        base = Scenario()
    elif isinstance(base, dict):
        base = Scenario.from_dict(base)
    else:
        base = base.copy()
    points = [{k if k.startswith("ns3::") else k.replace("-", "_"): v for k, v in p.items()}
              for p in expand_grid(grid)]
    if seeds is not None:
        seeds = list(seeds)
        if not seeds or any(isinstance(x, bool) or not isinstance(x, int) or x < 1
                            for x in seeds):
            raise ValueError(f"sweep: seeds={seeds!r}; allowed: a non-empty list of "
                             "integers >= 1 (the --seed values)")
        if any("seed" in p for p in points):
            raise ValueError("sweep: 'seed' is both a grid knob and seeds=; give one")
        points = [{**p, "seed": x} for p in points for x in seeds]
    known = {k["name"] for k in Scenario.knobs()}
    for p in points:
        for key in p:
            name = key
            if name.startswith("ns3::"):
                Scenario().set(name, str(p[key]))  # ConfigError (ValueError) when invalid
                continue
            if name not in known:
                raise ValueError(f"sweep: grid knob {key!r} is not a Scenario knob or an "
                                 f"ns-3 attribute ('ns3::Class::Attribute'); "
                                 f"allowed: {', '.join(sorted(known))}")
            if name == "out":
                raise ValueError("sweep: 'out' cannot be swept; give out= (each point writes "
                                 "to out/<index-params>)")
    root = os.fspath(out) if out is not None else base.out
    params = []
    for p in points:
        params.extend(k for k in p if k not in params)

    rows = [None] * len(points)
    jobs = []
    for i, p in enumerate(points):
        row = {"index": i, **p, "out": os.path.join(root, point_label(i, p))}
        rows[i] = row
        try:  # bad values fail here, with the CLI's message, without starting a process
            sc = base.copy()
            sc.update(p)
            sc.out = row["out"]
            sc.validate()
            jobs.append((i, sc.to_dict()))
        except ConfigError as e:
            row.update(status="error", error=str(e))

    total = len(points)
    done_count = [total - len(jobs)]

    def report(row):
        if callable(progress):
            progress(done_count[0], total, row)
        elif progress:
            what = row["status"] if not row.get("error") else f"error: {row['error']}"
            wall = row.get("wall_s")
            wall_text = f" ({wall:.1f} s)" if isinstance(wall, float) else ""
            print(f"aifabric.sweep: [{done_count[0]}/{total}] {os.path.basename(row['out'])}: "
                  f"{what}{wall_text}", file=sys.stderr, flush=True)

    for row in rows:
        if row.get("error"):
            report(row)

    own = executor is None
    if own:
        # Threads only wait for the child processes, which do the work.
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=workers or os.cpu_count()
                                                         or 1)
    try:
        kwargs = {"pure": False} if _is_dask_client(executor) else {}
        futures = {}
        for i, config in jobs:
            futures[executor.submit(run_point, config, timeout, ranks, **kwargs)] = i

        def finish(fut, i):
            row = rows[i]
            try:
                res = fut.result()
            except Exception as e:  # pylint: disable=broad-except
                res = {"status": "error", "error": f"executor: {type(e).__name__}: {e}",
                       "wall_s": None, "summary": None}
            row.update(status=res["status"], error=res["error"], wall_s=res.get("wall_s"))
            if res.get("summary"):
                figures = Result(row["out"], res["summary"]).figures()
                figures.pop("wall_s", None)  # the row's wall_s is the whole point's
                figures["sim_wall_s"] = res["summary"].get("wall_s")
                row.update(figures)
            done_count[0] += 1
            report(row)

        if all(isinstance(f, concurrent.futures.Future) for f in futures):
            for fut in concurrent.futures.as_completed(futures):
                finish(fut, futures[fut])
        else:  # e.g. dask futures: poll
            pending = dict(futures)
            while pending:
                ready = [f for f in pending if f.done()]
                for fut in ready:
                    finish(fut, pending.pop(fut))
                if not ready:
                    time.sleep(0.05)
    finally:
        if own:
            executor.shutdown(wait=True)
    return SweepTable(rows, params)
