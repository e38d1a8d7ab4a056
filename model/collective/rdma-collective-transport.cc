/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-collective-transport.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCollectiveTransport");

NS_OBJECT_ENSURE_REGISTERED(RdmaCollectiveTransport);

namespace
{
std::string
ToHex(uint64_t v)
{
    std::ostringstream os;
    os << std::hex << v;
    return os.str();
}
} // namespace

TypeId
RdmaCollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCollectiveTransport")
            .SetParent<CollectiveTransport>()
            .SetGroupName("AiFabric")
            .AddConstructor<RdmaCollectiveTransport>()
            .AddAttribute("TagSpace",
                          "Top 8 bits of the tags this transport accepts; must equal the "
                          "CollectiveApplication's TagSpace. Default 0xC0, chosen to differ "
                          "from tag 0 that the runner's point-to-point workloads post.",
                          UintegerValue(0xC0),
                          MakeUintegerAccessor(&RdmaCollectiveTransport::m_tagSpace),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("Verb",
                          "The verb of each collective message (chunk): Write (an RDMA WRITE "
                          "with immediate, NCCL's net transport) or Send (a SEND with "
                          "immediate, consuming a receive the peer posted; RNR NAK without "
                          "one: RdmaQueuePair ReceiveQueueDepth, RecvRepostDelay)",
                          EnumValue(RdmaCollectiveTransport::VERB_WRITE),
                          MakeEnumAccessor(&RdmaCollectiveTransport::m_verb),
                          MakeEnumChecker(RdmaCollectiveTransport::VERB_WRITE,
                                          "Write",
                                          RdmaCollectiveTransport::VERB_SEND,
                                          "Send"))
            .AddAttribute("MatchInAdvance",
                          "Post every receive of an operation, and take its message ids, when "
                          "it starts (in transfer order), instead of each receive as its "
                          "message is posted: what a run across MPI ranks needs, where the "
                          "receiver's rank does not see when another rank posts. Each "
                          "connection then sends in transfer order (CollectiveAlgorithm "
                          "holds a ready transfer behind the earlier ones of its connection; "
                          "Send checks), the operation's connections are made at its start "
                          "and its message ids follow transfer order. Default false; the "
                          "scenario runner's collective workload sets it when no background "
                          "traffic or flow file shares its connections.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaCollectiveTransport::m_matchInAdvance),
                          MakeBooleanChecker())
            .AddAttribute("QpsPerConnection",
                          "RC queue pairs of each channel's connection to a peer "
                          "(NCCL_IB_QPS_PER_CONNECTION): QP q of channel c is the fabric's "
                          "connection c + q x 64 between the two hosts, with its own UDP "
                          "source port on RoCEv2 (more ECMP entropy). Messages go round-robin "
                          "over them, or each is cut over all of them (SplitDataOnQps), as "
                          "NCCL's net_ib does (src/transport/net_ib/p2p.cc, common.h). "
                          "Default 1: NCCL 2.30.7's default (src/transport/net_ib/connect.cc).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaCollectiveTransport::m_qpsPerConnection),
                          MakeUintegerChecker<uint32_t>(1, MAX_QPS_PER_CONNECTION))
            .AddAttribute("SplitDataOnQps",
                          "With QpsPerConnection > 1: false = each message on one QP, the "
                          "connection's k-th message on QP k mod QpsPerConnection; true = each "
                          "message cut into QpsPerConnection parts of ceil(ceil(bytes / Q) / "
                          "128) x 128 bytes (the last shorter, possibly empty), one per QP, "
                          "delivered when all are (NCCL_IB_SPLIT_DATA_ON_QPS, "
                          "ncclIbMultiSend). Default false: NCCL 2.30.7's default "
                          "(src/transport/net_ib/common.cc).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaCollectiveTransport::m_splitDataOnQps),
                          MakeBooleanChecker());
    return tid;
}

RdmaCollectiveTransport::RdmaCollectiveTransport()
    : m_tagSpace(0xC0),
      m_verb(VERB_WRITE),
      m_matchInAdvance(false),
      m_qpsPerConnection(1),
      m_splitDataOnQps(false)
{
}

RdmaCollectiveTransport::~RdmaCollectiveTransport() = default;

