/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A RoCEv2 fabric on a 4x4 torus (16 hosts), dimension-order routing with dateline classes.
 * Runs a random permutation of 1 MB messages and prints the mean hop count and the
 * achieved throughput. Options: --PrintHelp (see topology-example-common.h).
 *
 *   topology-torus [--pattern=permutation|shift|alltoall] [--bytes=N] [--routing=NAME]
 */
#include "topology-example-common.h"

int
main(int argc, char* argv[])
{
    return ns3::topology_example::Run(argc, argv, "torus");
}
