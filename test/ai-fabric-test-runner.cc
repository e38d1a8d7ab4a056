/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Debian's libns3-dev ships no test-runner binary; ns3::TestRunner::Run is
 * exported, so this is the whole runner. CTest calls it once per suite:
 *   ai-fabric-test-runner --suite=ai-fabric-<name>
 */
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