void
RdmaCollectiveTransport::DoDispose()
{
    // The fabric keeps its listeners; with m_fabric cleared they ignore everything.
    m_fabric = nullptr;
    m_hostOf.clear();
    m_rankOf.clear();
    m_zeroByte.clear();
    m_idBase.clear();
    m_expected.clear();
    m_nextQp.clear();
    m_nextExpectQp.clear();
    m_split.clear();
    CollectiveTransport::DoDispose();
}

void
RdmaCollectiveTransport::Attach(Ptr<RdmaFabric> fabric, const Communicator& comm)
{
    Attach(fabric, comm.GetHosts());
}

void
RdmaCollectiveTransport::Attach(Ptr<RdmaFabric> fabric, const std::vector<uint32_t>& hosts)
{
    if (!fabric)
    {
        throw std::invalid_argument("RdmaCollectiveTransport::Attach: null fabric");
    }
    if (m_fabric)
    {
        throw std::invalid_argument("RdmaCollectiveTransport::Attach: already attached");
    }
    uint32_t nHosts = fabric->GetNHosts();
    std::vector<uint32_t> hostOf = hosts;
    if (hostOf.empty())
    {
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            hostOf.push_back(h);
        }
    }
    std::vector<int64_t> rankOf(nHosts, -1);
    for (uint32_t r = 0; r < hostOf.size(); ++r)
    {
        uint32_t h = hostOf[r];
        if (h >= nHosts)
        {
            throw std::invalid_argument("collective rank " + std::to_string(r) + " on host " +
                                        std::to_string(h) + ": the fabric has hosts 0.." +
                                        std::to_string(nHosts - 1));
        }
        if (rankOf[h] >= 0)
        {
            throw std::invalid_argument("collective ranks " + std::to_string(rankOf[h]) + " and " +
                                        std::to_string(r) + " both on host " + std::to_string(h) +
                                        "; each host holds at most one rank");
        }
        rankOf[h] = r;
    }
    m_fabric = PeekPointer(fabric);
    m_hostOf = std::move(hostOf);
    m_rankOf = std::move(rankOf);
    // The listeners hold a reference to this transport; DoDispose makes them inert.
    Ptr<RdmaCollectiveTransport> self(this);
    fabric->AddDeliveredCallback(MakeCallback(&RdmaCollectiveTransport::OnFabricDelivered, self));
    fabric->AddMessageCallback(MakeCallback(&RdmaCollectiveTransport::OnFabricMessage, self));
}

uint32_t
RdmaCollectiveTransport::GetNRanks() const
{
    return static_cast<uint32_t>(m_hostOf.size());
}

Ptr<RdmaFabric>
RdmaCollectiveTransport::GetFabric() const
{
    return Ptr<RdmaFabric>(m_fabric);
}

uint32_t
RdmaCollectiveTransport::GetHost(uint32_t rank) const
{
    return m_hostOf.at(rank);
}

uint8_t
RdmaCollectiveTransport::GetTagSpace() const
{
    return m_tagSpace;
}

uint64_t
RdmaCollectiveTransport::GetPendingMessages() const
{
    return m_posted - m_acked;
}

