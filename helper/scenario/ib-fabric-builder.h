/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_FABRIC_BUILDER_H
#define IB_FABRIC_BUILDER_H

#include "fabric-builder.h"

namespace ns3
{

class IbFabricHelper;

/**
 * \ingroup ai-fabric
 * \brief --fabric=infiniband: an IbFabric from IbFabricHelper, with an InfiniBand path
 * MTU (--mtu), static or adaptive routing (--lb), the IBTA congestion control's switch
 * half under --cc=ibta, and the records of its pcaps (--ib-pcap-format).
 */
class IbFabricBuilder : public FabricBuilder
{
  public:
    /// INFINIBAND: credit-based links, VLs.
    LinkLayer GetLinkLayer() const override;
    /// MemoryEstimate::IB_BYTES_PER_CABLE.
    uint64_t GetBytesPerCable() const override;
    /// --cc=ibta: the switches' FECN marking and a BECN per FECN (Annex A10).
    void ConfigureDefaults(const ScenarioConfig& c) const override;
    Ptr<RdmaFabric> Build(const ScenarioConfig& c, const Context& ctx) override;
    /// "fecn_marking": the switches' FECN marking and the destination's BECN pacing.
    void AddCongestionMarking(nlohmann::json& cc) const override;

  private:
    /// --lb: static (the SM's LFTs) or the switches' adaptive routing; else refused.
    static void SetLoadBalancing(const ScenarioConfig& c, IbFabricHelper& helper);
};

} // namespace ns3

#endif // IB_FABRIC_BUILDER_H
