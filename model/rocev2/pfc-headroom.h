/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HEADROOM_H
#define PFC_HEADROOM_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief PFC headroom: the bytes a lossless priority group must still absorb
 * after it decides to send XOFF.
 *
 * Worst case between "XOFF decided" and "the last byte sent by the upstream
 * before it stopped has arrived":
 *
 *   H = 2 * d * R / 8            cable round trip: PFC travelling up, data already on the wire
 *     + 2 * MTU                  one frame this port is sending ahead of the PFC frame,
 *                                one frame the upstream has started and must finish
 *     + 64                       the PFC frame itself (802.1Qbb, padded to 64 B)
 *     + q * 512 / 8              the upstream's reaction time, q pause quanta of 512 bit
 *                                times (MAC/PHY delays; IEEE 802.3 Annex 31B allows up to
 *                                394 quanta at 100 Gb/s)
 *
 * with R the link rate in bit/s, d the one-way cable delay. All in bytes,
 * rounded up. Two published approximations are provided for comparison: the
 * HPCC-derived simulators' 3 x rate x delay / 8 and NIC drivers'
 * (301 + 2.16 x cable_m) x Gb/s + 2.72 x MTU.
 */
class PfcHeadroom
{
  public:
    /// Size of a PFC frame on the wire before preamble/IFG (bytes, 802.1Qbb).
    static constexpr uint32_t PFC_FRAME_BYTES = 64;
    /// One pause quantum is 512 bit times (802.3 Annex 31B / 802.1Qbb).
    static constexpr uint32_t BITS_PER_QUANTUM = 512;

    /**
     * \brief Headroom by the formula above.
     * \param rate link rate
     * \param cableDelay one-way propagation delay of the cable
     * \param mtuBytes largest frame the port can receive (bytes)
     * \param responseQuanta upstream reaction allowance in pause quanta
     * \return headroom in bytes
     */
    static uint64_t Compute(DataRate rate,
                            Time cableDelay,
                            uint32_t mtuBytes,
                            uint32_t responseQuanta);

    /// HPCC-derived simulators: 3 x rate x delay / 8 bytes.
    static uint64_t HpccApproximation(DataRate rate, Time cableDelay);

    /**
     * NIC drivers' rule of thumb: (301 + 2.16 x cable_m) x Gb/s + 2.72 x MTU bytes.
     * The cable length is derived from the delay at 5 ns/m.
     */
    static uint64_t NicDriverApproximation(DataRate rate, Time cableDelay, uint32_t mtuBytes);
};

} // namespace ns3

#endif // PFC_HEADROOM_H
