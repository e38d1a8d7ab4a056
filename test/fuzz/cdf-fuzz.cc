/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target ai-fabric-fuzz-cdf: the input is a flow-size CDF file
// (FlowSizeDistribution::Parse, --background=FILE). Documented errors are
// std::invalid_argument. A CDF that parses must give a finite mean and inverse-CDF
// values within [0, GetMaxBytes()].

#include "ns3/flow-size-distribution.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    ns3::Ptr<ns3::FlowSizeDistribution> cdf = ns3::CreateObject<ns3::FlowSizeDistribution>();
    try
    {
        cdf->Parse(in, "fuzz.cdf");
    }
    catch (const std::invalid_argument&)
    {
        cdf->Dispose();
        return 0;
    }
    const double maxBytes = cdf->GetMaxBytes();
    const double mean = cdf->GetMeanBytes();
    if (!std::isfinite(mean) || mean < 0 || mean > maxBytes * (1 + 1e-9))
    {
        std::abort();
    }
    for (double u : {0.0, 1e-9, 0.25, 0.5, 0.75, 0.999999})
    {
        const double bytes = cdf->InverseCdf(u);
        if (!(bytes >= 0 && bytes <= maxBytes))
        {
            std::abort();
        }
    }
    cdf->Dispose();
    return 0;
}
