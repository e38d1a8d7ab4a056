/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dragonfly-topology-helper.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/topology-registry.h"
#include "ns3/uinteger.h"

#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DragonflyTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(DragonflyTopologyHelper);
static TopologyRegistration<DragonflyTopologyHelper> g_registration(
    "dragonfly",
    "DragonFly (Kim et al. 2008): groups of routers, all-to-all global cables",
    {{"p", "P"}, {"a", "A"}, {"h", "H"}, {"g", "G"}});

TypeId
DragonflyTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DragonflyTopologyHelper")
            .SetParent<TopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<DragonflyTopologyHelper>()
            .AddAttribute("P",
                          "Hosts per router, >= 1 (balanced: a = 2p = 2h, Kim et al. 2008).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&DragonflyTopologyHelper::m_p),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("A",
                          "Routers per group, >= 1.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&DragonflyTopologyHelper::m_a),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("H",
                          "Global cables per router, >= 1.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&DragonflyTopologyHelper::m_h),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("G",
                          "Number of groups, 1 .. a*h+1; 0 means a*h+1 (the maximum).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DragonflyTopologyHelper::m_g),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Arrangement",
                          "Global cable arrangement: 'absolute' (global port c of router i in "
                          "group G is link j = i h + c, reaching group j if j < G else j + 1; Kim "
                          "et al. 2008) or 'relative'.",
                          StringValue("absolute"),
                          MakeStringAccessor(&DragonflyTopologyHelper::m_arrangement),
                          MakeStringChecker())
            .AddAttribute("DuplicateGlobalLinks",
                          "When g < a*h+1, reuse spare global ports round-robin as parallel "
                          "cables between group pairs (true) or leave them unused (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DragonflyTopologyHelper::m_duplicate),
                          MakeBooleanChecker())
            .AddAttribute("GlobalLinkDelay",
                          "Global (inter-group) cable delay (default 1us; long optical "
                          "cables are often several us). TopologyHelper CableLengths, when "
                          "set, gives the global cables (tier 2) their delay instead.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&DragonflyTopologyHelper::m_globalDelay),
                          MakeTimeChecker());
    return tid;
}

DragonflyTopologyHelper::DragonflyTopologyHelper()
{
    NS_LOG_FUNCTION(this);
}

Ptr<TopologyGraph>
DragonflyTopologyHelper::Build() const
{
    auto requirePositive = [](const char* name, uint32_t v) {
        if (v == 0)
        {
            std::ostringstream os;
            os << "dragonfly: " << name << " = 0 is not allowed (must be >= 1)";
            throw std::invalid_argument(os.str());
        }
    };
    requirePositive("p", m_p);
    requirePositive("a", m_a);
    requirePositive("h", m_h);
    const uint32_t slots = m_a * m_h; // global slots per group
    const uint32_t groups = m_g == 0 ? slots + 1 : m_g;
    if (groups > slots + 1)
    {
        std::ostringstream os;
        os << "dragonfly: g = " << groups << " is not allowed (g must be 1.." << slots + 1
           << " = a*h+1 for a = " << m_a << ", h = " << m_h << ")";
        throw std::invalid_argument(os.str());
    }
    // the global-link arrangements, by name: whether it is the absolute one
    static const std::map<std::string, bool> arrangements = {{"absolute", true},
                                                             {"relative", false}};
    const auto arrangement = arrangements.find(m_arrangement);
    if (arrangement == arrangements.end())
    {
        std::ostringstream os;
        os << "dragonfly: arrangement '" << m_arrangement
           << "' is not allowed (allowed: absolute, relative)";
        throw std::invalid_argument(os.str());
    }
    const bool absolute = arrangement->second;
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t nr = groups * m_a;
    for (uint32_t r = 0; r < nr; ++r)
    {
        for (uint32_t j = 0; j < m_p; ++j)
        {
            g->AddHost(r / m_a);
        }
    }
    std::vector<uint32_t> router(nr);
    for (uint32_t r = 0; r < nr; ++r)
    {
        router[r] = g->AddSwitch(0, r / m_a, r % m_a);
    }
    for (uint32_t r = 0; r < nr; ++r)
    {
        for (uint32_t j = 0; j < m_p; ++j)
        {
            g->AddLink(g->GetHosts()[r * m_p + j], router[r], m_hostRate, m_hostDelay, 0);
        }
    }
    for (uint32_t grp = 0; grp < groups; ++grp)
    {
        for (uint32_t i = 0; i < m_a; ++i)
        {
            for (uint32_t j = i + 1; j < m_a; ++j)
            {
                g->AddLink(router[grp * m_a + i],
                           router[grp * m_a + j],
                           m_fabricRate,
                           m_fabricDelay,
                           1); // local
            }
        }
    }
    if (groups > 1)
    {
        const uint32_t others = groups - 1;
        // target group of slot s (0..g-2) of group G, and the slot of T that points back
        auto target = [&](uint32_t G, uint32_t s) {
            return absolute ? (s < G ? s : s + 1) : (G + s + 1) % groups;
        };
        auto backSlot = [&](uint32_t G, uint32_t T) {
            return absolute ? (G < T ? G : G - 1) : (G + groups - T - 1) % groups;
        };
        const uint32_t rounds = m_duplicate ? (slots + others - 1) / others : 1;
        for (uint32_t round = 0; round < rounds; ++round)
        {
            for (uint32_t G = 0; G < groups; ++G)
            {
                for (uint32_t s = 0; s < others; ++s)
                {
                    uint32_t j = round * others + s;
                    uint32_t T = target(G, s);
                    if (j >= slots || T < G)
                    {
                        continue; // added from the lower group's side
                    }
                    uint32_t jb = round * others + backSlot(G, T);
                    if (jb >= slots)
                    {
                        continue; // partner slot missing in the partial last round
                    }
                    g->AddLink(router[G * m_a + j / m_h],
                               router[T * m_a + jb / m_h],
                               m_fabricRate,
                               m_globalDelay,
                               2); // global
                }
            }
        }
    }
    TopologyGraph::Shape s;
    s.type = "dragonfly";
    s.switchNames = TopologyGraph::Shape::SwitchNames::BY_TIER; // "g2-r3"
    s.tierNames = {"r"};
    s.groupedTiers = 1;
    s.groupPrefix = "g";
    s.partitionGroups = "DragonFly groups";
    s.routing = "minimal";
    s.p = m_p;
    s.a = m_a;
    s.h = m_h;
    s.g = groups;
    std::ostringstream label;
    label << "dragonfly p=" << m_p << " a=" << m_a << " h=" << m_h << " g=" << groups << " ("
          << m_arrangement << ")";
    s.label = label.str();
    return Finish(g, s);
}

TopologyHelper::Size
DragonflyTopologyHelper::GetSize() const
{
    const uint64_t slots = uint64_t{m_a} * m_h; // global ports per group
    const uint64_t groups = m_g == 0 ? slots + 1 : m_g;
    Size s;
    s.switches = SaturatingMultiply(groups, m_a);
    s.hosts = SaturatingMultiply(s.switches, m_p);
    const uint64_t local = SaturatingMultiply(groups, uint64_t{m_a} * (m_a - (m_a > 0)) / 2);
    // one cable per pair of groups; duplicated round-robin, at most every global port
    const uint64_t global = groups < 2 ? 0
                                       : (m_duplicate ? SaturatingMultiply(groups, slots) / 2
                                                      : SaturatingMultiply(groups, groups - 1) / 2);
    s.cables = SaturatingAdd(SaturatingAdd(s.hosts, local), global);
    return s;
}

} // namespace ns3
