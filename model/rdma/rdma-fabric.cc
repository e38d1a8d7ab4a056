/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric.h"

#include "fct-attribution.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/net-device.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/rank-partition.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rounded-time.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaFabric);

TypeId
RdmaFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFabric")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute("QpIdleTimeout",
                          "Release an RC connection's two queue pairs once neither has had "
                          "anything posted, unacknowledged or held for this long (checked "
                          "when a message is posted); the pair gets a new connection when it "
                          "talks again, with a new congestion controller. 0 = never release. "
                          "Default 10 ms: over twice the RdmaQueuePair RetransmitTimeout "
                          "(4.19 ms), so connections in use by a collective or a flow's "
                          "burst stay as they are, and memory follows the connections in use",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RdmaFabric::m_qpIdleTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PcapSnapLength",
                          "Bytes of each frame a pcap record keeps (the pcap snapshot length), "
                          "from the frame's first byte; the record's original length stays the "
                          "frame's. 0 = whole frames (the files' snapshot length is then "
                          "65535, ns-3 PcapFile's default, above every frame of either fabric). "
                          "InfiniBand ERF records keep their 16-byte ERF header besides (the "
                          "files' snapshot length is then this + 16). Read when EnablePcap "
                          "opens the files",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaFabric::m_pcapSnapLength),
                          MakeUintegerChecker<uint32_t>(0, MAX_PCAP_SNAP_LENGTH));
    return tid;
}

RdmaFabric::RdmaFabric()
    : m_qpIdleTimeout(MilliSeconds(10))
{
}

RdmaFabric::~RdmaFabric() = default;

void
RdmaFabric::DoDispose()
{
    m_connections.clear();
    m_idle.clear();
    m_indexOfQp.clear();
    m_ownIdle.clear();
    m_messageCallbacks.clear();
    m_deliveredCallbacks.clear();
    m_pcapFiles.clear();
    m_attribution = nullptr;
    m_graph = nullptr;
    Object::DoDispose();
}

uint32_t
RdmaFabric::GetNHosts() const
{
    return m_graph ? m_graph->GetNHosts() : 0;
}

Ptr<TopologyGraph>
RdmaFabric::GetGraph() const
{
    return m_graph;
}

const NodeContainer&
RdmaFabric::GetNodes() const
{
    return m_nodes;
}

uint32_t
RdmaFabric::GetSwitchNode(uint32_t i) const
{
    return m_switchNodes.at(i);
}

void
RdmaFabric::SetPairClassOf(uint32_t src, uint32_t dst, uint8_t trafficClass)
{
    m_pairClass[(static_cast<uint64_t>(src) << 32) | dst] = trafficClass;
}

uint8_t
RdmaFabric::GetPairClassOr(uint32_t src, uint32_t dst, uint8_t fallback) const
{
    if (m_pairClass.empty()) // (no job set a class)
    {
        return fallback;
    }
    auto it = m_pairClass.find((static_cast<uint64_t>(src) << 32) | dst);
    return it == m_pairClass.end() ? fallback : it->second;
}

void
RdmaFabric::AddPcapPort(const std::string& prefix,
                        uint32_t node,
                        uint32_t port,
                        Ptr<NetDevice> device,
                        uint32_t linkType)
{
    Ptr<PcapFileWrapper> file = OpenPcapFile(prefix, node, port, linkType, 0);
    PcapHelper().HookDefaultSink<NetDevice>(device, "PromiscSniffer", file);
}

Ptr<PcapFileWrapper>
RdmaFabric::OpenPcapFile(const std::string& prefix,
                         uint32_t node,
                         uint32_t port,
                         uint32_t linkType,
                         uint32_t recordHeaderBytes)
{
    const std::string name =
        prefix + "-" + std::to_string(node) + "-" + std::to_string(port) + ".pcap";
    // What PcapHelper::CreateFile does, with nanosecond timestamps set on this file only
    // (not as every later PcapFileWrapper's default).
    Ptr<PcapFileWrapper> file =
        CreateObjectWithAttributes<PcapFileWrapper>("NanosecMode", BooleanValue(true));
    file->Open(name, std::ios::out);
    NS_ABORT_MSG_IF(file->Fail(), "Unable to Open " << name << " for mode " << std::ios::out);
    file->Init(linkType,
               m_pcapSnapLength == 0 ? MAX_PCAP_SNAP_LENGTH : m_pcapSnapLength + recordHeaderBytes);
    NS_ABORT_MSG_IF(file->Fail(), "Unable to Init " << name);
    m_pcapFiles.emplace_back(name, file);
    return file;
}