void
RdmaCollectiveTransport::Send(uint32_t srcRank,
                              uint32_t dstRank,
                              uint64_t bytes,
                              uint64_t tag,
                              uint32_t channel)
{
    if (m_aborted)
    {
        return; // the communicator is gone
    }
    NS_ABORT_MSG_IF(!m_fabric, "RdmaCollectiveTransport::Send before Attach");
    NS_ABORT_MSG_IF(srcRank >= m_hostOf.size() || dstRank >= m_hostOf.size() || srcRank == dstRank,
                    "collective message rank " << srcRank << " -> " << dstRank
                                               << " invalid (ranks 0.." << m_hostOf.size() - 1
                                               << ", distinct)");
    NS_ABORT_MSG_IF(static_cast<uint8_t>(tag >> 56) != m_tagSpace,
                    "collective tag space " << (tag >> 56) << " differs from the transport's "
                                            << unsigned(m_tagSpace)
                                            << " (set both TagSpace attributes alike)");
    if (m_matchInAdvance)
    {
        // the connection's receiver posted its receives in transfer order
        auto q = m_expected.find(ConnectionKey(srcRank, dstRank, channel));
        const uint64_t first =
            q == m_expected.end() || q->second.empty() ? UINT64_MAX : q->second.front();
        NS_ABORT_MSG_IF(first != tag,
                        "collective message tag 0x"
                            << std::hex << tag << " posted on rank " << std::dec << srcRank
                            << " -> " << dstRank << " channel " << channel
                            << (first == UINT64_MAX
                                    ? std::string(", which no receive expects")
                                    : ", whose receiver expects tag 0x" + ToHex(first) + " first")
                            << ": receives matched in advance (MatchInAdvance) need each "
                               "connection to send in transfer order");
        q->second.pop_front();
    }
    if (Split())
    {
        SendSplit(srcRank, dstRank, bytes, tag, channel);
        return;
    }
    uint64_t wire = bytes;
    if (bytes == 0)
    {
        // A 1-byte WRITE carries the synchronisation; both completions report 0.
        wire = 1;
        m_zeroByte[tag] = 2;
    }
    m_posted++;
    // the connection's next QP (round-robin; QP 0 alone by default)
    const uint32_t connection =
        channel + NextQp(m_nextQp, srcRank, dstRank, channel) * CollectiveAlgorithm::MAX_CHANNELS;
    if (m_matchInAdvance)
    {
        auto base = m_idBase.find(tag & ~0xffffffffULL);
        NS_ABORT_MSG_IF(base == m_idBase.end(), "collective message without BeginOperation");
        m_idsUsed++;
        m_fabric->PostPrematched(m_hostOf[srcRank],
                                 m_hostOf[dstRank],
                                 wire,
                                 tag,
                                 KIND_COLLECTIVE,
                                 connection,
                                 base->second + (tag & 0xffffffffULL),
                                 m_verb == VERB_SEND);
        return;
    }
    Post(srcRank, dstRank, wire, tag, connection);
}

bool
RdmaCollectiveTransport::CanSkip(uint64_t bytes) const
{
    return m_fabric && bytes > 0 && !m_matchInAdvance && !Split();
}

void
RdmaCollectiveTransport::SendSkipped(uint32_t srcRank,
                                     uint32_t dstRank,
                                     uint64_t bytes,
                                     uint64_t tag,
                                     Time delivered,
                                     Time acked)
{
    if (m_aborted)
    {
        return; // the communicator is gone
    }
    NS_ABORT_MSG_IF(!CanSkip(bytes) || srcRank >= m_hostOf.size() || dstRank >= m_hostOf.size() ||
                        srcRank == dstRank,
                    "collective message rank " << srcRank << " -> " << dstRank << " of " << bytes
                                               << " bytes cannot be skipped");
    m_posted++;
    m_fabric->PostSkipped(m_hostOf[srcRank],
                          m_hostOf[dstRank],
                          bytes,
                          tag,
                          KIND_COLLECTIVE,
                          delivered,
                          acked);
}

void
RdmaCollectiveTransport::Post(uint32_t srcRank,
                              uint32_t dstRank,
                              uint64_t wire,
                              uint64_t tag,
                              uint32_t connection)
{
    // one RC connection per channel (and QP) and peer, as NCCL's net transport opens
    if (m_verb == VERB_SEND)
    {
        m_fabric->PostSend(m_hostOf[srcRank],
                           m_hostOf[dstRank],
                           wire,
                           tag,
                           KIND_COLLECTIVE,
                           connection);
    }
    else
    {
        m_fabric->PostWrite(m_hostOf[srcRank],
                            m_hostOf[dstRank],
                            wire,
                            tag,
                            KIND_COLLECTIVE,
                            connection);
    }
}

bool
RdmaCollectiveTransport::Split() const
{
    return m_splitDataOnQps && m_qpsPerConnection > 1;
}

uint32_t
RdmaCollectiveTransport::NextQp(std::unordered_map<uint64_t, uint32_t>& next,
                                uint32_t src,
                                uint32_t dst,
                                uint32_t channel)
{
    if (m_qpsPerConnection == 1)
    {
        return 0;
    }
    uint32_t& k = next[ConnectionKey(src, dst, channel)];
    const uint32_t q = k;
    k = (k + 1) % m_qpsPerConnection;
    return q;
}

