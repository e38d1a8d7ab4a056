/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A RoCEv2 fabric on a p=2 a=4 h=2 g=9 DragonFly (72 hosts), minimal routing; try --routing=valiant
 * or ugal and --pattern=shift. Runs a random permutation of 1 MB messages and prints the mean hop
 * count and the achieved throughput. Options: --PrintHelp (see topology-example-common.h).
 *
 *   topology-dragonfly [--pattern=permutation|shift|alltoall] [--bytes=N] [--routing=NAME]
 */
#include "topology-example-common.h"

int
main(int argc, char* argv[])
{
    return ns3::topology_example::Run(argc, argv, "dragonfly");
}
