/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "alpha-beta-collective-transport.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AlphaBetaCollectiveTransport");

NS_OBJECT_ENSURE_REGISTERED(AlphaBetaCollectiveTransport);

TypeId
AlphaBetaCollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AlphaBetaCollectiveTransport")
            .SetParent<CollectiveTransport>()
            .SetGroupName("AiFabric")
            .AddConstructor<AlphaBetaCollectiveTransport>()
            .AddAttribute("NRanks",
                          "Number of ranks (hosts) connected.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&AlphaBetaCollectiveTransport::m_nRanks),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Bandwidth",
                          "B: rate of each rank's send and receive side (a 100 Gb/s NIC by "
                          "default).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&AlphaBetaCollectiveTransport::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("Alpha",
                          "alpha: per-message latency added after the last byte left (a few "
                          "microseconds is typical of one RDMA write through a small fabric).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&AlphaBetaCollectiveTransport::m_alpha),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CoupledSides",
                          "true: a message waits until the sender's send side and the "
                          "receiver's receive side are both free and holds both (no buffering "
                          "in the fabric). false: the sender transmits as soon as its send "
                          "side is free and the fabric buffers the bytes until the receive "
                          "side takes them.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AlphaBetaCollectiveTransport::m_coupled),
                          MakeBooleanChecker());
    return tid;
}

AlphaBetaCollectiveTransport::AlphaBetaCollectiveTransport()
    : m_nRanks(8),
      m_rate("100Gbps"),
      m_alpha(MicroSeconds(2)),
      m_coupled(true)
{
}

AlphaBetaCollectiveTransport::~AlphaBetaCollectiveTransport() = default;

uint32_t
AlphaBetaCollectiveTransport::GetNRanks() const
{
    return m_nRanks;
}

void
AlphaBetaCollectiveTransport::EnsureSized()
{
    if (m_rankBps.size() != m_nRanks)
    {
        m_rankBps.resize(m_nRanks, 0);
        m_sendFreeNs.resize(m_nRanks, 0);
        m_recvFreeNs.resize(m_nRanks, 0);
    }
}

void
AlphaBetaCollectiveTransport::SetRankBandwidth(uint32_t rank, DataRate rate)
{
    NS_ABORT_MSG_IF(rank >= m_nRanks,
                    "SetRankBandwidth: rank " << rank << " out of range; NRanks is " << m_nRanks);
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "SetRankBandwidth: rank " << rank << " rate 0");
    EnsureSized();
    m_rankBps[rank] = rate.GetBitRate();
}

DataRate
AlphaBetaCollectiveTransport::GetRankBandwidth(uint32_t rank) const
{
    if (rank < m_rankBps.size() && m_rankBps[rank] != 0)
    {
        return DataRate(m_rankBps[rank]);
    }
    return m_rate;
}

void
AlphaBetaCollectiveTransport::Send(uint32_t srcRank,
                                   uint32_t dstRank,
                                   uint64_t bytes,
                                   uint64_t tag,
                                   uint32_t /* channel: one port per rank, whatever the channel */)
{
    NS_LOG_FUNCTION(this << srcRank << dstRank << bytes << tag);
    NS_ABORT_MSG_IF(srcRank >= m_nRanks || dstRank >= m_nRanks || srcRank == dstRank,
                    "AlphaBetaCollectiveTransport::Send " << srcRank << " -> " << dstRank
                                                          << ": ranks must differ and be below "
                                                          << m_nRanks);
    NS_ABORT_MSG_IF(m_rate.GetBitRate() == 0, "AlphaBetaCollectiveTransport: Bandwidth is 0");
    EnsureSized();
    uint64_t bps =
        std::min(GetRankBandwidth(srcRank).GetBitRate(), GetRankBandwidth(dstRank).GetBitRate());
    // ceil(bytes * 8 * 1e9 / bps) in integer arithmetic, so closed forms come out exact
    using u128 = unsigned __int128;
    u128 num = static_cast<u128>(bytes) * 8 * 1000000000ULL;
    int64_t txNs = static_cast<int64_t>((num + bps - 1) / bps);
    int64_t now = Simulator::Now().GetNanoSeconds();
    int64_t end;
    if (m_coupled)
    {
        int64_t start = std::max({now, m_sendFreeNs[srcRank], m_recvFreeNs[dstRank]});
        end = start + txNs;
        m_sendFreeNs[srcRank] = end;
        m_recvFreeNs[dstRank] = end;
    }
    else
    {
        // the fabric buffers: the sender is not held up by a busy receiver
        int64_t sendStart = std::max(now, m_sendFreeNs[srcRank]);
        int64_t sendEnd = sendStart + txNs;
        int64_t recvStart = std::max(sendStart, m_recvFreeNs[dstRank]);
        end = std::max(sendEnd, recvStart + txNs);
        m_sendFreeNs[srcRank] = sendEnd;
        m_recvFreeNs[dstRank] = end;
    }
    m_messages++;
    m_bytes += bytes;
    Simulator::Schedule(NanoSeconds(end - now) + m_alpha,
                        &AlphaBetaCollectiveTransport::Deliver,
                        this,
                        srcRank,
                        dstRank,
                        tag,
                        bytes);
}

void
AlphaBetaCollectiveTransport::Deliver(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    NotifyDelivered(src, dst, tag, bytes);
    Simulator::Schedule(m_alpha,
                        &AlphaBetaCollectiveTransport::Acknowledge,
                        this,
                        src,
                        dst,
                        tag,
                        bytes);
}

void
AlphaBetaCollectiveTransport::Acknowledge(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    NotifySent(src, dst, tag, bytes);
}

uint64_t
AlphaBetaCollectiveTransport::GetMessages() const
{
    return m_messages;
}

uint64_t
AlphaBetaCollectiveTransport::GetBytesSent() const
{
    return m_bytes;
}

} // namespace ns3
