/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-file.h"

#include "ns3/log.h"
#include "ns3/rdma-fabric.h"
#include "ns3/rounded-time.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowFile");

namespace
{

[[noreturn]] void
ThrowAt(const std::string& source, uint32_t line, const std::string& text, const std::string& why)
{
    std::ostringstream os;
    os << source;
    if (line > 0)
    {
        os << ", line " << line << " \"" << text << "\"";
    }
    os << ": " << why;
    throw std::invalid_argument(os.str());
}

std::string
Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
    {
        return "";
    }
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

std::vector<std::string>
Split(const std::string& text)
{
    std::istringstream is(text);
    std::vector<std::string> out;
    std::string f;
    while (is >> f)
    {
        out.push_back(f);
    }
    return out;
}

/// Strict unsigned decimal (no sign, no trailing junk); false if not one or > max.
bool
ParseUnsigned(const std::string& s, uint64_t max, uint64_t& value)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || v > max)
    {
        return false;
    }
    value = v;
    return true;
}

/// Unsigned hex of at most 8 digits, optional 0x (their "%08x").
bool
ParseHex32(const std::string& s, uint32_t& value)
{
    std::string d = s;
    if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
    {
        d = d.substr(2);
    }
    if (d.empty() || d.size() > 8 ||
        d.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    {
        return false;
    }
    value = static_cast<uint32_t>(std::strtoul(d.c_str(), nullptr, 16));
    return true;
}

/// Seconds as written by those simulators' generators ("2.000001", "1e-6") to ns.
bool
ParseSecondsToNs(const std::string& s, int64_t& ns)
{
    if (s.empty() || s[0] == '-' || s[0] == '+')
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    // long double keeps ns exact for start times up to hours; a start beyond
    // MAX_TIME_SECONDS would wrap once the run counts picoseconds.
    const long double v = std::strtold(s.c_str(), &end);
    if (errno != 0 || *end != '\0' || !std::isfinite(static_cast<double>(v)) || v < 0 ||
        v > static_cast<long double>(MAX_TIME_SECONDS))
    {
        return false;
    }
    ns = static_cast<int64_t>(std::llroundl(v * 1.0e9L));
    return true;
}

} // namespace

uint32_t
FlowFile::NodeIdToIpv4(uint32_t nodeId)
{
    NS_ASSERT_MSG(nodeId < 65536, "node id " << nodeId << " has no address in 11.x.y.1");
    return 0x0b000001u + (nodeId / 256) * 0x00010000u + (nodeId % 256) * 0x00000100u;
}

uint32_t
FlowFile::Ipv4ToNodeId(uint32_t ip)
{
    return (ip >> 8) & 0xffffu;
}

std::vector<FlowSpec>
FlowFile::Read(const std::string& path, uint32_t numNodes)
{
    std::ifstream in(path);
    if (!in)
    {
        ThrowAt("flow file " + path, 0, "", "cannot open for reading");
    }
    return Parse(in, "flow file " + path, numNodes);
}

std::vector<FlowSpec>
FlowFile::Parse(std::istream& in, const std::string& sourceName, uint32_t numNodes)
{
    std::vector<FlowSpec> flows;
    std::string raw;
    uint32_t lineNo = 0;
    bool haveCount = false;
    uint64_t count = 0;
    uint32_t countLine = 0;
    int64_t prevStartNs = 0;
    while (std::getline(in, raw))
    {
        ++lineNo;
        const std::string text = Trim(raw);
        if (text.empty())
        {
            continue;
        }
        const auto f = Split(text);
        if (!haveCount)
        {
            if (f.size() != 1 || !ParseUnsigned(f[0], std::numeric_limits<uint32_t>::max(), count))
            {
                ThrowAt(sourceName,
                        lineNo,
                        text,
                        "first line must be the number of flows (one integer >= 0)");
            }
            haveCount = true;
            countLine = lineNo;
            // (No reserve of the announced count: a count of 4e9 with three flow lines
            // must fail on its lines, not on 4e9 FlowSpecs of memory.)
            continue;
        }
        if (flows.size() == count)
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "more flow lines than the " + std::to_string(count) + " announced on line " +
                        std::to_string(countLine));
        }
        if (f.size() != 6)
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "expected 6 fields \"src dst priority dport size_bytes start_s\", got " +
                        std::to_string(f.size()));
        }
        uint64_t src = 0;
        uint64_t dst = 0;
        uint64_t prio = 0;
        uint64_t dport = 0;
        uint64_t size = 0;
        int64_t startNs = 0;
        const uint64_t maxNode = numNodes > 0 ? numNodes - 1 : std::numeric_limits<uint32_t>::max();
        const std::string nodeRange =
            numNodes > 0 ? "0.." + std::to_string(numNodes - 1) : "0..4294967295";
        if (!ParseUnsigned(f[0], maxNode, src))
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "src \"" + f[0] + "\" is not a node id in " + nodeRange);
        }
        if (!ParseUnsigned(f[1], maxNode, dst))
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "dst \"" + f[1] + "\" is not a node id in " + nodeRange);
        }
        if (src == dst)
        {
            ThrowAt(sourceName, lineNo, text, "src and dst are the same node; allowed: src != dst");
        }
        if (!ParseUnsigned(f[2], 7, prio))
        {
            ThrowAt(sourceName, lineNo, text, "priority \"" + f[2] + "\"; allowed: 0..7");
        }
        if (!ParseUnsigned(f[3], 65535, dport))
        {
            ThrowAt(sourceName, lineNo, text, "dport \"" + f[3] + "\"; allowed: 0..65535");
        }
        if (!ParseUnsigned(f[4], RdmaFabric::MAX_MESSAGE_BYTES, size) || size == 0)
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "size_bytes \"" + f[4] + "\"; allowed: an integer 1.." +
                        std::to_string(RdmaFabric::MAX_MESSAGE_BYTES));
        }
        if (!ParseSecondsToNs(f[5], startNs))
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "start_s \"" + f[5] + "\"; allowed: seconds 0.." +
                        std::to_string(static_cast<uint64_t>(MAX_TIME_SECONDS)) +
                        " as a decimal number");
        }
        if (!flows.empty() && startNs < prevStartNs)
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "start time goes back in time; the format needs non-decreasing start_s "
                    "(those simulators start flows in file order)");
        }
        FlowSpec spec;
        spec.id = flows.size();
        spec.src = static_cast<uint32_t>(src);
        spec.dst = static_cast<uint32_t>(dst);
        spec.priority = static_cast<uint8_t>(prio);
        spec.dport = static_cast<uint16_t>(dport);
        spec.sizeBytes = size;
        spec.start = NanoSeconds(startNs);
        flows.push_back(spec);
        prevStartNs = startNs;
    }
    if (!haveCount)
    {
        ThrowAt(sourceName, 0, "", "empty; the first line must be the number of flows");
    }
    if (flows.size() != count)
    {
        ThrowAt(sourceName,
                countLine,
                std::to_string(count),
                "announces " + std::to_string(count) + " flows but the file has " +
                    std::to_string(flows.size()));
    }
    NS_LOG_INFO(sourceName << ": " << flows.size() << " flows");
    return flows;
}

