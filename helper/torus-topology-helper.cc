/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "torus-topology-helper.h"

#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/topology-registry.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TorusTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(TorusTopologyHelper);
static TopologyRegistration<TorusTopologyHelper> g_registration(
    "torus",
    "n-dimensional torus (k-ary n-cube) of routers",
    {{"dims", "Dims"}, {"hosts-per-switch", "HostsPerRouter"}});

TypeId
TorusTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TorusTopologyHelper")
            .SetParent<TopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<TorusTopologyHelper>()
            .AddAttribute("Dims",
                          "Radix per dimension, 'k0xk1x...' (e.g. 8x8, 4x4x4); each >= 2.",
                          StringValue("4x4"),
                          MakeStringAccessor(&TorusTopologyHelper::m_dimsText),
                          MakeStringChecker())
            .AddAttribute("HostsPerRouter",
                          "Hosts attached to each router, >= 1.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TorusTopologyHelper::m_hostsPerRouter),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

TorusTopologyHelper::TorusTopologyHelper()
    : m_wrap(true)
{
    NS_LOG_FUNCTION(this);
}

void
TorusTopologyHelper::SetDims(const std::vector<uint32_t>& dims)
{
    m_dims = dims;
    if (m_dims.empty())
    {
        throw std::invalid_argument("torus/mesh: dims is empty (give at least one radix >= 2)");
    }
}

std::vector<uint32_t>
TorusTopologyHelper::GetDims() const
{
    return m_dims.empty() ? ParseDims(m_dimsText) : m_dims;
}

std::vector<uint32_t>
TorusTopologyHelper::ParseDims(const std::string& text)
{
    std::vector<uint32_t> dims;
    std::string item;
    std::istringstream is(text);
    auto bad = [&text]() {
        std::ostringstream os;
        os << "torus/mesh: dims '" << text
           << "' is not allowed (expected radices >= 2 joined by 'x', e.g. 8x8 or 4x4x4)";
        return std::invalid_argument(os.str());
    };
    if (text.empty())
    {
        throw bad();
    }
    while (std::getline(is, item, 'x'))
    {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 9)
        {
            throw bad();
        }
        dims.push_back(std::stoul(item));
    }
    if (dims.empty() || text.back() == 'x')
    {
        throw bad();
    }
    return dims;
}

Ptr<TopologyGraph>
TorusTopologyHelper::Build() const
{
    const char* what = m_wrap ? "torus" : "mesh";
    std::vector<uint32_t> dims = GetDims();
    if (dims.empty())
    {
        std::ostringstream os;
        os << what << ": dims is empty (give at least one radix >= 2)";
        throw std::invalid_argument(os.str());
    }
    uint64_t routers = 1;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        if (dims[d] < 2)
        {
            std::ostringstream os;
            os << what << ": radix of dimension " << d << " = " << dims[d]
               << " is not allowed (each radix must be >= 2)";
            throw std::invalid_argument(os.str());
        }
        routers *= dims[d];
        if (routers > (1u << 24))
        {
            std::ostringstream os;
            os << what << ": more than 2^24 routers is not supported";
            throw std::invalid_argument(os.str());
        }
    }
    if (m_hostsPerRouter == 0)
    {
        std::ostringstream os;
        os << what << ": hosts per router = 0 is not allowed (must be >= 1)";
        throw std::invalid_argument(os.str());
    }
    const uint32_t nr = routers;
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    for (uint32_t r = 0; r < nr; ++r)
    {
        for (uint32_t i = 0; i < m_hostsPerRouter; ++i)
        {
            g->AddHost(r);
        }
    }
    std::vector<uint32_t> router(nr);
    for (uint32_t r = 0; r < nr; ++r)
    {
        router[r] = g->AddSwitch(0, r, r);
    }
    for (uint32_t r = 0; r < nr; ++r)
    {
        for (uint32_t i = 0; i < m_hostsPerRouter; ++i)
        {
            g->AddLink(g->GetHosts()[r * m_hostsPerRouter + i],
                       router[r],
                       m_hostRate,
                       m_hostDelay,
                       0);
        }
    }
    // each router adds its +1 neighbour per dimension; the wrap cable belongs to x = k-1
    uint32_t stride = 1;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        const uint32_t k = dims[d];
        for (uint32_t r = 0; r < nr; ++r)
        {
            uint32_t x = (r / stride) % k;
            if (x + 1 < k)
            {
                g->AddLink(router[r], router[r + stride], m_fabricRate, m_fabricDelay, 1);
            }
            else if (m_wrap && k > 2)
            {
                g->AddLink(router[r], router[r - x * stride], m_fabricRate, m_fabricDelay, 1);
            }
        }
        stride *= k;
    }
    TopologyGraph::Shape s;
    s.type = m_wrap ? "torus" : "mesh";
    s.routing = "dor";
    s.dims = dims;
    s.switchNames = TopologyGraph::Shape::SwitchNames::BY_COORDINATES; // "sw1-2"
    s.partitionGroups = "routers (slabs of the last dimension)";
    s.wrap = m_wrap;
    std::ostringstream label;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        label << (d ? "x" : "") << dims[d];
    }
    label << (dims.size() == 1 && m_wrap ? " ring" : (m_wrap ? " torus" : " mesh"));
    if (m_hostsPerRouter > 1)
    {
        label << " (" << m_hostsPerRouter << " hosts per router)";
    }
    s.label = label.str();
    return Finish(g, s);
}

TopologyHelper::Size
TorusTopologyHelper::GetSize() const
{
    const std::vector<uint32_t> dims = GetDims();
    uint64_t routers = dims.empty() ? 0 : 1;
    for (uint32_t k : dims)
    {
        routers = SaturatingMultiply(routers, k);
    }
    Size s;
    s.switches = routers;
    s.hosts = SaturatingMultiply(routers, m_hostsPerRouter);
    s.cables = s.hosts;
    for (uint32_t k : dims)
    {
        if (k < 2 || routers == UINT64_MAX)
        {
            continue; // Build() refuses it
        }
        // per ring of k routers: k - 1 cables, and the wrap-around one when k > 2
        const uint64_t perRing = k - 1 + (m_wrap && k > 2 ? 1 : 0);
        s.cables = SaturatingAdd(s.cables, routers / k * perRing);
    }
    return s;
}

} // namespace ns3
