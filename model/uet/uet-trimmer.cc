/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-trimmer.h"

#include "uet-frame.h"

#include "ns3/log.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetTrimmer");
NS_OBJECT_ENSURE_REGISTERED(UetTrimmer);

TypeId
UetTrimmer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetTrimmer")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetTrimmer>()
            .AddAttribute("TrimThreshold",
                          "Egress queue depth (bytes, per port and class) beyond which an "
                          "arriving data frame is trimmed to its headers. Default 100 KB: "
                          "about one bandwidth-delay product of a 100 Gb/s, 8 us path, the "
                          "order of the trimming threshold of uet-htsim's examples (its "
                          "queues trim at a fraction of a BDP of buffer); a model choice, "
                          "the UEC specification leaves it to the switch's configuration.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&UetTrimmer::m_threshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("TrimPriority",
                          "Class (0..7) a trimmed header is forwarded in: 7, the class of "
                          "ACKs and CNPs, served first (strict priority), as the UEC "
                          "specification forwards trimmed packets in a high-priority class.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&UetTrimmer::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("TrimQueueLimit",
                          "Bound of the trimmed headers' queue (bytes, per port, class "
                          "TrimPriority): a trimmed header that would take it beyond is "
                          "dropped (the sender's retransmission timeout recovers it). 0: "
                          "twice TrimThreshold, as uet-htsim bounds its header queue at "
                          "twice the data queue's size "
                          "(htsim/sim/compositequeue.cpp, receivePacket).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UetTrimmer::m_trimQueueLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Trim",
                            "A frame was trimmed: (egress port, bytes before, bytes after)",
                            MakeTraceSourceAccessor(&UetTrimmer::m_trimTrace),
                            "ns3::UetTrimmer::TrimTracedCallback");
    return tid;
}

UetTrimmer::UetTrimmer()
    : m_threshold(100000),
      m_priority(7),
      m_trimQueueLimit(0)
{
}

UetTrimmer::~UetTrimmer() = default;

void
UetTrimmer::SetPorts(uint32_t ports)
{
    m_trimmed.assign(ports, 0);
    m_trimDropped.assign(ports, 0);
}

uint32_t
UetTrimmer::GetThreshold() const
{
    return m_threshold;
}

uint8_t
UetTrimmer::GetPriority() const
{
    return m_priority;
}

bool
UetTrimmer::IsTrimmed(const RoceFrameView& v)
{
    return (v.dscp & 7) == TRIMMED_DSCP_BITS;
}

bool
UetTrimmer::ShouldTrim(RoceParsedFrame& frame, uint64_t queueBytes) const
{
    const RoceFrameView& v = frame.view;
    if (queueBytes + v.frameBytes <= m_threshold || IsTrimmed(v))
    {
        return false;
    }
    // A UET request (the UET NIC's data), or a RoCEv2 data frame (the same transport
    // framed as RoCEv2, for a test of the switch alone).
    return v.isRoce ? RdmaOpcode::IsData(v.bthOpcode) : UetFrame::IsRequest(frame);
}

void
UetTrimmer::Trim(RoceParsedFrame& frame, uint32_t port)
{
    const uint32_t before = frame.view.frameBytes;
    const auto dscp = static_cast<uint8_t>((m_priority << 3) | TRIMMED_DSCP_BITS);
    if (UetFrame::IsUet(frame.view))
    {
        UetFrame::Trim(frame, dscp);
    }
    else
    {
        RoceFrameView v = frame.view;
        // The headers the frame's fields make, without the payload (INT block included).
        v.frameBytes -= RoceFrame::FieldsOf(v).payloadBytes;
        v.dscp = dscp;
        if (v.hasVlan)
        {
            v.pcp = m_priority;
        }
        // The bytes, if any, are stale: rewritten from the view when next asked for.
        frame.Assign(v);
        RoceFrame::CompleteParsed(frame);
    }
    if (port < m_trimmed.size())
    {
        m_trimmed[port]++;
    }
    NS_LOG_LOGIC("trimmed on port " << port << ": " << before << " -> " << frame.view.frameBytes
                                    << " bytes");
    m_trimTrace(port, before, frame.view.frameBytes);
}

uint64_t
UetTrimmer::GetTrimQueueLimit() const
{
    return m_trimQueueLimit != 0 ? m_trimQueueLimit : 2 * uint64_t{m_threshold};
}

bool
UetTrimmer::AdmitTrimmed(uint32_t port, uint64_t queueBytes, uint32_t frameBytes)
{
    if (queueBytes + frameBytes <= GetTrimQueueLimit())
    {
        return true;
    }
    if (port < m_trimDropped.size())
    {
        m_trimDropped[port]++;
    }
    return false;
}

uint64_t
UetTrimmer::GetTrimDropped(uint32_t port) const
{
    return port < m_trimDropped.size() ? m_trimDropped[port] : 0;
}

uint64_t
UetTrimmer::GetTrimmed(uint32_t port) const
{
    return port < m_trimmed.size() ? m_trimmed[port] : 0;
}

uint64_t
UetTrimmer::GetTotalTrimmed() const
{
    return std::accumulate(m_trimmed.begin(), m_trimmed.end(), uint64_t{0});
}

} // namespace ns3
