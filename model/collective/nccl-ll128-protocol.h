/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_LL128_PROTOCOL_H
#define NCCL_LL128_PROTOCOL_H

#include "collective-protocol.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NCCL's LL128 protocol: 128-byte lines of 120 data bytes and one 8-byte flag
 * (NCCL_LL128_LINESIZE, NCCL_LL128_DATAELEMS, src/include/device.h), written a warp's 16 lines at a
 * time; it relies on 128-byte stores arriving in order, so NCCL enables it only on NVLink and on
 * GPU-to-NIC paths it trusts (the tuning model's LL128 rule).
 */
class NcclLl128Protocol : public CollectiveProtocol
{
  public:
    static TypeId GetTypeId();
    NcclLl128Protocol();
    NcclProtocol GetProtocol() const override;
};

} // namespace ns3

#endif // NCCL_LL128_PROTOCOL_H
