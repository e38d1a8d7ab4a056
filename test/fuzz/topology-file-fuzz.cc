/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target ai-fabric-fuzz-topology-file: the input is a topology file
// (TopologyFileReader::Parse, the HPCC-derived simulators' format; --topology=file).
// Documented errors are std::invalid_argument; anything else is a finding.

#include "ns3/topology-file-reader.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try
    {
        ns3::Ptr<ns3::TopologyGraph> g = ns3::TopologyFileReader::Parse(in, "fuzz.txt");
        // A validated graph answers its own questions.
        g->Describe();
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
