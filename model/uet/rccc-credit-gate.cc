/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rccc-credit-gate.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-requester.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcccCreditGate");
NS_OBJECT_ENSURE_REGISTERED(RcccCreditGate);

namespace
{
constexpr uint32_t MASK24 = 0xFFFFFF; //!< credit targets and grants travel in 24 bits
} // namespace

TypeId
RcccCreditGate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RcccCreditGate")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<RcccCreditGate>()
            .AddAttribute("SpeculativeBdps",
                          "Credit a new PDC may spend before the receiver answers, in BDPs "
                          "(line rate x base RTT of its path; dimensionless). Default 1.5: "
                          "uet-htsim starts a sender's credit at its maximum window, 1.5 "
                          "BDP (htsim/sim/uec.cpp, UecSrc constructor _credit = _maxwnd "
                          "and initRccc setMaxWnd(1.5 * _bdp)).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&RcccCreditGate::m_speculativeBdps),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("MaxCreditBdps",
                          "Most credit a PDC holds or asks for, in BDPs (dimensionless). "
                          "Default 1.5: uet-htsim caps credit at the configured maximum "
                          "window (htsim/sim/uec.cpp handlePull, computePullTarget).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&RcccCreditGate::m_maxCreditBdps),
                          MakeDoubleChecker<double>(0.01))
            .AddAttribute("Quantum",
                          "Unit of credit targets and grants on the wire (bytes). Default "
                          "256: uet-htsim's pull quantum (htsim/sim/uecpacket.h "
                          "UEC_PULL_QUANTUM).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RcccCreditGate::m_quantum),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

RcccCreditGate::RcccCreditGate()
    : m_speculativeBdps(1.5),
      m_maxCreditBdps(1.5),
      m_quantum(256)
{
}

RcccCreditGate::~RcccCreditGate() = default;

void
RcccCreditGate::Wrap(Ptr<RdmaCongestionControl> inner, const RdmaRequester* r)
{
    m_inner = inner;
    m_requester = r;
}

void
RcccCreditGate::Start(const RdmaCcContext& ctx)
{
    RdmaCongestionControl::Start(ctx);
    const double bdp = ctx.lineRate.GetBitRate() / 8.0 * ctx.baseRtt.GetSeconds();
    m_maxCredit = static_cast<int64_t>(m_maxCreditBdps * bdp);
    m_credit = static_cast<int64_t>(m_speculativeBdps * bdp);
    m_granted = 0;
    m_speculating = true;
    if (m_inner)
    {
        m_inner->SetChangeCallback(MakeCallback(&RcccCreditGate::Refresh, this));
    }
    Refresh();
}

void
RcccCreditGate::Stop()
{
    if (m_inner)
    {
        m_inner->Dispose();
        m_inner = nullptr;
    }
}

void
RcccCreditGate::Refresh()
{
    if (m_inner)
    {
        SetRate(m_inner->GetRate());
    }
    const uint64_t inner = m_inner ? m_inner->GetWindowBytes() : UINT64_MAX;
    const uint64_t outstanding = m_requester ? m_requester->GetOutstandingBytes() : 0;
    // The requester blocks when outstanding + one MTU exceeds the window: with credit
    // left, one more packet may go (uet-htsim: any credit above 0 lets one packet go).
    const uint64_t mtu = GetContext().mtuBytes;
    const uint64_t credit = m_credit > 0 ? outstanding + mtu + m_credit - 1 : outstanding;
    SetWindowBytes(std::min(inner, credit));
}

void
RcccCreditGate::StopSpeculating()
{
    if (m_speculating)
    {
        m_speculating = false;
        m_credit = std::min<int64_t>(m_credit, 0);
    }
}

void
RcccCreditGate::OnPacketSent(uint32_t payloadBytes)
{
    m_credit -= payloadBytes;
    if (m_inner)
    {
        m_inner->OnPacketSent(payloadBytes);
    }
    Refresh();
}

void
RcccCreditGate::OnAck(const RdmaAckSample& sample)
{
    StopSpeculating();
    if (m_inner)
    {
        m_inner->OnAck(sample);
    }
    Refresh();
}

void
RcccCreditGate::OnCnp()
{
    if (m_inner)
    {
        m_inner->OnCnp();
    }
    Refresh();
}

void
RcccCreditGate::OnNack()
{
    StopSpeculating();
    if (m_inner)
    {
        m_inner->OnNack();
    }
    Refresh();
}

void
RcccCreditGate::OnLossNack()
{
    StopSpeculating();
    if (m_inner)
    {
        m_inner->OnLossNack();
    }
    Refresh();
}

void
RcccCreditGate::OnTimeout()
{
    if (m_inner)
    {
        m_inner->OnTimeout();
    }
    Refresh();
}

bool
RcccCreditGate::MayResend() const
{
    // uet-htsim sendIfPermitted: no packet, new or resent, without credit above 0.
    return m_credit > 0;
}

void
RcccCreditGate::ReceiveCredit(uint32_t granted)
{
    StopSpeculating(); // (before the grant: uet-htsim processPull)
    const uint32_t delta = (granted - m_granted) & MASK24;
    if (delta == 0 || delta > (MASK24 >> 1))
    {
        Refresh();
        return; // an old grant, overtaken by a later one
    }
    const bool had = m_credit > 0;
    m_granted = granted & MASK24;
    m_credit = std::min<int64_t>(m_credit + static_cast<int64_t>(delta) * m_quantum, m_maxCredit);
    NS_LOG_LOGIC("credit " << m_credit << " (granted " << m_granted << ")");
    Refresh();
    if (!had && m_credit > 0)
    {
        NotifyChange(); // (the window may be NSCC's, unchanged: a resend may go now)
    }
}

uint32_t
RcccCreditGate::GetCreditTarget() const
{
    // uet-htsim computePullTarget: what is left to send (resends included), at most the
    // largest credit, less the credit held; while speculating with data left, at least
    // one MTU.
    const int64_t backlog =
        m_requester ? static_cast<int64_t>(m_requester->GetBacklogBytes()) : int64_t{0};
    int64_t want = std::min(backlog, m_maxCredit) - m_credit;
    const auto mtu = static_cast<int64_t>(GetContext().mtuBytes);
    if (m_speculating && want < mtu && backlog > 0)
    {
        want = mtu;
    }
    const uint32_t quanta =
        want > 0 ? static_cast<uint32_t>((want + m_quantum - 1) / m_quantum) : 0;
    return (m_granted + quanta) & MASK24;
}

int64_t
RcccCreditGate::GetCredit() const
{
    return m_credit;
}

bool
RcccCreditGate::IsSpeculating() const
{
    return m_speculating;
}

uint32_t
RcccCreditGate::GetQuantum() const
{
    return m_quantum;
}

std::string
RcccCreditGate::GetName() const
{
    return m_inner ? m_inner->GetName() : std::string("none");
}

Ptr<RdmaCongestionControl>
RcccCreditGate::Fork() const
{
    Ptr<RcccCreditGate> g = CreateObject<RcccCreditGate>();
    g->m_speculativeBdps = m_speculativeBdps;
    g->m_maxCreditBdps = m_maxCreditBdps;
    g->m_quantum = m_quantum;
    return g;
}

} // namespace ns3
