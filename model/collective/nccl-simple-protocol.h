/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_SIMPLE_PROTOCOL_H
#define NCCL_SIMPLE_PROTOCOL_H

#include "collective-protocol.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NCCL's Simple protocol: the data itself on the wire (one wire byte per payload byte), each
 * step signalled by a fence and a flag (and, over GPUDirect RDMA, a flush by the receiver's proxy).
 * Its step is the chunk the simulator has always used: 4 MiB / NCCL_STEPS = 512 KiB.
 */
class NcclSimpleProtocol : public CollectiveProtocol
{
  public:
    static TypeId GetTypeId();
    NcclSimpleProtocol();
    NcclProtocol GetProtocol() const override;
};

} // namespace ns3

#endif // NCCL_SIMPLE_PROTOCOL_H
