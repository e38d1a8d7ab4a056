#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The web-search case as files another simulator reads (doc/validation.md, "The same
flow file through an HPCC-derived simulator").

Writes, into DIR:
  topology-leafspine-256.txt  the 256-host leaf-spine (16 leaves of 16 hosts, 16 spines,
                              100 Gb/s, 1 us) in the HPCC-derived topology format, header
                              `nodes switches tors links` as inet-tub/ns3-datacenter reads it
  flow-websearch-256.txt      the flows our generator draws for the web-search case
                              (30% load, 20 ms, seed 1 run 1), `src dst 3 100 size start_s`

The flows come from ai-fabric-sim's own run of the case (its fct.csv: every flow with
its source, destination, size and start), so the file is exactly what our generator
draws. With --summarize OUT it instead prints the slowdown figures of the validation
page's table from OUT/fct.csv of a run on these files.

  bench/peer-websearch.py --sim build/ai-fabric-sim DIR
  bench/peer-websearch.py --summarize OUT        (OUT/fct.csv, or an fct.txt file)
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

LEAVES, HOSTS_PER_LEAF, SPINES = 16, 16, 16


def write_topology(path):
    """Hosts 0..255, leaves 256..271, spines 272..287; every cable 100 Gb/s, 1 us."""
    hosts = LEAVES * HOSTS_PER_LEAF
    leaves = list(range(hosts, hosts + LEAVES))
    spines = list(range(hosts + LEAVES, hosts + LEAVES + SPINES))
    links = [(h, leaves[h // HOSTS_PER_LEAF]) for h in range(hosts)]
    links += [(l, s) for l in leaves for s in spines]
    with open(path, "w", encoding="ascii") as f:
        f.write(f"{hosts + LEAVES + SPINES} {LEAVES + SPINES} {LEAVES} {len(links)}\n")
        f.write(" ".join(str(x) for x in leaves + spines) + "\n")
        for a, b in links:
            f.write(f"{a} {b} 100Gbps 0.001ms 0\n")


def write_flows(sim, path):
    """Run the web-search case once and write its flows in start order."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sim, "--topology=leafspine", f"--leaves={LEAVES}", f"--spines={SPINES}",
               f"--hosts-per-switch={HOSTS_PER_LEAF}", "--workload=none",
               "--background=websearch", "--load=0.3", "--background-duration=20ms",
               "--cc=dcqcn", f"--out={out}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "fct.csv"), encoding="ascii") as f:
            rows = [r for r in csv.DictReader(f) if r["kind"] == "background"]
    rows.sort(key=lambda r: (int(r["start_ns"]), int(r["flow_id"])))
    with open(path, "w", encoding="ascii") as f:
        f.write(f"{len(rows)}\n")
        for r in rows:
            start = int(r["start_ns"])
            f.write(f"{r['src']} {r['dst']} 3 100 {r['size_bytes']} "
                    f"{start // 10**9}.{start % 10**9:09d}\n")
    return len(rows)


def percentile(values, p):
    """Nearest-rank percentile, as summary.json's fct percentiles."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, -(-len(s) * p // 100) - 1))
    return s[int(k)]


def read_fct_txt(path):
    """fct.txt of an HPCC-derived simulator: sip dip sport dport size start_ns fct_ns
    standalone_fct_ns; slowdown is fct over its standalone FCT."""
    rows = []
    with open(path, encoding="ascii") as f:
        for line in f:
            t = line.split()
            if len(t) < 8:
                continue
            rows.append({"size_bytes": t[4], "start_ns": t[5], "fct_ns": t[6],
                         "slowdown": str(int(t[6]) / int(t[7]))})
    return rows


def summarize(out):
    """The validation table's columns from a run's fct.csv (OUT a directory) or from an
    HPCC-derived simulator's fct.txt (OUT a file)."""
    if os.path.isdir(out):
        with open(os.path.join(out, "fct.csv"), encoding="ascii") as f:
            rows = list(csv.DictReader(f))
    else:
        rows = read_fct_txt(out)
    sd = [float(r["slowdown"]) for r in rows]
    small = [float(r["slowdown"]) for r in rows if int(r["size_bytes"]) < 200000]
    large = [float(r["slowdown"]) for r in rows if int(r["size_bytes"]) >= 1000000]
    end = max(int(r["start_ns"]) + int(r["fct_ns"]) for r in rows)
    print(f"flows {len(rows)} p50 {percentile(sd, 50):.2f} p99 {percentile(sd, 99):.2f} "
          f"<200KB p50 {percentile(small, 50):.2f} p99 {percentile(small, 99):.2f} "
          f">=1MB p50 {percentile(large, 50):.2f} max {max(sd):.1f} "
          f"last end {end / 1e6:.2f} ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", help="where the two files go")
    ap.add_argument("--sim", default="build/ai-fabric-sim", help="ai-fabric-sim to run")
    ap.add_argument("--summarize", metavar="OUT", help="print a run's slowdown figures")
    a = ap.parse_args()
    if a.summarize:
        summarize(a.summarize)
        return 0
    if not a.dir:
        ap.error("DIR is required (or --summarize OUT)")
    os.makedirs(a.dir, exist_ok=True)
    write_topology(os.path.join(a.dir, "topology-leafspine-256.txt"))
    n = write_flows(a.sim, os.path.join(a.dir, "flow-websearch-256.txt"))
    print(f"{a.dir}: topology-leafspine-256.txt, flow-websearch-256.txt ({n} flows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
