/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-protocol.h"

#include "ns3/object-factory.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CollectiveProtocol);

namespace
{
/// The subclass of each NcclProtocol, in the enumeration's order.
const char* const kTypeNames[NCCL_NUM_PROTOCOLS] = {"ns3::NcclLlProtocol",
                                                    "ns3::NcclLl128Protocol",
                                                    "ns3::NcclSimpleProtocol"};
} // namespace

TypeId
CollectiveProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveProtocol").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

CollectiveProtocol::CollectiveProtocol() = default;

CollectiveProtocol::~CollectiveProtocol() = default;

Ptr<CollectiveProtocol>
CollectiveProtocol::Create(const std::string& name)
{
    NcclProtocol p;
    try
    {
        p = NcclProtocolFromString(name);
    }
    catch (const std::invalid_argument&)
    {
        throw std::invalid_argument("collective protocol '" + name +
                                    "' is not known; allowed: ll, ll128, simple");
    }
    ObjectFactory factory(kTypeNames[static_cast<int>(p)]);
    return factory.Create<CollectiveProtocol>();
}

std::vector<std::string>
CollectiveProtocol::GetNames()
{
    std::vector<std::string> names;
    for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
    {
        names.push_back(NcclProtocolToString(static_cast<NcclProtocol>(p)));
    }
    return names;
}

std::string
CollectiveProtocol::GetName() const
{
    return NcclProtocolToString(GetProtocol());
}

uint64_t
CollectiveProtocol::GetWireBytes(uint64_t payload) const
{
    const uint64_t lines = (payload + m_lineDataBytes - 1) / m_lineDataBytes;
    return lines * m_lineBytes;
}

double
CollectiveProtocol::GetWireFactor() const
{
    return static_cast<double>(m_lineBytes) / m_lineDataBytes;
}

uint32_t
CollectiveProtocol::GetStepBytes() const
{
    const uint64_t stepLines = (m_bufferBytes / STEPS) / m_lineBytes;
    return static_cast<uint32_t>(stepLines * m_lineDataBytes);
}

Time
CollectiveProtocol::GetStepLatency(bool network) const
{
    return network ? m_networkLatency : m_scaleUpLatency;
}

bool
CollectiveProtocol::HasChannelStepTime() const
{
    return m_channelStepTime.IsStrictlyPositive() || m_channelLineRate.GetBitRate() > 0;
}

Time
CollectiveProtocol::GetChannelStepTime(uint64_t wireBytes) const
{
    if (wireBytes == 0)
    {
        return Time(0);
    }
    Time t = m_channelStepTime;
    if (m_channelLineRate.GetBitRate() > 0)
    {
        t += m_channelLineRate.CalculateBytesTxTime(wireBytes);
    }
    return t;
}

Time
CollectiveProtocol::GetBaseLatency(NcclAlgorithm algorithm) const
{
    return algorithm == NcclAlgorithm::TREE ? m_treeBaseLatency : m_ringBaseLatency;
}

} // namespace ns3
