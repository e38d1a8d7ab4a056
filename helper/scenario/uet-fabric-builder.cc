/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-fabric-builder.h"

#include "fabric-builder-registry.h"

#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/double.h"
#include "ns3/ecn-marker.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/string.h"
#include "ns3/uet-fabric-helper.h"
#include "ns3/uet-nic.h"
#include "ns3/uet-trimmer.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

static FabricBuilderRegistration<UetFabricBuilder> g_registration(
    "uet",
    "Ultra Ethernet transport: per-packet spraying, selective recovery, packet trimming, "
    "no PFC (--cc=nscc; doc/uet.md)");

bool
UetFabricBuilder::CarriesPfc() const
{
    return false;
}

bool
UetFabricBuilder::MarksEcn() const
{
    return true;
}

void
UetFabricBuilder::ConfigureDefaults(const ScenarioConfig& /* c */) const
{
    const std::vector<std::pair<std::string, std::string>> uet{{"ScaleWithRate", "false"},
                                                               {"Kmin", "20000"},
                                                               {"Kmax", "80000"},
                                                               {"Pmax", "1"}};
    for (const auto& [name, value] : uet)
    {
        if (m_savedEcnDefaults.size() < uet.size())
        {
            m_savedEcnDefaults.emplace_back(name, DefaultOf("ns3::EcnMarker", name));
        }
        Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
    }
}

UetFabricBuilder::~UetFabricBuilder()
{
    for (const auto& [name, value] : m_savedEcnDefaults)
    {
        Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
    }
}

Ptr<RdmaFabric>
UetFabricBuilder::Build(const ScenarioConfig& c, const Context& ctx)
{
    if (c.recovery == "gbn")
    {
        throw ConfigError("--recovery=gbn: --fabric=uet delivers unordered (PDS RUD) and "
                          "recovers selectively; allowed: auto or sr");
    }
    if (c.nicEntropy != 1)
    {
        throw ConfigError("--nic-entropy=" + std::to_string(c.nicEntropy) +
                          ": --fabric=uet sprays every packet over "
                          "ns3::UetNic::SprayEntropies entropy values; allowed: 1 (set "
                          "--ns3::UetNic::SprayEntropies instead)");
    }
    if (c.pfc && c.IsGiven("pfc"))
    {
        // (--pfc defaults to 1 for RoCEv2; given, it asks for what UET does not do.)
        throw ConfigError("--pfc=1: --fabric=uet runs without PFC (trimming, selective "
                          "recovery and NSCC/RCCC instead; doc/uet.md); allowed: --pfc=0 or "
                          "no --pfc");
    }
    if (c.verb == "read")
    {
        throw ConfigError("--verb=read: --fabric=uet frames WRITEs and SENDs (UET_WRITE, "
                          "UET_SEND), not READs yet; allowed: write or send");
    }
    if (ctx.routes->GetNumClasses() > 1)
    {
        throw ConfigError("--routing=" + c.routing + " needs " +
                          std::to_string(ctx.routes->GetNumClasses()) +
                          " routing classes on this topology; --fabric=uet runs one class "
                          "without PFC: allowed with --fabric=rocev2 or infiniband");
    }
    const CongestionControlRegistry::Entry& cc = CongestionControlRegistry::Get(c.cc);
    if (cc.usesInt || (cc.usesEcn && !cc.ecnEchoInAck && c.cc != "none"))
    {
        // UET frames carry no INT block and UET has no CNP (ECN comes back in ACKs);
        // "none" reads no signal at all.
        std::string allowed;
        for (const std::string& name : CongestionControlRegistry::GetNames())
        {
            const CongestionControlRegistry::Entry& e = CongestionControlRegistry::Get(name);
            if (!e.usesInt && (!e.usesEcn || e.ecnEchoInAck || name == "none"))
            {
                allowed += (allowed.empty() ? "" : ", ") + name;
            }
        }
        throw ConfigError("--cc=" + c.cc + ": --fabric=uet carries " +
                          (cc.usesInt ? "no in-band telemetry" : "no CNP (ECN is echoed in ACKs)") +
                          "; allowed: " + allowed);
    }
    UetFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    helper.SetSwitchAttribute("EcnEnabled", BooleanValue(c.ecn.value_or(true)));
    helper.SetNicAttribute("EcnCapable", BooleanValue(c.ecn.value_or(true)));
    helper.SetSwitchAttribute("ClassBasePriority", UintegerValue(c.priority));
    helper.SetMmuAttribute("BufferSize", UintegerValue(c.buffer));
    helper.SetEgressPolicy(LoadBalancing(c.lb).roceEgressPolicy);
    helper.SetTrimming(true);
    ApplyEcnThresholds(c);
    m_fabric = InstallEthernet(helper, c, ctx, "uet");
    return m_fabric;
}

void
UetFabricBuilder::AddCongestionMarking(nlohmann::json& cc) const
{
    cc["ecn_marker"] = AttributesJson(CreateObject<EcnMarker>());
    nlohmann::json trimmer = {{"attributes", AttributesJson(CreateObject<UetTrimmer>())}};
    if (m_fabric)
    {
        uint64_t total = 0;
        uint64_t headersDropped = 0;
        nlohmann::json ports = nlohmann::json::array();
        const auto& switches = m_fabric->GetSwitches();
        for (uint32_t i = 0; i < switches.size(); ++i)
        {
            const Ptr<UetTrimmer> t = switches[i] ? switches[i]->GetTrimmer() : nullptr;
            for (uint32_t port = 0; t && port < switches[i]->GetNPorts(); ++port)
            {
                headersDropped += t->GetTrimDropped(port);
                if (const uint64_t n = t->GetTrimmed(port); n != 0)
                {
                    total += n;
                    ports.push_back(
                        {{"node", m_fabric->GetSwitchNode(i)}, {"port", port}, {"trimmed", n}});
                }
            }
        }
        uint64_t received = 0;
        uint64_t nacks = 0;
        uint64_t recycled = 0;
        uint64_t credits = 0;
        uint64_t penalties = 0;
        uint64_t sacks = 0;
        uint64_t sackLosses = 0;
        uint64_t avoided = 0;
        for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
        {
            const Ptr<UetNic> nic = DynamicCast<UetNic>(m_fabric->GetNic(h));
            if (nic)
            {
                received += nic->GetTrimmedReceived();
                nacks += nic->GetTrimNacksReceived();
                recycled += nic->GetRepsRecycled();
                credits += nic->GetCreditsSent();
                penalties += nic->GetPathPenalties();
                sacks += nic->GetSacksSent();
                sackLosses += nic->GetSackLosses();
                avoided += nic->GetPathsAvoided();
            }
        }
        trimmer["trimmed"] = total;
        trimmer["trimmed_ports"] = ports;
        trimmer["trimmed_received"] = received;
        trimmer["trim_nacks_received"] = nacks;
        trimmer["headers_dropped"] = headersDropped;
        cc["rccc"] = {{"credits_sent", credits}};
        cc["sack"] = {{"sacks_sent", sacks}, {"losses_resent", sackLosses}};
        cc["spraying"] = {{"reps_recycled", recycled},
                          {"path_penalties", penalties},
                          {"packets_off_penalized_paths", avoided}};
    }
    cc["trimmer"] = trimmer;
}

} // namespace ns3
