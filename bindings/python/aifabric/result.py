# SPDX-License-Identifier: GPL-2.0-only
"""Result: one finished run's output directory (the output contract of doc/scenario-runner.md) as Python data.

Pure Python (csv, json; numpy when it imports), so it also reads the output of
ai-fabric-sim runs: ``Result("out")``.
"""

import collections
import csv
import json
import math
import os


# Column types of the contract CSVs (doc/scenario-runner.md); columns not listed here are
# typed by their content (int, else float, else str).
_SCHEMA = {
    "fct": {
        "flow_id": int, "src": int, "dst": int, "size_bytes": int, "start_ns": int,
        "fct_ns": int, "ideal_fct_ns": int, "slowdown": float, "kind": str,
    },
    "collectives": {
        "op_id": int, "algorithm": str, "ranks": int, "bytes": int, "start_ns": int,
        "end_ns": int, "duration_ns": int, "algbw_gbps": float, "busbw_gbps": float,
        "protocol": str,
    },
    "pfc": {"time_ns": int, "node": int, "port": int, "priority": int, "event": str},
    "qlen": {"time_ns": int, "node": int, "port": int, "queue": int, "bytes": int},
    "drops": {"time_ns": int, "node": int, "port": int, "reason": str},
}

#: record-list name -> file in the output directory
TABLES = {
    "fct": "fct.csv",
    "collectives": "collective.csv",
    "pfc": "pfc.csv",
    "qlen": "qlen.csv",
    "drops": "drops.csv",
}

_RECORD_NAMES = {
    "fct": "FctRecord",
    "collectives": "CollectiveRecord",
    "pfc": "PfcRecord",
    "qlen": "QlenRecord",
    "drops": "DropRecord",
}


def _infer(values):
    for kind in (int, float):
        try:
            for v in values:
                kind(v)
            return kind
        except ValueError:
            continue
    return str


def read_csv(path, name=None):
    """Read one contract CSV into (namedtuple type, list of records).

    ``name`` picks the column types (a key of TABLES); a missing file gives an
    empty list whose record type has no fields.
    """
    schema = _SCHEMA.get(name, {})
    record_name = _RECORD_NAMES.get(name, "Record")
    if not os.path.isfile(path):
        return collections.namedtuple(record_name, list(schema)), []
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        return collections.namedtuple(record_name, list(schema)), []
    header, body = rows[0], rows[1:]
    types = [schema.get(col) or _infer([r[i] for r in body]) for i, col in enumerate(header)]
    record = collections.namedtuple(record_name, header)
    records = [record(*(t(v) for t, v in zip(types, r))) for r in body]
    return record, records


