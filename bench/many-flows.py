#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Many short flows between random host pairs, spread over time: the case where memory
must follow the flows in flight, not every flow (issue #23, item 8).

Writes a flow file (the HPCC-derived simulators' format: the count, then
`src dst priority dport size_bytes start_s`) and, with --sim, runs ai-fabric-sim on it
and prints the run's summary.json figures (peak_rss_bytes, queue pairs).

  bench/many-flows.py --hosts 4800 --flows 200000 --span 2 --file /tmp/f.txt \\
      --sim build-dev/ai-fabric-sim -- --topology=leafspine --leaves=150 --spines=16 \\
      --hosts-per-switch=32

Same arguments, same file (seeded).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def write_flows(path, hosts, flows, span_s, min_bytes, max_bytes, seed):
    """Write `flows` flows between distinct random hosts, starts uniform in 1 ms + span."""
    rng = random.Random(seed)
    starts = sorted(0.001 + rng.random() * span_s for _ in range(flows))
    with open(path, "w", encoding="ascii") as f:
        f.write(f"{flows}\n")
        for start in starts:
            src = rng.randrange(hosts)
            dst = rng.randrange(hosts - 1)
            dst += dst >= src
            size = rng.randint(min_bytes, max_bytes)
            f.write(f"{src} {dst} 3 100 {size} {start:.9f}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hosts", type=int, default=4800)
    ap.add_argument("--flows", type=int, default=200000)
    ap.add_argument("--span", type=float, default=2.0, help="seconds the starts spread over")
    ap.add_argument("--min-bytes", type=int, default=1000)
    ap.add_argument("--max-bytes", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--file", help="the flow file to write (default: a temporary one)")
    ap.add_argument("--sim", help="ai-fabric-sim to run on it (then prints its figures)")
    ap.add_argument("--out", help="--out of the run (default: a temporary folder)")
    ap.add_argument("flags", nargs="*", help="ai-fabric-sim's topology flags, after --")
    a = ap.parse_args()
    if a.hosts < 2 or a.flows < 1 or not 0 < a.min_bytes <= a.max_bytes:
        ap.error("need --hosts >= 2, --flows >= 1, 0 < --min-bytes <= --max-bytes")
    with tempfile.TemporaryDirectory() as tmp:
        path = a.file or os.path.join(tmp, "flows.txt")
        write_flows(path, a.hosts, a.flows, a.span, a.min_bytes, a.max_bytes, a.seed)
        if not a.sim:
            return 0
        out = a.out or os.path.join(tmp, "out")
        cmd = [a.sim, *a.flags, f"--flows={path}", "--workload=none", f"--out={out}"]
        r = subprocess.run(cmd, check=False)
        if r.returncode != 0:
            print(f"many-flows: {' '.join(cmd)}: exit {r.returncode}", file=sys.stderr)
            return r.returncode
        s = json.load(open(os.path.join(out, "summary.json"), encoding="utf-8"))
        keys = ["peak_rss_bytes", "wall_s", "sim_time_s", "queue_pairs", "queue_pairs_peak",
                "queue_pairs_released", "stale_frames", "messages"]
        print(json.dumps({k: s.get(k) for k in keys}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
