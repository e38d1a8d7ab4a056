/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IMM_HEADER_H
#define IMM_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Immediate Data extended header (ImmDt, 4 bytes, IBTA vol. 1 sec. 9.3.6), carried
 * by the *-with-immediate SEND and WRITE opcodes (after the RETH when both are present).
 */
class ImmHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 4; //!< serialized bytes

    ImmHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param imm the 32-bit immediate value (sent big-endian)
    void SetImmediate(uint32_t imm);
    uint32_t GetImmediate() const;

  private:
    uint32_t m_imm; //!< immediate data
};

} // namespace ns3

#endif // IMM_HEADER_H
