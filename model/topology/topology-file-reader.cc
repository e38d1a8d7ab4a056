/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-file-reader.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyFileReader");

namespace
{

/// Split a number prefix from its unit suffix; false if no number.
bool
SplitNumber(const std::string& text, double& value, std::string& unit)
{
    if (text.empty())
    {
        return false;
    }
    const char* begin = text.c_str();
    char* end = nullptr;
    value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(value) || value < 0)
    {
        return false;
    }
    unit.assign(end);
    return true;
}

/// Reads non-blank, non-comment lines and tracks their numbers.
class LineReader
{
  public:
    LineReader(std::istream& in, const std::string& name)
        : m_in(in),
          m_name(name),
          m_line(0)
    {
    }

    bool Next(std::vector<std::string>& tokens)
    {
        std::string line;
        while (std::getline(m_in, line))
        {
            ++m_line;
            std::istringstream is(line);
            tokens.clear();
            std::string t;
            while (is >> t)
            {
                tokens.push_back(t);
            }
            if (!tokens.empty() && tokens[0][0] != '#')
            {
                return true;
            }
        }
        return false;
    }

    [[noreturn]] void Fail(const std::string& what) const
    {
        std::ostringstream os;
        os << m_name << ":" << m_line << ": " << what;
        throw std::invalid_argument(os.str());
    }

    uint32_t ParseId(const std::string& t, const char* field, uint64_t limit) const
    {
        if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 9)
        {
            Fail(std::string(field) + " '" + t + "' is not a non-negative integer");
        }
        uint64_t v = std::stoull(t);
        if (v >= limit)
        {
            std::ostringstream os;
            os << field << " " << v << " is not a node id (allowed 0.." << limit - 1 << ")";
            Fail(os.str());
        }
        return v;
    }

    uint32_t Line() const
    {
        return m_line;
    }

  private:
    std::istream& m_in;
    std::string m_name;
    uint32_t m_line;
};

} // namespace

DataRate
TopologyFileReader::ParseRate(const std::string& text)
{
    double v;
    std::string unit;
    if (SplitNumber(text, v, unit))
    {
        static const struct
        {
            const char* name;
            double factor;
        } units[] = {{"", 1},
                     {"bps", 1},
                     {"b/s", 1},
                     {"kbps", 1e3},
                     {"Kbps", 1e3},
                     {"kb/s", 1e3},
                     {"Kb/s", 1e3},
                     {"Mbps", 1e6},
                     {"Mb/s", 1e6},
                     {"Gbps", 1e9},
                     {"Gb/s", 1e9},
                     {"Tbps", 1e12},
                     {"Tb/s", 1e12},
                     {"Bps", 8},
                     {"KBps", 8e3},
                     {"kBps", 8e3},
                     {"MBps", 8e6},
                     {"GBps", 8e9},
                     {"TBps", 8e12}};

        for (const auto& u : units)
        {
            if (unit == u.name)
            {
                double bps = v * u.factor;
                if (bps >= 1 && bps < 1.8e19)
                {
                    return DataRate(static_cast<uint64_t>(std::llround(bps)));
                }
            }
        }
    }
    throw std::invalid_argument("rate '" + text +
                                "' is not allowed (expected a positive number with a unit such "
                                "as 100Gbps, 400Mbps, 12.5GBps, or plain bits per second)");
}

