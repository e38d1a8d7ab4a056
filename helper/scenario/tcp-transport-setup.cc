/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tcp-transport-setup.h"

#include "ns3/abort.h"
#include "ns3/config-error.h"
#include "ns3/rdma-fabric.h"
#include "ns3/tcp-flow-transport.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

Ptr<TcpFlowTransport>
TcpTransportSetup::Install(const ScenarioConfig& c, Ptr<RdmaFabric> fabric)
{
    std::string typeName;
    for (const auto& [name, type] : TcpFlowTransport::Variants())
    {
        if (name == c.tcpVariant)
        {
            typeName = type;
        }
    }
    NS_ABORT_MSG_IF(typeName.empty(), "--tcp-variant=" << c.tcpVariant << " (checked)");
    // The hosts' IP path in --tcp-priority's class (RoCEv2: priority and DSCP; IB: the
    // IPoIB service level).
    try
    {
        fabric->EnableIp(static_cast<uint8_t>(c.tcpPriority));
    }
    catch (const std::invalid_argument& e)
    {
        fabric->Dispose(); // break the fabric's reference cycles before giving up
        throw ConfigError(std::string("--transport=tcp: ") + e.what());
    }
    // A segment and its IPv4 (20) and TCP (20 + 12 of timestamps) headers within the
    // IP device's MTU, which IPoIB makes 4 bytes less than the IB MTU: no IP
    // fragments (as Linux derives its MSS from the MTU).
    constexpr uint32_t IP_TCP_HEADER_BYTES = 20 + 20 + 12;
    const uint32_t deviceMtu = fabric->GetIpDevice(0)->GetMtu();
    Ptr<TcpFlowTransport> tcp = CreateObject<TcpFlowTransport>();
    tcp->SetAttribute("SegmentSize",
                      UintegerValue(std::min(c.mtu, deviceMtu - IP_TCP_HEADER_BYTES)));
    tcp->Install(fabric, TypeId::LookupByName(typeName), c.ecn.value_or(true));
    return tcp;
}

nlohmann::json
TcpTransportSetup::ToJson(const ScenarioConfig& c,
                          const TcpFlowTransport& tcp,
                          const RdmaFabric& fabric)
{
    const RdmaFabric::IpCounters ip = fabric.GetIpCounters();
    return {{"variant", c.tcpVariant},
            {"flows", tcp.GetFlowCount()},
            {"unfinished_flows", tcp.GetPendingFlows()},
            {"nic_ip_packets_sent", ip.sent},
            {"nic_ip_packets_received", ip.received},
            {"nic_ip_drops", ip.drops}};
}

} // namespace ns3
