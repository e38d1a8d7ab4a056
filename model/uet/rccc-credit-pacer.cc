/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rccc-credit-pacer.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcccCreditPacer");
NS_OBJECT_ENSURE_REGISTERED(RcccCreditPacer);

namespace
{
constexpr uint32_t MASK24 = 0xFFFFFF; //!< credit targets and grants travel in 24 bits
/// Time between grants when a grant gives nothing (bytes at the pacing rate):
/// uet-htsim UecPullPacer::doNextEvent's 1024 bytes.
constexpr uint32_t IDLE_GAP_BYTES = 1024;
} // namespace

TypeId
RcccCreditPacer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RcccCreditPacer")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RcccCreditPacer>()
            .AddAttribute("GrantMtus",
                          "Credit one CREDIT packet grants, in MTUs of payload (count). "
                          "Default 4: uet-htsim htsim/sim/uec.cpp (UecSink::_mtus_per_pull).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RcccCreditPacer::m_grantMtus),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("RateFraction",
                          "Rate the receiver grants credit at, as a fraction of its line "
                          "rate (dimensionless): just below line rate, so that its link "
                          "queue drains. Default 0.99: uet-htsim "
                          "htsim/sim/datacenter/main_uec.cpp (UecPullPacer(linkspeed, "
                          "0.99, ...)).",
                          DoubleValue(0.99),
                          MakeDoubleAccessor(&RcccCreditPacer::m_rateFraction),
                          MakeDoubleChecker<double>(0.01, 10));
    return tid;
}

RcccCreditPacer::RcccCreditPacer()
    : m_grantMtus(4),
      m_rateFraction(0.99)
{
}

RcccCreditPacer::~RcccCreditPacer() = default;

void
RcccCreditPacer::DoDispose()
{
    m_event.Cancel();
    m_send = SendCallback();
    Object::DoDispose();
}

void
RcccCreditPacer::Configure(DataRate rate, uint32_t mtu, uint32_t quantum, SendCallback send)
{
    m_rate = rate;
    m_mtu = mtu;
    m_quantum = quantum;
    m_send = send;
}

void
RcccCreditPacer::Reset(uint32_t slot)
{
    if (slot >= m_demand.size())
    {
        m_demand.resize(slot + 1);
    }
    const bool queued = m_demand[slot].queued;
    m_demand[slot] = Demand{};
    m_demand[slot].queued = queued; // (its entry in m_active finds nothing to grant)
}

void
RcccCreditPacer::OnCreditTarget(uint32_t slot, uint32_t target)
{
    if (slot >= m_demand.size())
    {
        m_demand.resize(slot + 1);
    }
    Demand& d = m_demand[slot];
    const uint32_t ahead = (target - d.target) & MASK24;
    if (ahead == 0 || ahead > (MASK24 >> 1))
    {
        return; // not above the highest target seen (uet-htsim handlePullTarget)
    }
    d.target = target & MASK24;
    if (!d.queued && d.target != d.granted)
    {
        d.queued = true;
        m_active.push_back(slot);
        if (!m_event.IsRunning())
        {
            m_event = Simulator::ScheduleNow(&RcccCreditPacer::Grant, this);
        }
    }
}

void
RcccCreditPacer::Grant()
{
    if (m_active.empty())
    {
        return;
    }
    const uint32_t slot = m_active.front();
    m_active.pop_front();
    Demand& d = m_demand[slot];
    const uint32_t want = (d.target - d.granted) & MASK24;
    const uint32_t perGrant = std::max<uint32_t>(1, m_grantMtus * m_mtu / m_quantum);
    const uint32_t grant = want > (MASK24 >> 1) ? 0 : std::min(want, perGrant);
    if (grant != 0)
    {
        d.granted = (d.granted + grant) & MASK24;
        m_creditsSent++;
        m_send(slot, d.granted);
    }
    if (d.granted != d.target && grant != 0)
    {
        m_active.push_back(slot);
    }
    else
    {
        d.queued = false;
    }
    // The next grant waits this one's time even if none is due yet (a target arriving
    // meanwhile is granted then, not at once).
    if (grant != 0 || !m_active.empty())
    {
        const uint64_t bytes = grant != 0 ? uint64_t{grant} * m_quantum : IDLE_GAP_BYTES;
        const double bps = m_rate.GetBitRate() * m_rateFraction;
        m_event = Simulator::Schedule(Seconds(bytes * 8.0 / bps), &RcccCreditPacer::Grant, this);
    }
}

uint64_t
RcccCreditPacer::GetCreditsSent() const
{
    return m_creditsSent;
}

} // namespace ns3
