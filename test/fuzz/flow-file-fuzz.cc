/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target ai-fabric-fuzz-flow-file: the input is a flow file (FlowFile::Parse,
// --flows) and, read again, an fct.txt (FlowFile::ParseFct). Documented errors are
// std::invalid_argument. A flow file that parses is written (FlowFile::Write) and
// must parse again to as many flows: the writer's output is a flow file.

#include "ns3/flow-file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try
    {
        std::istringstream in(text);
        const auto flows = ns3::FlowFile::Parse(in, "fuzz.txt", 64);
        std::ostringstream out;
        ns3::FlowFile::Write(out, flows);
        std::istringstream again(out.str());
        const auto reread = ns3::FlowFile::Parse(again, "written.txt", 64);
        if (reread.size() != flows.size())
        {
            std::abort();
        }
    }
    catch (const std::invalid_argument&)
    {
    }
    try
    {
        std::istringstream in(text);
        ns3::FlowFile::ParseFct(in, "fct.txt");
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
