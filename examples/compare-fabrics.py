#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""RoCEv2 vs InfiniBand: one workload on each fabric this build simulates.

Runs the same scenario (topology, rates, workload) once per fabric and prints
the FCT slowdown percentiles, PFC pauses (RoCEv2's losslessness; InfiniBand
uses credits instead) and simulated time side by side. Fabrics the runner does
not simulate yet are listed with the runner's own message.

    PYTHONPATH=build/python python3 examples/compare-fabrics.py [--workload=incast] [--out=out/compare]
"""

import argparse
import os
import sys

import aifabric


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workload", default="permutation",
                    help="incast, permutation, alltoall, ... (default permutation)")
    ap.add_argument("--bytes", default="1MB", help="bytes per message (default 1MB)")
    ap.add_argument("--out", default="out/compare-fabrics")
    args = ap.parse_args()

    fabrics = aifabric.available_fabrics()
    for name, why in fabrics.items():
        print(f"{name:11} {'available' if why is None else 'NOT available: ' + why}")
    runnable = [name for name, why in fabrics.items() if why is None]

    base = aifabric.Scenario(topology="fattree", k=4, host_rate="100Gbps",
                             fabric_rate="100Gbps", workload=args.workload, bytes=args.bytes,
                             fanin=8)
    # Each fabric in its own process: ns-3's simulator is process-global.
    table = aifabric.sweep(base, {"fabric": runnable}, out=args.out, progress=False)
    print()
    print(table.format(["fabric", "status", "flows", "slowdown_p50", "slowdown_p99",
                        "slowdown_max", "pfc_pause_frames", "sim_time_s", "error"]))
    print(f"outputs under {os.path.abspath(args.out)}")
    return 1 if table.failed else 0


if __name__ == "__main__":
    sys.exit(main())
