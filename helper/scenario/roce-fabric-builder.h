/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_FABRIC_BUILDER_H
#define ROCE_FABRIC_BUILDER_H

#include "fabric-builder.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief --fabric=rocev2: a RoceFabric from RoceFabricHelper, with PFC (--pfc) on the
 * routing classes' priorities from --priority up, the switches' ECN marking (--ecn,
 * --kmin, --kmax, --pmax, the preset's congestion point), the shared buffer (--buffer)
 * and the egress policy of --lb.
 */
class RoceFabricBuilder : public FabricBuilder
{
  public:
    /// The switches mark ECN CE: --ecn and the marking thresholds apply.
    bool MarksEcn() const override;
    /// The preset a RoCEv2 scenario uses (the algorithm's scenarioPreset) if it names
    /// one, else its default preset.
    std::string DefaultCcPreset(const CongestionControlRegistry::Entry& cc) const override;
    Ptr<RdmaFabric> Build(const ScenarioConfig& c, const Context& ctx) override;
    /// "ecn_marker": the attributes of the switches' EcnMarker (before the per-port
    /// scaling with the link rate).
    void AddCongestionMarking(nlohmann::json& cc) const override;

  private:
    /**
     * The switches' ECN marking as defaults of ns3::EcnMarker: the preset's congestion
     * point (CongestionControlRegistry switchValues), then --kmin, --kmax, --pmax.
     * \throws ConfigError for a preset the algorithm does not have
     */
    static void ConfigureEcnMarking(const ScenarioConfig& c);
};

} // namespace ns3

#endif // ROCE_FABRIC_BUILDER_H
