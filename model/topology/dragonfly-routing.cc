/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dragonfly-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DragonflyRouting");

static RoutingEngineRegistration g_minimalRegistration(
    "minimal",
    "DragonFly minimal: local, global, local (Kim et al. 2008)",
    [] { return Ptr<RoutingEngine>(Create<DragonflyRouting>("minimal")); });
static RoutingEngineRegistration g_valiantRegistration(
    "valiant",
    "DragonFly Valiant: through a random intermediate group",
    [] { return Ptr<RoutingEngine>(Create<DragonflyRouting>("valiant")); },
    true);
static RoutingEngineRegistration g_ugalRegistration(
    "ugal",
    "DragonFly UGAL-L: minimal unless its queue exceeds twice the non-minimal one",
    [] { return Ptr<RoutingEngine>(Create<DragonflyRouting>("ugal")); },
    true);

namespace
{
/// A mode: its name (--routing), its path choice and the virtual-channel classes its
/// paths need across global hops: minimal crosses one global cable (2), Valiant and
/// UGAL up to two (3).
struct DragonflyMode
{
    const char* name;
    RouteTable::PathMode pathMode;
    uint8_t globalHopClasses;
};

constexpr DragonflyMode kModes[] = {{"minimal", RouteTable::PathMode::MINIMAL, 2},
                                    {"valiant", RouteTable::PathMode::VALIANT, 3},
                                    {"ugal", RouteTable::PathMode::UGAL, 3}};

/// The mode \p match accepts; throws naming \p what when none does.
template <typename Match>
const DragonflyMode&
FindMode(Match match, const std::string& what)
{
    for (const DragonflyMode& m : kModes)
    {
        if (match(m))
        {
            return m;
        }
    }
    throw std::invalid_argument("dragonfly routing '" + what +
                                "' is not allowed (allowed: minimal, valiant, ugal)");
}
} // namespace

DragonflyRouting::DragonflyRouting(const std::string& mode)
    : m_groups(0)
{
    const DragonflyMode& m =
        FindMode([&mode](const DragonflyMode& d) { return mode == d.name; }, mode);
    m_mode = m.name;
    m_pathMode = m.pathMode;
    m_globalHopClasses = m.globalHopClasses;
}

DragonflyRouting::DragonflyRouting(RouteTable::PathMode mode)
    : m_groups(0)
{
    const DragonflyMode& m = FindMode([mode](const DragonflyMode& d) { return d.pathMode == mode; },
                                      std::to_string(static_cast<int>(mode)));
    m_mode = m.name;
    m_pathMode = m.pathMode;
    m_globalHopClasses = m.globalHopClasses;
}

std::string
DragonflyRouting::GetName() const
{
    return m_mode;
}

RouteTable::PathMode
DragonflyRouting::GetPathMode() const
{
    return m_pathMode;
}

bool
DragonflyRouting::Fits(const TopologyGraph& graph) const
{
    return graph.GetShape().g > 0; // (only a DragonFly has DragonFly groups)
}

uint32_t
DragonflyRouting::GetNGroups() const
{
    return m_groups;
}

RouteTable::PortSpan
DragonflyRouting::MinimalCandidatesToGroup(uint32_t routerNode, uint32_t group) const
{
    NS_ASSERT_MSG(routerNode < m_rowOf.size() && m_rowOf[routerNode] != RouteTable::NO_PORT &&
                      group < m_groups,
                  "MinimalCandidatesToGroup: bad router " << routerNode << " or group " << group);
    const size_t i = static_cast<size_t>(m_rowOf[routerNode]) * m_groups + group;
    return RouteTable::PortSpan{m_toGroupPorts.data() + m_toGroupOffset[i],
                                m_toGroupOffset[i + 1] - m_toGroupOffset[i]};
}

uint32_t
DragonflyRouting::ChooseIntermediateGroup(uint32_t srcGroup,
                                          uint32_t dstGroup,
                                          Ptr<UniformRandomVariable> rng) const
{
    const uint32_t excluded = srcGroup == dstGroup ? 1 : 2;
    if (m_groups <= excluded)
    {
        return dstGroup;
    }
    uint32_t pick = rng->GetInteger(0, m_groups - excluded - 1);
    // skip src and dst in increasing order
    const uint32_t lo = std::min(srcGroup, dstGroup);
    const uint32_t hi = std::max(srcGroup, dstGroup);
    if (pick >= lo)
    {
        ++pick;
    }
    if (excluded == 2 && pick >= hi)
    {
        ++pick;
    }
    return pick;
}

bool
DragonflyRouting::UgalPreferMinimal(uint64_t qMin, uint64_t qNonMin, int64_t offset)
{
    return static_cast<double>(qMin) <= 2.0 * static_cast<double>(qNonMin) + offset;
}

