/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SELECTIVE_REPEAT_H
#define RDMA_SELECTIVE_REPEAT_H

#include "ns3/rdma-recovery-ops.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Selective repeat, as IRN proposes it (Mittal et al., SIGCOMM 2018):
 * the responder places out-of-order WRITE packets (each one's offset follows
 * from its PSN) and holds their slots; it NAKs the expected PSN only once
 * RdmaQueuePair::ReorderThreshold later PSNs are held (reordering is not
 * loss), once per hole, and at once when a filled hole leaves another one with
 * enough held behind it. The requester resends exactly the NAKed PSN and then
 * continues with new data; a timeout still goes back to the oldest
 * unacknowledged PSN (the responder discards what it already holds).
 */
class RdmaSelectiveRepeat : public RdmaRecoveryOps
{
  public:
    static TypeId GetTypeId();

    std::string GetName() const override;
    RdmaReply OnBeyondExpected(RdmaResponder& responder,
                               uint64_t psn,
                               uint32_t payloadBytes,
                               bool last) override;
    RdmaReply OnAdvancedWithHeld(RdmaResponder& responder) override;
    void OnNak(RdmaRequester& requester, uint64_t expectedPsn) override;
};

} // namespace ns3

#endif // RDMA_SELECTIVE_REPEAT_H
