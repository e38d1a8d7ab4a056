/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHARED_BUFFER_MMU_H
#define SHARED_BUFFER_MMU_H

#include "ns3/assert.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Shared-buffer memory management unit of a RoCEv2 switch (Broadcom/SONiC style).
 *
 * Pure accounting: the switch device asks for decisions and reports enqueues and
 * dequeues; the MMU keeps no packets. The buffer is split into
 *  - a reserved (guaranteed) slice per (ingress port, priority group),
 *  - a headroom slice per (ingress port, lossless priority group), absorbing the
 *    bytes in flight after XOFF,
 *  - one shared pool: the rest.
 *
 * Ingress: a packet is charged to its (inPort, PG) reserved slice first, then to the
 * shared pool, then (lossless PGs only) to headroom. A lossless PG may hold at most
 * T = LosslessAlpha * (shared pool free after this packet) shared bytes
 * (Choudhury-Hahne dynamic threshold); bytes beyond T go to headroom and the PG asks
 * for XOFF. It asks for XON once headroom is empty and its shared usage is at most
 * T - XonOffset (or zero). A lossless packet is refused only when headroom is
 * exhausted: a lossless drop, i.e. a headroom sizing bug.
 *
 * Egress: bytes per (outPort, queue) are counted for ECN and queue sampling. A lossy
 * packet is refused when its egress queue would exceed
 * LossyAlpha * (shared pool free after this packet), or the shared pool is full.
 *
 * All per-packet calls are O(1) on flat vectors indexed port * 8 + priority.
 */
class SharedBufferMmu : public Object
{
  public:
    /// Priorities (= priority groups = egress queues) per port.
    static constexpr uint32_t N_PRIO = 8;

    /// Trace signature of a refused packet: (inPort, prio, outPort, queue, bytes, lossless).
    typedef void (*DropTracedCallback)(uint32_t, uint8_t, uint32_t, uint8_t, uint32_t, bool);

    static TypeId GetTypeId();
    SharedBufferMmu();
    ~SharedBufferMmu() override;

    /**
     * \brief Size headroom and reserves for nPorts ports and reset all counters.
     * \param nPorts number of switch ports (> 0)
     * \param portRates link rate of each port (size nPorts)
     * \param portDelays one-way cable delay of each port (size nPorts)
     * \param mtuBytes largest frame a port receives, headers included (bytes)
     *
     * \throws std::invalid_argument, naming the sizes, when the reserved plus headroom
     * bytes of all ports leave no shared pool (BufferSize too small).
     * Stops with NS_FATAL_ERROR when nPorts or mtuBytes is 0 or the vectors do not
     * match nPorts.
     */
    void Configure(uint32_t nPorts,
                   const std::vector<DataRate>& portRates,
                   const std::vector<Time>& portDelays,
                   uint32_t mtuBytes);

    /// True when priority prio is PFC-protected (LosslessPriorities bitmask).
    bool IsLossless(uint8_t prio) const
    {
        return prio < N_PRIO && ((m_losslessMask >> prio) & 1);
    }

    /// Admission of a packet; false = drop (lossy over threshold, or lossless beyond headroom).
    bool CheckAdmission(uint32_t inPort,
                        uint8_t prio,
                        uint32_t outPort,
                        uint8_t queue,
                        uint32_t bytes);
    /// Charge an admitted packet: reserved, then shared, then headroom.
    void OnEnqueue(uint32_t inPort, uint8_t prio, uint32_t outPort, uint8_t queue, uint32_t bytes);

    /// CheckAdmission, and OnEnqueue if admitted, in one pass (the switch's per-frame call).
    bool Admit(uint32_t inPort, uint8_t prio, uint32_t outPort, uint8_t queue, uint32_t bytes)
    {
        // Inline for the frame that fits in its PG's reserved slice (about half of a
        // loaded fabric's frames); the shared pool and headroom out of line.
        const uint32_t in = Idx(inPort, prio);
        PgState& pg = m_pg[in];
        if (pg.resUsed + bytes <= m_reservedPerPg)
        {
            pg.resUsed += bytes;
            m_totalResUsed += bytes;
            m_egressBytes[Idx(outPort, queue)] += bytes;
            return true;
        }
        return AdmitBeyondReserved(inPort, prio, outPort, queue, bytes);
    }