void
DragonflyRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const auto& shape = graph.GetShape();
    const uint32_t a = shape.a;
    m_groups = shape.g;
    const uint32_t g = m_groups;
    const uint32_t nr = a * g;
    const uint32_t NONE = RouteTable::NO_PORT;
    std::vector<uint32_t> nodeOf(nr, NONE);
    m_rowOf.assign(graph.GetNNodes(), NONE);
    for (uint32_t s : graph.GetSwitches())
    {
        uint32_t r = graph.GetGroup(s) * a + graph.GetIndex(s);
        if (graph.GetGroup(s) >= g || graph.GetIndex(s) >= a || nodeOf[r] != NONE)
        {
            std::ostringstream os;
            os << "dragonfly routing: switch " << s << " has group/index outside the shape";
            throw std::invalid_argument(os.str());
        }
        nodeOf[r] = s;
        m_rowOf[s] = r;
    }
    table.SetClassRule(RouteTable::ClassRule::GLOBAL_HOP, m_globalHopClasses);

    // per router: local port to each router index; global cables as (port, peer row)
    struct Global
    {
        uint32_t port;
        uint32_t peer; // router row in the other group
    };

    std::vector<uint32_t> localPort(static_cast<size_t>(nr) * a, NONE);
    std::vector<std::vector<Global>> globals(nr);
    for (uint32_t r = 0; r < nr; ++r)
    {
        const auto& ports = graph.GetPorts(nodeOf[r]);
        for (uint32_t p = 0; p < ports.size(); ++p)
        {
            const uint32_t q = ports[p].peer;
            if (graph.IsHost(q))
            {
                continue;
            }
            const uint32_t qr = m_rowOf[q];
            const bool up = graph.IsLinkUp(ports[p].link); // failed cables carry no route
            if (qr / a == r / a)
            {
                if (up && localPort[r * a + qr % a] == NONE)
                {
                    localPort[r * a + qr % a] = p;
                }
                table.SetPortInfo(nodeOf[r], p, RouteTable::PortKind::FABRIC, 0, false);
            }
            else
            {
                if (up)
                {
                    globals[r].push_back(Global{p, qr});
                }
                table.SetPortInfo(nodeOf[r], p, RouteTable::PortKind::GLOBAL, 0, false);
            }
        }
    }
    // group-level candidates
    m_toGroupOffset.assign(static_cast<size_t>(nr) * g + 1, 0);
    m_toGroupPorts.clear();
    std::vector<uint32_t> ports;
    for (uint32_t r = 0; r < nr; ++r)
    {
        const uint32_t G = r / a;
        for (uint32_t T = 0; T < g; ++T)
        {
            ports.clear();
            if (T != G)
            {
                for (const auto& gl : globals[r])
                {
                    if (gl.peer / a == T)
                    {
                        ports.push_back(gl.port);
                    }
                }
                if (ports.empty())
                {
                    for (uint32_t x = 0; x < a; ++x)
                    {
                        const uint32_t xr = G * a + x;
                        if (xr == r)
                        {
                            continue;
                        }
                        for (const auto& gl : globals[xr])
                        {
                            if (gl.peer / a == T && localPort[r * a + x] != NONE)
                            {
                                ports.push_back(localPort[r * a + x]);
                                break;
                            }
                        }
                    }
                }
                std::sort(ports.begin(), ports.end());
            }
            m_toGroupPorts.insert(m_toGroupPorts.end(), ports.begin(), ports.end());
            m_toGroupOffset[static_cast<size_t>(r) * g + T + 1] = m_toGroupPorts.size();
        }
    }
    // hosts per router
    std::vector<std::vector<uint32_t>> hostsOf(nr);
    for (uint32_t rank = 0; rank < graph.GetNHosts(); ++rank)
    {
        const auto& hp = graph.GetPorts(graph.GetHosts()[rank]);
        hostsOf[m_rowOf[hp.front().peer]].push_back(rank);
    }

    // global cables between each ordered pair of groups
    struct Cable
    {
        uint32_t from; // router row in the first group
        uint32_t port; // its port
        uint32_t peer; // router row in the second group
    };

    std::vector<std::vector<Cable>> between(static_cast<size_t>(g) * g);
    for (uint32_t r = 0; r < nr; ++r)
    {
        for (const auto& gl : globals[r])
        {
            between[static_cast<size_t>(r / a) * g + gl.peer / a].push_back(
                Cable{r, gl.port, gl.peer});
        }
    }
    // minimal paths router r -> router t: over every global cable x -> y between
    // their groups, length [x != r] + 1 + [y != t]; keep the first hops of the shortest
    for (uint32_t t = 0; t < nr; ++t)
    {
        const uint32_t T = t / a;
        AttachGroup grp{{nodeOf[t]}, hostsOf[t]};
        SetLastHop(graph, grp, table);
        for (uint32_t r = 0; r < nr; ++r)
        {
            if (r == t)
            {
                continue;
            }
            const uint32_t G = r / a;
            ports.clear();
            if (G == T)
            {
                ports.push_back(localPort[r * a + t % a]);
            }
            else
            {
                uint32_t best = NONE;
                for (const auto& gl : between[static_cast<size_t>(G) * g + T])
                {
                    const uint32_t len = (gl.from != r) + 1 + (gl.peer != t);
                    const uint32_t hop = gl.from == r ? gl.port : localPort[r * a + gl.from % a];
                    if (hop == NONE)
                    {
                        continue; // the local cable to that global cable failed
                    }
                    if (len < best)
                    {
                        best = len;
                        ports.clear();
                    }
                    if (len == best)
                    {
                        ports.push_back(hop);
                    }
                }
            }
            if (ports.empty() || ports.front() == NONE)
            {
                std::ostringstream os;
                os << "dragonfly routing: no minimal route from router " << r << " to router " << t;
                throw std::invalid_argument(os.str());
            }
            const uint32_t set = table.InternPortSet(ports);
            for (uint32_t rank : hostsOf[t])
            {
                table.SetRoute(nodeOf[r], rank, set);
            }
        }
    }
}

} // namespace ns3
