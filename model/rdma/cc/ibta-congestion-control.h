/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IBTA_CONGESTION_CONTROL_H
#define IBTA_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief InfiniBand congestion control at the channel adapter, IBTA Vol. 1 Annex A10
 * ("Congestion Control"), QP-based: the Congestion Control Table (CCT) of injection
 * delays indexed by the CCT Index (CCTI).
 *
 * Each BECN (a CNP, or an ACK with BECN) adds CCTI_Increase to the CCTI, capped at
 * CCTI_Limit (the table's last index); every CCTI_Timer (units of 1.024 us) the CCTI falls by one
 * while above CCTI_Min. The CCT entry at the CCTI (CCT_Shift 2 bits, CCT_Multiplier 14 bits) is the
 * injection delay between packets: (T >> shift) x multiplier, T the time one full packet takes on
 * the line (as the Linux hfi1 driver computes its inter-packet gap from the same entry). The rate
 * is then line rate x T / (T + delay).
 */
class IbtaCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    IbtaCongestionControl();
    ~IbtaCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void Stop() override;
    void OnCnp() override;

    bool UsesRttSamples() const override
    {
        return false; // (OnAck reads no RTT)
    }

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// One CCT entry: CCT_Shift (0-3) and CCT_Multiplier (0-16383).
    struct CctEntry
    {
        uint8_t shift{0};       //!< CCT_Shift
        uint16_t multiplier{0}; //!< CCT_Multiplier
    };

    /**
     * Parse a CCT: comma-separated "shift:multiplier" entries, index 0 first.
     * \param text the table
     * \param[out] table the entries
     * \param[out] error why the text is not a table
     * \return whether it is one (1 to 16384 entries, shift 0-3, multiplier 0-16383)
     */
    static bool ParseCct(const std::string& text, std::vector<CctEntry>& table, std::string& error);
    /// The default CCT text: 128 entries, entry i = 0:i (a delay of i packet times).
    static std::string DefaultCct();

    /// The current CCT Index.
    uint16_t GetCcti() const;
    /// The injection delay of the current CCTI's entry.
    Time GetInjectionDelay() const;
    /// BECNs received since Start.
    uint64_t GetBecns() const;

  private:
    /// Rate from the current CCTI's entry; (re)arm the timer while above CCTI_Min.
    void Apply();
    /// The CCTI_Timer expired: one step down.
    void TimerExpired();
    void SetCct(const std::string& text);
    std::string GetCctText() const;

    // Attributes
    std::vector<CctEntry> m_cct; //!< the table (Cct attribute)
    std::string m_cctText;       //!< the table as given
    uint8_t m_cctiIncrease;      //!< CCTI_Increase per BECN
    uint8_t m_cctiMin;           //!< CCTI_Min
    uint16_t m_cctiTimer;        //!< CCTI_Timer, units of 1.024 us

    // State
    uint16_t m_ccti;                   //!< current index
    uint64_t m_becns;                  //!< BECNs received
    Time m_packetTime;                 //!< T: one full packet on the line
    EventId m_timer;                   //!< the CCTI_Timer
    TracedValue<uint32_t> m_cctiTrace; //!< CCTI after each change
};

} // namespace ns3

#endif // IBTA_CONGESTION_CONTROL_H
