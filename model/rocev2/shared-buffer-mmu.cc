/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shared-buffer-mmu.h"

#include "pfc-headroom.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharedBufferMmu");

NS_OBJECT_ENSURE_REGISTERED(SharedBufferMmu);

TypeId
SharedBufferMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SharedBufferMmu")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<SharedBufferMmu>()
            .AddAttribute("BufferSize",
                          "Total packet buffer of the switch (bytes). Default 32 MiB: the "
                          "HPCC-derived simulators' default; Tomahawk-class ASICs have 16-64 MB.",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReservedBytesPerPg",
                          "Guaranteed bytes per (ingress port, priority group), charged before "
                          "the shared pool (bytes). Default 4 KiB, the per-port-queue reserve "
                          "of the HPCC-derived simulators' switch MMU.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&SharedBufferMmu::m_reservedPerPg),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LosslessAlpha",
                          "Dynamic-threshold alpha of lossless ingress PGs: a PG may hold "
                          "alpha x (free shared bytes) of the shared pool (dimensionless). "
                          "Default 1/8: HPCC-derived simulators (pfc_a_shift = 3); SONiC "
                          "expresses it as dynamic_th = log2(alpha).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SharedBufferMmu::m_losslessAlpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 1024))
            .AddAttribute("LossyAlpha",
                          "Dynamic-threshold alpha of lossy egress queues: a lossy packet is "
                          "dropped when its egress queue would exceed alpha x (free shared "
                          "bytes) (dimensionless). Default 1, the classic Choudhury-Hahne value; "
                          "vendor templates vary.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SharedBufferMmu::m_lossyAlpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 1024))
            .AddAttribute("XonOffsetBytes",
                          "XON hysteresis: resume when a paused PG's shared usage is at most "
                          "T - offset (bytes). 0 selects 2 x MTU (the MTU given to Configure), "
                          "close to SONiC's xon_offset values.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_xonOffsetAttr),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeadroomBytes",
                          "Headroom per lossless (port, PG) (bytes). 0 computes it per port "
                          "with PfcHeadroom::Compute from the port's rate, cable delay and MTU.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_headroomOverride),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AllowLossyHeadroom",
                          "Accept a HeadroomBytes below what a port's round trip needs "
                          "(PfcHeadroom::Compute); otherwise Configure refuses it, naming the "
                          "minimum. True breaks lossless on purpose: drops in lossless classes "
                          "are then expected, not a bug.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SharedBufferMmu::m_allowLossyHeadroom),
                          MakeBooleanChecker())
            .AddAttribute("ResponseQuanta",
                          "Upstream PFC reaction allowance in headroom (pause quanta of 512 "
                          "bit times). Default 394: IEEE 802.3 Annex 31B's bound for 100 Gb/s.",
                          UintegerValue(394),
                          MakeUintegerAccessor(&SharedBufferMmu::m_responseQuanta),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LosslessPriorities",
                          "Bitmask of PFC-protected priorities (bit p = priority p). Default "
                          "0x08: priority 3, RoCEv2's common lossless class.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&SharedBufferMmu::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("SharedUsed",
                            "Bytes of the shared pool in use.",
                            MakeTraceSourceAccessor(&SharedBufferMmu::m_sharedUsed),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Drop",
                            "A packet refused by CheckAdmission (lossless = true is a bug: "
                            "headroom exhausted).",
                            MakeTraceSourceAccessor(&SharedBufferMmu::m_dropTrace),
                            "ns3::SharedBufferMmu::DropTracedCallback");
    return tid;
}

SharedBufferMmu::SharedBufferMmu()
    : m_reservedPerPg(0),
      m_losslessAlpha(0.125),
      m_lossyAlpha(1.0),
      m_sharedPoolBytes(0),
      m_totalHdrmUsed(0),
      m_totalResUsed(0),
      m_xonOffset(0),
      m_losslessMask(0x08),
      m_sharedUsed(0),
      m_nPorts(0),
      m_bufferBytes(0),
      m_xonOffsetAttr(0),
      m_headroomOverride(0),
      m_responseQuanta(0),
      m_allowLossyHeadroom(false)
{
    NS_LOG_FUNCTION(this);
}

SharedBufferMmu::~SharedBufferMmu()
{
    NS_LOG_FUNCTION(this);
}

void
SharedBufferMmu::Configure(uint32_t nPorts,
                           const std::vector<DataRate>& portRates,
                           const std::vector<Time>& portDelays,
                           uint32_t mtuBytes)
{
    NS_LOG_FUNCTION(this << nPorts << mtuBytes);
    if (nPorts == 0)
    {
        NS_FATAL_ERROR("SharedBufferMmu::Configure: nPorts = 0; a switch needs at least 1 port");
    }
    if (portRates.size() != nPorts || portDelays.size() != nPorts)
    {
        NS_FATAL_ERROR("SharedBufferMmu::Configure: got "
                       << portRates.size() << " rates and " << portDelays.size()
                       << " delays for nPorts = " << nPorts << "; need one of each per port");
    }
    if (mtuBytes == 0)
    {
        NS_FATAL_ERROR("SharedBufferMmu::Configure: mtuBytes = 0; must be > 0");
    }
    m_nPorts = nPorts;
    m_xonOffset = m_xonOffsetAttr != 0 ? m_xonOffsetAttr : 2 * mtuBytes;

    uint32_t nLossless = 0;
    for (uint32_t p = 0; p < N_PRIO; ++p)
    {
        nLossless += (m_losslessMask >> p) & 1;
    }
    m_headroomSize.assign(nPorts, 0);
    m_headroomNeed.assign(nPorts, 0);
    uint64_t totalHdrm = 0;
    for (uint32_t i = 0; i < nPorts; ++i)
    {
        const uint64_t needed =
            PfcHeadroom::Compute(portRates[i], portDelays[i], mtuBytes, m_responseQuanta);
        if (m_headroomOverride != 0 && m_headroomOverride < needed && nLossless > 0 &&
            !m_allowLossyHeadroom)
        {
            std::ostringstream msg;
            msg << "PFC headroom of " << m_headroomOverride << " B (HeadroomBytes) is below the "
                << needed << " B port " << i << "'s round trip needs ("
                << portRates[i].GetBitRate() / 1e9 << " Gb/s, " << portDelays[i].GetNanoSeconds()
                << " ns cable, MTU " << mtuBytes << " B, " << m_responseQuanta
                << " pause quanta of response): lossless classes would "
                << "drop; allowed: HeadroomBytes >= " << needed
                << " or 0 (computed), or AllowLossyHeadroom=true (--allow-lossy-headroom=1) "
                << "to break lossless on purpose";
            throw std::invalid_argument(msg.str());
        }
        m_headroomSize[i] = m_headroomOverride != 0 ? m_headroomOverride : needed;
        m_headroomNeed[i] = needed;
        totalHdrm += m_headroomSize[i] * nLossless;
    }
    const uint64_t totalRes = static_cast<uint64_t>(nPorts) * N_PRIO * m_reservedPerPg;
    if (totalRes + totalHdrm >= m_bufferBytes)
    {
        // An exception, not a fatal error: the runner reports it as bad input and
        // Python sweeps keep running.
        std::ostringstream msg;
        msg << "switch buffer of " << m_bufferBytes << " B (BufferSize, --buffer) is too small: "
            << "reserved " << totalRes << " B (" << nPorts << " ports x " << N_PRIO << " PGs x "
            << m_reservedPerPg << " B) plus headroom " << totalHdrm << " B (" << nLossless
            << " lossless PGs per port) need more; allowed: BufferSize > " << totalRes + totalHdrm
            << " B, or lower ReservedBytesPerPg/HeadroomBytes";
        throw std::invalid_argument(msg.str());
    }
    m_sharedPoolBytes = m_bufferBytes - totalRes - totalHdrm;

    const size_t n = static_cast<size_t>(nPorts) * N_PRIO;
    m_pg.assign(n, PgState{});
    m_pausedPgs.clear();
    m_egressBytes.assign(n, 0);
    m_sharedUsed = 0;
    m_totalHdrmUsed = 0;
    m_totalResUsed = 0;
    NS_LOG_INFO("shared pool " << m_sharedPoolBytes << " B, reserved " << totalRes
                               << " B, headroom " << totalHdrm << " B");
}

SharedBufferMmu::Placement
SharedBufferMmu::Place(uint32_t inPort,
                       uint8_t prio,
                       uint32_t outPort,
                       uint8_t queue,
                       uint32_t bytes,
                       uint64_t need)
{
    if (need == 0)
    {
        return Placement::RESERVED; // fits in the PG's reserved slice
    }
    const uint64_t used = m_sharedUsed.Get();
    const bool poolFits = used + need <= m_sharedPoolBytes;
    const uint64_t freeAfter = poolFits ? m_sharedPoolBytes - used - need : 0;
    const PgState& pg = m_pg[Idx(inPort, prio)];
    if (IsLossless(prio))
    {
        if (poolFits && pg.sharedUsed + need <= m_losslessAlpha * freeAfter)
        {
            return Placement::SHARED;
        }
        if (pg.hdrmUsed + need <= m_headroomSize[inPort])
        {
            return Placement::HEADROOM;
        }
        return PlaceDrop(inPort, prio, outPort, queue, bytes, true);
    }
    if (poolFits && m_egressBytes[Idx(outPort, queue)] + bytes <= m_lossyAlpha * freeAfter)
    {
        return Placement::SHARED;
    }
    return PlaceDrop(inPort, prio, outPort, queue, bytes, false);
}

SharedBufferMmu::Placement
SharedBufferMmu::PlaceDrop(uint32_t inPort,
                           uint8_t prio,
                           uint32_t outPort,
                           uint8_t queue,
                           uint32_t bytes,
                           bool lossless)
{
    if (lossless)
    {
        NS_LOG_WARN("lossless drop: port " << inPort << " prio " << +prio << " headroom "
                                           << m_pg[Idx(inPort, prio)].hdrmUsed << "/"
                                           << m_headroomSize[inPort]);
    }
    m_dropTrace(inPort, prio, outPort, queue, bytes, lossless);
    return Placement::DROP;
}

void
SharedBufferMmu::Charge(uint32_t in, uint32_t out, uint32_t bytes, uint64_t need, Placement where)
{
    PgState& pg = m_pg[in];
    const uint64_t res = bytes - need;
    pg.resUsed += res;
    m_totalResUsed += res;
    m_egressBytes[out] += bytes;
    if (where == Placement::HEADROOM)
    {
        pg.hdrmUsed += need;
        m_totalHdrmUsed += need;
    }
    else if (where == Placement::SHARED)
    {
        pg.sharedUsed += need;
        m_sharedUsed.Set(m_sharedUsed.Get() + need); // (no temporary TracedValue)
    }
}

bool
SharedBufferMmu::CheckAdmission(uint32_t inPort,
                                uint8_t prio,
                                uint32_t outPort,
                                uint8_t queue,
                                uint32_t bytes)
{
    const uint64_t need = SharedPart(Idx(inPort, prio), bytes);
    return Place(inPort, prio, outPort, queue, bytes, need) != Placement::DROP;
}

void
SharedBufferMmu::OnEnqueue(uint32_t inPort,
                           uint8_t prio,
                           uint32_t outPort,
                           uint8_t queue,
                           uint32_t bytes)
{
    // Admitted by CheckAdmission in this same state: the same placement (a lossless
    // packet above XOFF goes to headroom; its size was checked there).
    const uint32_t in = Idx(inPort, prio);
    const uint64_t need = SharedPart(in, bytes);
    Placement where = Place(inPort, prio, outPort, queue, bytes, need);
    if (where == Placement::DROP)
    {
        NS_FATAL_ERROR("SharedBufferMmu::OnEnqueue: " << bytes << " B on in-port " << inPort
                                                      << " prio " << +prio
                                                      << " do not fit; call CheckAdmission first");
    }
    Charge(in, Idx(outPort, queue), bytes, need, where);
}

bool
SharedBufferMmu::AdmitBeyondReserved(uint32_t inPort,
                                     uint8_t prio,
                                     uint32_t outPort,
                                     uint8_t queue,
                                     uint32_t bytes)
{
    const uint32_t in = Idx(inPort, prio);
    const uint64_t need = SharedPart(in, bytes);
    const Placement where = Place(inPort, prio, outPort, queue, bytes, need);
    if (where == Placement::DROP)
    {
        return false;
    }
    Charge(in, Idx(outPort, queue), bytes, need, where);
    return true;
}

void
SharedBufferMmu::ReleaseBeyondReserved(uint32_t inPort,
                                       uint8_t prio,
                                       uint32_t outPort,
                                       uint8_t queue,
                                       uint32_t bytes)
{
    const uint32_t in = Idx(inPort, prio);
    const uint32_t out = Idx(outPort, queue);
    PgState& pg = m_pg[in];
    if (m_egressBytes[out] < bytes || pg.hdrmUsed + pg.sharedUsed + pg.resUsed < bytes)
    {
        ReleaseMismatch(inPort, prio, outPort, queue, bytes);
    }
    m_egressBytes[out] -= bytes;
    uint64_t left = bytes;
    const uint64_t h = std::min<uint64_t>(left, pg.hdrmUsed);
    pg.hdrmUsed -= h;
    m_totalHdrmUsed -= h;
    left -= h;
    const uint64_t s = std::min<uint64_t>(left, pg.sharedUsed);
    if (s != 0)
    {
        pg.sharedUsed -= s;
        m_sharedUsed.Set(m_sharedUsed.Get() - s);
    }
    left -= s;
    pg.resUsed -= left;
    m_totalResUsed -= left;
}

void
SharedBufferMmu::ReleaseMismatch(uint32_t inPort,
                                 uint8_t prio,
                                 uint32_t outPort,
                                 uint8_t queue,
                                 uint32_t bytes) const
{
    NS_FATAL_ERROR("SharedBufferMmu::OnDequeue: releasing " << bytes << " B from in-port " << inPort
                                                            << " prio " << +prio << " / out-port "
                                                            << outPort << " queue " << +queue
                                                            << " which hold less; "
                                                               "enqueue/dequeue mismatch");
}

void
SharedBufferMmu::SetPaused(uint32_t inPort, uint8_t prio, bool paused)
{
    const uint32_t idx = Idx(inPort, prio);
    if ((m_pg[idx].paused != 0) == paused)
    {
        return;
    }
    m_pg[idx].paused = paused ? 1 : 0;
    if (paused)
    {
        m_pausedPgs.push_back(idx);
    }
    else
    {
        m_pausedPgs.erase(std::find(m_pausedPgs.begin(), m_pausedPgs.end(), idx));
    }
}

bool
SharedBufferMmu::IsPaused(uint32_t inPort, uint8_t prio) const
{
    return m_pg[Idx(inPort, prio)].paused != 0;
}

uint64_t
SharedBufferMmu::GetEgressBytes(uint32_t outPort, uint8_t queue) const
{
    return m_egressBytes[Idx(outPort, queue)];
}

uint64_t
SharedBufferMmu::GetIngressReservedUsed(uint32_t inPort, uint8_t prio) const
{
    return m_pg[Idx(inPort, prio)].resUsed;
}

uint64_t
SharedBufferMmu::GetIngressSharedUsed(uint32_t inPort, uint8_t prio) const
{
    return m_pg[Idx(inPort, prio)].sharedUsed;
}

uint64_t
SharedBufferMmu::GetHeadroomUsed(uint32_t inPort, uint8_t prio) const
{
    return m_pg[Idx(inPort, prio)].hdrmUsed;
}

uint64_t
SharedBufferMmu::GetIngressBytes(uint32_t inPort, uint8_t prio) const
{
    const PgState& pg = m_pg[Idx(inPort, prio)];
    return pg.resUsed + pg.sharedUsed + pg.hdrmUsed;
}

uint64_t
SharedBufferMmu::GetSharedUsed() const
{
    return m_sharedUsed.Get();
}

uint64_t
SharedBufferMmu::GetSharedPoolSize() const
{
    return m_sharedPoolBytes;
}

uint64_t
SharedBufferMmu::GetTotalHeadroomUsed() const
{
    return m_totalHdrmUsed;
}

uint64_t
SharedBufferMmu::GetTotalUsed() const
{
    return m_totalResUsed + m_sharedUsed.Get() + m_totalHdrmUsed;
}

uint64_t
SharedBufferMmu::GetHeadroomSize(uint32_t inPort, uint8_t prio) const
{
    NS_ASSERT_MSG(inPort < m_nPorts, "port " << inPort << " out of range");
    return IsLossless(prio) ? m_headroomSize[inPort] : 0;
}

uint64_t
SharedBufferMmu::GetHeadroomNeeded(uint32_t inPort) const
{
    NS_ASSERT_MSG(inPort < m_nPorts, "port " << inPort << " out of range");
    return m_headroomNeed[inPort];
}

uint64_t
SharedBufferMmu::GetReservedPerPg() const
{
    return m_reservedPerPg;
}

uint32_t
SharedBufferMmu::GetXonOffset() const
{
    return m_xonOffset;
}

uint64_t
SharedBufferMmu::GetXoffThreshold() const
{
    return static_cast<uint64_t>(m_losslessAlpha * SharedFree());
}

uint64_t
SharedBufferMmu::GetEgressThreshold() const
{
    return static_cast<uint64_t>(m_lossyAlpha * SharedFree());
}

uint32_t
SharedBufferMmu::GetNPorts() const
{
    return m_nPorts;
}

} // namespace ns3