void
RdmaFabric::EnablePcap(const std::string& prefix, bool hostsOnly)
{
    Ptr<const TopologyGraph> graph = GetGraph();
    EnablePcap(prefix, [graph, hostsOnly](uint32_t node, uint32_t) {
        return !hostsOnly || graph->IsHost(node);
    });
}

void
RdmaFabric::EnablePcap(const std::string& prefix,
                       const std::function<bool(uint32_t node, uint32_t port)>& select)
{
    Ptr<const TopologyGraph> graph = GetGraph();
    for (uint32_t node = 0; node < graph->GetNNodes(); ++node)
    {
        for (uint32_t port = 0; port < graph->GetPorts(node).size(); ++port)
        {
            if (select(node, port))
            {
                EnablePcapPort(prefix, node, port);
            }
        }
    }
}

void
RdmaFabric::EnablePcapPort(const std::string& /* prefix */, uint32_t node, uint32_t port)
{
    NS_ABORT_MSG(GetInstanceTypeId().GetName()
                 << " writes no pcaps (EnablePcap of node " << node << " port " << port << ")");
}

bool
RdmaFabric::HasLosslessLinks() const
{
    return true;
}

bool
RdmaFabric::HasNvlinkSharp() const
{
    return false;
}

uint32_t
RdmaFabric::GetSwitchClasses() const
{
    return GetRoutes()->GetNumClasses();
}

std::string
RdmaFabric::GetPcapWriteError() const
{
    for (const auto& [name, file] : m_pcapFiles)
    {
        if (file->Fail())
        {
            return name;
        }
    }
    return "";
}

std::vector<std::string>
RdmaFabric::GetPcapFiles() const
{
    std::vector<std::string> names;
    names.reserve(m_pcapFiles.size());
    for (const auto& [name, file] : m_pcapFiles)
    {
        names.push_back(name);
    }
    return names;
}

void
RdmaFabric::AddMessageCallback(MessageCallback cb)
{
    m_messageCallbacks.push_back(cb);
}

void
RdmaFabric::AddDeliveredCallback(DeliveredCallback cb)
{
    m_deliveredCallbacks.push_back(cb);
}

uint64_t
RdmaFabric::TakeMessageId()
{
    return m_nextMessageId++;
}

double
RdmaFabric::PipelinedMakespan(const std::vector<double>& rates,
                              uint64_t first,
                              uint64_t total,
                              uint64_t last)
{
    double best = 0;
    for (std::size_t b = 0; b < rates.size(); ++b)
    {
        double t = 0;
        for (std::size_t l = 0; l < rates.size(); ++l)
        {
            const uint64_t wire = l < b ? first : (l == b ? total : last);
            t += wire * 8.0 / rates[l];
        }
        best = std::max(best, t);
    }
    return best;
}

void
RdmaFabric::CollectStalledQueues(int64_t /* stallTicks */, WaitForGraph& /* graph */)
{
}

std::string
RdmaFabric::GetLaneName() const
{
    return "priority";
}

void
RdmaFabric::SetPairClass(uint32_t /* src */, uint32_t /* dst */, uint8_t /* trafficClass */)
{
    throw std::invalid_argument(GetInstanceTypeId().GetName() + " has no per-connection class");
}

void
RdmaFabric::AssignPartitions(const std::vector<uint16_t>& /* pKeys */)
{
    throw std::invalid_argument(GetInstanceTypeId().GetName() +
                                " enforces no partitions (InfiniBand's Subnet Manager does)");
}

uint64_t
RdmaFabric::GetPKeyViolations() const
{
    return 0;
}

void
RdmaFabric::EnableIp(uint8_t /* trafficClass */)
{
    throw std::invalid_argument(GetInstanceTypeId().GetName() + " carries no IP");
}

Ptr<NetDevice>
RdmaFabric::GetIpDevice(uint32_t /* host */) const
{
    return nullptr;
}

void
RdmaFabric::ResolveIpNeighbours()
{
}

void
RdmaFabric::EnableAttribution(Ptr<FctAttribution> attribution)
{
    m_attribution = attribution;
    const std::vector<uint32_t>& hostNodes = GetGraph()->GetHosts();
    for (uint32_t host = 0; host < GetNHosts(); ++host)
    {
        Ptr<RdmaNic> nic = GetNodes().Get(hostNodes[host])->GetObject<RdmaNic>();
        if (nic)
        {
            nic->SetAttribution(PeekPointer(attribution));
        }
    }
}

Ptr<FctAttribution>
RdmaFabric::GetAttribution() const
{
    return m_attribution;
}

RdmaFabric::IpCounters
RdmaFabric::GetIpCounters() const
{
    return IpCounters{};
}

std::vector<RdmaFabric::BufferShortfall>
RdmaFabric::GetBufferShortfalls() const
{
    return {};
}

uint64_t
RdmaFabric::GetPendingMessages() const
{
    return m_nextMessageId - m_completed - m_erroredMessages;
}