void
RdmaCollectiveTransport::SendSplit(uint32_t srcRank,
                                   uint32_t dstRank,
                                   uint64_t bytes,
                                   uint64_t tag,
                                   uint32_t channel)
{
    // ncclIbMultiSend: every QP's part is ceil(ceil(bytes / Q) / 128) x 128 bytes until the
    // message runs out; an empty part still posts its work request (a 1-byte WRITE here)
    const uint64_t q = m_qpsPerConnection;
    const uint64_t part = ((bytes + q - 1) / q + 127) / 128 * 128;
    m_split[tag] = {m_qpsPerConnection, m_qpsPerConnection, bytes};
    m_posted++;
    uint64_t left = bytes;
    for (uint32_t i = 0; i < m_qpsPerConnection; ++i)
    {
        const uint64_t len = std::min(left, part);
        left -= len;
        const uint32_t connection = channel + i * CollectiveAlgorithm::MAX_CHANNELS;
        const uint64_t wire = std::max<uint64_t>(len, 1);
        if (m_matchInAdvance)
        {
            auto base = m_idBase.find(tag & ~0xffffffffULL);
            NS_ABORT_MSG_IF(base == m_idBase.end(), "collective message without BeginOperation");
            m_idsUsed++;
            m_fabric->PostPrematched(m_hostOf[srcRank],
                                     m_hostOf[dstRank],
                                     wire,
                                     tag,
                                     KIND_COLLECTIVE,
                                     connection,
                                     base->second + (tag & 0xffffffffULL) * q + i,
                                     m_verb == VERB_SEND);
        }
        else
        {
            Post(srcRank, dstRank, wire, tag, connection);
        }
    }
}

uint64_t
RdmaCollectiveTransport::ConnectionKey(uint32_t src, uint32_t dst, uint32_t channel) const
{
    const uint64_t n = m_hostOf.size();
    return (static_cast<uint64_t>(src) * n + dst) * CollectiveAlgorithm::MAX_CHANNELS + channel;
}

void
RdmaCollectiveTransport::BeginOperation(uint64_t tagBase, uint32_t nTransfers)
{
    NS_ABORT_MSG_IF(!m_fabric, "RdmaCollectiveTransport::BeginOperation before Attach");
    if (!m_matchInAdvance || m_aborted)
    {
        return;
    }
    // with SplitDataOnQps each transfer is one message per QP
    const uint64_t ids = static_cast<uint64_t>(nTransfers) * (Split() ? m_qpsPerConnection : 1);
    m_idBase[tagBase] = m_fabric->ReserveMessageIds(ids);
    m_idsTaken += ids;
}

void
RdmaCollectiveTransport::ForgoMessageIds(uint64_t n)
{
    m_idsUsed += n;
    m_fabric->ForgoMessageIds(n);
}

void
RdmaCollectiveTransport::Abort()
{
    if (m_aborted || !m_fabric)
    {
        return;
    }
    m_aborted = true;
    // (Across MPI ranks every rank takes every id and posts only its own hosts'; the
    // ranks' jobs are not aborted there.)
    ForgoMessageIds(m_idsTaken - m_idsUsed);
}

void
RdmaCollectiveTransport::AbandonOperation(uint64_t tagBase, uint32_t nTransfers)
{
    if (!m_matchInAdvance || m_aborted || m_idBase.erase(tagBase) == 0)
    {
        return; // (after Abort, every id not posted is given back already)
    }
    ForgoMessageIds(static_cast<uint64_t>(nTransfers) * (Split() ? m_qpsPerConnection : 1));
}

void
RdmaCollectiveTransport::CheckPeers(uint32_t srcRank, uint32_t dstRank, uint32_t channel) const
{
    NS_ABORT_MSG_IF(srcRank >= m_hostOf.size() || dstRank >= m_hostOf.size() || srcRank == dstRank,
                    "collective message rank " << srcRank << " -> " << dstRank
                                               << " invalid (ranks 0.." << m_hostOf.size() - 1
                                               << ", distinct)");
    NS_ABORT_MSG_IF(channel >= CollectiveAlgorithm::MAX_CHANNELS,
                    "collective channel " << channel << " (allowed 0.."
                                          << CollectiveAlgorithm::MAX_CHANNELS - 1 << ")");
}

void
RdmaCollectiveTransport::ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel)
{
    NS_ABORT_MSG_IF(!m_fabric, "RdmaCollectiveTransport::ExpectConnection before Attach");
    if (!m_matchInAdvance)
    {
        return;
    }
    CheckPeers(srcRank, dstRank, channel);
    for (uint32_t q = 0; q < m_qpsPerConnection; ++q)
    {
        m_fabric->OpenConnection(m_hostOf[srcRank],
                                 m_hostOf[dstRank],
                                 channel + q * CollectiveAlgorithm::MAX_CHANNELS);
    }
}

