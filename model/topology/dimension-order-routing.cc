/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dimension-order-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DimensionOrderRouting");

static RoutingEngineRegistration g_registration(
    "dor",
    "dimension order on a torus or mesh, dimension 0 first, dateline classes on rings",
    [] { return Ptr<RoutingEngine>(Create<DimensionOrderRouting>()); });

std::string
DimensionOrderRouting::GetName() const
{
    return "dor";
}

bool
DimensionOrderRouting::Fits(const TopologyGraph& graph) const
{
    // (only torus and mesh have router coordinates)
    return graph.GetShape().switchNames == TopologyGraph::Shape::SwitchNames::BY_COORDINATES &&
           !graph.GetShape().dims.empty();
}

void
DimensionOrderRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const auto& shape = graph.GetShape();
    const std::vector<uint32_t>& dims = shape.dims;
    const uint32_t nd = dims.size();
    const bool wrap = shape.wrap;
    uint32_t nr = 1;
    for (uint32_t k : dims)
    {
        nr *= k;
    }
    std::vector<uint32_t> stride(nd, 1);
    for (uint32_t d = 1; d < nd; ++d)
    {
        stride[d] = stride[d - 1] * dims[d - 1];
    }
    auto coord = [&](uint32_t r, uint32_t d) { return (r / stride[d]) % dims[d]; };

    // router index -> node; per router, per dimension, the + and - ports
    const uint32_t NONE = RouteTable::NO_PORT;
    std::vector<uint32_t> nodeOf(nr, NONE);
    for (uint32_t s : graph.GetSwitches())
    {
        uint32_t r = graph.GetGroup(s);
        if (r >= nr || nodeOf[r] != NONE)
        {
            std::ostringstream os;
            os << "dor: switch " << s << " has router index " << r
               << " outside or repeated in the torus/mesh shape";
            throw std::invalid_argument(os.str());
        }
        nodeOf[r] = s;
    }
    table.SetClassRule(wrap ? RouteTable::ClassRule::DATELINE : RouteTable::ClassRule::NONE,
                       wrap ? 2 : 1);
    std::vector<uint32_t> plus(nr * nd, NONE);
    std::vector<uint32_t> minus(nr * nd, NONE);
    for (uint32_t r = 0; r < nr; ++r)
    {
        const uint32_t s = nodeOf[r];
        const auto& ports = graph.GetPorts(s);
        for (uint32_t p = 0; p < ports.size(); ++p)
        {
            if (graph.IsHost(ports[p].peer))
            {
                continue;
            }
            const uint32_t q = graph.GetGroup(ports[p].peer);
            // A failed cable is no port in its dimension: DOR then has no route.
            const bool up = graph.IsLinkUp(ports[p].link);
            for (uint32_t d = 0; d < nd; ++d)
            {
                const uint32_t k = dims[d];
                const uint32_t xr = coord(r, d);
                const uint32_t xq = coord(q, d);
                if (xr == xq)
                {
                    continue;
                }
                if (up && xq == (xr + 1) % k)
                {
                    plus[r * nd + d] = p;
                }
                if (up && xq == (xr + k - 1) % k)
                {
                    minus[r * nd + d] = p;
                }
                const bool isWrap =
                    wrap && ((xr == k - 1 && xq == 0) || (k > 2 && xr == 0 && xq == k - 1));
                table.SetPortInfo(s, p, RouteTable::PortKind::RING, d, isWrap);
                break;
            }
        }
    }
    // hosts per router
    std::vector<std::vector<uint32_t>> hostsOf(nr);
    for (uint32_t rank = 0; rank < graph.GetNHosts(); ++rank)
    {
        const auto& hp = graph.GetPorts(graph.GetHosts()[rank]);
        hostsOf[graph.GetGroup(hp.front().peer)].push_back(rank);
    }
    std::vector<uint32_t> ports;
    for (uint32_t t = 0; t < nr; ++t)
    {
        AttachGroup grp{{nodeOf[t]}, hostsOf[t]};
        SetLastHop(graph, grp, table);
        for (uint32_t r = 0; r < nr; ++r)
        {
            if (r == t)
            {
                continue;
            }
            uint32_t port = NONE;
            for (uint32_t d = 0; d < nd; ++d)
            {
                const uint32_t k = dims[d];
                const uint32_t xr = coord(r, d);
                const uint32_t xt = coord(t, d);
                if (xr == xt)
                {
                    continue;
                }
                bool positive;
                if (wrap)
                {
                    const uint32_t delta = (xt + k - xr) % k;
                    positive = 2 * delta <= k; // tie at k/2: positive
                }
                else
                {
                    positive = xt > xr;
                }
                port = positive ? plus[r * nd + d] : minus[r * nd + d];
                break;
            }
            ports.assign(1, port);
            uint32_t set = port == NONE ? NONE : table.InternPortSet(ports);
            if (set == NONE)
            {
                std::ostringstream os;
                os << "dor: router " << r << " has no cable towards router " << t;
                throw std::invalid_argument(os.str());
            }
            for (uint32_t rank : hostsOf[t])
            {
                table.SetRoute(nodeOf[r], rank, set);
            }
        }
    }
}

} // namespace ns3