void
RdmaFabric::NoteFlushedPost(const RdmaQueuePair& qp)
{
    if (__builtin_expect(!m_hostFailures.empty(), false) && qp.IsInError())
    {
        m_erroredMessages++;
    }
}

void
RdmaFabric::OnQueuePairError(Ptr<const RdmaQueuePair> /* qp */, uint64_t messages)
{
    m_erroredMessages += messages;
}

void
RdmaFabric::OnMessageSent(Ptr<const RdmaQueuePair> qp, const RdmaMessage& m)
{
    m_completed++;
    if (m_qpIdleTimeout.IsStrictlyPositive())
    {
        NoteIfIdle(*qp);
    }
    MessageRecord r;
    r.id = m.id;
    r.src = qp->GetLocalHost();
    r.dst = qp->GetPeerHost();
    r.bytes = m.bytes;
    r.tag = m.tag;
    r.kind = m.kind;
    r.start = m.postTime;
    r.end = Simulator::Now();
    // A READ's data flows dst -> src: the ideal of that direction (its request takes the
    // place of the ACK, 12 bytes longer on the wire).
    r.ideal = m.isRead ? GetIdealFct(r.dst, r.src, r.bytes) : GetIdealFct(r.src, r.dst, r.bytes);
    if (m_attribution)
    {
        m_attribution->OnComplete(*qp, m, r.src, r.dst, r.ideal);
    }
    for (const auto& cb : m_messageCallbacks)
    {
        cb(r);
    }
}

void
RdmaFabric::OnDelivered(Ptr<const RdmaQueuePair> qp, uint64_t tag, uint64_t bytes)
{
    if (m_qpIdleTimeout.IsStrictlyPositive())
    {
        NoteIfIdle(*qp);
    }
    for (const auto& cb : m_deliveredCallbacks)
    {
        cb(qp->GetPeerHost(), qp->GetLocalHost(), tag, bytes);
    }
}

void
RdmaFabric::SetCongestionControlFactory(const CongestionControlFactory& factory)
{
    m_ccFactory = factory;
}

uint64_t
RdmaFabric::PostWrite(uint32_t src,
                      uint32_t dst,
                      uint64_t bytes,
                      uint64_t tag,
                      uint8_t kind,
                      uint32_t connection)
{
    return PostMessage(src, dst, bytes, tag, kind, connection, false);
}

uint64_t
RdmaFabric::PostSend(uint32_t src,
                     uint32_t dst,
                     uint64_t bytes,
                     uint64_t tag,
                     uint8_t kind,
                     uint32_t connection)
{
    return PostMessage(src, dst, bytes, tag, kind, connection, true);
}

Ptr<RdmaQueuePair>
RdmaFabric::PrepareConnection(const char* verb,
                              uint32_t from,
                              uint32_t to,
                              uint64_t bytes,
                              uint32_t connection,
                              RdmaQueuePair*& peer)
{
    const uint32_t hosts = GetNHosts();
    NS_ABORT_MSG_IF(from >= hosts || to >= hosts || from == to,
                    verb << ": hosts " << from << ", " << to << " invalid (hosts 0.." << hosts - 1
                         << ", distinct)");
    NS_ABORT_MSG_IF(bytes == 0 || bytes > MAX_MESSAGE_BYTES,
                    verb << ": " << bytes << " bytes (allowed 1.." << MAX_MESSAGE_BYTES << ")");
    if (!m_ownIdle.empty())
    {
        ReleaseOwnConnections();
    }
    if (m_qpIdleTimeout.IsStrictlyPositive() && !m_idle.empty())
    {
        ReleaseIdle(Simulator::Now().GetTimeStep());
    }
    Ptr<RdmaQueuePair> qp = GetQueuePair(from, to, connection);
    Connection& c = m_connections[MakeConnectionKey(from, to, connection)];
    c.idleSince = -1; // in use
    peer = PeekPointer(qp == c.a ? c.b : c.a);
    return qp;
}

bool
RdmaFabric::SendsHere(uint32_t host) const
{
    return RankPartition::GetNRanks() <= 1 ||
           GetNodes().Get(GetGraph()->GetHosts()[host])->GetSystemId() ==
               RankPartition::GetLocalRank();
}

uint64_t
RdmaFabric::PostMessage(uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        uint64_t tag,
                        uint8_t kind,
                        uint32_t connection,
                        bool send)
{
    RdmaQueuePair* peer = nullptr;
    Ptr<RdmaQueuePair> qp =
        PrepareConnection(send ? "PostSend" : "PostWrite", src, dst, bytes, connection, peer);
    peer->PostReceive(tag);
    uint64_t id = TakeMessageId();
    NoteFlushedPost(*qp);
    if (!SendsHere(src))
    {
        return id;
    }
    if (send)
    {
        qp->PostSend(id, bytes, tag, kind);
    }
    else
    {
        qp->PostWrite(id, bytes, tag, kind);
    }
    return id;
}

