/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NONE_CONGESTION_CONTROL_H
#define NONE_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * No congestion control: every queue pair sends at line rate with no window.
 * The baseline of PFC-only studies.
 */
class NoneCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();

    bool UsesRttSamples() const override
    {
        return false; // (OnAck reads no RTT)
    }

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;
};

} // namespace ns3

#endif // NONE_CONGESTION_CONTROL_H
