#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ECN thresholds vs tail latency: sweep the switches' Kmin/Kmax under DCQCN.

Each (Kmin, Kmax) point runs in its own process (aifabric.sweep); the table
shows the p99 FCT slowdown of the flows and, when the runner has collectives,
the mean allreduce time. Low thresholds mark early (short queues, but DCQCN
may throttle below line rate); high ones let queues, and PFC pauses, build.

    PYTHONPATH=build/python python3 examples/sweep-ecn.py [--workers=2] [--out=out/sweep-ecn]

The workload is an allreduce when this build's runner runs one; otherwise a
random permutation (every host sends --bytes to one other host) on the same
fabric, and the script says so.
"""

import argparse
import sys

import aifabric


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2, help="points run at once (default 2)")
    ap.add_argument("--out", default="out/sweep-ecn", help="folder of the points' outputs")
    ap.add_argument("--bytes", default="1MB", help="message / collective size (default 1MB)")
    args = ap.parse_args()

    workloads = aifabric.available_workloads()
    workload = "allreduce" if workloads["allreduce"] is None else "permutation"
    if workload != "allreduce":
        print(f"note: allreduce is not available in this build ({workloads['allreduce']}); "
              "sweeping a permutation workload instead", file=sys.stderr)

    base = aifabric.Scenario(
        topology="leafspine", leaves=4, spines=2, hosts_per_switch=4,  # 16 hosts, 2:1
        host_rate="100Gbps", fabric_rate="100Gbps", cc="dcqcn", ecn=True, pfc=True,
        workload=workload, bytes=args.bytes, out=args.out,
    )
    grid = {
        "kmin": ["5KB", "20KB", "80KB"],
        "kmax": ["200KB", "800KB"],
    }
    table = aifabric.sweep(base, grid, workers=args.workers)
    table.to_csv(f"{args.out}/sweep.csv")
    columns = ["kmin", "kmax", "status", "slowdown_p50", "slowdown_p99", "pfc_pause_frames"]
    if workload == "allreduce":
        columns.append("collective_ns_mean")
    print(table.format(["index"] + columns + ["error"]))
    print(f"table written to {args.out}/sweep.csv")
    return 1 if table.failed else 0


if __name__ == "__main__":
    sys.exit(main())