void
RdmaFabric::PostReceive(uint32_t src, uint32_t dst, uint64_t tag, uint32_t connection)
{
    RdmaQueuePair* peer = nullptr;
    PrepareConnection("PostReceive", src, dst, 1, connection, peer);
    peer->PostReceive(tag);
}

void
RdmaFabric::OpenConnection(uint32_t src, uint32_t dst, uint32_t connection)
{
    RdmaQueuePair* peer = nullptr;
    PrepareConnection("OpenConnection", src, dst, 1, connection, peer);
}

uint64_t
RdmaFabric::ReserveMessageIds(uint64_t n)
{
    const uint64_t first = m_nextMessageId;
    m_nextMessageId += n;
    return first;
}

uint64_t
RdmaFabric::PostSkipped(uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        uint64_t tag,
                        uint8_t kind,
                        Time delivered,
                        Time acked)
{
    NS_ABORT_MSG_IF(acked < delivered || delivered.IsStrictlyNegative(),
                    "skipped message " << src << " -> " << dst << ": delivered after " << delivered
                                       << ", acknowledged after " << acked);
    MessageRecord r;
    r.id = m_nextMessageId++;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    r.tag = tag;
    r.kind = kind;
    r.start = Simulator::Now();
    r.end = r.start + acked;
    r.ideal = GetIdealFct(src, dst, bytes);
    Simulator::Schedule(delivered, &RdmaFabric::DeliverSkipped, this, src, dst, tag, bytes);
    Simulator::Schedule(acked, &RdmaFabric::CompleteSkipped, this, r);
    return r.id;
}

void
RdmaFabric::DeliverSkipped(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    for (const auto& cb : m_deliveredCallbacks)
    {
        cb(src, dst, tag, bytes);
    }
}

void
RdmaFabric::CompleteSkipped(MessageRecord r)
{
    m_completed++;
    for (const auto& cb : m_messageCallbacks)
    {
        cb(r);
    }
}

void
RdmaFabric::ForgoMessageIds(uint64_t n)
{
    m_completed += n;
}

void
RdmaFabric::PostPrematched(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           uint64_t tag,
                           uint8_t kind,
                           uint32_t connection,
                           uint64_t id,
                           bool send)
{
    NS_ABORT_MSG_IF(id >= m_nextMessageId,
                    "PostPrematched: message id " << id << " was not reserved (ids 0.."
                                                  << m_nextMessageId << " given out)");
    RdmaQueuePair* peer = nullptr;
    Ptr<RdmaQueuePair> qp =
        PrepareConnection(send ? "PostSend" : "PostWrite", src, dst, bytes, connection, peer);
    NoteFlushedPost(*qp); // (posted to a queue pair in error: it completes in error)
    if (!SendsHere(src))
    {
        return;
    }
    if (send)
    {
        qp->PostSend(id, bytes, tag, kind);
    }
    else
    {
        qp->PostWrite(id, bytes, tag, kind);
    }
}

bool
RdmaFabric::IsLocalHost(uint32_t host) const
{
    return SendsHere(host);
}

uint64_t
RdmaFabric::PostRead(uint32_t requester,
                     uint32_t responder,
                     uint64_t bytes,
                     uint64_t tag,
                     uint8_t kind,
                     uint32_t connection)
{
    RdmaQueuePair* peer = nullptr;
    Ptr<RdmaQueuePair> qp =
        PrepareConnection("PostRead", requester, responder, bytes, connection, peer);
    uint64_t id = TakeMessageId();
    NoteFlushedPost(*qp);
    if (SendsHere(requester))
    {
        qp->PostRead(id, bytes, tag, kind);
    }
    return id;
}

uint64_t
RdmaFabric::PostReadOnOwnConnection(uint32_t requester,
                                    uint32_t responder,
                                    uint64_t bytes,
                                    uint64_t tag,
                                    uint8_t kind)
{
    return PostOnOwnConnection(requester, responder, bytes, tag, kind, OwnVerb::READ);
}

uint64_t
RdmaFabric::PostWriteOnOwnConnection(uint32_t src,
                                     uint32_t dst,
                                     uint64_t bytes,
                                     uint64_t tag,
                                     uint8_t kind)
{
    return PostOnOwnConnection(src, dst, bytes, tag, kind, OwnVerb::WRITE);
}

uint64_t
RdmaFabric::PostSendOnOwnConnection(uint32_t src,
                                    uint32_t dst,
                                    uint64_t bytes,
                                    uint64_t tag,
                                    uint8_t kind)
{
    return PostOnOwnConnection(src, dst, bytes, tag, kind, OwnVerb::SEND);
}

