/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_BUILDER_H
#define FABRIC_BUILDER_H

#include "scenario-config.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/load-balancing-registry.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-fabric.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RouteTable;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief What the scenario runner knows of one fabric (--fabric): the defaults and
 * values it resolves in the configuration, how it builds the fabric from it, and its
 * part of summary.json.
 *
 * One subclass per fabric (RoceFabricBuilder, IbFabricBuilder), registered by name in
 * FabricBuilderRegistry with one line in its .cc file:
 * \code
 *   static FabricBuilderRegistration<MyFabricBuilder> g_registration("name", "one line");
 * \endcode
 * The runner makes the builder of --fabric once and asks it, never the fabric's name,
 * as ns-3 code asks a TcpCongestionOps rather than which algorithm it is. Everything
 * else (workloads, monitors, the deadlock and buffer checks, pcaps) talks to the
 * RdmaFabric that Build returns.
 */
class FabricBuilder
{
  public:
    /// What Build uses besides the configuration.
    struct Context
    {
        Ptr<TopologyGraph> graph; //!< the topology (--topology)
        Ptr<RouteTable> routes;   //!< its routes (--routing)
        /// --mpi: the rank of each graph node (RdmaFabricHelper::SetPartition); empty in
        /// one process
        std::vector<uint32_t> partition;
        /// --ns3:: overrides of the congestion-control algorithm's attributes, as
        /// (attribute, value): they win over its preset's values
        std::vector<std::pair<std::string, std::string>> ccOverrides;
    };

    /// The link layer of the fabric's NICs and switches: which knobs apply to it.
    enum class LinkLayer
    {
        ETHERNET,   //!< RoCEv2's Ethernet switches and NICs: PFC, ECN, pause storms
        INFINIBAND, //!< IB HCAs and switches: credit-based links, VLs, the SM
    };

    virtual ~FabricBuilder();

    /**
     * \return the link layer of the fabric's devices: the knobs that configure one
     * (--buffer, --pfc-storm on Ethernet; --ib-pcap-format on InfiniBand) apply by it.
     * The default: ETHERNET.
     */
    virtual LinkLayer GetLinkLayer() const;
    /**
     * \return resident bytes per cable of a built fabric (both ends' devices and queues),
     * for MemoryEstimate. The default: MemoryEstimate::ROCE_BYTES_PER_CABLE.
     */
    virtual uint64_t GetBytesPerCable() const;
    /**
     * \return whether the fabric's Ethernet links carry PFC (802.1Qbb): then --pfc and the
     * PFC knobs (watchdog, storms, lossy headroom) apply. The default: true on ETHERNET.
     */
    virtual bool CarriesPfc() const;

    /**
     * Set the attribute defaults this fabric needs under configuration \p c
     * (Config::SetDefault), before the --ns3:: overrides are applied (so they win).
     * The default: none.
     */
    virtual void ConfigureDefaults(const ScenarioConfig& c) const;
    /**
     * \return whether the switches mark ECN CE (EcnMarker): then --ecn resolves to the
     * value used and --kmin, --kmax and --pmax apply. The default: false (the
     * configuration's --ecn stays as given).
     */
    virtual bool MarksEcn() const;
    /**
     * \param cc the algorithm of --cc
     * \return the preset that runs when --cc-preset is '' (the default: the algorithm's
     * default preset, its attributes' defaults)
     */
    virtual std::string DefaultCcPreset(const CongestionControlRegistry::Entry& cc) const;
    /**
     * Build the fabric of configuration \p c on \p ctx's graph and routes (resolved:
     * --cc-preset names the preset that runs).
     * \throws ConfigError naming the flag, its value and what is allowed
     */
    virtual Ptr<RdmaFabric> Build(const ScenarioConfig& c, const Context& ctx) = 0;
    /**
     * Add the fabric's congestion marking as run (its switches' ECN or FECN marking) to
     * \p cc, summary.json's "congestion_control" block.
     */
    virtual void AddCongestionMarking(nlohmann::json& cc) const = 0;
    /// \return every switch's SwitchLatency and CutThrough in force, once Build ran
    /// (summary.json "switch_forwarding")
    std::pair<Time, bool> GetSwitchTiming() const;