class Result:
    """A finished run: ``summary`` (summary.json as a dict), its top-level figures as
    attributes (``r.sim_time_s``, ``r.pfc_pauses``, ``r.drops["lossless"]``),
    the records as lists of namedtuples (``r.fct``, ``r.collectives``, ``r.pfc``,
    ``r.qlen``, ``r.drops_records``) and, with numpy, as structured arrays
    (``r.array("fct")["slowdown"]``).
    """

    def __init__(self, out_dir, summary=None):
        self.out_dir = os.fspath(out_dir)
        path = os.path.join(self.out_dir, "summary.json")
        if summary is None or os.path.isfile(path):
            # The file is what the CLI wrote too (with the "output" block).
            with open(path, encoding="utf-8") as f:
                summary = json.load(f)
        self.summary = summary
        self._records = {}

    # --- summary figures -------------------------------------------------------------
    def __getattr__(self, name):
        summary = self.__dict__.get("summary")
        if summary is not None and name in summary:
            return summary[name]
        raise AttributeError(
            f"Result has no attribute {name!r}; summary.json keys: "
            f"{', '.join(sorted(summary or {}))}"
        )

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.summary))

    @property
    def scenario(self):
        """The Scenario that produced this run (from summary.json's config echo)."""
        from . import Scenario  # pylint: disable=import-outside-toplevel

        return Scenario.from_dict(self.summary["config"])

    @property
    def slowdown(self):
        """FCT slowdown percentiles: {"p50", "p90", "p99", "p999", "max", "mean"}."""
        return self.summary.get("fct", {}).get("slowdown", {})

    @property
    def slowdown_by_kind(self):
        """FCT slowdown percentiles per traffic class (fct.csv's ``kind``):
        {"background": {"p50", ...}, "collective": {...}, ...}."""
        return {kind: stats.get("slowdown", {})
                for kind, stats in (self.summary.get("fct_by_kind") or {}).items()}

    @property
    def pfc_pauses(self):
        """PFC pause (XOFF, quanta > 0) frames sent: summary.json's ``pfc_pauses``; for
        an output written before that key existed, the "pause" rows of pfc.csv."""
        if "pfc_pauses" in self.summary:
            return self.summary["pfc_pauses"]
        return sum(1 for p in self.pfc if p.event == "pause")

    @property
    def pfc_resumes(self):
        """PFC resume (XON, quanta 0) frames sent: summary.json's ``pfc_resumes``; for
        an output written before that key existed, the "resume" rows of pfc.csv.
        ``pfc_pause_frames`` is both kinds together (pauses + resumes)."""
        if "pfc_resumes" in self.summary:
            return self.summary["pfc_resumes"]
        return sum(1 for p in self.pfc if p.event == "resume")

    def figures(self):
        """The scalar summary figures as one flat dict (what a sweep row holds)."""
        s = self.summary
        out = {}
        for key in ("complete", "sim_time_s", "wall_s", "events", "packet_hops",
                    "pfc_pauses", "pfc_resumes", "pfc_pause_frames", "retransmissions",
                    "timeouts", "ecn_marks", "cnps"):
            if key in s:
                out[key] = s[key]
        for key, value in (s.get("drops") or {}).items():
            out[f"drops_{key}"] = value
        fct = s.get("fct") or {}
        if "count" in fct:
            out["flows"] = fct["count"]
        for group in ("slowdown", "fct_ns"):
            for key, value in (fct.get(group) or {}).items():
                out[f"{group}_{key}"] = value
        # per traffic class: "<kind>_flows", "<kind>_slowdown_p99", "<kind>_fct_ns_p50", ...
        for kind, stats in (s.get("fct_by_kind") or {}).items():
            out[f"{kind}_flows"] = stats.get("count")
            for group in ("slowdown", "fct_ns"):
                for key, value in (stats.get(group) or {}).items():
                    out[f"{kind}_{group}_{key}"] = value
        colls = s.get("collectives") or []
        out["collectives"] = len(colls)
        # every iteration's duration of every collective job
        durations = [d for c in colls if isinstance(c, dict)
                     for d in (c.get("durations_ns") or []) if isinstance(d, (int, float))]
        if durations:
            out["collective_ns_mean"] = sum(durations) / len(durations)
            out["collective_ns_max"] = max(durations)
        return out

    # --- records --------------------------------------------------------------------
    def records(self, name):
        """The rows of one CSV (a key of TABLES) as a list of namedtuples."""
        if name not in TABLES:
            raise ValueError(f"unknown table {name!r}; allowed: {', '.join(TABLES)}")
        if name not in self._records:
            self._records[name] = read_csv(os.path.join(self.out_dir, TABLES[name]), name)
        return self._records[name][1]

    @property
    def fct(self):
        """fct.csv: one FctRecord per finished flow or message."""
        return self.records("fct")

    @property
    def collectives_records(self):
        """collective.csv: one CollectiveRecord per finished collective."""
        return self.records("collectives")

    @property
    def pfc(self):
        """pfc.csv: one PfcRecord per pause / resume frame sent."""
        return self.records("pfc")

    @property
    def qlen(self):
        """qlen.csv: one QlenRecord per non-empty queue sample."""
        return self.records("qlen")

    @property
    def drops_records(self):
        """drops.csv: one DropRecord per dropped packet (``drops`` is the summary count)."""
        return self.records("drops")

    def array(self, name):
        """One CSV as a numpy structured array (field per column); needs numpy."""
        # optional, and imported late: sweep children start faster without it
        try:
            from ._interpreter import require  # pylint: disable=import-outside-toplevel
        except ImportError:  # this file loaded on its own, not as part of the package
            require = None
        if require is not None:
            # the error names the interpreters when this one is not the build's
            _np = require("numpy")
        else:
            try:
                import numpy as _np  # pylint: disable=import-outside-toplevel
            except ImportError as e:
                raise ImportError("Result.array needs numpy (Debian: python3-numpy)") from e
        rows = self.records(name)
        record = self._records[name][0]
        schema = _SCHEMA.get(name, {})
        dtype = []
        for i, col in enumerate(record._fields):
            kind = schema.get(col) or (type(rows[0][i]) if rows else str)
            if kind is int:
                dtype.append((col, "i8"))
            elif kind is float:
                dtype.append((col, "f8"))
            else:
                width = max((len(r[i]) for r in rows), default=1)
                dtype.append((col, f"U{max(width, 1)}"))
        return _np.array([tuple(r) for r in rows], dtype=dtype)

    def __repr__(self):
        sd = self.slowdown.get("p99")
        sd_text = "n/a" if sd is None or (isinstance(sd, float) and math.isnan(sd)) else f"{sd:.3g}"
        return (f"<aifabric.Result {self.out_dir!r}: complete={self.summary.get('complete')}, "
                f"sim_time_s={self.summary.get('sim_time_s')}, flows="
                f"{(self.summary.get('fct') or {}).get('count')}, p99 slowdown={sd_text}>")