uint64_t
RdmaFabric::PostOnOwnConnection(uint32_t src,
                                uint32_t dst,
                                uint64_t bytes,
                                uint64_t tag,
                                uint8_t kind,
                                OwnVerb verb)
{
    const uint32_t index = m_nextOwnConnection;
    // After 2^31 own connections the indices come round again: the ones given out
    // 2^31 posts ago are long released.
    m_nextOwnConnection = index == UINT32_MAX ? FIRST_OWN_CONNECTION : index + 1;
    const uint64_t id = verb == OwnVerb::READ   ? PostRead(src, dst, bytes, tag, kind, index)
                        : verb == OwnVerb::SEND ? PostSend(src, dst, bytes, tag, kind, index)
                                                : PostWrite(src, dst, bytes, tag, kind, index);
    auto it = m_connections.find(MakeConnectionKey(src, dst, index));
    if (it != m_connections.end())
    {
        it->second.ownConnection = true;
    }
    return id;
}

void
RdmaFabric::ReleaseOwnConnections()
{
    for (const ConnectionKey& key : m_ownIdle)
    {
        auto it = m_connections.find(key);
        if (it == m_connections.end())
        {
            continue;
        }
        Connection& c = it->second;
        if (!c.a->IsIdle() || !c.b->IsIdle())
        {
            c.idleSince = -1; // posted on again (PostWrite with its index)
            continue;
        }
        if (!Disconnect(*c.a, *c.b))
        {
            continue; // this fabric keeps its connections
        }
        for (const Ptr<RdmaQueuePair>& q : {c.a, c.b})
        {
            m_indexOfQp.erase((static_cast<uint64_t>(q->GetLocalHost()) << 32) | q->GetLocalQpn());
        }
        m_connections.erase(it);
        m_connectionsReleased++;
    }
    m_ownIdle.clear();
}

RdmaFabric::ConnectionKey
RdmaFabric::MakeConnectionKey(uint32_t x, uint32_t y, uint32_t index)
{
    ConnectionKey k;
    k.hosts = x < y ? (static_cast<uint64_t>(x) << 32) | y : (static_cast<uint64_t>(y) << 32) | x;
    k.index = index;
    return k;
}

Ptr<RdmaQueuePair>
RdmaFabric::GetQueuePair(uint32_t src, uint32_t dst, uint32_t connection)
{
    Connection& c = m_connections[MakeConnectionKey(src, dst, connection)];
    if (c.a)
    {
        return src < dst ? c.a : c.b;
    }
    auto [qa, qb] = Connect(src, dst, connection);
    if (!m_hostFailures.empty())
    {
        // Peers of a failed host: their messages complete in error, not pending for ever.
        for (const Ptr<RdmaQueuePair>& qp : {qa, qb})
        {
            qp->TraceConnectWithoutContext("Error",
                                           MakeCallback(&RdmaFabric::OnQueuePairError, this));
        }
    }
    if (connection != 0)
    {
        m_indexOfQp[(static_cast<uint64_t>(src) << 32) | qa->GetLocalQpn()] = connection;
        m_indexOfQp[(static_cast<uint64_t>(dst) << 32) | qb->GetLocalQpn()] = connection;
    }
    for (auto [qp, from, to] : {std::make_tuple(qa, src, dst), std::make_tuple(qb, dst, src)})
    {
        const RdmaCcContext ctx = MakeCcContext(from, to);
        qp->SetCongestionControl(m_ccFactory.Create(), ctx);
    }
    // QpCreated on each NIC (aggregated to its host's node), now that the queue pairs
    // are connected and have their controllers.
    const std::vector<uint32_t>& hostNodes = GetGraph()->GetHosts();
    for (auto [qp, host] : {std::make_pair(qa, src), std::make_pair(qb, dst)})
    {
        Ptr<RdmaNic> nic = GetNodes().Get(hostNodes[host])->GetObject<RdmaNic>();
        if (nic)
        {
            nic->NotifyQueuePairCreated(qp);
        }
    }
    c.a = src < dst ? qa : qb;
    c.b = src < dst ? qb : qa;
    m_connectionsMade++;
    m_connectionsPeak = std::max<uint64_t>(m_connectionsPeak, m_connections.size());
    return qa;
}