    /// \return an object's attributes (its class's and its parents'), each as its text value
    static nlohmann::json AttributesJson(Ptr<Object> object);
    /// \return the value attribute \p attribute of TypeId \p type gives the next object (its
    /// default, or what Config::SetDefault or a --ns3:: override made it), as text
    static std::string DefaultOf(const std::string& type, const std::string& attribute);

  protected:
    /**
     * --switch-latency and --cut-through on the switches \p helper makes (a SwitchT
     * each); records the values in force for GetSwitchTiming: where unset, what a
     * SwitchT takes by default (its attributes' defaults, or what
     * --ns3::...::SwitchLatency set).
     */
    template <typename SwitchT>
    void ApplySwitchTiming(const ScenarioConfig& c, RdmaFabricHelper& helper);
    /// --kmin, --kmax, --pmax: absolute ECN thresholds from the user replace the
    /// rate-scaled defaults (EcnMarker's ScaleWithRate off).
    static void ApplyEcnThresholds(const ScenarioConfig& c);
    /// Give \p helper's congestion-control factory \p ctx's --ns3:: overrides.
    static void ApplyCongestionControlOverrides(const Context& ctx, RdmaFabricHelper& helper);
    /**
     * The last steps of a fabric on RoCEv2's Ethernet switches (RoCEv2, UET): --cc with
     * its preset, the --ns3:: defaults over the preset's values, the switches' timing,
     * the rank's partition, Install on \p ctx's graph and routes, and --priority.
     * \p fabric names the fabric in Install's errors ("--fabric=rocev2: ..."). A
     * template: \p helper's own Install runs (UetFabricHelper's hides RoceFabricHelper's).
     */
    template <typename EthernetHelperT>
    Ptr<RoceFabric> InstallEthernet(EthernetHelperT& helper,
                                    const ScenarioConfig& c,
                                    const Context& ctx,
                                    const std::string& fabric);
    /// \return the --lb policy \p name (the knob allows only registered names)
    /// \throws ConfigError naming it
    static const LoadBalancingRegistry::Entry& LoadBalancing(const std::string& name);

  private:
    std::pair<Time, bool> m_switchTiming{Time(0), false}; //!< ApplySwitchTiming's values
};

template <typename SwitchT>
void
FabricBuilder::ApplySwitchTiming(const ScenarioConfig& c, RdmaFabricHelper& helper)
{
    if (c.switchLatency)
    {
        helper.SetSwitchAttribute("SwitchLatency", TimeValue(*c.switchLatency));
    }
    if (c.cutThrough)
    {
        helper.SetSwitchAttribute("CutThrough", BooleanValue(*c.cutThrough));
    }
    Ptr<SwitchT> probe = CreateObject<SwitchT>();
    TimeValue latency;
    BooleanValue cutThrough;
    probe->GetAttribute("SwitchLatency", latency);
    probe->GetAttribute("CutThrough", cutThrough);
    m_switchTiming = {c.switchLatency.value_or(latency.Get()),
                      c.cutThrough.value_or(cutThrough.Get())};
}

template <typename EthernetHelperT>
Ptr<RoceFabric>
FabricBuilder::InstallEthernet(EthernetHelperT& helper,
                               const ScenarioConfig& c,
                               const Context& ctx,
                               const std::string& fabric)
{
    try
    {
        helper.SetCongestionControl(c.cc, c.ccPreset);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--cc=") + c.cc + " --cc-preset=" + c.ccPreset + ": " +
                          e.what());
    }
    // --ns3:: defaults win over the preset's marking and controller values
    c.ApplyAttributes();
    ApplyCongestionControlOverrides(ctx, helper);
    ApplySwitchTiming<RoceSwitch>(c, helper);
    if (!ctx.partition.empty())
    {
        helper.SetPartition(ctx.partition);
    }
    Ptr<RoceFabric> installed;
    try
    {
        installed = helper.Install(ctx.graph, ctx.routes);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError("--fabric=" + fabric + ": " + e.what());
    }
    installed->SetPriority(static_cast<uint8_t>(c.priority));
    return installed;
}

} // namespace ns3

#endif // FABRIC_BUILDER_H
