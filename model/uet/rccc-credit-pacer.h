/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RCCC_CREDIT_PACER_H
#define RCCC_CREDIT_PACER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The receiver's half of UET's receiver-credit congestion control (RCCC; Ultra
 * Ethernet specification 1.0, congestion management), as uet-htsim's pull pacer runs it
 * (htsim/sim/uec.cpp UecPullPacer, UecSink::pull): one per receiving NIC. Each request
 * a PDC receives carries its credit target (RcccCreditGate); a PDC whose target is
 * above what it was granted joins a round robin, and the pacer grants GrantMtus MTUs at
 * a time (never beyond the target), one CREDIT control packet per grant, at RateFraction
 * of the NIC's line rate: the senders together are granted what the receiver's link
 * can take, however many they are (an incast's senders share it instead of trimming).
 *
 * Not modelled: uet-htsim's "slow pulls" (unrequested credit to idle senders).
 */
class RcccCreditPacer : public Object
{
  public:
    /// Sends a CREDIT for PDC slot (first) with the credit granted so far (second,
    /// quanta, 24 bits).
    typedef Callback<void, uint32_t, uint32_t> SendCallback;

    static TypeId GetTypeId();
    RcccCreditPacer();
    ~RcccCreditPacer() override;

    /// Line rate \p rate, packets of \p mtu payload bytes, credit in \p quantum bytes,
    /// CREDITs sent through \p send.
    void Configure(DataRate rate, uint32_t mtu, uint32_t quantum, SendCallback send);
    /// PDC slot \p slot is new (a reused slot starts over).
    void Reset(uint32_t slot);
    /// A request of PDC \p slot carried credit target \p target (quanta, 24 bits).
    void OnCreditTarget(uint32_t slot, uint32_t target);
    /// \return CREDIT packets sent
    uint64_t GetCreditsSent() const;

  protected:
    void DoDispose() override;

  private:
    /// One grant to the PDC at the front of the round robin, then the next in its time.
    void Grant();

    /// What a PDC asked for and was given (quanta, 24 bits each).
    struct Demand
    {
        uint32_t target{0};  //!< highest credit target seen
        uint32_t granted{0}; //!< credit granted so far
        bool queued{false};  //!< in m_active
    };

    uint32_t m_grantMtus;          //!< attribute GrantMtus
    double m_rateFraction;         //!< attribute RateFraction
    DataRate m_rate;               //!< the NIC's line rate
    uint32_t m_mtu{1000};          //!< payload bytes per packet
    uint32_t m_quantum{256};       //!< bytes per credit quantum
    SendCallback m_send;           //!< sends one CREDIT
    std::vector<Demand> m_demand;  //!< by PDC slot
    std::deque<uint32_t> m_active; //!< PDC slots with a target above their grant
    EventId m_event;               //!< the next grant
    uint64_t m_creditsSent{0};     //!< GetCreditsSent
};

} // namespace ns3

#endif // RCCC_CREDIT_PACER_H