void
RdmaFabric::NoteIfIdle(const RdmaQueuePair& qp)
{
    uint32_t index = 0;
    if (!m_indexOfQp.empty())
    {
        auto q =
            m_indexOfQp.find((static_cast<uint64_t>(qp.GetLocalHost()) << 32) | qp.GetLocalQpn());
        index = q == m_indexOfQp.end() ? 0 : q->second;
    }
    auto it = m_connections.find(MakeConnectionKey(qp.GetLocalHost(), qp.GetPeerHost(), index));
    if (it == m_connections.end() || it->second.idleSince >= 0)
    {
        return; // not the fabric's connection (a test's), or idle already
    }
    Connection& c = it->second;
    if (c.a->IsIdle() && c.b->IsIdle())
    {
        c.idleSince = Simulator::Now().GetTimeStep();
        if (c.ownConnection)
        {
            m_ownIdle.push_back(it->first); // its flow is done: no wait
        }
        else
        {
            m_idle.emplace_back(it->first, c.idleSince);
        }
    }
}

void
RdmaFabric::ReleaseIdle(int64_t now)
{
    const int64_t timeout = m_qpIdleTimeout.GetTimeStep();
    while (!m_idle.empty() && m_idle.front().second + timeout <= now)
    {
        const auto [key, since] = m_idle.front();
        m_idle.pop_front();
        auto it = m_connections.find(key);
        if (it == m_connections.end() || it->second.idleSince != since)
        {
            continue; // used again since (a later entry, if it went idle again)
        }
        Connection& c = it->second;
        if (!c.a->IsIdle() || !c.b->IsIdle())
        {
            c.idleSince = -1;
            continue;
        }
        if (!Disconnect(*c.a, *c.b))
        {
            continue; // this fabric keeps its connections
        }
        if (key.index != 0)
        {
            for (const Ptr<RdmaQueuePair>& q : {c.a, c.b})
            {
                m_indexOfQp.erase((static_cast<uint64_t>(q->GetLocalHost()) << 32) |
                                  q->GetLocalQpn());
            }
        }
        m_connections.erase(it);
        m_connectionsReleased++;
    }
}

bool
RdmaFabric::Disconnect(const RdmaQueuePair& a, const RdmaQueuePair& b)
{
    Ptr<RdmaNic> nicA = GetHostNic(a.GetLocalHost());
    Ptr<RdmaNic> nicB = GetHostNic(b.GetLocalHost());
    if (!nicA || !nicB)
    {
        return false;
    }
    nicA->ReleaseQueuePair(a.GetLocalQpn());
    nicB->ReleaseQueuePair(b.GetLocalQpn());
    return true;
}

uint32_t
RdmaFabric::GetRoutedPort(uint32_t node, uint32_t dst) const
{
    NS_ABORT_MSG("this fabric gives no routed port (node " << node << ", host " << dst << ")");
    return 0;
}

void
RdmaFabric::PathLinks(uint32_t src, uint32_t dst, std::vector<uint32_t>& links) const
{
    links.clear();
    const TopologyGraph* graph = PeekPointer(GetGraph());
    uint32_t node = graph->GetHosts()[src];
    const uint32_t target = graph->GetHosts()[dst];
    while (node != target)
    {
        const uint32_t port = graph->IsHost(node) ? 0 : GetRoutedPort(node, dst);
        const TopologyGraph::Port& p = graph->GetPorts(node)[port];
        links.push_back(p.link);
        node = p.peer;
        NS_ABORT_MSG_IF(links.size() > graph->GetNNodes(), "routing loop towards host " << dst);
    }
}

uint32_t
RdmaFabric::GetPathHops(uint32_t src, uint32_t dst) const
{
    std::vector<uint32_t>& links = m_idealLinks;
    PathLinks(src, dst, links);
    return links.empty() ? 0 : static_cast<uint32_t>(links.size() - 1);
}

