/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-control.h"

#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionControl")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddTraceSource("Rate",
                            "Current pacing rate of the queue pair, in bit/s",
                            MakeTraceSourceAccessor(&RdmaCongestionControl::m_rateBps),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Window",
                            "Current window of the queue pair, in payload bytes",
                            MakeTraceSourceAccessor(&RdmaCongestionControl::m_windowBytes),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaCongestionControl::RdmaCongestionControl()
    : m_rateBps(0),
      m_windowBytes(std::numeric_limits<uint64_t>::max())
{
}

RdmaCongestionControl::~RdmaCongestionControl() = default;

void
RdmaCongestionControl::DoDispose()
{
    Stop();
    m_changed = Callback<void>();
    Object::DoDispose();
}

void
RdmaCongestionControl::Start(const RdmaCcContext& ctx)
{
    m_ctx = ctx;
    m_rateBps.Set(ctx.lineRate.GetBitRate());
    m_windowBytes.Set(std::numeric_limits<uint64_t>::max());
}

void
RdmaCongestionControl::Stop()
{
}

void
RdmaCongestionControl::OnPacketSent(uint32_t /* payloadBytes */)
{
}

void
RdmaCongestionControl::OnAck(const RdmaAckSample& /* sample */)
{
}

void
RdmaCongestionControl::OnCnp()
{
}

void
RdmaCongestionControl::OnNack()
{
}

void
RdmaCongestionControl::OnTimeout()
{
}

void
RdmaCongestionControl::SetChangeCallback(Callback<void> cb)
{
    m_changed = cb;
}

void
RdmaCongestionControl::SetRate(DataRate rate)
{
    uint64_t bps = std::max<uint64_t>(1, std::min(rate.GetBitRate(), m_ctx.lineRate.GetBitRate()));
    if (bps == m_rateBps.Get())
    {
        return;
    }
    m_rateBps.Set(bps);
    if (!m_changed.IsNull())
    {
        m_changed();
    }
}

void
RdmaCongestionControl::SetWindowBytes(uint64_t bytes)
{
    if (bytes == m_windowBytes.Get())
    {
        return;
    }
    m_windowBytes.Set(bytes);
    if (!m_changed.IsNull())
    {
        m_changed();
    }
}

void
RdmaCongestionControl::NotifyChange()
{
    if (!m_changed.IsNull())
    {
        m_changed();
    }
}

} // namespace ns3
