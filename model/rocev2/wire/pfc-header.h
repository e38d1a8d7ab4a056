/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief IEEE 802.1Qbb priority flow control (PFC) frame body: the MAC-control payload
 * that follows an Ethernet header with DA 01:80:C2:00:00:01 and EtherType 0x8808.
 *
 * Layout: opcode 0x0101 (2), class-enable vector (2; bit i = priority i, high byte 0),
 * 8 x pause time in quanta (2 each, priority 0 first), 26 zero bytes padding the frame
 * to the 60-byte Ethernet minimum (64 with FCS). A quantum is 512 bit times at the
 * link rate; a time of 0 for an enabled class resumes it (XON).
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint16_t OPCODE = 0x0101; //!< PFC MAC-control opcode
    static constexpr uint32_t SIZE = 46;       //!< body incl. padding (60 - 14)
    static constexpr uint32_t BITS_PER_QUANTUM = 512;
    static constexpr uint16_t MAX_QUANTA = 0xFFFF; //!< largest pause time
    static constexpr uint8_t NUM_PRIORITIES = 8;

    /// \return 01:80:C2:00:00:01, the MAC-control multicast address PFC frames go to.
    static Mac48Address GetPfcDestination();

    /// Exact pause duration of \p quanta at \p rate, in picoseconds (rounded to nearest ps).
    static uint64_t QuantaToPicoSeconds(uint16_t quanta, DataRate rate);
    /**
     * Pause duration of \p quanta at \p rate (1 quantum = 512 bit times), rounded up
     * to the simulator's time resolution so a pause is never shortened.
     */
    static Time QuantaToTime(uint16_t quanta, DataRate rate);
    /// Quanta covering \p t at \p rate, rounded up, saturating at 65535.
    static uint16_t TimeToQuanta(Time t, DataRate rate);

    PfcHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint16_t GetOpcode() const;
    /// Enable class \p prio (0..7) and set its pause time (0 = resume).
    void SetPauseTime(uint8_t prio, uint16_t quanta);
    uint16_t GetPauseTime(uint8_t prio) const;
    bool IsClassEnabled(uint8_t prio) const;
    void SetClassEnableVector(uint16_t vector);
    uint16_t GetClassEnableVector() const;

  private:
    uint16_t m_opcode;                                //!< MAC-control opcode
    uint16_t m_enableVector;                          //!< class-enable vector
    std::array<uint16_t, NUM_PRIORITIES> m_pauseTime; //!< quanta per priority
};

} // namespace ns3

#endif // PFC_HEADER_H