Time
RdmaFabric::GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    // Called once per finished message: the path and its links' rates in reused
    // vectors, each link read once (the makespan below visits every link per link).
    std::vector<uint32_t>& links = m_idealLinks;
    PathLinks(src, dst, links);
    std::vector<double>& rates = m_idealRates;
    rates.clear();
    const TopologyGraph* graph = PeekPointer(GetGraph());
    Time delay;
    for (uint32_t l : links)
    {
        const TopologyGraph::Link& link = graph->GetLink(l);
        rates.push_back(static_cast<double>(link.rate.GetBitRate()));
        delay += link.delay;
    }
    if (m_idealPorts.size() <= src)
    {
        m_idealPorts.resize(GetNHosts());
    }
    HostPort& port = m_idealPorts[src];
    if (port.mtuBytes == 0)
    {
        port = GetHostPort(src);
    }
    const uint64_t mtu = port.mtuBytes;
    const uint64_t nPackets = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    // Wire bytes of the first and last packets and of the whole message; only the
    // last packet's payload is padded.
    const uint64_t lastPayload = bytes - (nPackets - 1) * mtu;
    const uint64_t pad = (port.padToBytes - lastPayload % port.padToBytes) % port.padToBytes;
    const uint64_t first = (nPackets == 1 ? lastPayload + pad + port.lastBytes : mtu) +
                           port.packetBytes + port.firstBytes;
    const uint64_t last =
        nPackets == 1 ? first : lastPayload + pad + port.packetBytes + port.lastBytes;
    const uint64_t total =
        bytes + pad + nPackets * port.packetBytes + port.firstBytes + port.lastBytes;
    const auto switches = static_cast<double>(links.size() - 1);
    const double latency = port.switchLatency.GetSeconds();
    double best = 0;
    if (port.cutThrough)
    {
        // The message streams at the slowest link; the others add one packet's time at
        // most where they are slower than the next (ignored: ideal).
        best = total * 8.0 / *std::min_element(rates.begin(), rates.end());
    }
    else
    {
        // Pipelined store-and-forward through the path's links.
        best = PipelinedMakespan(rates, first, total, last);
    }
    best += switches * latency;
    // The ACK: cut-through one serialization at the slowest link, store-and-forward
    // one per link; the switches' latency either way.
    const double ackBytes = port.ackWireBytes;
    double back = 0;
    for (double rate : rates)
    {
        const double t = ackBytes * 8.0 / rate;
        back = port.cutThrough ? std::max(back, t) : back + t;
    }
    back += switches * latency;
    return RoundedSeconds(best + back) + delay * 2;
}

uint64_t
RdmaFabric::GetLiveConnections() const
{
    return m_connections.size();
}

uint64_t
RdmaFabric::GetReleasedConnections() const
{
    return m_connectionsReleased;
}

void
RdmaFabric::SetConnectionCounters(Counters& c) const
{
    c.queuePairs = m_connectionsMade;
    c.queuePairsPeak = m_connectionsPeak;
    c.queuePairsReleased = m_connectionsReleased;
}

RdmaCcContext
RdmaFabric::MakeCcContext(uint32_t from, uint32_t to) const
{
    const HostPort port = GetHostPort(from);
    RdmaCcContext ctx;
    ctx.lineRate = port.lineRate;
    ctx.mtuBytes = port.mtuBytes;
    ctx.wireBytes = port.wireBytes;
    ctx.hops = GetPathHops(from, to);
    std::vector<uint32_t> links;
    PathLinks(from, to, links);
    Ptr<const TopologyGraph> graph = GetGraph();
    Time rtt;
    for (uint32_t l : links)
    {
        const TopologyGraph::Link& link = graph->GetLink(l);
        rtt += RoundedTxTime(link.rate, ctx.wireBytes + port.ackWireBytes) + link.delay * 2;
    }
    rtt += port.switchLatency * (2 * ctx.hops);
    ctx.baseRtt = rtt;
    return ctx;
}

void
RdmaFabric::AddHostCounters(Counters& c, const RdmaNic& host)
{
    c.retransmittedPackets += host.GetRetransmittedPackets();
    c.timeouts += host.GetTimeouts();
    c.cnpsSent += host.GetCnpsSent();
    c.staleFrames += host.GetStaleFrames();
    c.qpCacheMisses += host.GetQpCacheMisses();
    c.outOfOrderPackets += host.GetOutOfOrderPackets();
    c.spuriousRetransmissions += host.GetSpuriousRetransmissions();
    c.readBytes += host.GetReadBytes();
    c.rnrNaks += host.GetRnrNaksSent();
    c.rnrRetries += host.GetRnrRetries();
    c.qpErrors += host.GetQpErrors();
}

const std::vector<RdmaFabric::LinkFailureRecord>&
RdmaFabric::GetLinkFailures() const
{
    return m_linkFailures;
}

void
RdmaFabric::FailLink(uint32_t link, Time /* down */, Time /* up */)
{
    throw std::invalid_argument("link " + std::to_string(link) + ": " +
                                GetInstanceTypeId().GetName() +
                                " cannot fail cables (no FailLink of its own)");
}

void
RdmaFabric::StallReceive(uint32_t host, Time /* start */, Time /* end */)
{
    throw std::invalid_argument("host " + std::to_string(host) + ": " +
                                GetInstanceTypeId().GetName() +
                                " has no pause frames, so no PFC storm applies");
}

void
RdmaFabric::FailHost(uint32_t host, Time at)
{
    if (host < GetNHosts() && !GetHostNic(host))
    {
        throw std::invalid_argument("host " + std::to_string(host) + ": " +
                                    GetInstanceTypeId().GetName() +
                                    " cannot fail hosts (it has no host NICs: GetHostNic)");
    }
    RecordHostFailure(host, at);
    Simulator::Schedule(at - Simulator::Now(), &RdmaFabric::DoFailHost, this, host);
}

