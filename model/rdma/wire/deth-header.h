/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DETH_HEADER_H
#define DETH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Datagram Extended Transport Header (DETH, 8 bytes, IBTA Vol. 1 section 9.3.3),
 * carried after the BTH by every Unreliable Datagram packet (e.g. IPoIB's, RFC 4391).
 *
 * Layout (network byte order): bytes 0-3 Q_Key; byte 4 reserved; bytes 5-7 SrcQP.
 * The receiving UD QP accepts the packet only if its Q_Key matches its own.
 */
class DethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 8; //!< serialized bytes

    DethHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param qkey the 32-bit queue key
    void SetQKey(uint32_t qkey);
    uint32_t GetQKey() const;
    /// \param qpn the sending QP's number (24 bits)
    void SetSourceQp(uint32_t qpn);
    uint32_t GetSourceQp() const;

  private:
    uint32_t m_qkey;     //!< Q_Key
    uint32_t m_sourceQp; //!< SrcQP (24 bits)
};

} // namespace ns3

#endif // DETH_HEADER_H
