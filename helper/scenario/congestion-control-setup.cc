/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-control-setup.h"

#include "fabric-builder.h"

#include "ns3/config-error.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

namespace ns3
{

namespace
{

/// Where attribute \p attr of \p tid is declared (itself or a parent), and whether found.
bool
DeclaringType(TypeId tid, const std::string& attr, TypeId* declaring)
{
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attr)
            {
                *declaring = t;
                return true;
            }
        }
        if (t.GetParent() == t)
        {
            return false;
        }
    }
}

} // namespace

std::vector<std::pair<std::string, std::string>>
CongestionControlSetup::Overrides(const ScenarioConfig& c)
{
    std::vector<std::pair<std::string, std::string>> out;
    if (!CongestionControlRegistry::Has(c.cc))
    {
        return out;
    }
    TypeId cc = TypeId::LookupByName(CongestionControlRegistry::Get(c.cc).typeName);
    for (const auto& [name, value] : c.attributes)
    {
        const size_t sep = name.rfind("::");
        const std::string attr = name.substr(sep + 2);
        TypeId declaring;
        TypeId named = TypeId::LookupByName(name.substr(0, sep));
        // an attribute the chosen algorithm has (its own or its base's), named through
        // that algorithm or a base class of it
        if (DeclaringType(cc, attr, &declaring) && (cc == named || cc.IsChildOf(named)))
        {
            out.emplace_back(attr, value);
        }
    }
    return out;
}

void
CongestionControlSetup::Resolve(ScenarioConfig& c, const FabricBuilder& builder)
{
    const bool ecnGiven = c.ecn.has_value();
    if (!c.ecn && builder.MarksEcn())
    {
        // An algorithm that reacts to delay alone (Swift, TIMELY: usesEcn false) gets
        // no marking, hence no CNP, unless --ecn=1 asks for it. Echoed as the value used.
        // TCP flows negotiate ECN (RFC 3168; DCTCP needs it): marking on.
        c.ecn = c.GetTransport() == ScenarioConfig::Transport::TCP ||
                !CongestionControlRegistry::Has(c.cc) ||
                CongestionControlRegistry::Get(c.cc).usesEcn;
    }
    if (c.ecn == false && builder.MarksEcn())
    {
        // Marking thresholds with marking off would be ignored without a word.
        for (const char* flag : {"kmin", "kmax", "pmax"})
        {
            if (!c.Get(flag).empty())
            {
                throw ConfigError("--" + std::string(flag) + "=" + c.Get(flag) +
                                  " has no effect: ECN marking is off (" +
                                  (ecnGiven ? std::string("--ecn=0")
                                            : "--cc=" + c.cc + " marks nothing unless --ecn=1") +
                                  "); drop it or give --ecn=1");
            }
        }
    }
    if (!c.ccPreset.empty() || !CongestionControlRegistry::Has(c.cc))
    {
        return;
    }
    // '' becomes the preset that runs, so that summary.json and the printed header name
    // it: the fabric's choice (RoCEv2 takes the preset an algorithm names for it: DCQCN's
    // paper preset does not converge to fairness within 10 ms at 100 Gb/s, doc/dcqcn.md,
    // validation, so DCQCN names the HPCC simulator's), by default the attribute
    // defaults, which are the algorithm's default preset.
    c.ccPreset = builder.DefaultCcPreset(CongestionControlRegistry::Get(c.cc));
}

nlohmann::json
CongestionControlSetup::ToJson(const ScenarioConfig& c, const FabricBuilder& builder)
{
    // What the preset and any --ns3:: overrides set: the controller's attributes and,
    // on RoCEv2, the switches' ECN marking (before the per-port scaling with the
    // link rate).
    CongestionControlFactory used(c.cc, c.ccPreset);
    for (const auto& [attr, value] : Overrides(c))
    {
        used.Set(attr, StringValue(value));
    }
    nlohmann::json cc = {{"algorithm", c.cc},
                         {"preset", c.ccPreset},
                         {"attributes", FabricBuilder::AttributesJson(used.Create())}};
    builder.AddCongestionMarking(cc); // (the switches' ECN or FECN marking)
    return cc;
}

} // namespace ns3
