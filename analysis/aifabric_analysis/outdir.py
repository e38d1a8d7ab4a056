# SPDX-License-Identifier: GPL-2.0-only
"""Reading one ai-fabric output directory with the csv module.

Column contract (doc/scenario-runner.md, Outputs); only the columns listed as required are used:
  fct.csv        flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,kind
  collective.csv op_id,algorithm,ranks,bytes,start_ns,end_ns,duration_ns,algbw_gbps,busbw_gbps,protocol
  pfc.csv        time_ns,node,port,priority,event   (event: pause/resume, also xoff/xon, 1/0)
  qlen.csv       time_ns,node,port,queue,bytes
  delay.csv      optional; any columns, one of them delay_ns (per-packet delay)
  summary.json   optional; a "label" (top level or in "config") names the run in plots
"""

import csv
import json
import os

from . import AnalysisError

REQUIRED = {
    "fct.csv": ("size_bytes", "slowdown", "kind"),
    "collective.csv": ("algorithm", "duration_ns"),
    "pfc.csv": ("time_ns", "node", "port", "priority", "event"),
    "qlen.csv": ("time_ns", "node", "port", "queue", "bytes"),
    "delay.csv": ("delay_ns",),
    "topology.csv": ("node", "port", "name", "peer_name"),
}

#: Columns kept as text; every other required column must be a number.
TEXT_COLUMNS = {"algorithm", "event", "kind", "name", "peer_name"}

PAUSE_EVENTS = {"pause", "xoff", "1"}
RESUME_EVENTS = {"resume", "xon", "0"}


def read_table(path, required):
    """Rows of a CSV file as dicts holding the required columns (numbers as float).

    A missing file gives None; a header without a required column, or a
    non-numeric cell, raises AnalysisError naming the file, line and column.
    """
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        header = [h.strip() for h in (reader.fieldnames or [])]
        if not header:
            return []
        reader.fieldnames = header
        missing = [c for c in required if c not in header]
        if missing:
            raise AnalysisError("%s: header %s lacks column(s) %s; expected at least %s" % (
                path, ",".join(header), ",".join(missing), ",".join(required)))
        rows = []
        for row in reader:
            line = reader.line_num
            if not any((v or "").strip() for v in row.values()):
                continue  # blank line
            out = {}
            for c in required:
                cell = (row.get(c) or "").strip()
                if c in TEXT_COLUMNS:
                    out[c] = cell
                    continue
                try:
                    out[c] = float(cell)
                except ValueError:
                    raise AnalysisError("%s, line %d: column %s is %r; expected a number" % (
                        path, line, c, cell)) from None
            rows.append(out)
        return rows


class Run:
    """The tables of one output directory (None for a missing file)."""

    def __init__(self, directory):
        if not os.path.isdir(directory):
            raise AnalysisError("%s: not a directory (expected an ai-fabric --out directory)"
                                % directory)
        self.directory = directory
        self.fct = read_table(os.path.join(directory, "fct.csv"), REQUIRED["fct.csv"])
        self.collective = read_table(os.path.join(directory, "collective.csv"),
                                     REQUIRED["collective.csv"])
        self.pfc = read_table(os.path.join(directory, "pfc.csv"), REQUIRED["pfc.csv"])
        self.qlen = read_table(os.path.join(directory, "qlen.csv"), REQUIRED["qlen.csv"])
        self.delay = read_table(os.path.join(directory, "delay.csv"), REQUIRED["delay.csv"])
        topology = read_table(os.path.join(directory, "topology.csv"),
                              REQUIRED["topology.csv"]) or []
        # (node, port) -> "pod0-edge0->pod0-agg1": the cable a port drives
        self.port_names = {(int(r["node"]), int(r["port"])): "%s->%s" % (r["name"], r["peer_name"])
                           for r in topology}
        self.summary = self._read_summary()
        self.label = self._label()

    def port_label(self, port):
        """A port (node, port) by the topology's names when topology.csv has them:
        "pod0-edge0->pod0-agg1 (node 16 port 3)"; else "node 16 port 3"."""
        ids = "node %d port %d" % port
        name = self.port_names.get(tuple(port))
        return "%s (%s)" % (name, ids) if name else ids

    def _read_summary(self):
        path = os.path.join(self.directory, "summary.json")
        if not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                return json.load(f)
        except ValueError as e:
            raise AnalysisError("%s: not valid JSON (%s)" % (path, e)) from None

    def _label(self):
        s = self.summary if isinstance(self.summary, dict) else {}
        cfg = s.get("config") if isinstance(s.get("config"), dict) else {}
        for source in (s, cfg):
            for key in ("label", "name"):
                if isinstance(source.get(key), str) and source[key]:
                    return source[key]
        return os.path.basename(os.path.normpath(self.directory))

    def has_data(self):
        return any(t for t in (self.fct, self.collective, self.pfc, self.qlen, self.delay))

    # --- port selection for the queue / pause plots ---------------------------------

    def pause_counts(self):
        """{(node, port): number of pause events}."""
        counts = {}
        for r in self.pfc or []:
            if r["event"].strip().lower() in PAUSE_EVENTS:
                key = (int(r["node"]), int(r["port"]))
                counts[key] = counts.get(key, 0) + 1
        return counts

    def max_queue(self):
        """{(node, port): largest sampled queue bytes (any queue)}."""
        best = {}
        for r in self.qlen or []:
            key = (int(r["node"]), int(r["port"]))
            best[key] = max(best.get(key, 0.0), r["bytes"])
        return best

    def busiest_port(self):
        """The port with the most pause events, else the largest max queue; None if neither."""
        for table in (self.pause_counts(), self.max_queue()):
            if table:
                # Most first; ties broken by the lowest (node, port) for determinism.
                return min(table, key=lambda k: (-table[k], k))
        return None


def parse_port(text):
    """'NODE:PORT' -> (node, port); AnalysisError otherwise."""
    parts = text.split(":")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise AnalysisError("--port %r: expected NODE:PORT with two integers, e.g. 12:3" % text)
    return int(parts[0]), int(parts[1])