void
RdmaFabric::DoFailHost(uint32_t host)
{
    // The server's process is gone: its queue pairs' work requests end in error.
    for (const Ptr<RdmaQueuePair>& qp : GetHostNic(host)->GetQueuePairs())
    {
        qp->ModifyToError();
    }
    CutHostCables(host);
}

Ptr<RdmaNic>
RdmaFabric::GetHostNic(uint32_t /* host */) const
{
    return nullptr;
}

void
RdmaFabric::CutHostCables(uint32_t /* host */)
{
}

const std::vector<RdmaFabric::HostFailureRecord>&
RdmaFabric::GetHostFailures() const
{
    return m_hostFailures;
}

void
RdmaFabric::RecordHostFailure(uint32_t host, Time at)
{
    if (host >= GetNHosts())
    {
        throw std::invalid_argument("host " + std::to_string(host) + " does not exist (hosts 0.." +
                                    std::to_string(GetNHosts() - 1) + ")");
    }
    for (const HostFailureRecord& r : m_hostFailures)
    {
        if (r.host == host)
        {
            throw std::invalid_argument("host " + std::to_string(host) +
                                        " already fails (each host may fail once)");
        }
    }
    if (at < Simulator::Now())
    {
        throw std::invalid_argument("host " + std::to_string(host) + " failure time " +
                                    std::to_string(at.GetNanoSeconds()) + " ns is in the past");
    }
    HostFailureRecord r;
    r.host = host;
    r.node = GetGraph()->GetHosts().at(host);
    r.at = at;
    m_hostFailures.push_back(r);
}

void
RdmaFabric::ConnectPfcSent(uint32_t /* node */, PfcSentCallback /* cb */)
{
}

void
RdmaFabric::ConnectDrops(DropCallback /* cb */)
{
}

bool
RdmaFabric::VisitSwitchQueues(const std::function<bool(uint32_t)>& /* nodes */,
                              const QueueVisitor& /* visit */) const
{
    return false;
}

uint32_t
RdmaFabric::RecordLinkFailure(uint32_t link, Time down, Time up, const std::string& engine)
{
    Ptr<TopologyGraph> graph = GetGraph();
    std::ostringstream why;
    if (link >= graph->GetNLinks())
    {
        why << "link " << link << " does not exist (links 0.." << graph->GetNLinks() - 1 << ")";
        throw std::invalid_argument(why.str());
    }
    const TopologyGraph::Link& l = graph->GetLink(link);
    if (graph->IsHost(l.a) || graph->IsHost(l.b))
    {
        why << "link " << link << " is a host cable (node " << l.a << " - node " << l.b
            << "): failing it cuts the host off; only switch-to-switch links may fail";
        throw std::invalid_argument(why.str());
    }
    for (const LinkFailureRecord& r : m_linkFailures)
    {
        if (r.link == link)
        {
            why << "link " << link << " already fails (each link may fail once)";
            throw std::invalid_argument(why.str());
        }
    }
    if (down < Simulator::Now())
    {
        why << "link " << link << " failure time " << down.As(Time::US) << " is in the past (now "
            << Simulator::Now().As(Time::US) << ")";
        throw std::invalid_argument(why.str());
    }
    if (up >= Time(0) && up <= down)
    {
        why << "link " << link << " comes back at " << up.As(Time::US) << ", not after it fails at "
            << down.As(Time::US);
        throw std::invalid_argument(why.str());
    }
    // The routing must be able to route what will be left: try it now, not mid-run.
    Ptr<TopologyGraph> degraded = Create<TopologyGraph>(*graph);
    for (const LinkFailureRecord& r : m_linkFailures)
    {
        degraded->SetLinkUp(r.link, false);
    }
    degraded->SetLinkUp(link, false);
    try
    {
        degraded->Validate();
        RoutingEngine::BuildTable(engine, degraded);
    }
    catch (const std::exception& e)
    {
        why << "link " << link << " (node " << l.a << " port " << l.portA << " - node " << l.b
            << " port " << l.portB << ") cannot fail: routing '" << engine
            << "' cannot route the rest (" << e.what() << ")";
        throw std::invalid_argument(why.str());
    }
    LinkFailureRecord r;
    r.link = link;
    r.nodeA = l.a;
    r.portA = l.portA;
    r.nodeB = l.b;
    r.portB = l.portB;
    r.down = down;
    r.up = up >= Time(0) ? up : Time(-1);
    m_linkFailures.push_back(r);
    return static_cast<uint32_t>(m_linkFailures.size() - 1);
}

RdmaFabric::PortTx
RdmaFabric::GetPortTx(uint32_t node, uint32_t port) const
{
    NS_ABORT_MSG(GetInstanceTypeId().GetName() << " keeps no per-port counters (GetPortTx of node "
                                               << node << " port " << port << ")");
    return PortTx();
}

} // namespace ns3