void
FlowFile::Write(std::ostream& out, const std::vector<FlowSpec>& flows)
{
    out << flows.size() << "\n";
    char buf[160];
    int64_t prev = 0;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& f = flows[i];
        const int64_t ns = f.start.GetNanoSeconds();
        if (ns < 0 || (i > 0 && ns < prev))
        {
            throw std::invalid_argument("FlowFile::Write: flow " + std::to_string(f.id) +
                                        " starts at " + std::to_string(ns) +
                                        " ns; allowed: >= 0 and non-decreasing in list order");
        }
        prev = ns;
        // Integer seconds and a 9-digit fraction: exact in ns, no floating rounding.
        std::snprintf(buf,
                      sizeof(buf),
                      "%" PRIu32 " %" PRIu32 " %u %u %" PRIu64 " %" PRId64 ".%09" PRId64 "\n",
                      f.src,
                      f.dst,
                      static_cast<unsigned>(f.priority),
                      static_cast<unsigned>(f.dport),
                      f.sizeBytes,
                      ns / 1000000000,
                      ns % 1000000000);
        out << buf;
    }
}

void
FlowFile::Write(const std::string& path, const std::vector<FlowSpec>& flows)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::invalid_argument("flow file " + path + ": cannot open for writing");
    }
    Write(out, flows);
    if (!out)
    {
        throw std::invalid_argument("flow file " + path + ": write failed");
    }
}

void
FlowFile::WriteFctLine(std::ostream& out, const HpccFctRecord& r)
{
    char buf[200];
    std::snprintf(buf,
                  sizeof(buf),
                  "%08" PRIx32 " %08" PRIx32 " %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                  "\n",
                  NodeIdToIpv4(r.src),
                  NodeIdToIpv4(r.dst),
                  static_cast<unsigned>(r.sport),
                  static_cast<unsigned>(r.dport),
                  r.sizeBytes,
                  r.startNs,
                  r.fctNs,
                  r.standaloneFctNs);
    out << buf;
}

std::vector<HpccFctRecord>
FlowFile::ParseFct(std::istream& in, const std::string& sourceName)
{
    std::vector<HpccFctRecord> records;
    std::string raw;
    uint32_t lineNo = 0;
    const uint64_t u64max = std::numeric_limits<uint64_t>::max();
    while (std::getline(in, raw))
    {
        ++lineNo;
        const std::string text = Trim(raw);
        if (text.empty())
        {
            continue;
        }
        const auto f = Split(text);
        uint32_t sip = 0;
        uint32_t dip = 0;
        uint64_t v[6];
        bool ok = f.size() == 8 && ParseHex32(f[0], sip) && ParseHex32(f[1], dip) &&
                  ParseUnsigned(f[2], 65535, v[0]) && ParseUnsigned(f[3], 65535, v[1]);
        for (size_t k = 2; ok && k < 6; ++k)
        {
            ok = ParseUnsigned(f[k + 2], u64max, v[k]);
        }
        if (!ok)
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "expected \"sip dip sport dport size start_ns fct_ns standalone_fct_ns\" "
                    "(IPs as 8 hex digits, ports 0..65535, the rest integers >= 0)");
        }
        HpccFctRecord r;
        r.src = Ipv4ToNodeId(sip);
        r.dst = Ipv4ToNodeId(dip);
        r.sport = static_cast<uint16_t>(v[0]);
        r.dport = static_cast<uint16_t>(v[1]);
        r.sizeBytes = v[2];
        r.startNs = v[3];
        r.fctNs = v[4];
        r.standaloneFctNs = v[5];
        records.push_back(r);
    }
    return records;
}

} // namespace ns3
