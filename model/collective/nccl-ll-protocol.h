/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_LL_PROTOCOL_H
#define NCCL_LL_PROTOCOL_H

#include "collective-protocol.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NCCL's LL (low-latency) protocol: 16-byte lines (union ncclLLFifoLine,
 * src/include/device.h) of two 4-byte data words each followed by its 4-byte flag, so the receiver
 * can poll the data itself: twice the payload on the wire, and no fence or flush per step.
 */
class NcclLlProtocol : public CollectiveProtocol
{
  public:
    static TypeId GetTypeId();
    NcclLlProtocol();
    NcclProtocol GetProtocol() const override;
};

} // namespace ns3

#endif // NCCL_LL_PROTOCOL_H