    /// Release a packet leaving the switch: headroom, then shared, then reserved.
    void OnDequeue(uint32_t inPort, uint8_t prio, uint32_t outPort, uint8_t queue, uint32_t bytes)
    {
        // Inline when the PG holds nothing beyond its reserved slice (then all of the
        // packet was there); the rest, and the consistency check, out of line.
        PgState& pg = m_pg[Idx(inPort, prio)];
        uint64_t& egress = m_egressBytes[Idx(outPort, queue)];
        if (pg.hdrmUsed == 0 && pg.sharedUsed == 0 && pg.resUsed >= bytes && egress >= bytes)
        {
            pg.resUsed -= bytes;
            m_totalResUsed -= bytes;
            egress -= bytes;
            return;
        }
        ReleaseBeyondReserved(inPort, prio, outPort, queue, bytes);
    }

    /// Lossless PG over XOFF (headroom in use or shared usage above T) and not yet paused.
    bool ShouldPause(uint32_t inPort, uint8_t prio) const
    {
        if (!IsLossless(prio))
        {
            return false;
        }
        const PgState& pg = m_pg[Idx(inPort, prio)];
        return !pg.paused && (pg.hdrmUsed > 0 || pg.sharedUsed > m_losslessAlpha * SharedFree());
    }

    /// Paused, headroom empty and shared usage at most T - XonOffset (or zero).
    bool ShouldResume(uint32_t inPort, uint8_t prio) const
    {
        if (!IsLossless(prio))
        {
            return false;
        }
        const PgState& pg = m_pg[Idx(inPort, prio)];
        return pg.paused && pg.hdrmUsed == 0 &&
               (pg.sharedUsed == 0 ||
                pg.sharedUsed + m_xonOffset <= m_losslessAlpha * SharedFree());
    }

    void SetPaused(uint32_t inPort, uint8_t prio, bool paused);
    bool IsPaused(uint32_t inPort, uint8_t prio) const;

    /// The (port, priority group)s holding an XOFF now, as port x 8 + priority, in the
    /// order they paused: what a release of buffer must re-check (RoceSwitch).
    const std::vector<uint32_t>& GetPausedPgs() const
    {
        return m_pausedPgs;
    }

    uint64_t GetEgressBytes(uint32_t outPort, uint8_t queue) const;
    uint64_t GetIngressReservedUsed(uint32_t inPort, uint8_t prio) const;
    uint64_t GetIngressSharedUsed(uint32_t inPort, uint8_t prio) const;
    uint64_t GetHeadroomUsed(uint32_t inPort, uint8_t prio) const;
    /// Ingress bytes of (inPort, prio) in all three slices.
    uint64_t GetIngressBytes(uint32_t inPort, uint8_t prio) const;

    uint64_t GetSharedUsed() const;
    uint64_t GetSharedPoolSize() const;
    uint64_t GetTotalHeadroomUsed() const;
    /// Bytes held by the switch in all slices.
    uint64_t GetTotalUsed() const;
    /// Headroom size of a lossless PG of this port (bytes; 0 for lossy priorities).
    uint64_t GetHeadroomSize(uint32_t inPort, uint8_t prio) const;
    /// Headroom this port's round trip needs (PfcHeadroom::Compute of its rate, cable
    /// delay and MTU; bytes), whatever HeadroomBytes says.
    uint64_t GetHeadroomNeeded(uint32_t inPort) const;
    uint64_t GetReservedPerPg() const;
    uint32_t GetXonOffset() const;
    /// Lossless shared threshold now: LosslessAlpha * (shared pool free).
    uint64_t GetXoffThreshold() const;
    /// Lossy egress threshold now: LossyAlpha * (shared pool free).
    uint64_t GetEgressThreshold() const;
    uint32_t GetNPorts() const;

  private:
    /// Where an arriving packet's bytes go, beyond its PG's free reserved slice.
    enum class Placement : uint8_t
    {
        RESERVED, //!< all in the reserved slice
        SHARED,   //!< the excess in the shared pool
        HEADROOM, //!< the excess in the PG's headroom (lossless, above XOFF)
        DROP,     //!< no room (lossy over its threshold, lossless beyond headroom)
    };

    uint32_t Idx(uint32_t port, uint8_t prio) const
    {
        NS_ASSERT_MSG(port < m_nPorts && prio < N_PRIO,
                      "port " << port << " / priority " << +prio << " out of range (" << m_nPorts
                              << " ports, " << N_PRIO << " priorities); Configure called?");
        return port * N_PRIO + prio;
    }

