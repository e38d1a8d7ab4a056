/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-application.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-requester.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowApplication");

NS_OBJECT_ENSURE_REGISTERED(RdmaFlowApplication);

TypeId
RdmaFlowApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowApplication")
            .SetParent<Application>()
            .SetGroupName("AiFabric")
            .AddConstructor<RdmaFlowApplication>()
            .AddAttribute("RemoteHost",
                          "Fabric host index of the receiver (FabricTopology::GetHost's index; "
                          "RdmaFlowHelper sets it from the remote Node). No default: the "
                          "maximum value means unset, and starting then is an error.",
                          UintegerValue(std::numeric_limits<uint32_t>::max()),
                          MakeUintegerAccessor(&RdmaFlowApplication::m_remoteHost),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MessageSize",
                          "Bytes of each RDMA WRITE message (1 .. 2^50). Default 65536, "
                          "perftest ib_write_bw's default message size (-s).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaFlowApplication::m_messageSize),
                          MakeUintegerChecker<uint64_t>(1, RdmaFabric::MAX_MESSAGE_BYTES))
            .AddAttribute("MaxMessages",
                          "Number of messages to post (at least 1). Default 1: one flow.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaFlowApplication::m_maxMessages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Interval",
                          "Time between two posts (open loop); 0, the default, posts back to "
                          "back: each message when the previous one's last byte is "
                          "acknowledged (perftest with one outstanding work request, -t 1).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaFlowApplication::m_interval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("MessageCompleted",
                            "A message of this application completed at the sender (its last "
                            "byte acknowledged): its record, with post and completion times",
                            MakeTraceSourceAccessor(&RdmaFlowApplication::m_completedTrace),
                            "ns3::RdmaFlowApplication::MessageCompletedCallback");
    return tid;
}

RdmaFlowApplication::RdmaFlowApplication() = default;

RdmaFlowApplication::~RdmaFlowApplication() = default;

void
RdmaFlowApplication::DoDispose()
{
    if (m_nic)
    {
        m_nic->TraceDisconnectWithoutContext(
            "MessageSent",
            MakeCallback(&RdmaFlowApplication::OnMessageSent, this));
    }
    m_nic = nullptr;
    m_fabric = nullptr;
    m_nextPost.Cancel();
    Application::DoDispose();
}

const std::vector<RdmaFabric::MessageRecord>&
RdmaFlowApplication::GetRecords() const
{
    return m_records;
}

uint32_t
RdmaFlowApplication::GetMessagesPosted() const
{
    return m_posted;
}

void
RdmaFlowApplication::StartApplication()
{
    Ptr<RdmaEndpoint> endpoint;
    try
    {
        endpoint = RdmaEndpoint::Find(GetNode(), "RdmaFlowApplication");
    }
    catch (const std::invalid_argument& e)
    {
        NS_FATAL_ERROR(e.what());
    }
    m_fabric = endpoint->GetFabric();
    m_localHost = endpoint->GetHostIndex();
    NS_ABORT_MSG_IF(m_remoteHost >= m_fabric->GetNHosts() || m_remoteHost == m_localHost,
                    "RdmaFlowApplication on host " << m_localHost << ": RemoteHost " << m_remoteHost
                                                   << " is not another host (allowed: 0.."
                                                   << m_fabric->GetNHosts() - 1 << " but "
                                                   << m_localHost << ")");
    if (!m_nic)
    {
        m_nic = GetNode()->GetObject<RdmaNic>();
        NS_ABORT_MSG_IF(!m_nic, "node " << GetNode()->GetId() << " has no RDMA adapter");
        m_nic->TraceConnectWithoutContext("MessageSent",
                                          MakeCallback(&RdmaFlowApplication::OnMessageSent, this));
    }
    m_running = true;
    NS_LOG_INFO("host " << m_localHost << " -> " << m_remoteHost << ": " << m_maxMessages << " x "
                        << m_messageSize << " bytes");
    PostNext();
}

void
RdmaFlowApplication::StopApplication()
{
    m_running = false;
    m_nextPost.Cancel();
}

void
RdmaFlowApplication::PostNext()
{
    if (!m_running || m_posted >= m_maxMessages)
    {
        return;
    }
    const uint64_t tag = (static_cast<uint64_t>(TAG_SPACE) << 56) | m_posted;
    const uint64_t id = m_fabric->PostWrite(m_localHost, m_remoteHost, m_messageSize, tag, KIND);
    m_ids.insert(id);
    m_posted++;
    NS_LOG_LOGIC("posted message " << id << " (" << m_posted << " of " << m_maxMessages << ")");
    if (m_interval.IsStrictlyPositive() && m_posted < m_maxMessages)
    {
        m_nextPost = Simulator::Schedule(m_interval, &RdmaFlowApplication::PostNext, this);
    }
}

void
RdmaFlowApplication::OnMessageSent(Ptr<const RdmaQueuePair> qp, const RdmaMessage& m)
{
    auto it = m_ids.find(m.id);
    if (it == m_ids.end())
    {
        return;
    }
    m_ids.erase(it);
    RdmaFabric::MessageRecord r;
    r.id = m.id;
    r.src = qp->GetLocalHost();
    r.dst = qp->GetPeerHost();
    r.bytes = m.bytes;
    r.tag = m.tag;
    r.kind = m.kind;
    r.start = m.postTime;
    r.end = Simulator::Now();
    r.ideal = m_fabric->GetIdealFct(r.src, r.dst, r.bytes);
    m_records.push_back(r);
    m_completedTrace(r);
    if (m_interval.IsZero())
    {
        PostNext();
    }
}

} // namespace ns3
