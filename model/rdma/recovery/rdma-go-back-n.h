/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_GO_BACK_N_H
#define RDMA_GO_BACK_N_H

#include "ns3/rdma-recovery-ops.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Go-back-N, as the IBTA RC transport specifies it: the responder
 * discards any packet beyond the expected PSN and NAKs that PSN once (a PSN
 * sequence error NAK); the requester resends everything from the NAKed PSN.
 * Reordering therefore looks like loss: each reordering costs a NAK and a burst
 * of resends.
 */
class RdmaGoBackN : public RdmaRecoveryOps
{
  public:
    static TypeId GetTypeId();

    std::string GetName() const override;
    RdmaReply OnBeyondExpected(RdmaResponder& responder,
                               uint64_t psn,
                               uint32_t payloadBytes,
                               bool last) override;
    void OnNak(RdmaRequester& requester, uint64_t expectedPsn) override;
};

} // namespace ns3

#endif // RDMA_GO_BACK_N_H
