/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "fct-attribution.h"
#include "recovery/rdma-go-back-n.h"
#include "recovery/rdma-selective-repeat.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet (IB path MTU: 256..4096; RoCEv2 NICs "
                          "commonly use 1024 or 4096)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RdmaQueuePair::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("AckInterval",
                          "ACK coalescing by count (packets): the receiver acknowledges at "
                          "least every this many in-order packets; always at once for a "
                          "message's last packet, a packet with AckReq, a duplicate and when "
                          "held packets are joined, and a NAK goes at once. Default 10: the "
                          "ACK coalescing count of Google's Falcon transport in its public "
                          "simulator (falcon-transport/isekai, default_config_generator.cc, "
                          "ack_coalescing_thresholds count 10). 1 = every packet, as the "
                          "HPCC-derived simulators do (L2_ACK_INTERVAL 1)",
                          UintegerValue(10),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("AckCoalescingTime",
                          "ACK coalescing by time: an in-order packet is acknowledged at most "
                          "this long after it arrived, even when fewer than AckInterval "
                          "packets follow it (one lazy timer per queue pair, armed only while "
                          "something is un-acknowledged). Default 8 us: the ACK coalescing "
                          "timeout of Google's Falcon transport in its public simulator "
                          "(falcon-transport/isekai, ack_coalescing_thresholds timeout_ns "
                          "8000). 0 = no time bound (count, message ends and AckReq only)",
                          TimeValue(MicroSeconds(8)),
                          MakeTimeAccessor(&RdmaQueuePair::m_ackCoalescingTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RetransmitTimeout",
                          "Local ACK timeout: go back to the oldest unacknowledged PSN when "
                          "nothing was acknowledged for this long. Default 4.096 us x 2^10 "
                          "(IB timeout exponent 10): far above any queueing delay of a "
                          "lossless fabric, so it only fires after a real loss. NCCL sets "
                          "exponent 20 (NCCL_IB_TIMEOUT default): 4.096 us x 2^20 = 4.29 s",
                          TimeValue(NanoSeconds(4194304)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("CnpInterval",
                          "DCQCN notification point: at most one CNP per QP per interval "
                          "(50 us in Zhu et al. 2015)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaQueuePair::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Recovery",
                          "Loss recovery: GoBackN (IBTA RC: out-of-order packets are dropped "
                          "and NAKed, the sender resends from the NAKed PSN) or "
                          "SelectiveRepeat (IRN-like: out-of-order placement, NAK after "
                          "ReorderThreshold later arrivals, only the NAKed PSN is resent). "
                          "Sender and receiver must agree",
                          EnumValue(RdmaQueuePair::GO_BACK_N),
                          MakeEnumAccessor(&RdmaQueuePair::SetRecovery),
                          MakeEnumChecker(RdmaQueuePair::GO_BACK_N,
                                          "GoBackN",
                                          RdmaQueuePair::SELECTIVE_REPEAT,
                                          "SelectiveRepeat"))
            .AddAttribute("ReorderThreshold",
                          "Selective repeat: the receiver NAKs a missing PSN once this many "
                          "later PSNs have arrived (packets). Like TCP's duplicate-ACK "
                          "threshold, but sized for packet spraying, whose reordering depth "
                          "is the queueing difference between paths (tens of packets); 1 = "
                          "NAK at the first out-of-order arrival, as IRN does",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaQueuePair::m_reorderThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1U << 20))
            .AddAttribute("NicEntropy",
                          "Number of UDP source ports a QP's data packets cycle over "
                          "(NIC-driven spraying); 1 = one port per QP (plain RoCEv2)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_nicEntropy),
                          MakeUintegerChecker<uint32_t>(1, 16384))
            .AddAttribute("EntropyBurst",
                          "Packets sent with one entropy value before moving to the next "
                          "(NicEntropy > 1); 1 = per-packet spraying",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_entropyBurst),
                          MakeUintegerChecker<uint32_t>(1, 1U << 20))
            .AddAttribute("MaxRdAtomic",
                          "Outstanding RDMA READ requests a queue pair may have (count; "
                          "ibv_qp_attr.max_rd_atomic of ibv_modify_qp(3)): a READ posted "
                          "while this many are not complete waits, with everything posted "
                          "after it, until one completes. Default 16: max_qp_rd_atom of "
                          "NVIDIA ConnectX (mlx5) adapters as `ibv_devinfo -v` reports it",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaQueuePair::m_maxRdAtomic),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("ReceiveQueueDepth",
                          "Receives (ibv_post_recv work requests) the application keeps "
                          "posted on the queue pair for the SENDs it receives: this many at "
                          "creation, and each one a SEND consumed posted again RecvRepostDelay "
                          "after the message completed. 0 = the application posts its own "
                          "(PostReceives); a SEND that finds none is answered with an RNR NAK. "
                          "Unused by WRITEs. perftest's ib_send_bw keeps 512 posted (its "
                          "--rx-depth default)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_receiveQueueDepth),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RecvRepostDelay",
                          "The receiving application's processing time: a receive a SEND "
                          "consumed is posted again this long after the message completed "
                          "(with ReceiveQueueDepth > 0, or the adapter's shared receive "
                          "queue). 0 = as the completion is polled, as perftest's ib_send_bw "
                          "re-posts",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaQueuePair::m_recvRepostDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RnrRetry",
                          "rnr_retry (ibv_modify_qp(3)): how many times in a row the requester "
                          "resends after an RNR NAK before the queue pair enters the error "
                          "state; 7 = for ever. Default 7, what rdma-core's example programs "
                          "(rc_pingpong: rnr_retry 7) and UCX (RC_RNR_RETRY_COUNT 7) set",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaQueuePair::m_rnrRetry),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("RetryCount",
                          "retry_cnt (ibv_modify_qp(3); IBTA vol. 1 9.7.6.1.3, a 3-bit field): "
                          "how many times in a row the requester resends after a timeout "
                          "without progress; the next timeout, once the stall has lasted "
                          "(RetryCount + 1) x RetryTimeout, puts the queue pair in the error "
                          "state (Error). Default 7, NCCL's "
                          "NCCL_IB_RETRY_CNT default (NCCL's environment variable "
                          "documentation)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaQueuePair::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("RetryTimeout",
                          "The local ACK timeout RetryCount's retries are counted in: a queue "
                          "pair enters the error state once (RetryCount + 1) x RetryTimeout "
                          "passed without progress (and RetryCount + 1 RetransmitTimeouts). "
                          "Default 4.096 us x 2^20 = 4.29 s: NCCL_IB_TIMEOUT's default 20 "
                          "(NCCL's environment variable documentation). Set it to "
                          "RetransmitTimeout for IBTA's rule with the model's timer",
                          TimeValue(NanoSeconds(4096LL << 20)),
                          MakeTimeAccessor(&RdmaQueuePair::m_retryTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRnrTimer",
                          "min_rnr_timer (ibv_modify_qp(3)): the RNR timer code (0..31, IBTA "
                          "vol. 1 table 45: 0 = 655.36 ms, 1 = 0.01 ms .. 31 = 491.52 ms) this "
                          "queue pair's RNR NAKs carry, the time the requester waits before it "
                          "resends. Default 12 (0.64 ms), what rdma-core's rc_pingpong sets",
                          UintegerValue(12),
                          MakeUintegerAccessor(&RdmaQueuePair::m_minRnrTimer),
                          MakeUintegerChecker<uint8_t>(0, 31))
            .AddTraceSource("Error",
                            "The queue pair entered the error state (its RNR retries or "
                            "transport retries (RetryCount) ran out): (queue pair, work "
                            "requests completed in error)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_errorTrace),
                            "ns3::RdmaQueuePair::ErrorTracedCallback")
            .AddTraceSource("RetransmitTimeout",
                            "The retransmission timer fired: (queue pair, the oldest "
                            "unacknowledged PSN, which it resends from)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_timeoutTrace),
                            "ns3::RdmaQueuePair::TimeoutTracedCallback");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_requester(*this),
      m_responder(*this),
      m_mtu(1000),
      m_ackInterval(10),
      m_ackCoalescingTime(MicroSeconds(8)),
      m_rto(NanoSeconds(4194304)),
      m_cnpInterval(MicroSeconds(50)),
      m_recovery(GO_BACK_N),
      m_reorderThreshold(64),
      m_nicEntropy(1),
      m_entropyBurst(1),
      m_maxRdAtomic(16),
      m_receiveQueueDepth(0),
      m_recvRepostDelay(Time(0)),
      m_rnrRetry(7),
      m_retryTimeout(NanoSeconds(4096LL << 20)),
      m_minRnrTimer(12)
{
}

RdmaQueuePair::RdmaQueuePair(const RdmaQueuePair& prototype)
    : Object(prototype),
      m_requester(*this),
      m_responder(*this),
      m_mtu(prototype.m_mtu),
      m_ackInterval(prototype.m_ackInterval),
      m_ackCoalescingTime(prototype.m_ackCoalescingTime),
      m_rto(prototype.m_rto),
      m_cnpInterval(prototype.m_cnpInterval),
      m_recovery(prototype.m_recovery),
      m_reorderThreshold(prototype.m_reorderThreshold),
      m_nicEntropy(prototype.m_nicEntropy),
      m_entropyBurst(prototype.m_entropyBurst),
      m_maxRdAtomic(prototype.m_maxRdAtomic),
      m_receiveQueueDepth(prototype.m_receiveQueueDepth),
      m_recvRepostDelay(prototype.m_recvRepostDelay),
      m_rnrRetry(prototype.m_rnrRetry),
      m_retryCount(prototype.m_retryCount),
      m_retryTimeout(prototype.m_retryTimeout),
      m_minRnrTimer(prototype.m_minRnrTimer)
{
    // What NotifyConstructionCompleted makes of the attributes.
    SetRecovery(m_recovery);
    m_rq = Create<RdmaReceiveQueue>(m_receiveQueueDepth, m_receiveQueueDepth > 0);
}

RdmaQueuePair::~RdmaQueuePair() = default;

Ptr<RdmaQueuePair>
RdmaQueuePair::CreateFromDefaults()
{
    // The prototype and the initial values it was made with (Config::SetDefault replaces
    // an attribute's initial value with a new one: a changed pointer is a changed default).
    static Ptr<RdmaQueuePair> prototype;
    static std::vector<Ptr<const AttributeValue>> madeWith;
    const TypeId tid = GetTypeId();
    bool current = prototype != nullptr;
    for (std::size_t i = 0; current && i < tid.GetAttributeN(); ++i)
    {
        current = tid.GetAttribute(i).initialValue == madeWith[i];
    }
    if (!current)
    {
        prototype = CreateObject<RdmaQueuePair>();
        madeWith.clear();
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            madeWith.push_back(tid.GetAttribute(i).initialValue);
        }
    }
    return CopyObject<RdmaQueuePair>(prototype);
}

void
RdmaQueuePair::SetAttribution(FctAttribution* attribution)
{
    if (attribution != nullptr && attribution != m_attribution)
    {
        m_attributionSlot = attribution->AddQueuePair();
    }
    m_attribution = attribution;
}

RdmaQueuePair::Reply
RdmaQueuePair::ReceiveReadRequest(uint32_t wirePsn, uint64_t dmaLength, bool ceMarked, Time now)
{
    bool respond = false;
    uint64_t firstPsn = 0;
    uint32_t msn = 0;
    Reply r =
        m_responder.ReceiveReadRequest(wirePsn, dmaLength, ceMarked, now, respond, firstPsn, msn);
    if (respond)
    {
        m_requester.QueueReadResponse(firstPsn, dmaLength, msn);
    }
    return r;
}

void
RdmaQueuePair::NotifyConstructionCompleted()
{
    if (!m_recoveryOps)
    {
        SetRecovery(m_recovery);
    }
    if (!m_rq)
    {
        m_rq = Create<RdmaReceiveQueue>(m_receiveQueueDepth, m_receiveQueueDepth > 0);
    }
    Object::NotifyConstructionCompleted();
}

void
RdmaQueuePair::SetRecovery(Recovery recovery)
{
    m_recovery = recovery;
    if (recovery == SELECTIVE_REPEAT)
    {
        m_recoveryOps = CreateObject<RdmaSelectiveRepeat>();
    }
    else
    {
        m_recoveryOps = CreateObject<RdmaGoBackN>();
    }
}

void
RdmaQueuePair::DoDispose()
{
    m_requester.Dispose();
    m_responder.Dispose();
    m_recoveryOps = nullptr;
    m_rq = nullptr;
    m_sendComplete = SendCompleteCallback();
    m_delivered = DeliveredCallback();
    m_wake = WakeCallback();
    m_wakeFunction = nullptr;
    m_ackFunction = nullptr;
    Object::DoDispose();
}

void
RdmaQueuePair::SetIdentity(uint32_t localQpn,
                           uint32_t peerQpn,
                           uint32_t localHost,
                           uint32_t peerHost,
                           uint8_t priority,
                           uint16_t entropy)
{
    m_localQpn = localQpn;
    m_peerQpn = peerQpn;
    m_localHost = localHost;
    m_peerHost = peerHost;
    m_priority = priority;
    m_entropy = entropy;
}

uint32_t
RdmaQueuePair::GetLocalQpn() const
{
    return m_localQpn;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

uint32_t
RdmaQueuePair::GetLocalHost() const
{
    return m_localHost;
}

uint32_t
RdmaQueuePair::GetPeerHost() const
{
    return m_peerHost;
}

uint8_t
RdmaQueuePair::GetPriority() const
{
    return m_priority;
}

uint16_t
RdmaQueuePair::GetEntropy() const
{
    return m_entropy;
}

void
RdmaQueuePair::SetCongestionControl(Ptr<RdmaCongestionControl> cc, const RdmaCcContext& ctx)
{
    m_requester.SetCongestionControl(cc, ctx);
}

Ptr<RdmaCongestionControl>
RdmaQueuePair::GetCongestionControl() const
{
    return m_requester.GetCongestionControl();
}

void
RdmaQueuePair::SetCallbacks(SendCompleteCallback sent,
                            DeliveredCallback delivered,
                            WakeCallback wake)
{
    m_sendComplete = sent;
    m_delivered = delivered;
    m_wake = wake;
}

void
RdmaQueuePair::SetWakeFunction(void (*wake)(void* target, RdmaQueuePair& qp), void* target)
{
    m_wakeFunction = wake;
    m_wakeTarget = target;
}

void
RdmaQueuePair::SetAckFunction(
    void (*ack)(void* target, RdmaQueuePair& qp, uint32_t psn, uint32_t msn),
    void* target)
{
    m_ackFunction = ack;
    m_ackTarget = target;
}

void
RdmaQueuePair::NotifyAckDue(uint32_t psn, uint32_t msn)
{
    if (m_ackFunction != nullptr)
    {
        m_ackFunction(m_ackTarget, *this, psn, msn);
    }
}

void
RdmaQueuePair::NotifyWake()
{
    if (m_wakeFunction != nullptr)
    {
        m_wakeFunction(m_wakeTarget, *this);
    }
    else if (!m_wake.IsNull())
    {
        m_wake(this);
    }
}

void
RdmaQueuePair::NotifySent(const RdmaMessage& message)
{
    if (!m_sendComplete.IsNull())
    {
        m_sendComplete(this, message);
    }
}

void
RdmaQueuePair::NotifyDelivered(uint64_t tag, uint64_t bytes)
{
    if (!m_delivered.IsNull())
    {
        m_delivered(this, tag, bytes);
    }
}

void
RdmaQueuePair::NotifyError(uint64_t messages)
{
    m_errorTrace(this, messages);
}

void
RdmaQueuePair::PostReceives(uint32_t n)
{
    m_rq->Post(n);
}

Ptr<RdmaReceiveQueue>
RdmaQueuePair::GetReceiveQueue() const
{
    return m_rq;
}

void
RdmaQueuePair::SetSharedReceiveQueue(Ptr<RdmaReceiveQueue> srq)
{
    m_rq = srq;
}

RdmaQueuePair::Recovery
RdmaQueuePair::GetRecovery() const
{
    return m_recovery;
}

Ptr<RdmaRecoveryOps>
RdmaQueuePair::GetRecoveryOps() const
{
    return m_recoveryOps;
}

} // namespace ns3
