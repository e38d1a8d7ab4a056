/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LOSSY_ROCE_FABRIC_BUILDER_H
#define LOSSY_ROCE_FABRIC_BUILDER_H

#include "ns3/fabric-builder.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-tests
 * \brief A toy fabric of the test library, --fabric=test-rocev2-lossy: RoCEv2 from
 * RoceFabricHelper with PFC off on every port and no lossless priority, so a full
 * switch buffer drops (lossy drops) instead of pausing. It shows what adding a fabric
 * takes (this class, its .cc file with one registration line) and lets a test check
 * that the runner builds the fabric the registered builder makes.
 */
class LossyRoceFabricBuilder : public FabricBuilder
{
  public:
    Ptr<RdmaFabric> Build(const ScenarioConfig& c, const Context& ctx) override;
    /// "ecn_marker": the switches' EcnMarker attributes, as RoCEv2 reports them.
    void AddCongestionMarking(nlohmann::json& cc) const override;
};

} // namespace ns3

#endif // LOSSY_ROCE_FABRIC_BUILDER_H
