/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A RoCEv2 fabric on a k=4 fat-tree (16 hosts), ECMP.
 * Runs a random permutation of 1 MB messages and prints the mean hop count and the
 * achieved throughput. Options: --PrintHelp (see topology-example-common.h).
 *
 *   topology-fattree [--pattern=permutation|shift|alltoall] [--bytes=N] [--routing=NAME]
 */
#include "topology-example-common.h"

int
main(int argc, char* argv[])
{
    return ns3::topology_example::Run(argc, argv, "fattree");
}
