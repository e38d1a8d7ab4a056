/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RETH_HEADER_H
#define RETH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief RDMA Extended Transport Header (16 bytes, IBTA vol. 1 sec. 9.3.3): virtual
 * address (64 bits), R_Key (32), DMA length (32), all big-endian. Follows the BTH of
 * the first (or only) packet of an RDMA WRITE and of a READ request.
 */
class RethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16; //!< serialized bytes

    RethHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetVirtualAddress(uint64_t va);
    uint64_t GetVirtualAddress() const;
    void SetRKey(uint32_t rkey);
    uint32_t GetRKey() const;
    /// \param len bytes of the whole RDMA message
    void SetDmaLength(uint32_t len);
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_va;     //!< remote virtual address
    uint32_t m_rkey;   //!< remote key
    uint32_t m_dmaLen; //!< message length in bytes
};

} // namespace ns3

#endif // RETH_HEADER_H