void
RdmaCollectiveTransport::Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel)
{
    if (!m_matchInAdvance)
    {
        return;
    }
    CheckPeers(srcRank, dstRank, channel);
    if (Split())
    {
        for (uint32_t q = 0; q < m_qpsPerConnection; ++q)
        {
            m_fabric->PostReceive(m_hostOf[srcRank],
                                  m_hostOf[dstRank],
                                  tag,
                                  channel + q * CollectiveAlgorithm::MAX_CHANNELS);
        }
    }
    else
    {
        // the QP this connection's next message goes on (Send's round-robin)
        const uint32_t q = NextQp(m_nextExpectQp, srcRank, dstRank, channel);
        m_fabric->PostReceive(m_hostOf[srcRank],
                              m_hostOf[dstRank],
                              tag,
                              channel + q * CollectiveAlgorithm::MAX_CHANNELS);
    }
    if (IsLocal(srcRank))
    {
        m_expected[ConnectionKey(srcRank, dstRank, channel)].push_back(tag);
    }
}

bool
RdmaCollectiveTransport::NeedsTransferOrder() const
{
    return m_matchInAdvance;
}

bool
RdmaCollectiveTransport::IsLocal(uint32_t rank) const
{
    return !m_fabric || m_fabric->IsLocalHost(m_hostOf.at(rank));
}

bool
RdmaCollectiveTransport::RankOf(uint32_t host, uint32_t& rank) const
{
    if (host >= m_rankOf.size() || m_rankOf[host] < 0)
    {
        return false;
    }
    rank = static_cast<uint32_t>(m_rankOf[host]);
    return true;
}

uint64_t
RdmaCollectiveTransport::ReportedBytes(uint64_t tag, uint64_t bytes)
{
    if (bytes != 1 || m_zeroByte.empty())
    {
        return bytes;
    }
    auto it = m_zeroByte.find(tag);
    if (it == m_zeroByte.end())
    {
        return bytes;
    }
    if (--it->second == 0)
    {
        m_zeroByte.erase(it);
    }
    return 0;
}

void
RdmaCollectiveTransport::OnFabricDelivered(uint32_t srcHost,
                                           uint32_t dstHost,
                                           uint64_t tag,
                                           uint64_t bytes)
{
    uint32_t src = 0;
    uint32_t dst = 0;
    if (!m_fabric || static_cast<uint8_t>(tag >> 56) != m_tagSpace || !RankOf(srcHost, src) ||
        !RankOf(dstHost, dst))
    {
        return;
    }
    if (!m_split.empty())
    {
        auto it = m_split.find(tag);
        if (it != m_split.end())
        {
            // a part: the message is delivered with its last part
            if (--it->second.deliveries > 0)
            {
                return;
            }
            bytes = it->second.bytes;
            if (it->second.acks == 0)
            {
                m_split.erase(it);
            }
            NotifyDelivered(src, dst, tag, bytes);
            return;
        }
    }
    NotifyDelivered(src, dst, tag, ReportedBytes(tag, bytes));
}

void
RdmaCollectiveTransport::OnFabricMessage(const RdmaFabric::MessageRecord& r)
{
    uint32_t src = 0;
    uint32_t dst = 0;
    if (!m_fabric || r.kind != KIND_COLLECTIVE || static_cast<uint8_t>(r.tag >> 56) != m_tagSpace ||
        !RankOf(r.src, src) || !RankOf(r.dst, dst))
    {
        return;
    }
    if (!m_split.empty())
    {
        auto it = m_split.find(r.tag);
        if (it != m_split.end())
        {
            // a part: the sender completes with the last part's acknowledgement
            if (--it->second.acks > 0)
            {
                return;
            }
            const uint64_t bytes = it->second.bytes;
            if (it->second.deliveries == 0)
            {
                m_split.erase(it);
            }
            m_acked++;
            NotifySent(src, dst, r.tag, bytes);
            return;
        }
    }
    m_acked++;
    NotifySent(src, dst, r.tag, ReportedBytes(r.tag, r.bytes));
}

} // namespace ns3