Time
TopologyFileReader::ParseDelay(const std::string& text)
{
    double v;
    std::string unit;
    if (SplitNumber(text, v, unit))
    {
        static const struct
        {
            const char* name;
            double ps;
        } units[] = {{"", 1e12}, {"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"ns", 1e3}, {"ps", 1}};

        for (const auto& u : units)
        {
            if (unit == u.name && v * u.ps < 9e18)
            {
                return PicoSeconds(static_cast<int64_t>(std::llround(v * u.ps)));
            }
        }
    }
    throw std::invalid_argument("delay '" + text +
                                "' is not allowed (expected a non-negative number with a unit "
                                "s, ms, us, ns or ps, e.g. 0.001ms, or plain seconds)");
}

Ptr<TopologyGraph>
TopologyFileReader::Read(const std::string& fileName)
{
    std::ifstream in(fileName);
    if (!in)
    {
        throw std::invalid_argument("topology file '" + fileName + "' cannot be opened");
    }
    return Parse(in, fileName);
}

Ptr<TopologyGraph>
TopologyFileReader::Parse(std::istream& in, const std::string& name)
{
    LineReader r(in, name);
    std::vector<std::string> tok;
    if (!r.Next(tok))
    {
        r.Fail("file is empty (expected header line 'nodes switches links')");
    }
    // The HPCC simulator's header is 'nodes switches links'; the PowerTCP authors'
    // simulator (inet-tub/ns3-datacenter) inserts the top-of-rack count before the links,
    // and some of its descendants add the host and uplink capacities after them. The
    // extra fields are checked and otherwise unused (each cable line has its rate).
    if (tok.size() != 3 && tok.size() != 4 && tok.size() != 6)
    {
        r.Fail("header has " + std::to_string(tok.size()) +
               " fields (expected 'nodes switches links', 'nodes switches tors links', or "
               "'nodes switches tors links host_capacity uplink_capacity')");
    }
    const uint64_t big = 1u << 30;
    const uint32_t nNodes = r.ParseId(tok[0], "node count", big);
    const uint32_t nSwitches = r.ParseId(tok[1], "switch count", big);
    const bool withTors = tok.size() > 3;
    const uint32_t nLinks = r.ParseId(tok[withTors ? 3 : 2], "link count", big);
    if (withTors && r.ParseId(tok[2], "top-of-rack count", big) > nSwitches)
    {
        r.Fail("top-of-rack count " + tok[2] + " is more than the " + tok[1] + " switches");
    }
    for (size_t i = 4; i < tok.size(); ++i)
    {
        try
        {
            ParseRate(tok[i]);
        }
        catch (const std::invalid_argument& e)
        {
            r.Fail(std::string("header capacity: ") + e.what());
        }
    }
    if (nNodes < 2)
    {
        r.Fail("node count " + tok[0] + " is not allowed (need >= 2: a switch and a host)");
    }
    if (nSwitches == 0 || nSwitches >= nNodes)
    {
        std::ostringstream os;
        os << "switch count " << nSwitches << " is not allowed (must be 1.." << nNodes - 1
           << " for " << nNodes << " nodes, leaving at least one host)";
        r.Fail(os.str());
    }
    // Nothing is allocated for the header's counts before they are plausible: a
    // connected fabric has at least nodes - 1 cables, and each cable line takes at least
    // 8 bytes ("0 1 1 0" and its newline), so a header cannot ask for more than the
    // file holds.
    if (nLinks < nNodes - 1)
    {
        std::ostringstream os;
        os << "link count " << nLinks << " is too small for " << nNodes
           << " nodes (a connected fabric needs at least " << nNodes - 1 << " cables)";
        r.Fail(os.str());
    }
    const std::streampos here = in.tellg();
    if (here != std::streampos(-1) && in.seekg(0, std::ios::end))
    {
        const std::streamoff rest = in.tellg() - here;
        in.seekg(here);
        if (rest >= 0 && uint64_t(rest) / 8 < nLinks)
        {
            std::ostringstream os;
            os << "header declares " << nLinks << " links but the " << rest
               << " bytes after it hold at most " << rest / 8 << " link lines";
            r.Fail(os.str());
        }
    }
    in.clear();
    if (!r.Next(tok))
    {
        r.Fail("missing the line of switch ids after the header");
    }
    if (tok.size() != nSwitches)
    {
        std::ostringstream os;
        os << "line of switch ids has " << tok.size() << " ids but the header says " << nSwitches
           << " switches";
        r.Fail(os.str());
    }
    std::vector<bool> isSwitch(nNodes, false);
    for (const auto& t : tok)
    {
        uint32_t id = r.ParseId(t, "switch id", nNodes);
        if (isSwitch[id])
        {
            r.Fail("switch id " + t + " is listed twice");
        }
        isSwitch[id] = true;
    }
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        if (isSwitch[n])
        {
            g->AddSwitch(0, 0, 0);
        }
        else
        {
            g->AddHost(0);
        }
    }
    uint32_t links = 0;
    std::unordered_map<uint64_t, uint32_t> linkLines; // node pair -> line of its link
    while (r.Next(tok))
    {
        if (links == nLinks)
        {
            std::ostringstream os;
            os << "more link lines than the " << nLinks << " the header declares";
            r.Fail(os.str());
        }
        if (tok.size() < 4 || tok.size() > 5)
        {
            r.Fail("link line has " + std::to_string(tok.size()) +
                   " fields (expected 'src dst rate delay error_rate')");
        }
        uint32_t a = r.ParseId(tok[0], "src", nNodes);
        uint32_t b = r.ParseId(tok[1], "dst", nNodes);
        if (a == b)
        {
            r.Fail("self loop " + tok[0] + " -> " + tok[1] + " (a link must join two nodes)");
        }
        // One cable per node pair, in either direction: a repeated line is a typo far
        // more often than a parallel cable, and would silently add ports.
        const uint64_t pair = (uint64_t{std::min(a, b)} << 32) | std::max(a, b);
        auto [seen, fresh] = linkLines.emplace(pair, r.Line());
        if (!fresh)
        {
            r.Fail("duplicate link " + tok[0] + " - " + tok[1] + " (line " +
                   std::to_string(seen->second) +
                   " joins the same nodes; one cable per node pair is allowed)");
        }
        DataRate rate;
        Time delay;
        try
        {
            rate = ParseRate(tok[2]);
            delay = ParseDelay(tok[3]);
        }
        catch (const std::invalid_argument& e)
        {
            r.Fail(e.what());
        }
        if (tok.size() == 5)
        {
            double err;
            std::string rest;
            if (!SplitNumber(tok[4], err, rest) || !rest.empty() || err > 1)
            {
                r.Fail("error rate '" + tok[4] + "' is not allowed (expected a number in [0,1])");
            }
            if (err > 0)
            {
                NS_LOG_WARN(name << ":" << r.Line() << ": error rate " << err
                                 << " ignored (the fabrics model no bit errors)");
            }
        }
        g->AddLink(a, b, rate, delay);
        ++links;
    }
    if (links != nLinks)
    {
        std::ostringstream os;
        os << "file ends after " << links << " link lines but the header declares " << nLinks;
        r.Fail(os.str());
    }
    // tier = distance from the nearest host - 1 (multi-source BFS; hosts do not forward)
    std::vector<uint32_t> dist(nNodes, TopologyGraph::UNREACHABLE);
    std::vector<uint32_t> queue;
    for (uint32_t h : g->GetHosts())
    {
        dist[h] = 0;
        queue.push_back(h);
    }
    for (size_t head = 0; head < queue.size(); ++head)
    {
        uint32_t u = queue[head];
        for (const auto& p : g->GetPorts(u))
        {
            if (dist[p.peer] == TopologyGraph::UNREACHABLE && !g->IsHost(p.peer))
            {
                dist[p.peer] = dist[u] + 1;
                queue.push_back(p.peer);
            }
        }
    }
    for (uint32_t s : g->GetSwitches())
    {
        if (dist[s] != TopologyGraph::UNREACHABLE)
        {
            g->SetTier(s, dist[s] - 1);
        }
    }
    TopologyGraph::Shape shape;
    shape.type = "file";
    shape.hasGroups = false; // (a file says nothing of its groups)
    shape.label = "file " + name;
    g->SetShape(shape);
    try
    {
        g->Validate();
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(name + ": " + e.what());
    }
    NS_LOG_INFO(g->Describe());
    return g;
}

} // namespace ns3