    /// Shared bytes this packet would take after its reserved slice is used.
    uint64_t SharedPart(uint32_t idx, uint32_t bytes) const
    {
        const uint64_t resUsed = m_pg[idx].resUsed;
        const uint64_t resFree = resUsed < m_reservedPerPg ? m_reservedPerPg - resUsed : 0;
        return bytes > resFree ? bytes - resFree : 0;
    }

    /// Free bytes of the shared pool now.
    uint64_t SharedFree() const
    {
        const uint64_t used = m_sharedUsed.Get();
        return used < m_sharedPoolBytes ? m_sharedPoolBytes - used : 0;
    }

    /// Where \p bytes arriving on (inPort, prio) for (outPort, queue) go, \p need of
    /// them beyond the reserved slice; fires the drop trace for DROP.
    Placement Place(uint32_t inPort,
                    uint8_t prio,
                    uint32_t outPort,
                    uint8_t queue,
                    uint32_t bytes,
                    uint64_t need);
    /// Place's DROP: the warning (lossless) and the drop trace, out of the per-frame
    /// path (its stream code would make every Place call save and restore registers).
    [[gnu::cold, gnu::noinline]] Placement PlaceDrop(uint32_t inPort,
                                                     uint8_t prio,
                                                     uint32_t outPort,
                                                     uint8_t queue,
                                                     uint32_t bytes,
                                                     bool lossless);
    /// ReleaseBeyondReserved's error for a release of more than is held (out of line).
    [[noreturn, gnu::cold, gnu::noinline]] void ReleaseMismatch(uint32_t inPort,
                                                                uint8_t prio,
                                                                uint32_t outPort,
                                                                uint8_t queue,
                                                                uint32_t bytes) const;
    /// Charge a packet placed as \p where (not DROP).
    void Charge(uint32_t in, uint32_t out, uint32_t bytes, uint64_t need, Placement where);
    /// Admit for a packet that needs more than its PG's free reserved slice.
    bool AdmitBeyondReserved(uint32_t inPort,
                             uint8_t prio,
                             uint32_t outPort,
                             uint8_t queue,
                             uint32_t bytes);
    /// OnDequeue for a PG with headroom or shared bytes in use (or an inconsistent release).
    void ReleaseBeyondReserved(uint32_t inPort,
                               uint8_t prio,
                               uint32_t outPort,
                               uint8_t queue,
                               uint32_t bytes);

    /**
     * Ingress accounting of one (port, priority group): what a frame's admission,
     * enqueue, dequeue and pause checks read, together in one cache line.
     */
    struct PgState
    {
        uint64_t resUsed{0};    //!< bytes in the PG's reserved slice
        uint64_t sharedUsed{0}; //!< bytes in the shared pool
        uint64_t hdrmUsed{0};   //!< bytes in the PG's headroom
        uint8_t paused{0};      //!< 1 while an XOFF holds the peer
    };

    // What a frame's admission and release read comes first (two cache lines).
    // State, index port * N_PRIO + prio
    std::vector<PgState> m_pg;
    std::vector<uint32_t> m_pausedPgs; //!< GetPausedPgs
    std::vector<uint64_t> m_egressBytes;
    uint64_t m_reservedPerPg; //!< attribute: guaranteed bytes per (port, PG)
    double m_losslessAlpha;   //!< attribute: ingress dynamic-threshold alpha of lossless PGs
    double m_lossyAlpha;      //!< attribute: egress dynamic-threshold alpha of lossy queues
    uint64_t m_sharedPoolBytes;
    uint64_t m_totalHdrmUsed;
    uint64_t m_totalResUsed;
    uint32_t m_xonOffset;
    uint8_t m_losslessMask; //!< attribute: bit p set = priority p lossless
    TracedValue<uint64_t> m_sharedUsed;
    std::vector<uint64_t> m_headroomSize; //!< per port (same for each lossless PG)
    std::vector<uint64_t> m_headroomNeed; //!< per port: PfcHeadroom::Compute
    uint32_t m_nPorts;

    // Attributes
    uint64_t m_bufferBytes;      //!< total packet buffer
    uint32_t m_xonOffsetAttr;    //!< XON hysteresis; 0 = 2 x MTU
    uint64_t m_headroomOverride; //!< per-PG headroom; 0 = computed
    uint32_t m_responseQuanta;   //!< upstream reaction allowance (pause quanta)
    bool m_allowLossyHeadroom;   //!< accept a headroom below the round trip

    TracedCallback<uint32_t, uint8_t, uint32_t, uint8_t, uint32_t, bool> m_dropTrace;
};

} // namespace ns3

#endif // SHARED_BUFFER_MMU_H
