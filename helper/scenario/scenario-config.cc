/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-config.h"

#include "cluster-preset.h"
#include "exit-status.h"
#include "fabric-builder-registry.h"
#include "size-parser.h"
#include "strict-json.h"

#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-protocol.h"
#include "ns3/collective-workload.h"
#include "ns3/command-line.h"
#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/ets-weights.h"
#include "ns3/ib-qos-policy.h"
#include "ns3/integer.h"
#include "ns3/load-balancing-registry.h"
#include "ns3/log.h"
#include "ns3/nccl-tuning-model.h"
#include "ns3/rank-partition.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-fabric.h"
#include "ns3/rounded-time.h"
#include "ns3/routing-engine-registry.h"
#include "ns3/string.h"
#include "ns3/tcp-flow-transport.h"
#include "ns3/topology-registry.h"
#include "ns3/uinteger.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioConfig");

namespace
{

/// Why Config::SetDefaultFailSafe refused --Class::Attribute=value: no such class, no
/// such attribute of it, or a value its checker does not allow (named with what is).
std::string
AttributeOverrideError(const std::string& name, const std::string& value)
{
    const std::string flag = "--" + name + "=" + value + ": ";
    const size_t sep = name.rfind("::");
    TypeId tid;
    if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid))
    {
        return flag + "no such ns-3 class (expected --ns3::Class::Attribute=value)";
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name.substr(sep + 2), &info))
    {
        return flag + tid.GetName() + " has no attribute '" + name.substr(sep + 2) +
               "' (see --PrintAttributes=" + tid.GetName() + ")";
    }
    std::string allowed = info.checker->HasUnderlyingTypeInformation()
                              ? info.checker->GetUnderlyingTypeInformation()
                              : info.checker->GetValueTypeName();
    return flag + "'" + value + "' is not allowed (allowed: " + allowed + ")";
}

using Knob = ScenarioConfig::KnobInfo;
using Type = ScenarioConfig::KnobType;

std::string
Join(const std::vector<std::string>& items, const char* sep = ", ")
{
    std::string s;
    for (const auto& item : items)
    {
        s += (s.empty() ? "" : sep) + item;
    }
    return s;
}

std::vector<std::string>
Names(const std::vector<ScenarioConfig::NamedType>& types)
{
    std::vector<std::string> names;
    for (const auto& t : types)
    {
        names.push_back(t.name);
    }
    return names;
}

std::string
RangeText(uint64_t lo, uint64_t hi)
{
    if (hi == std::numeric_limits<uint64_t>::max() || hi == std::numeric_limits<uint32_t>::max())
    {
        return "an integer >= " + std::to_string(lo);
    }
    return "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
}

/// Strict decimal integer in [lo, hi]: no sign, no fraction, no trailing text.
uint64_t
ParseUnsigned(const std::string& v, uint64_t lo, uint64_t hi)
{
    uint64_t x = 0;
    const char* end = v.data() + v.size();
    auto [ptr, ec] = std::from_chars(v.data(), end, x);
    if (v.empty() || ptr != end || ec == std::errc::invalid_argument)
    {
        throw ConfigError("'" + v + "' is not an integer; allowed " + RangeText(lo, hi));
    }
    if (ec == std::errc::result_out_of_range || x < lo || x > hi)
    {
        throw ConfigError("'" + v + "' is out of range; allowed " + RangeText(lo, hi));
    }
    return x;
}

/// Strict real number: digits, '.', exponent; no inf/nan/hex.
double
ParseReal(const std::string& v)
{
    const bool charsOk = !v.empty() && v.find_first_not_of("0123456789.eE+-") == std::string::npos;
    double x = 0;
    const char* end = v.data() + v.size();
    auto [ptr, ec] = std::from_chars(v.data(), end, x);
    if (!charsOk || ptr != end || ec != std::errc() || !std::isfinite(x))
    {
        throw ConfigError("'" + v + "' is not a number");
    }
    return x;
}

/// Shortest text that parses back to the same double (deterministic, round-trips).
std::string
FormatReal(double x)
{
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), x);
    NS_ASSERT(ec == std::errc());
    return std::string(buf, ptr);
}

bool
FileExists(const std::string& path)
{
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

/// Levenshtein distance, for "did you mean" hints.
std::size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string
Normalize(std::string name)
{
    std::replace(name.begin(), name.end(), '_', '-');
    return name;
}

/// " (did you mean '--fanin'?)" or "".
std::string
Suggestion(const std::string& name, const char* prefix)
{
    const std::string n = Normalize(name);
    const Knob* best = nullptr;
    // Farther than 2 edits, or than half the name, is noise.
    std::size_t bestDistance = std::max<std::size_t>(2, n.size() / 2) + 1;
    for (const auto& knob : ScenarioConfig::Knobs())
    {
        const std::size_t d = EditDistance(n, knob.name);
        if (d < bestDistance)
        {
            bestDistance = d;
            best = &knob;
        }
    }
    return best ? std::string("; did you mean '") + prefix + best->name + "'?" : std::string();
}

std::string
UnknownFlagMessage(const std::string& name)
{
    return "unknown flag '--" + name + "'; run with --help for the list" + Suggestion(name, "--");
}

/// "0" or "1" as a bool; nothing for any other text.
std::optional<bool>
ParseBit(const std::string& v)
{
    if (v.size() == 1 && (v[0] == '0' || v[0] == '1'))
    {
        return v[0] == '1';
    }
    return std::nullopt;
}

Knob
MakeKnob(const std::string& name,
         const std::string& help,
         const std::string& allowed,
         Type type,
         std::function<void(ScenarioConfig&, const std::string&)> set,
         std::function<std::string(const ScenarioConfig&)> get,
         bool optional = false)
{
    return Knob{name, help, allowed, "", type, optional, std::move(set), std::move(get)};
}

Knob
Choice(const std::string& name,
       const std::string& help,
       std::string ScenarioConfig::*member,
       const std::vector<std::string>& options)
{
    const std::string list = Join(options);
    return MakeKnob(
        name,
        help,
        list,
        Type::CHOICE,
        [member, options, list](ScenarioConfig& c, const std::string& v) {
            if (std::find(options.begin(), options.end(), v) == options.end())
            {
                throw ConfigError("'" + v + "' is not one of " + list);
            }
            c.*member = v;
        },
        [member](const ScenarioConfig& c) { return c.*member; });
}

template <typename T>
Knob
Unsigned(const std::string& name,
         const std::string& help,
         T ScenarioConfig::*member,
         uint64_t lo,
         uint64_t hi = std::numeric_limits<T>::max())
{
    return MakeKnob(
        name,
        help,
        RangeText(lo, hi),
        Type::INTEGER,
        [member, lo, hi](ScenarioConfig& c, const std::string& v) {
            c.*member = static_cast<T>(ParseUnsigned(v, lo, hi));
        },
        [member](const ScenarioConfig& c) { return std::to_string(c.*member); });
}

Knob
Flag(const std::string& name, const std::string& help, bool ScenarioConfig::*member)
{
    return MakeKnob(
        name,
        help,
        "0 or 1",
        Type::FLAG,
        [member](ScenarioConfig& c, const std::string& v) {
            const std::optional<bool> bit = ParseBit(v);
            if (!bit)
            {
                throw ConfigError("'" + v + "' is not 0 or 1");
            }
            c.*member = *bit;
        },
        [member](const ScenarioConfig& c) { return std::string(c.*member ? "1" : "0"); });
}

Knob
Size(const std::string& name,
     const std::string& help,
     uint64_t ScenarioConfig::*member,
     uint64_t lo,
     uint64_t hi)
{
    const std::string range =
        FormatByteSize(lo) + ".." + FormatByteSize(std::min(hi, RdmaFabric::MAX_MESSAGE_BYTES));
    const std::string allowed =
        "a byte size " + range + " (suffix KB/MB/GB = 1000^n, KiB/MiB/GiB = 1024^n)";
    return MakeKnob(
        name,
        help,
        allowed,
        Type::SIZE,
        [member, lo, hi, allowed](ScenarioConfig& c, const std::string& v) {
            const uint64_t x = ParseByteSize(v);
            if (x < lo || x > hi)
            {
                throw ConfigError("'" + v + "' (" + std::to_string(x) +
                                  " bytes) is out of range; allowed " + allowed);
            }
            c.*member = x;
        },
        [member](const ScenarioConfig& c) { return FormatByteSize(c.*member); });
}

Knob
OptionalSize(const std::string& name,
             const std::string& help,
             std::optional<uint64_t> ScenarioConfig::*member)
{
    return MakeKnob(
        name,
        help,
        "'' (scale from link rate) or a byte size (suffix KB/MB = 1000^n, KiB/MiB = 1024^n)",
        Type::SIZE,
        [member](ScenarioConfig& c, const std::string& v) {
            if (v.empty())
            {
                (c.*member).reset();
                return;
            }
            c.*member = ParseByteSize(v);
        },
        [member](const ScenarioConfig& c) {
            return (c.*member) ? FormatByteSize(*(c.*member)) : std::string();
        },
        true);
}

Knob
Rate(const std::string& name, const std::string& help, DataRate ScenarioConfig::*member)
{
    return MakeKnob(
        name,
        help,
        "a positive ns-3 DataRate (e.g. 25Gbps, 100Gbps, 400Gbps)",
        Type::RATE,
        [member](ScenarioConfig& c, const std::string& v) {
            const DataRate r = ParseDataRate(v);
            if (r.GetBitRate() == 0)
            {
                throw ConfigError("'" + v + "' is not a positive data rate");
            }
            c.*member = r;
        },
        [member](const ScenarioConfig& c) { return FormatDataRate(c.*member); });
}

/// A number in (0, 1]: a share or fraction (--load, --scaleup-efficiency).
Knob
Fraction(const std::string& name, const std::string& help, double ScenarioConfig::*member)
{
    return MakeKnob(
        name,
        help,
        "a number in (0, 1]",
        Type::REAL,
        [member](ScenarioConfig& c, const std::string& v) {
            const double x = ParseReal(v);
            if (!(x > 0 && x <= 1))
            {
                throw ConfigError("'" + v + "' is out of range; allowed a number in (0, 1]");
            }
            c.*member = x;
        },
        [member](const ScenarioConfig& c) { return FormatReal(c.*member); });
}

Knob
TimeKnob(const std::string& name,
         const std::string& help,
         Time ScenarioConfig::*member,
         bool allowZero)
{
    return MakeKnob(
        name,
        help,
        (allowZero ? "a time in 0.." : "a time in (0, ") +
            std::to_string(static_cast<uint64_t>(MAX_TIME_SECONDS)) + (allowZero ? "s" : "s]") +
            " in ns-3 units (s, ms, us, ns, ps)",
        Type::TIME,
        [member, allowZero](ScenarioConfig& c, const std::string& v) {
            const Time t = ParseTime(v);
            if (!allowZero && t.IsZero())
            {
                throw ConfigError("'" + v + "' is not a positive time");
            }
            c.*member = t;
        },
        [member](const ScenarioConfig& c) { return FormatTime(c.*member); });
}

/// A file path: "" allowed (none) when optional; a non-empty one must exist.
Knob
Path(const std::string& name, const std::string& help, std::string ScenarioConfig::*member)
{
    return MakeKnob(
        name,
        help,
        "'' (none) or an existing file",
        Type::STRING,
        [member](ScenarioConfig& c, const std::string& v) {
            if (!v.empty() && !FileExists(v))
            {
                throw ConfigError("'" + v + "': no such file");
            }
            c.*member = v;
        },
        [member](const ScenarioConfig& c) { return c.*member; },
        true);
}

/// A 0/1 flag that may be unset (''): the runner (or the fabric) then decides.
Knob
OptionalFlag(const std::string& name,
             const std::string& help,
             const std::string& allowed,
             std::optional<bool> ScenarioConfig::*member)
{
    return MakeKnob(
        name,
        help,
        allowed,
        Type::FLAG,
        [member](ScenarioConfig& c, const std::string& v) {
            if (v.empty())
            {
                (c.*member).reset();
                return;
            }
            const std::optional<bool> bit = ParseBit(v);
            if (!bit)
            {
                throw ConfigError("'" + v + "' is not '', 0 or 1");
            }
            c.*member = *bit;
        },
        [member](const ScenarioConfig& c) {
            return (c.*member) ? std::string(*(c.*member) ? "1" : "0") : std::string();
        },
        true);
}

using Attr = ScenarioConfig::KnobAttribute;
/// What the runner's Config::SetDefault gives an attribute, from the configuration.
using AttrValue = std::function<Ptr<AttributeValue>(const ScenarioConfig&)>;

/// An attribute the knob sets whatever its value (a --ns3:: default of it is refused).
Attr
Always(const std::string& name, AttrValue value = nullptr)
{
    return Attr{name, nullptr, "", std::move(value)};
}

/// An attribute the knob sets when its value is not its default (Sets() adds the test).
Attr
WhenGiven(const std::string& name, AttrValue value = nullptr)
{
    return Attr{name, nullptr, "when not the default", std::move(value)};
}

/// An attribute the knob sets when \p when holds (\p condition says when, in words).
Attr
When(const std::string& name,
     const std::string& condition,
     std::function<bool(const ScenarioConfig&)> when)
{
    return Attr{name, std::move(when), condition, nullptr};
}

/// The runner's Config::SetDefault value of an attribute: member \p member as a V.
template <typename V, typename T>
AttrValue
Value(T ScenarioConfig::*member)
{
    return [member](const ScenarioConfig& c) { return Ptr<AttributeValue>(Create<V>(c.*member)); };
}

/**
 * \p knob, declaring the ns-3 attributes it sets.
 * \param example flags (the knob's first) under which it sets all of them, for the test
 *        that walks every knob; "" when the knob at its default does
 */
Knob
Sets(Knob knob, std::vector<Attr> attributes, const std::string& example = "")
{
    for (Attr& a : attributes)
    {
        if (!a.when && !a.condition.empty()) // WhenGiven
        {
            const std::string name = knob.name;
            a.when = [name](const ScenarioConfig& c) {
                const Knob* k = ScenarioConfig::FindKnob(name);
                return k->get(c) != k->defaultValue;
            };
        }
    }
    knob.attributes = std::move(attributes);
    knob.example = example;
    return knob;
}

/// --recovery's ns3::RdmaQueuePair::Recovery; auto: selective repeat when anything
/// reorders packets within a queue pair (per-packet load balancing, NIC spraying,
/// Valiant/UGAL): go-back-N would turn every reorder into a retransmission storm
/// (doc/load-balancing.md).
Ptr<AttributeValue>
RecoveryValue(const ScenarioConfig& c)
{
    static const std::map<std::string, std::string> kRecovery{{"gbn", "GoBackN"},
                                                              {"sr", "SelectiveRepeat"}};
    const auto chosen = kRecovery.find(c.recovery);
    if (chosen != kRecovery.end())
    {
        return Create<StringValue>(chosen->second);
    }
    const bool reorders =
        (LoadBalancingRegistry::Has(c.lb) && LoadBalancingRegistry::Get(c.lb).reorders) ||
        c.nicEntropy > 1 ||
        (RoutingEngineRegistry::Has(c.routing) && RoutingEngineRegistry::Get(c.routing).reorders);
    return Create<StringValue>(kRecovery.at(reorders ? "sr" : "gbn"));
}

/// --ack-interval's ns3::RdmaQueuePair::AckInterval (the runner resolves '' first).
Ptr<AttributeValue>
AckIntervalValue(const ScenarioConfig& c)
{
    return Create<UintegerValue>(c.ackInterval.value());
}

/// --collective-verb's ns3::RdmaCollectiveTransport::Verb: write -> Write, send -> Send.
Ptr<AttributeValue>
CollectiveVerbValue(const ScenarioConfig& c)
{
    std::string verb = c.collectiveVerb;
    verb[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(verb[0])));
    return Create<StringValue>(verb);
}

/// Whether --protocol-latency zeroes the protocols' step latencies (0; '' resolves to
/// 0 unless NCCL's tuner chose).
bool
ProtocolLatencyOff(const ScenarioConfig& c)
{
    return !c.protocolLatency.value_or(false);
}

/// Whether --cc's algorithm reads CE from the ACKs (DCTCP): the NICs must echo it.
bool
EchoesEcnInAck(const ScenarioConfig& c)
{
    return CongestionControlRegistry::Has(c.cc) &&
           CongestionControlRegistry::Get(c.cc).ecnEchoInAck;
}

/// Why a knob's value does not apply to a configuration ("" = it does).
using Refusal = std::function<std::string(const ScenarioConfig&)>;

/// \p knob, refused where \p refusal says it does not apply (KnobInfo::notApplicable).
Knob
Applies(Knob knob, Refusal refusal)
{
    knob.notApplicable = std::move(refusal);
    return knob;
}

/// Applies where \p applies holds; refused elsewhere because \p why.
Refusal
Only(std::function<bool(const ScenarioConfig&)> applies, const std::string& why)
{
    return [applies, why](const ScenarioConfig& c) { return applies(c) ? std::string() : why; };
}

/// The first of \p refusals that refuses.
Refusal
FirstOf(std::vector<Refusal> refusals)
{
    return [refusals](const ScenarioConfig& c) {
        for (const Refusal& r : refusals)
        {
            if (std::string why = r(c); !why.empty())
            {
                return why;
            }
        }
        return std::string();
    };
}

const char* const ROCE_SWITCH = "does not apply to --fabric=infiniband; it configures "
                                "--fabric=rocev2's switches (InfiniBand links are lossless "
                                "by credits)";
const char* const ROCE_PFC_STORM = "does not apply to --fabric=infiniband; PFC storms are "
                                   "--fabric=rocev2's (InfiniBand links have no pause frames)";
const char* const NEEDS_PFC = "needs --pfc=1: without PFC there are no pauses";
const char* const NO_PFC_ON_FABRIC = "does not apply: --fabric=uet's links carry no PFC (they "
                                     "trim instead); allowed with --fabric=rocev2";
const char* const NEEDS_PCAP = "needs --pcap=1: without it no pcap is written";
const char* const NEEDS_SEND =
    "needs --verb=send or --collective-verb=send: WRITEs consume no receive";
const char* const NEEDS_TCP = "needs --transport=tcp: RDMA flows use --cc";
const char* const NOT_READ_BY_TRAINING = "is not read by --workload=training: the --training "
                                         "file gives the GPUs (tp x pp x dp) and the sizes";

/// Whether --fabric's devices are InfiniBand's (its builder says).
bool
OnInfiniBand(const ScenarioConfig& c)
{
    return FabricBuilderRegistry::IsInfiniBand(c.fabric);
}

bool
OnRoce(const ScenarioConfig& c)
{
    return !OnInfiniBand(c);
}

/// Whether --fabric's links carry PFC (its builder says; UET's do not).
bool
CarriesPfc(const ScenarioConfig& c)
{
    return FabricBuilderRegistry::CarriesPfc(c.fabric);
}

bool
PfcOn(const ScenarioConfig& c)
{
    return c.pfc && CarriesPfc(c);
}

bool
PcapOn(const ScenarioConfig& c)
{
    return c.pcap;
}

bool
PcapOfInfiniBand(const ScenarioConfig& c)
{
    return c.pcap && OnInfiniBand(c);
}

bool
WatchdogOn(const ScenarioConfig& c)
{
    return c.pfcWatchdogDetect != Time(0);
}

bool
IsTcp(const ScenarioConfig& c)
{
    return c.GetTransport() == ScenarioConfig::Transport::TCP;
}

bool
NotTcp(const ScenarioConfig& c)
{
    return !IsTcp(c);
}

/// Whether a queue pair of this configuration receives SENDs (posts receives).
bool
Sends(const ScenarioConfig& c)
{
    return c.GetVerb() == ScenarioConfig::Verb::SEND ||
           c.GetCollectiveVerb() == ScenarioConfig::CollectiveVerb::SEND;
}

/// \return --workload's family (NONE for an unknown name, which its knob refuses)
WorkloadRegistry::Family
FamilyOf(const ScenarioConfig& c)
{
    return WorkloadRegistry::Has(c.workload)
               ? WorkloadRegistry::GetFamily(c.workload, c.gpusPerServer)
               : WorkloadRegistry::NONE;
}

bool
IsTraining(const ScenarioConfig& c)
{
    return FamilyOf(c) == WorkloadRegistry::TRAINING;
}

bool
NotTraining(const ScenarioConfig& c)
{
    return !IsTraining(c);
}

const char* const NOT_READ_BY_JOBS =
    "is not read by --workload=jobs: each job of the --jobs file gives its own size";

bool
NotJobs(const ScenarioConfig& c)
{
    return c.workload != "jobs";
}

/// --cc on InfiniBand: not an algorithm that reads in-band telemetry (INT).
bool
CarriesTelemetryIfNeeded(const ScenarioConfig& c)
{
    return !OnInfiniBand(c) || !CongestionControlRegistry::Has(c.cc) ||
           !CongestionControlRegistry::Get(c.cc).usesInt;
}

/// Whether --topology's family is sized by --\p flag (its TopologyRegistry entry).
bool
SizedBy(const ScenarioConfig& c, const std::string& flag)
{
    const std::vector<std::string> names = TopologyRegistry::GetNames();
    if (std::find(names.begin(), names.end(), c.topology) == names.end())
    {
        return false;
    }
    const std::vector<std::string>& flags = TopologyRegistry::Get(c.topology).flags;
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

bool
NotFromFile(const ScenarioConfig& c)
{
    return !SizedBy(c, "topology-file");
}

bool
HasCableLengths(const ScenarioConfig& c)
{
    return !c.cableLengths.empty();
}

bool
IsMpi(const ScenarioConfig& c)
{
    return c.mpi;
}

bool
NotMpi(const ScenarioConfig& c)
{
    return !c.mpi;
}

bool
QpCacheOn(const ScenarioConfig& c)
{
    return c.qpCache != 0;
}

/// Whether a knob's value is "auto" (NCCL's tuner, the runner's choice).
bool
IsAuto(const std::string& value)
{
    return CollectiveWorkload::IsTunerChoice(value);
}

/// NCCL's protocols and tuner are the collective workloads' (the training workload and
/// the point-to-point ones post no NCCL collective of their own choosing).
std::string
NcclApplies(const ScenarioConfig& c)
{
    if (FamilyOf(c) == WorkloadRegistry::COLLECTIVE)
    {
        return "";
    }
    return "needs a collective --workload (" +
           Join(WorkloadRegistry::GetNames(WorkloadRegistry::COLLECTIVE), ", ") +
           "); --workload=" + c.workload + " runs no NCCL collective";
}

std::string
AutoAlgorithmApplies(const ScenarioConfig& c)
{
    if (IsAuto(c.algorithm))
    {
        return NcclApplies(c);
    }
    // A collective workload whose operation registers neither the default nor the value
    // (alltoall on GPU servers: NCCL's point-to-point sends, its one schedule, which the
    // default selects); the others' unknown names are refused by CollectiveWorkload
    if (FamilyOf(c) == WorkloadRegistry::COLLECTIVE)
    {
        const CollectiveOp op = CollectiveOpFromString(c.workload);
        const std::vector<std::string> names = CollectiveAlgorithmRegistry::GetNames(op);
        auto has = [&names](const std::string& n) {
            return std::find(names.begin(), names.end(), n) != names.end();
        };
        if (!has(ScenarioConfig().algorithm) && !has(c.algorithm))
        {
            return "is not an algorithm of --workload=" + c.workload +
                   " (allowed: " + Join(names, ", ") + ", or the default)";
        }
    }
    return "";
}

/// --protocol=auto: the tuner picks among NCCL's algorithms, so --algorithm must be one.
std::string
AutoProtocolApplies(const ScenarioConfig& c)
{
    if (!IsAuto(c.protocol) || IsAuto(c.algorithm))
    {
        return "";
    }
    try
    {
        NcclAlgorithmFromString(c.algorithm);
    }
    catch (const std::invalid_argument&)
    {
        return "picks among NCCL's algorithms, and --algorithm=" + c.algorithm +
               " is not one: give --algorithm=ring, tree or auto, or a --protocol of ll, "
               "ll128, simple";
    }
    return "";
}

/// (the resolved default, 0, loads back from a summary.json)
std::string
ProtocolLatencyApplies(const ScenarioConfig& c)
{
    return c.protocolLatency.value_or(false) ? NcclApplies(c) : std::string();
}

/// Knobs of the collectives' transport: collective and training workloads.
std::string
CollectiveOrTrainingApplies(const ScenarioConfig& c)
{
    if (FamilyOf(c) == WorkloadRegistry::COLLECTIVE || FamilyOf(c) == WorkloadRegistry::TRAINING)
    {
        return "";
    }
    return "needs a collective --workload (" +
           Join(WorkloadRegistry::GetNames(WorkloadRegistry::COLLECTIVE), ", ") +
           ", or alltoall on GPU servers) or --workload=training; --workload=" + c.workload +
           " posts no collective message";
}

std::string
CollectiveVerbApplies(const ScenarioConfig& c)
{
    if (FamilyOf(c) == WorkloadRegistry::COLLECTIVE)
    {
        return "";
    }
    return "needs a collective --workload (" +
           Join(WorkloadRegistry::GetNames(WorkloadRegistry::COLLECTIVE), ", ") +
           "); --workload=" + c.workload + " posts no collective message";
}

std::string
VerbApplies(const ScenarioConfig& c)
{
    if (FamilyOf(c) == WorkloadRegistry::POINT_TO_POINT || !c.flows.empty() ||
        c.background != ScenarioConfig().background)
    {
        return "";
    }
    return "needs a point-to-point --workload, --flows or --background: --workload=" + c.workload +
           " alone posts none of them (--collective-verb sets a collective's verb)";
}

std::vector<uint32_t>
ParseDims(const std::string& v)
{
    const std::string bad =
        "'" + v + "' is not a dimension list; use sizes >= 2 joined by 'x', e.g. 8x8 or 4x4x4";
    std::vector<uint32_t> dims;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t x = v.find('x', start);
        const std::string part = v.substr(start, x == std::string::npos ? x : x - start);
        try
        {
            dims.push_back(static_cast<uint32_t>(ParseUnsigned(part, 2, 65535)));
        }
        catch (const ConfigError&)
        {
            throw ConfigError(bad);
        }
        if (x == std::string::npos)
        {
            break;
        }
        start = x + 1;
    }
    return dims;
}

/// The comma-separated items of a list flag: none for "", and an empty item for a
/// stray comma (its parser then names it).
std::vector<std::string>
SplitItems(const std::string& v)
{
    std::vector<std::string> items;
    if (v.empty())
    {
        return items;
    }
    std::size_t start = 0;
    for (;;)
    {
        const std::size_t comma = v.find(',', start);
        items.push_back(v.substr(start, comma == std::string::npos ? comma : comma - start));
        if (comma == std::string::npos)
        {
            return items;
        }
        start = comma + 1;
    }
}

/// One ID@START[-END] item of a list flag (--link-failure, --node-failure, --pfc-storm).
struct TimedItem
{
    uint32_t id; ///< link, node or host
    Time start;  ///< when it begins
    Time end;    ///< when it ends; 0 = never
};

/**
 * The items of a list of ID@START[-END] (\p endWhat non-null) or ID@START (null).
 * \param form how the item is written, e.g. "LINK@DOWN[-UP]"
 * \param idWhat what the id is, e.g. "a link id (the topology's cable order, from 0)"
 * \param endWhat what the optional end means, e.g. " when it comes back"
 * \param example e.g. "40@100us or 40@100us-2ms"
 * \param endError why an END not after START is refused, e.g. "the end must be later
 *        than the start"
 */
std::vector<TimedItem>
ParseTimedItems(const std::string& v,
                const std::string& form,
                const std::string& idWhat,
                const char* endWhat,
                const std::string& example,
                const std::string& endError)
{
    std::vector<TimedItem> out;
    for (const std::string& item : SplitItems(v))
    {
        const std::string bad =
            "'" + item + "' is not " + form + "; use " + idWhat + " '@' a time in ns-3 units" +
            (endWhat != nullptr ? ", optionally '-' a later time" + std::string(endWhat)
                                : std::string()) +
            ", e.g. " + example;
        const std::size_t at = item.find('@');
        if (at == std::string::npos)
        {
            throw ConfigError(bad);
        }
        const std::size_t dash = endWhat != nullptr ? item.find('-', at) : std::string::npos;
        TimedItem t{};
        try
        {
            t.id = static_cast<uint32_t>(ParseUnsigned(item.substr(0, at), 0, 0xFFFFFFFEu));
            t.start = ParseTime(
                item.substr(at + 1, dash == std::string::npos ? std::string::npos : dash - at - 1));
            t.end = dash == std::string::npos ? Time(0) : ParseTime(item.substr(dash + 1));
        }
        catch (const ConfigError&)
        {
            throw ConfigError(bad);
        }
        if (dash != std::string::npos && t.end <= t.start)
        {
            throw ConfigError("'" + item + "': " + endError);
        }
        out.push_back(t);
    }
    return out;
}

std::vector<ScenarioConfig::LinkFailure>
ParseLinkFailures(const std::string& v)
{
    std::vector<ScenarioConfig::LinkFailure> out;
    for (const TimedItem& t : ParseTimedItems(v,
                                              "LINK@DOWN[-UP]",
                                              "a link id (the topology's cable order, from 0)",
                                              " when it comes back",
                                              "40@100us or 40@100us-2ms",
                                              "the link must come back (UP) after it fails (DOWN)"))
    {
        out.push_back({t.id, t.start, t.end});
    }
    return out;
}

std::vector<ScenarioConfig::NodeFailure>
ParseNodeFailures(const std::string& v)
{
    std::vector<ScenarioConfig::NodeFailure> out;
    for (const TimedItem& t : ParseTimedItems(v,
                                              "NODE@TIME",
                                              "a switch's node id (hosts first, from 0)",
                                              nullptr,
                                              "32@100us",
                                              ""))
    {
        out.push_back({t.id, t.start});
    }
    return out;
}

std::vector<ScenarioConfig::HostFailure>
ParseHostFailures(const std::string& v)
{
    std::vector<ScenarioConfig::HostFailure> out;
    for (const TimedItem& t :
         ParseTimedItems(v, "HOST@TIME", "a host index (from 0)", nullptr, "5@300us", ""))
    {
        out.push_back({t.id, t.start});
    }
    return out;
}

/// "DETECT[,RESTORE]" of --pfc-watchdog into detect and restore (restore 0 if absent).
void
ParsePfcWatchdog(const std::string& v, Time& detect, Time& restore)
{
    if (v.empty())
    {
        detect = Time(0);
        restore = Time(0);
        return;
    }
    const std::size_t comma = v.find(',');
    const std::string bad = "'" + v +
                            "' is not DETECT[,RESTORE]; use one or two positive times in "
                            "ns-3 units, e.g. 100us or 100us,300us";
    Time d;
    Time r(0);
    try
    {
        d = ParseTime(v.substr(0, comma));
        if (comma != std::string::npos)
        {
            r = ParseTime(v.substr(comma + 1));
            if (r <= Time(0))
            {
                throw ConfigError(bad);
            }
        }
    }
    catch (const ConfigError&)
    {
        throw ConfigError(bad);
    }
    if (d <= Time(0))
    {
        throw ConfigError(bad);
    }
    detect = d;
    restore = r;
}

/// "HOST@START[-END][,...]" of --pfc-storm.
std::vector<ScenarioConfig::PfcStorm>
ParsePfcStorms(const std::string& v)
{
    std::vector<ScenarioConfig::PfcStorm> out;
    for (const TimedItem& t : ParseTimedItems(v,
                                              "HOST@START[-END]",
                                              "a host index",
                                              "",
                                              "3@100us-2ms",
                                              "the end must be later than the start"))
    {
        out.push_back({t.id, t.start, t.end});
    }
    return out;
}

/// The knobs of --cluster, --fabric and --topology.
void
ClusterAndFamilyKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    {
        const std::vector<std::string> names = ClusterPreset::GetNames();
        std::string list;
        for (const std::string& n : names)
        {
            list += (list.empty() ? "" : ", ") + n;
        }
        k.push_back(MakeKnob(
            "cluster",
            "hardware preset: sets the hardware flags of one cluster (GPUs per server, "
            "scale-up and NIC rates, host-interface cap, switch latency and buffer, ECN/PFC "
            "thresholds, MTU, cable lengths), each from a public source (doc/hardware.md), as "
            "if given; a flag given besides it wins; summary.json's \"cluster\" echoes "
            "every value and what was overridden",
            "'' (none), a preset name (" + list + ") or a JSON file",
            Type::STRING,
            [](C& c, const std::string& v) { c.ApplyCluster(v); },
            [](const C& c) { return c.cluster; },
            true));
    }
    {
        // The registered fabrics (FabricBuilderRegistry), each with its line.
        std::string help = "fabric:";
        for (const std::string& name : FabricBuilderRegistry::GetNames())
        {
            help += " " + name + " (" + FabricBuilderRegistry::Get(name).help + ");";
        }
        help.back() = '.';
        k.push_back(Choice("fabric", help, &C::fabric, FabricBuilderRegistry::GetNames()));
    }
    {
        // The registered families (TopologyRegistry), each with its line and flags.
        std::string help = "topology family:";
        for (const std::string& name : TopologyRegistry::GetNames())
        {
            const TopologyRegistry::Entry& e = TopologyRegistry::Get(name);
            help += " " + name + " (" + e.help + "; sized by";
            for (const std::string& flag : e.flags)
            {
                help += " --" + flag;
            }
            help += ");";
        }
        help.back() = '.';
        k.push_back(Choice("topology", help, &C::topology, TopologyRegistry::GetNames()));
    }
}

/// The knobs of the topology families' sizes and GPU servers.
void
TopologySizeKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Unsigned("k",
                         "fat-tree radix (even; Al-Fares: k^3/4 hosts, 5k^2/4 switches)",
                         &C::k,
                         2,
                         256));
    k.push_back(Unsigned("leaves", "leaf-spine: number of leaf switches", &C::leaves, 1, 65535));
    k.push_back(Unsigned("spines", "leaf-spine: number of spine switches", &C::spines, 1, 65535));
    k.push_back(Unsigned("hosts-per-switch",
                         "hosts attached to each leaf (leafspine) or router (torus, mesh)",
                         &C::hostsPerSwitch,
                         1,
                         65535));
    k.push_back(MakeKnob(
        "dims",
        "torus/mesh router grid: sizes joined by 'x' (dimension 0 first)",
        "sizes >= 2 joined by 'x' (e.g. 8x8, 4x4x4)",
        Type::STRING,
        [](C& c, const std::string& v) { c.dims = ParseDims(v); },
        [](const C& c) {
            std::vector<std::string> parts;
            for (uint32_t d : c.dims)
            {
                parts.push_back(std::to_string(d));
            }
            return Join(parts, "x");
        }));
    k.push_back(Unsigned("p", "dragonfly: hosts per router (Kim et al. 2008)", &C::p, 1, 65535));
    k.push_back(
        Unsigned("a", "dragonfly: routers per group (balanced: a = 2p = 2h)", &C::a, 1, 65535));
    k.push_back(Unsigned("h", "dragonfly: global links per router", &C::h, 1, 65535));
    k.push_back(Unsigned("g", "dragonfly: groups (at most a*h + 1)", &C::g, 1, 65535));
    k.push_back(Path("topology-file",
                     "topology file in the HPCC-derived simulators' format "
                     "(nodes switches links / switch ids / src dst rate delay error_rate)",
                     &C::topologyFile));
    k.push_back(Unsigned("servers", "rail: number of GPU servers", &C::servers, 1, 65535));
    k.push_back(Unsigned("rail-spines",
                         "rail: spine switches joining the rail leaves (0 = rail-only, "
                         "Wang et al. 2023; > 0 = rail-optimized)",
                         &C::railSpines,
                         0,
                         65535));
    k.push_back(
        Sets(Unsigned("gpus-per-server",
                      "GPUs per server (fattree, leafspine, rail): every G consecutive "
                      "hosts are one server's GPUs (host = server * G + GPU), joined by a "
                      "scale-up crossbar simulated at packet level; 1 = plain one-NIC hosts "
                      "(doc/gpu-servers.md)",
                      &C::gpusPerServer,
                      1,
                      1024),
             {Always("ns3::RdmaNic::HostsPerServer", Value<UintegerValue>(&C::gpusPerServer)),
              Always("ns3::RingAllreduce::GpusPerServer"),
              Always("ns3::RingCollective::GpusPerServer"),
              Always("ns3::TreeAllreduce::GpusPerServer"),
              Always("ns3::PairwiseAllToAll::GpusPerServer"),
              Always("ns3::TrainingEngine::GpusPerServer"),
              Always("ns3::ChakraEngine::GpusPerServer")}));
    k.push_back(Rate("scaleup-rate",
                     "GPU-to-crossbar (NVLink-like) rate per direction (3600Gbps: NVLink 4, "
                     "900 GB/s bidirectional per H100 GPU)",
                     &C::scaleUpRate));
    k.push_back(TimeKnob("scaleup-latency",
                         "GPU-to-crossbar cable delay (150ns: with the crossbar's forwarding, "
                         "~0.6 us per NVLink step as in NCCL's tuning model)",
                         &C::scaleUpLatency,
                         true));
    k.push_back(Fraction("scaleup-efficiency",
                         "payload share of the scale-up signalling rate (NVLink packet "
                         "headers and flow control): the GPU-to-crossbar cables carry "
                         "--scaleup-rate x this. 1 = the whole rate (default); NVLink 4: "
                         "0.824 (NCCL's 20.6 of 25 GB/s per link, doc/hardware.md)",
                         &C::scaleUpEfficiency));
}

/// The knobs of link rates, NIC injection cap, delays and cable lengths.
void
LinkKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Rate("host-rate", "host (NIC) link rate, ns-3 DataRate units", &C::hostRate));
    k.push_back(Sets(
        MakeKnob(
            "nic-injection-cap",
            "most payload a NIC takes from its host interface per second and direction "
            "(ns3::RdmaNic::InjectionCap): caps a NIC's data to other servers below --host-rate "
            "when lower; '' = no cap (default). PCIe Gen5 x16 ~ 57.6 GB/s = 460.8Gbps "
            "(doc/hardware.md)",
            "'' (no cap) or a positive ns-3 DataRate (e.g. 460.8Gbps)",
            Type::RATE,
            [](C& c, const std::string& v) {
                if (v.empty())
                {
                    c.nicInjectionCap = DataRate(0);
                    return;
                }
                const DataRate r = ParseDataRate(v);
                if (r.GetBitRate() == 0)
                {
                    throw ConfigError("'" + v +
                                      "' is not a positive data rate; allowed '' (no "
                                      "cap) or a positive rate");
                }
                c.nicInjectionCap = r;
            },
            [](const C& c) {
                return c.nicInjectionCap.GetBitRate() == 0 ? std::string()
                                                           : FormatDataRate(c.nicInjectionCap);
            },
            true),
        {Always("ns3::RdmaNic::InjectionCap", Value<DataRateValue>(&C::nicInjectionCap))}));
    k.push_back(Rate("fabric-rate", "switch-to-switch link rate", &C::fabricRate));
    k.push_back(TimeKnob("link-delay",
                         "propagation delay of every link (1us as in the HPCC-derived "
                         "simulators' topologies; fibre ~5 ns/m)",
                         &C::linkDelay,
                         true));
    k.push_back(Applies(
        MakeKnob(
            "cable-lengths",
            "cable length per tier in metres, 'L0[,L1[,L2]]': tier 0 host to its first switch, 1 "
            "the next switch layer (leaf-spine, edge-aggregation; torus/mesh router cables; "
            "DragonFly local), 2 aggregation-core (DragonFly global); the last value repeats "
            "for higher tiers; each cable's delay is length x --propagation-delay. Scale-up "
            "cables keep --scaleup-latency. '' = --link-delay on every cable. Not with "
            "--topology=file (its cables carry their delays) or a --link-delay other than its "
            "default; a given --link-delay withdraws a --cluster preset's lengths "
            "(doc/topologies.md, Cable tiers)",
            "'' or 1 to 3 lengths in metres, each > 0 and <= 100000, joined by ','",
            Type::STRING,
            [](C& c, const std::string& v) {
                std::vector<double> lengths;
                try
                {
                    lengths = TopologyHelper::ParseCableLengths(v);
                }
                catch (const std::invalid_argument& e)
                {
                    throw ConfigError(e.what());
                }
                std::vector<std::string> parts;
                for (double m : lengths)
                {
                    parts.push_back(FormatReal(m));
                }
                c.cableLengths = Join(parts, ",");
            },
            [](const C& c) { return c.cableLengths; },
            true),
        Only(NotFromFile,
             "does not apply to --topology=file: the file gives every cable its own delay; allowed "
             "with it: '' (drop --cable-lengths)")));
}

/// The knobs of propagation delay per metre and switch forwarding.
void
SwitchTimingKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(
        MakeKnob(
            "propagation-delay",
            "propagation delay per metre of cable, for --cable-lengths (5ns: light in silica "
            "fibre, group index ~1.47, travels ~2.04e8 m/s, 4.9 ns/m)",
            "a time in 1ps..100ns per metre, in ns-3 units (ns, ps)",
            Type::TIME,
            [](C& c, const std::string& v) {
                const Time t = ParseTime(v);
                try
                {
                    TopologyHelper::CheckPropagationDelay(t);
                }
                catch (const std::invalid_argument&)
                {
                    throw ConfigError("'" + v + "' is out of range; allowed a time in 1ps..100ns " +
                                      "per metre (fibre ~5ns)");
                }
                c.propagationDelay = t;
            },
            [](const C& c) { return FormatTime(c.propagationDelay); }),
        Only(HasCableLengths,
             "applies only with --cable-lengths (delay = length x it); give --cable-lengths or "
             "drop it")));
    k.push_back(Sets(
        MakeKnob(
            "switch-latency",
            "port-to-port forwarding latency of every switch, both fabrics; '' = the fabric's "
            "own (RoCEv2 300ns, NVIDIA Spectrum; InfiniBand 150ns, NVIDIA Quantum-2; sources in "
            "doc/switch-latency.md). summary.json switch_forwarding has the value in force",
            "'' or a time in 0.." + std::to_string(static_cast<uint64_t>(MAX_TIME_SECONDS)) +
                "s in ns-3 units (s, ms, us, ns, ps)",
            Type::TIME,
            [](C& c, const std::string& v) {
                if (v.empty())
                {
                    c.switchLatency.reset();
                    return;
                }
                c.switchLatency = ParseTime(v);
            },
            [](const C& c) {
                return c.switchLatency ? FormatTime(*c.switchLatency) : std::string();
            },
            true),
        {WhenGiven("ns3::RoceSwitch::SwitchLatency"), WhenGiven("ns3::IbSwitch::SwitchLatency")},
        "--switch-latency=200ns"));
    k.push_back(
        Sets(OptionalFlag(
                 "cut-through",
                 "switches forward cut-through (1: once the header is in and --switch-latency has "
                 "passed, never ending before the tail) or store-and-forward (0: the whole packet, "
                 "then --switch-latency), both fabrics; '' = the fabric's own (1 on both). "
                 "summary.json switch_forwarding has the value in force",
                 "'', 0 or 1",
                 &C::cutThrough),
             {WhenGiven("ns3::RoceSwitch::CutThrough"), WhenGiven("ns3::IbSwitch::CutThrough")},
             "--cut-through=0"));
}

/// The knobs of MTU, sizes, switch buffer and PFC.
void
PacketAndBufferKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Sets(Unsigned("mtu",
                              "payload bytes per packet (RoCE path MTUs carry 1024 or 4096 payload "
                              "bytes; 1000 as in the HPCC-derived simulators)",
                              &C::mtu,
                              256,
                              9000),
                     {Always("ns3::RoceNic::Mtu"), Always("ns3::IbHca::Mtu")}));
    k.push_back(Applies(
        Size("bytes",
             "bytes per message (incast, permutation, alltoall) or per collective "
             "buffer (nccl-tests' size)",
             &C::bytes,
             1,
             std::numeric_limits<uint64_t>::max()),
        FirstOf({Only(NotTraining, NOT_READ_BY_TRAINING), Only(NotJobs, NOT_READ_BY_JOBS)})));
    k.push_back(Applies(Sets(Size("buffer",
                                  "switch shared buffer in bytes (32MB as in the HPCC-derived "
                                  "simulators)",
                                  &C::buffer,
                                  1000,
                                  std::numeric_limits<uint64_t>::max()),
                             {Always("ns3::SharedBufferMmu::BufferSize")}),
                        Only(OnRoce, ROCE_SWITCH)));
    k.push_back(Applies(Sets(Flag("pfc", "802.1Qbb PFC on the RDMA priority (RoCEv2)", &C::pfc),
                             {Always("ns3::RoceNetDevice::PfcEnabled"),
                              Always("ns3::SharedBufferMmu::LosslessPriorities")}),
                        Only(OnRoce, ROCE_SWITCH)));
    k.push_back(Applies(
        Sets(Flag("allow-lossy-headroom",
                  "accept a PFC headroom (--ns3::SharedBufferMmu::HeadroomBytes) below "
                  "what a port's round trip needs, breaking lossless on purpose "
                  "(summary.json: lossless_broken_on_purpose); otherwise it is refused "
                  "with the minimum",
                  &C::allowLossyHeadroom),
             {Always("ns3::SharedBufferMmu::AllowLossyHeadroom")}),
        FirstOf(
            {Only(OnRoce, ROCE_SWITCH),
             Only(CarriesPfc, NO_PFC_ON_FABRIC),
             Only(PfcOn,
                  "needs --pfc=1: without PFC no class is lossless and there is no headroom")})));
}

/// The knobs of ECN marking and the pcap format and snap length.
void
EcnAndPcapKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    // The registered algorithms that react to no ECN (Entry::usesEcn false): delay
    // (Swift, TIMELY) or in-band telemetry (HPCC).
    std::string delayOnly;
    for (const std::string& name : CongestionControlRegistry::GetNames())
    {
        if (!CongestionControlRegistry::Get(name).usesEcn)
        {
            delayOnly += (delayOnly.empty() ? "--cc=" : " or --cc=") + name;
        }
    }
    k.push_back(Applies(
        Sets(
            OptionalFlag(
                "ecn",
                "ECN marking at switch egress (RED-like Kmin/Kmax/Pmax); '' = on, except under " +
                    delayOnly +
                    ", which use no ECN (Swift, Kumar et al. 2020, TIMELY, Mittal et al. 2015, and "
                    "theta-PowerTCP, Addanki et al. 2022, react to delay; HPCC, Li et al. 2019, "
                    "and "
                    "PowerTCP to in-band telemetry): there nothing is marked and no CNP sent "
                    "unless "
                    "--ecn=1; "
                    "echoed as the value used",
                "'' or 0 or 1",
                &C::ecn),
            {Always("ns3::RoceSwitch::EcnEnabled"), Always("ns3::RoceNic::EcnCapable")}),
        Only(OnRoce, ROCE_SWITCH)));
    k.push_back(Flag("pcap",
                     "write pcap traces into --out, one file per port (nanosecond timestamps; "
                     "link type RoCEv2 1, Ethernet; InfiniBand as --ib-pcap-format says, 197 "
                     "ERF records by default)",
                     &C::pcap));
    k.push_back(Applies(
        Sets(Choice("ib-pcap-format",
                    "records of the InfiniBand pcaps (--fabric=infiniband --pcap=1): erf "
                    "(link type 197, LINKTYPE_ERF: each packet from its LRH after a "
                    "16-byte ERF header of type InfiniBand, as NVIDIA's ibdump writes; "
                    "Wireshark and tshark open it as it is) or raw (link type 247, "
                    "LINKTYPE_INFINIBAND: the packet alone; Wireshark 4.0 does not open "
                    "it)",
                    &C::ibPcapFormat,
                    {"erf", "raw"}),
             {WhenGiven("ns3::IbFabric::PcapFormat")},
             "--ib-pcap-format=raw --fabric=infiniband --pcap=1"),
        Only(
            PcapOfInfiniBand,
            "needs --fabric=infiniband --pcap=1: it chooses the records of the InfiniBand pcaps")));
    k.push_back(
        Applies(Sets(Unsigned("pcap-snaplen",
                              "bytes of each frame a pcap record keeps (the pcap snapshot length; "
                              "the record keeps the frame's original length); 0 = whole frames; "
                              "needs --pcap=1",
                              &C::pcapSnaplen,
                              0,
                              RdmaFabric::MAX_PCAP_SNAP_LENGTH),
                     {WhenGiven("ns3::RdmaFabric::PcapSnapLength")},
                     "--pcap-snaplen=128 --pcap=1"),
                Only(PcapOn, NEEDS_PCAP)));
}

/// The knobs of the traced nodes and checksums.
void
PcapNodesKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(
        MakeKnob(
            "pcap-nodes",
            "trace only these nodes (every port) or NODE:PORT ports with --pcap=1; NODE is a "
            "name of topology.csv (host3, pod0-edge1, leaf0, sw1-2, g0-r1) or a node id; '' = "
            "every port of every node",
            "'' (all) or NODE[:PORT][,...], e.g. host0,pod0-edge0:2",
            Type::STRING,
            [](C& c, const std::string& v) {
                c.pcapNodes.clear();
                if (v.empty())
                {
                    return;
                }
                if (v.back() == ',' || v.front() == ',' || v.find(",,") != std::string::npos)
                {
                    throw ConfigError("'" + v + "' has an empty entry; allowed NODE[:PORT][,...]");
                }
                std::stringstream in(v);
                std::string item;
                while (std::getline(in, item, ','))
                {
                    const size_t colon = item.find(':');
                    const std::string node = item.substr(0, colon);
                    if (node.empty() || node.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789_-") != std::string::npos)
                    {
                        throw ConfigError("'" + item +
                                          "' is not NODE[:PORT] (NODE a node name "
                                          "of topology.csv or a node id)");
                    }
                    std::optional<uint32_t> port;
                    if (colon != std::string::npos)
                    {
                        try
                        {
                            port = static_cast<uint32_t>(
                                ParseUnsigned(item.substr(colon + 1), 0, 65535));
                        }
                        catch (const ConfigError& e)
                        {
                            throw ConfigError("port of '" + item + "': " + e.what());
                        }
                    }
                    c.pcapNodes.emplace_back(node, port);
                }
            },
            [](const C& c) {
                std::vector<std::string> parts;
                for (const auto& [node, port] : c.pcapNodes)
                {
                    parts.push_back(node + (port ? ":" + std::to_string(*port) : std::string()));
                }
                return Join(parts, ",");
            },
            true),
        Only(PcapOn, NEEDS_PCAP)));
    k.push_back(Flag("checksums",
                     "compute the CRCs a NIC writes (RoCEv2 ICRC, InfiniBand ICRC and VCRC, "
                     "recomputed per hop) instead of zeros, e.g. for pcaps other tools check; "
                     "sets ns-3's ChecksumEnabled; costs a CRC over every frame",
                     &C::checksums));
}

/// The knobs of congestion control, recovery, routing and load balancing.
void
CcAndRoutingKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    {
        // The registered algorithms (CongestionControlRegistry), each with its line.
        std::string help = "congestion control:";
        for (const std::string& name : CongestionControlRegistry::GetNames())
        {
            help += " " + name + " (" + CongestionControlRegistry::Get(name).help + ");";
        }
        help.back() = '.';
        k.push_back(Applies(Sets(Choice("cc", help, &C::cc, CongestionControlRegistry::GetNames()),
                                 {When("ns3::RoceNic::EcnEchoInAck",
                                       "with a --cc that reads ECN echoed in ACKs",
                                       EchoesEcnInAck)},
                                 "--cc=dctcp"),
                            Only(CarriesTelemetryIfNeeded,
                                 "needs in-band network telemetry, which only --fabric=rocev2 "
                                 "carries (InfiniBand frames have no INT block)")));
    }
    k.push_back(Sets(Choice("recovery",
                            "loss recovery of the RDMA receivers: gbn (go-back-N, what most RoCE "
                            "NICs do), sr (selective repeat, IRN-style), auto (sr when --lb, "
                            "--nic-entropy or --routing reorders packets, else gbn)",
                            &C::recovery,
                            {"auto", "gbn", "sr"}),
                     {Always("ns3::RdmaQueuePair::Recovery", RecoveryValue)}));
    k.push_back(MakeKnob(
        "cc-preset",
        "named parameter set of --cc, with the switches' ECN marking of the same source "
        "(DCQCN 'paper' = Zhu et al. 2015, 'hpcc' = the HPCC simulator's mix/config.txt, "
        "'hpcc-run' = its run.py; Swift 'default' or 'paper'; TIMELY 'hpcc' = the HPCC "
        "simulator's rdma-hw.cc and run.py, 'paper' = Mittal et al. 2015 at 10 Gb/s); '' = "
        "the runner's default, "
        "echoed as the preset used: 'hpcc-run' for dcqcn on RoCEv2 (what the HPCC paper's "
        "DCQCN runs used; the paper's values do not converge to fairness within 10 ms at "
        "100 Gb/s, doc/dcqcn.md), the algorithm's own otherwise",
        "'' or a preset name of the chosen --cc",
        Type::STRING,
        [](C& c, const std::string& v) { c.ccPreset = v; },
        [](const C& c) { return c.ccPreset; },
        true));
    {
        // auto, then the registered engines (RoutingEngineRegistry), each with its line.
        std::string help = "routing engine: auto (the topology's natural one);";
        std::vector<std::string> names{"auto"};
        for (const std::string& name : RoutingEngineRegistry::GetNames())
        {
            help += " " + name + " (" + RoutingEngineRegistry::Get(name).help + ");";
            names.push_back(name);
        }
        help.back() = '.';
        k.push_back(Choice("routing", help, &C::routing, names));
    }
    {
        std::string help = "switch load balancing among the route table's equal-cost ports:";
        for (const std::string& name : LoadBalancingRegistry::GetNames())
        {
            help += " " + name + " (" + LoadBalancingRegistry::Get(name).help + ");";
        }
        help.back() = '.';
        k.push_back(Sets(Choice("lb", help, &C::lb, LoadBalancingRegistry::GetNames()),
                         {Always("ns3::IbSwitch::AdaptiveRouting")}));
    }
    k.push_back(
        Sets(Unsigned("nic-entropy",
                      "entropy values (UDP source ports) a NIC uses per QP",
                      &C::nicEntropy,
                      1,
                      65535),
             {Always("ns3::RdmaQueuePair::NicEntropy", Value<UintegerValue>(&C::nicEntropy))}));
}

/// The knobs of the workload, ranks and NCCL algorithm and protocol.
void
WorkloadKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    {
        std::string help = "traffic pattern of the main workload:";
        for (const std::string& name : WorkloadRegistry::GetNames())
        {
            help += " " + name + " (" + WorkloadRegistry::Get(name).help + ");";
        }
        help.back() = '.';
        k.push_back(Choice("workload", help, &C::workload, WorkloadRegistry::GetNames()));
    }
    k.push_back(Applies(
        Unsigned("ranks",
                 "collective ranks (0 = all hosts)",
                 &C::ranks,
                 0,
                 std::numeric_limits<uint32_t>::max()),
        FirstOf({Only(NotTraining, NOT_READ_BY_TRAINING), Only(NotJobs, NOT_READ_BY_JOBS)})));
    {
        // The algorithms registered for the collective workloads' operations.
        std::string help = "collective algorithm:";
        std::vector<std::string> names;
        for (CollectiveOp op :
             {CollectiveOp::ALLREDUCE, CollectiveOp::REDUCE_SCATTER, CollectiveOp::ALL_GATHER})
        {
            help += " " + CollectiveOpToString(op);
            for (const std::string& name : CollectiveAlgorithmRegistry::GetNames(op))
            {
                help += " " + name + " (" + CollectiveAlgorithmRegistry::Get(op, name).help + "),";
                if (std::find(names.begin(), names.end(), name) == names.end())
                {
                    names.push_back(name);
                }
            }
            help.back() = ';';
        }
        std::sort(names.begin(), names.end());
        names.push_back("auto");
        help += " auto: NCCL's tuner picks ring or tree per size from NCCL 2.30.7's model on "
                "this topology (ns3::NcclTuner; like leaving NCCL_ALGO unset; doc/collectives.md). "
                "Not given: ring, except on GPU servers (--gpus-per-server > 1), where a "
                "collective runs auto (and --protocol=auto unless --protocol is given); echoed "
                "as the value used.";
        k.push_back(Applies(Sets(Choice("algorithm", help, &C::algorithm, names),
                                 {Always("ns3::TrainingEngine::AllreduceAlgorithm"),
                                  Always("ns3::ChakraEngine::AllreduceAlgorithm")}),
                            AutoAlgorithmApplies));
    }
    {
        std::vector<std::string> names = CollectiveProtocol::GetNames();
        names.push_back("auto");
        k.push_back(Applies(
            Choice(
                "protocol",
                "NCCL protocol of the collectives (like NCCL_PROTO): ll (16-byte lines of 8 data "
                "bytes and 2 flags: 2 wire bytes per payload byte, 32 KiB steps), ll128 (128-byte "
                "lines of 120 data bytes, 576000-byte steps), simple (the data itself, 512 KiB "
                "steps: NCCL's 4 MiB buffer over NCCL_STEPS 8), auto (NCCL's tuner picks per size, "
                "with --algorithm) (ns3::NcclLlProtocol, ns3::NcclLl128Protocol, "
                "ns3::NcclSimpleProtocol; src/include/device.h, src/enqueue.cc of NCCL 2.30.7; "
                "doc/collectives.md)",
                &C::protocol,
                names),
            FirstOf({NcclApplies, AutoProtocolApplies})));
    }
}

/// The knobs of protocol latency, iterations, training model and Chakra trace.
void
CollectiveKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(
        Sets(OptionalFlag(
                 "protocol-latency",
                 "add NCCL's software latencies (src/graph/tuning.cc of NCCL 2.30.7): each "
                 "protocol's fixed cost per step beyond its bytes at the receiver (per-hop "
                 "latency over LL's: Simple 11.3 us per network step and 2.8 us inside a server, "
                 "LL128 1.3 and 1.3 us, LL 0; the protocols' NetworkStepLatency, "
                 "ScaleUpStepLatency) and its per-call base latency before the first step (ring "
                 "LL 6.6 us, LL128 14, Simple 8.4; tree 6.8, 14, 8.4; RingBaseLatency, "
                 "TreeBaseLatency); '' = 1 under --protocol=auto or "
                 "--algorithm=auto, where NCCL's model chose, 0 otherwise (the simulator's "
                 "collectives "
                 "before protocols); echoed as the value used",
                 "'' or 0 or 1",
                 &C::protocolLatency),
             {When("ns3::NcclLlProtocol::NetworkStepLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLlProtocol::ScaleUpStepLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLl128Protocol::NetworkStepLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLl128Protocol::ScaleUpStepLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclSimpleProtocol::NetworkStepLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclSimpleProtocol::ScaleUpStepLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLlProtocol::RingBaseLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLlProtocol::TreeBaseLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLl128Protocol::RingBaseLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclLl128Protocol::TreeBaseLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclSimpleProtocol::RingBaseLatency", "when 0", ProtocolLatencyOff),
              When("ns3::NcclSimpleProtocol::TreeBaseLatency", "when 0", ProtocolLatencyOff)},
             "--protocol-latency=0"),
        ProtocolLatencyApplies));
    k.push_back(
        Sets(Unsigned("iterations",
                      "collective iterations; training iterations of --workload=training "
                      "unless its JSON file gives \"iterations\"",
                      &C::iterations,
                      1,
                      1000000),
             {Always("ns3::TrainingEngine::Iterations"), Always("ns3::ChakraEngine::Iterations")}));
    k.push_back(
        Applies(Path("training",
                     "model of --workload=training: a JSON model (doc/training.md) or an "
                     "ASTRA-sim 1.0 / SimAI layer-per-line workload file, told apart by content",
                     &C::training),
                Only(IsTraining, "needs --workload=training: no other workload reads it")));
    k.push_back(Applies(
        MakeKnob(
            "chakra",
            "the training step of --workload=training as an MLCommons Chakra execution trace "
            "instead of --training: PREFIX.0.et, PREFIX.1.et, ... one file per host (rank r on "
            "host r), each a GlobalMetadata then Node protobuf messages "
            "(github.com/mlcommons/chakra, doc/training.md)",
            "'' (none) or a PREFIX with an existing PREFIX.0.et",
            Type::STRING,
            [](C& c, const std::string& v) {
                if (!v.empty() && !FileExists(v + ".0.et"))
                {
                    throw ConfigError("'" + v + "': no such file " + v +
                                      ".0.et (a trace's rank 0)");
                }
                c.chakra = v;
            },
            [](const C& c) { return c.chakra; },
            true),
        Only(IsTraining, "needs --workload=training: no other workload reads it")));
}

/// The knob of the collectives' pipeline chunk.
void
ChunkKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    {
        const std::string range = "a byte size " + FormatByteSize(0) + ".." +
                                  FormatByteSize(std::numeric_limits<uint32_t>::max()) +
                                  " (suffix KB/MB/GB = 1000^n, KiB/MiB/GiB = 1024^n)";
        k.push_back(Sets(
            MakeKnob(
                "chunk",
                "collective pipeline chunk: each message of a channel is cut into chunks of at "
                "most this size, forwarded as each arrives (ns3::CollectiveAlgorithm::ChunkBytes; "
                "the tree shrinks it for deep trees as NCCL does); 0 = unpipelined, one message "
                "per step; '' = the --protocol's step: 512KiB for simple (NCCL's 4 MiB buffer over "
                "NCCL_STEPS 8), 32KiB for ll, 576000 B for ll128; echoed as the value used",
                "'' or " + range,
                Type::SIZE,
                [range](C& c, const std::string& v) {
                    if (v.empty())
                    {
                        c.chunk.reset();
                        return;
                    }
                    const uint64_t x = ParseByteSize(v);
                    if (x > std::numeric_limits<uint32_t>::max())
                    {
                        throw ConfigError("'" + v + "' (" + std::to_string(x) +
                                          " bytes) is out of range; allowed " + range);
                    }
                    c.chunk = x;
                },
                [](const C& c) { return c.chunk ? FormatByteSize(*c.chunk) : std::string(); },
                true),
            {Always("ns3::CollectiveAlgorithm::ChunkBytes"),
             Always("ns3::TrainingEngine::ChunkBytes"),
             Always("ns3::ChakraEngine::ChunkBytes")}));
    }
}

/// The knobs of channels, PXN, incast and background flows.
void
FlowKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Sets(
        MakeKnob(
            "channels",
            "collective channels (NCCL's): the data is split into this many equal slices, each on "
            "its own queue pairs (its own ECMP hash on RoCEv2); the tree puts its two trees on "
            "alternate channels, the ring on GPU servers gives each channel its own NIC "
            "(ns3::CollectiveAlgorithm::Channels); '' = NCCL's choice: 2 on one-NIC hosts (its "
            "doubled search channel), on GPU servers (--gpus-per-server > 1) the count NCCL's "
            "search and ncclTopoPostset give one NIC per GPU at --host-rate, 16 for 8 x 400 Gb/s "
            "(doc/collectives.md), fewer for a short ring allreduce (NCCL's per-call count); the "
            "training workload on GPU servers: NCCL's count per communicator and call",
            "'' or " + RangeText(1, CollectiveAlgorithm::MAX_CHANNELS),
            Type::INTEGER,
            [](C& c, const std::string& v) {
                if (v.empty())
                {
                    c.channels.reset();
                    return;
                }
                c.channels =
                    static_cast<uint32_t>(ParseUnsigned(v, 1, CollectiveAlgorithm::MAX_CHANNELS));
            },
            [](const C& c) { return c.channels ? std::to_string(*c.channels) : std::string(); },
            true),
        {Always("ns3::CollectiveAlgorithm::Channels"),
         Always("ns3::TrainingEngine::Channels"),
         Always("ns3::ChakraEngine::Channels")}));
    k.push_back(Sets(Flag("pxn",
                          "NCCL's PXN (NCCL >= 2.12; NCCL_PXN_DISABLE=1 is 0) in the rings on GPU "
                          "servers: 1 = each channel enters and leaves a server through one NIC, "
                          "its last GPU's data moving over the scale-up domain to that NIC; 0 = "
                          "NCCL's rings without PXN, alternating per server so that every network "
                          "hop stays on one rail (needs even GPUs per server and servers); the "
                          "all-to-all on servers needs 1 (its sends leave on the destination's "
                          "rail) (ns3::RingAllreduce::Pxn, ns3::RingCollective::Pxn, "
                          "ns3::PairwiseAllToAll::Pxn; doc/collectives.md)",
                          &C::pxn),
                     {Always("ns3::RingAllreduce::Pxn"),
                      Always("ns3::RingCollective::Pxn"),
                      Always("ns3::PairwiseAllToAll::Pxn")}));
    k.push_back(Unsigned("fanin",
                         "incast senders per receiver",
                         &C::fanin,
                         1,
                         std::numeric_limits<uint32_t>::max()));
    k.push_back(MakeKnob(
        "background",
        "background flow-size CDF: websearch (DCTCP paper), fbhadoop (Facebook Hadoop), or a "
        "file of 'bytes cumulative-percent' lines; Poisson arrivals at --load",
        "none, websearch, fbhadoop, or an existing CDF file",
        Type::STRING,
        [](C& c, const std::string& v) {
            if (v != "none" && v != "websearch" && v != "fbhadoop" && !FileExists(v))
            {
                throw ConfigError("'" + v +
                                  "' is not one of none, websearch, fbhadoop, nor an existing "
                                  "CDF file");
            }
            c.background = v;
        },
        [](const C& c) { return c.background; }));
    k.push_back(Fraction("load", "background load as a fraction of the host link rate", &C::load));
    k.push_back(Sets(TimeKnob("background-duration",
                              "how long background flows keep arriving, from t=0 (0 = until "
                              "--stop-time)",
                              &C::backgroundDuration,
                              true),
                     {Always("ns3::FlowWorkload::BackgroundDuration")}));
    k.push_back(Path("flows",
                     "flow file in the HPCC-derived simulators' format (count, then "
                     "src dst priority dport size_bytes start_s)",
                     &C::flows));
}

/// The knobs of queue-pair sharing, transport and RDMA verbs.
void
VerbKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Sets(Choice("qp-sharing",
                            "RC connections of --flows and --background flows: flow = each flow "
                            "opens its own queue pair, released when it ends, so flows of one "
                            "host pair run side by side (the HPCC-derived simulators' RdmaClient, "
                            "applications with a connection per request); pair = the flows of a "
                            "host pair share one queue pair and run one after the other",
                            &C::qpSharing,
                            {"flow", "pair"}),
                     {Always("ns3::FlowWorkload::QpSharing")}));
    k.push_back(Choice("transport",
                       "transport of the point-to-point workloads (incast, permutation, "
                       "alltoall), --flows and --background: rdma (RDMA WRITEs on RC queue "
                       "pairs) or tcp (ns-3's TCP over IPv4 on the hosts' ports, RoCEv2's "
                       "Ethernet or InfiniBand's IP over InfiniBand, with the host stack's "
                       "latency; fct.csv kinds tcp-*; doc/tcp-over-fabric.md)",
                       &C::transport,
                       {"rdma", "tcp"}));
    k.push_back(Applies(
        Choice("verb",
               "RDMA verb that moves each point-to-point (incast, permutation, "
               "alltoall), --flows and --background flow's bytes from its src to its "
               "dst: write (src posts an RDMA WRITE with immediate), read (dst posts "
               "an RDMA READ of src; its fct.csv row has src = the reader, dst = the "
               "host read from; summary.json read_bytes) or send (src posts a SEND "
               "with immediate: each consumes a receive posted at dst, --rq-depth; "
               "without one dst answers an RNR NAK and src waits the RNR timer); "
               "doc/verbs.md. --transport=rdma only",
               &C::verb,
               {"write", "read", "send"}),
        FirstOf({Only(NotTcp,
                      "needs --transport=rdma: READ and SEND are RDMA verbs, TCP flows have none"),
                 VerbApplies})));
    k.push_back(
        Applies(Sets(Choice("collective-verb",
                            "verb of a collective workload's messages (each pipeline chunk): write "
                            "(RDMA WRITE with immediate, as NCCL's net transport) or send (SEND "
                            "with immediate, each consuming a receive posted at the peer, "
                            "--rq-depth; RNR NAK without one; doc/verbs.md)",
                            &C::collectiveVerb,
                            {"write", "send"}),
                     {WhenGiven("ns3::RdmaCollectiveTransport::Verb", CollectiveVerbValue)},
                     "--collective-verb=send --workload=allreduce"),
                CollectiveVerbApplies));
    k.push_back(Applies(
        Sets(Unsigned("qps-per-connection",
                      "RC queue pairs per collective channel and peer (NCCL_IB_QPS_PER_CONNECTION; "
                      "default 1 as NCCL 2.30.7): on RoCEv2 each has its own UDP source port, "
                      "so ECMP can route them apart; messages go round-robin over them, or "
                      "each is cut over all with --split-data-on-qps "
                      "(ns3::RdmaCollectiveTransport::QpsPerConnection; doc/collectives.md)",
                      &C::qpsPerConnection,
                      1,
                      RdmaCollectiveTransport::MAX_QPS_PER_CONNECTION),
             {Always("ns3::RdmaCollectiveTransport::QpsPerConnection",
                     Value<UintegerValue>(&C::qpsPerConnection))}),
        CollectiveOrTrainingApplies));
    k.push_back(Applies(
        Sets(Flag("split-data-on-qps",
                  "cut each collective message over its --qps-per-connection QPs in parts of "
                  "ceil(ceil(bytes / QPs) / 128) x 128 bytes (NCCL_IB_SPLIT_DATA_ON_QPS=1); 0 "
                  "(default, as NCCL 2.30.7) = each message on one QP, round-robin "
                  "(ns3::RdmaCollectiveTransport::SplitDataOnQps; doc/collectives.md)",
                  &C::splitDataOnQps),
             {Always("ns3::RdmaCollectiveTransport::SplitDataOnQps",
                     Value<BooleanValue>(&C::splitDataOnQps))}),
        CollectiveOrTrainingApplies));
}

/// The knobs of the receive queue that SENDs consume.
void
ReceiveQueueKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(
        Sets(
            Unsigned("rq-depth",
                     "receives each queue pair keeps posted for the SENDs it receives "
                     "(--verb=send, --collective-verb=send): each one a SEND consumed is "
                     "posted again --rq-repost-delay after its message completed; 512 as "
                     "perftest's ib_send_bw (--rx-depth); 0 = none (every SEND is RNR "
                     "NAKed) (ns3::RdmaQueuePair::ReceiveQueueDepth)",
                     &C::rqDepth,
                     0,
                     std::numeric_limits<uint32_t>::max()),
            {WhenGiven("ns3::RdmaQueuePair::ReceiveQueueDepth", Value<UintegerValue>(&C::rqDepth))},
            "--rq-depth=64 --verb=send"),
        Only(Sends, NEEDS_SEND)));
    k.push_back(Applies(
        Sets(
            TimeKnob("rq-repost-delay",
                     "the receiving application's processing time: a receive a SEND "
                     "consumed is posted again this long after its message completed "
                     "(ns3::RdmaQueuePair::RecvRepostDelay); 0 = at once, as perftest "
                     "re-posts when it polls the completion",
                     &C::rqRepostDelay,
                     true),
            {WhenGiven("ns3::RdmaQueuePair::RecvRepostDelay", Value<TimeValue>(&C::rqRepostDelay))},
            "--rq-repost-delay=1us --verb=send"),
        Only(Sends, NEEDS_SEND)));
}

/// The knobs of TCP transport, seed, run, stop time and output.
void
TcpAndRunKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    {
        std::vector<std::string> variants;
        for (const auto& v : TcpFlowTransport::Variants())
        {
            variants.push_back(v.first);
        }
        std::string names;
        for (const auto& v : TcpFlowTransport::Variants())
        {
            names += (names.empty() ? "" : ", ") + v.first + " = " + v.second;
        }
        k.push_back(
            Applies(Choice("tcp-variant",
                           "--transport=tcp's congestion control (ns-3's TCP variants: " + names +
                               "); cubic is Linux's default (net.ipv4.tcp_congestion_control); "
                               "every variant negotiates ECN when --ecn marks",
                           &C::tcpVariant,
                           variants),
                    Only(IsTcp, NEEDS_TCP)));
    }
    k.push_back(
        Applies(Unsigned("tcp-priority",
                         "--transport=tcp's traffic class: on RoCEv2 the 802.1p priority, DSCP "
                         "= 8 x priority (ns3::RoceNic::IpPriority), lossless with --pfc=1 "
                         "when it is --priority's class, lossy otherwise; on InfiniBand the "
                         "IPoIB packets' service level (ns3::IpoibInterface::ServiceLevel), "
                         "lossless as every VL",
                         &C::tcpPriority,
                         0,
                         7),
                Only(IsTcp, NEEDS_TCP)));
    k.push_back(
        Unsigned("seed", "ns-3 RngSeed", &C::seed, 1, std::numeric_limits<uint32_t>::max()));
    k.push_back(Unsigned("run", "ns-3 RngRun (substream)", &C::run, 0));
    k.push_back(TimeKnob("stop-time",
                         "simulated-time cap; a run that hits it reports its unfinished work "
                         "(summary.json complete=false)",
                         &C::stopTime,
                         false));
    k.push_back(MakeKnob(
        "out",
        "output directory (created; a previous run's summary.json, CSVs and "
        "ai-fabric-NODE-PORT.pcap removed, other files kept)",
        "a non-empty directory path",
        Type::STRING,
        [](C& c, const std::string& v) {
            if (v.empty())
            {
                throw ConfigError("'' is not a directory path");
            }
            c.out = v;
        },
        [](const C& c) { return c.out; }));
}

/// The knobs of node and link failures.
void
FailureKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(MakeKnob(
        "node-failure",
        "fail switches mid-run: every cable of the switch fails at TIME and both fabrics "
        "recover as from --link-failure (RoCEv2: its neighbours' BFD detection, then route "
        "convergence; InfiniBand: the Subnet Manager's sweep); a switch with hosts attached "
        "cannot fail in this model (its hosts would be cut off) (doc/failures.md)",
        "'' (none) or NODE@TIME[,...]: a switch's node id (hosts come first) and a time, "
        "e.g. 32@100us",
        Type::STRING,
        [](C& c, const std::string& v) { c.nodeFailures = ParseNodeFailures(v); },
        [](const C& c) {
            std::vector<std::string> parts;
            for (const auto& f : c.nodeFailures)
            {
                parts.push_back(std::to_string(f.node) + "@" + FormatTime(f.at));
            }
            return Join(parts, ",");
        },
        true));
    k.push_back(MakeKnob(
        "host-failure",
        "fail hosts (GPU servers) mid-run, for good: the host's cables carry nothing from "
        "TIME on; its peers' queue pairs time out (ns3::RdmaQueuePair::RetransmitTimeout) "
        "until their retries (ns3::RdmaQueuePair::RetryCount, NCCL_IB_RETRY_CNT 7) run out, "
        "then enter the error state; with --workload=jobs the job that lost a rank stops "
        "(or restarts, its \"on_failure\") (doc/failures.md, doc/jobs.md)",
        "'' (none) or HOST@TIME[,...]: a host index and a time, e.g. 5@300us",
        Type::STRING,
        [](C& c, const std::string& v) { c.hostFailures = ParseHostFailures(v); },
        [](const C& c) {
            std::vector<std::string> parts;
            for (const auto& f : c.hostFailures)
            {
                parts.push_back(std::to_string(f.host) + "@" + FormatTime(f.at));
            }
            return Join(parts, ",");
        },
        true));
    k.push_back(MakeKnob(
        "link-failure",
        "fail switch-to-switch cables mid-run, optionally until UP. InfiniBand: the Subnet "
        "Manager re-routes ns3::IbFabric::SubnetManagerReactionTime later (10 ms: trap, heavy "
        "sweep, LFT upload); RoCEv2: the two end switches notice after "
        "ns3::RoceFabric::FailureDetectionTime (30 ms, BFD 3 x 10 ms) and route around it, "
        "every switch after ns3::RoceFabric::RouteConvergenceTime more (10 ms); frames sent "
        "into it meanwhile are lost (drops.link_down) and the RC transport resends them "
        "(doc/failures.md)",
        "'' (none) or LINK@DOWN[-UP][,...]: a link id (the topology's cable order, from 0) "
        "and a time, optionally '-' a later time it comes back, e.g. 40@100us or 40@100us-2ms",
        Type::STRING,
        [](C& c, const std::string& v) { c.linkFailures = ParseLinkFailures(v); },
        [](const C& c) {
            std::vector<std::string> parts;
            for (const auto& f : c.linkFailures)
            {
                parts.push_back(std::to_string(f.link) + "@" + FormatTime(f.at) +
                                (f.up > Time(0) ? "-" + FormatTime(f.up) : std::string()));
            }
            return Join(parts, ",");
        },
        true));
}

/// The knobs of the PFC watchdog and PFC storms.
void
PfcFaultKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(
        Sets(
            MakeKnob(
                "pfc-watchdog",
                "RoCEv2: a PFC storm watchdog on every lossless switch queue, as SONiC's pfcwd: a "
                "queue paused by its link partner without a break for DETECT is in a storm and is "
                "mitigated (--pfc-watchdog-action) until the partner's pauses have ended for "
                "RESTORE (default 2 x DETECT, as SONiC's CLI); polled every min(DETECT, RESTORE) / "
                "10 (doc/scenario-runner.md, PFC storms)",
                "'' (off) or DETECT[,RESTORE]: positive times, e.g. 100us or 100us,300us",
                Type::STRING,
                [](C& c, const std::string& v) {
                    ParsePfcWatchdog(v, c.pfcWatchdogDetect, c.pfcWatchdogRestore);
                },
                [](const C& c) {
                    if (c.pfcWatchdogDetect == Time(0))
                    {
                        return std::string();
                    }
                    return FormatTime(c.pfcWatchdogDetect) +
                           (c.pfcWatchdogRestore > Time(0) ? "," + FormatTime(c.pfcWatchdogRestore)
                                                           : std::string());
                },
                true),
            {Always("ns3::PfcWatchdog::DetectionTime"),
             Always("ns3::PfcWatchdog::RestorationTime")}),
        FirstOf({Only(OnRoce, ROCE_PFC_STORM),
                 Only(CarriesPfc, NO_PFC_ON_FABRIC),
                 Only(PfcOn, NEEDS_PFC)})));
    k.push_back(Applies(
        Sets(Choice("pfc-watchdog-action",
                    "what the PFC watchdog does to a queue in a storm: drop (ignore the "
                    "peer's pauses and discard the queue's frames, those routed to it and "
                    "those arriving from the peer on that priority, SONiC's drop) or "
                    "forward (ignore the pauses only)",
                    &C::pfcWatchdogAction,
                    {"drop", "forward"}),
             {Always("ns3::PfcWatchdog::Action")}),
        FirstOf({Only(OnRoce, ROCE_PFC_STORM),
                 Only(WatchdogOn, "needs --pfc-watchdog=DETECT[,RESTORE]: the watchdog is off")})));
    k.push_back(Applies(
        MakeKnob(
            "pfc-storm",
            "RoCEv2 fault: host HOST's NIC stops draining at START (until END, or the end of the "
            "run): it pauses its switch port on every lossless priority without end and "
            "discards what still arrives (a stalled receive pipeline, Guo et al. SIGCOMM 2016)",
            "'' (none) or HOST@START[-END][,...]: a host index and times, e.g. 3@100us-2ms",
            Type::STRING,
            [](C& c, const std::string& v) { c.pfcStorms = ParsePfcStorms(v); },
            [](const C& c) {
                std::vector<std::string> parts;
                for (const auto& f : c.pfcStorms)
                {
                    parts.push_back(std::to_string(f.host) + "@" + FormatTime(f.start) +
                                    (f.end > Time(0) ? "-" + FormatTime(f.end) : std::string()));
                }
                return Join(parts, ",");
            },
            true),
        FirstOf({Only(OnRoce, ROCE_PFC_STORM),
                 Only(CarriesPfc, NO_PFC_ON_FABRIC),
                 Only(PfcOn, NEEDS_PFC)})));
}

/// The knobs of deadlock detection, queue sampling, port bytes and ACKs.
void
MonitorAndAckKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Sets(TimeKnob("deadlock-stall-time",
                              "stop with exit 4 when a cycle of switch queues has been paused "
                              "(PFC) or out of credits (InfiniBand) without sending for this "
                              "long (checked every 100 us of simulated time; 0 = off)",
                              &C::deadlockStallTime,
                              true),
                     {Always("ns3::DeadlockDetector::StallTime")}));
    k.push_back(TimeKnob("qlen-interval",
                         "period of queue-length samples in qlen.csv (0 = off)",
                         &C::qlenInterval,
                         true));
    k.push_back(
        Applies(Flag("port-bytes",
                     "1 = write ports.csv at the end of the run: the bytes and frames every "
                     "port of every node sent (the ports' own counters, read once; node and "
                     "port as in topology.csv); 0 = no file",
                     &C::portBytes),
                Only(NotMpi,
                     "is not available with --mpi (each rank sees only its own ports); allowed: "
                     "--port-bytes=0, or a run in one process")));
    k.push_back(Applies(
        Flag("attribution",
             "1 = split every RDMA message's FCT into causes (serialization, propagation, "
             "switch forwarding, queueing, PFC pause or credit wait, congestion control, "
             "QP-cache miss, RNR, retransmission, host delay) along its last packet's and its "
             "ACK's path: attribution.csv (one row per message) and summary.json "
             "tail_attribution (doc/attribution.md); 0 = off, no cost",
             &C::attribution),
        Only(NotMpi,
             "is not available with --mpi (a packet's journey is kept in one process); "
             "allowed: --attribution=0, or a run in one process")));
    k.push_back(Sets(
        MakeKnob(
            "ack-interval",
            "ACK coalescing by count: the receiver acknowledges at least every K in-order data "
            "packets (and at once at a message's end, an AckReq, a NAK); '' = 1 (every packet) "
            "under a --cc that reads INT (hpcc), as the HPCC simulator (L2_ACK_INTERVAL 1 in its "
            "run.py), else 10 as Falcon's public simulator (ns3::RdmaQueuePair::AckInterval, "
            "doc/rocev2-fabric.md)",
            "'' or an integer 1..65535",
            Type::INTEGER,
            [](ScenarioConfig& c, const std::string& v) {
                if (v.empty())
                {
                    c.ackInterval.reset();
                    return;
                }
                c.ackInterval = static_cast<uint32_t>(ParseUnsigned(v, 1, 65535));
            },
            [](const ScenarioConfig& c) {
                return c.ackInterval ? std::to_string(*c.ackInterval) : std::string();
            },
            true),
        {Always("ns3::RdmaQueuePair::AckInterval", AckIntervalValue)}));
    k.push_back(Sets(TimeKnob("ack-coalescing-time",
                              "ACK coalescing by time: a data packet is acknowledged at most this "
                              "long after it arrived, even when fewer than --ack-interval packets "
                              "follow; 8us as Falcon's public simulator (ns3::RdmaQueuePair::"
                              "AckCoalescingTime); 0 = no time bound",
                              &C::ackCoalescingTime,
                              true),
                     {Always("ns3::RdmaQueuePair::AckCoalescingTime",
                             Value<TimeValue>(&C::ackCoalescingTime))}));
}

/// The knobs of ACK priority and the NIC's QP cache.
void
NicKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Sets(
        MakeKnob(
            "ack-priority",
            "traffic class (802.1p priority / SL) of ACK and NAK frames: '' or data = the queue "
            "pair's own class, as NICs answer on the responder QP's class (NVIDIA's RoCE "
            "defaults: RoCE on 3, only CNPs on 6; HPCC-derived simulators: ACK_HIGH_PRIO 0); 7 = "
            "strict priority above data (ns3::RdmaNic::AckPriority, doc/rocev2-fabric.md)",
            "'' or data (the data's class) or an integer in 0..7",
            Type::INTEGER,
            [](C& c, const std::string& v) {
                // the named values: -1 = the queue pair's own class
                static const std::map<std::string, int32_t> named = {{"", -1}, {"data", -1}};
                if (auto it = named.find(v); it != named.end())
                {
                    c.ackPriority = it->second;
                    return;
                }
                try
                {
                    c.ackPriority = static_cast<int32_t>(ParseUnsigned(v, 0, 7));
                }
                catch (const ConfigError&)
                {
                    throw ConfigError("'" + v + "' is not '', data or an integer in 0..7");
                }
            },
            [](const C& c) {
                return c.ackPriority < 0 ? std::string() : std::to_string(c.ackPriority);
            },
            true),
        {Always("ns3::RdmaNic::AckPriority", Value<IntegerValue>(&C::ackPriority))}));
    k.push_back(Sets(Unsigned("qp-cache",
                              "QP contexts each NIC caches on chip (LRU); a packet of a queue "
                              "pair whose context is not cached waits --qp-cache-miss for its "
                              "fetch over PCIe while others send; 0 = unlimited, no fetch "
                              "(ns3::RdmaNic::QpCacheSize, doc/qp-cache.md)",
                              &C::qpCache,
                              0),
                     {Always("ns3::RdmaNic::QpCacheSize", Value<UintegerValue>(&C::qpCache))}));
    k.push_back(Applies(
        Sets(TimeKnob("qp-cache-miss",
                      "time to fetch a QP context that missed the cache, a PCIe round "
                      "trip (ns3::RdmaNic::QpCacheMissLatency; 1us, doc/qp-cache.md); "
                      "only with --qp-cache > 0",
                      &C::qpCacheMiss,
                      true),
             {Always("ns3::RdmaNic::QpCacheMissLatency", Value<TimeValue>(&C::qpCacheMiss))}),
        Only(QpCacheOn,
             "has no effect with --qp-cache=0 (an unlimited cache never misses); drop it or give "
             "--qp-cache=N")));
}

/// The knobs of the event list, the simulator and MPI.
void
EngineKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Choice("scheduler",
                       "ns-3 event list: timing-wheel (ns3::TimingWheelScheduler, the "
                       "fastest here) and quaternary-heap (ns3::QuaternaryHeapScheduler) "
                       "take equal-time events by when, then from which node, they were "
                       "scheduled (the same order on any number of MPI ranks; the only two "
                       "with --mpi); map, heap, calendar, list are ns-3's own, taking them "
                       "by insertion (results can differ where equal-time events meet)",
                       &C::scheduler,
                       Names(C::EventLists())));
    k.push_back(Choice("simulator",
                       "ns-3 simulator implementation: fabric (ns3::FabricSimulatorImpl, "
                       "a lighter per-event path) or default (ns3::DefaultSimulatorImpl, "
                       "which takes equal-time events by insertion with any event list, as "
                       "fabric does with ns-3's own lists)",
                       &C::simulator,
                       Names(C::SimulatorImpls())));
    k.push_back(Flag("mpi",
                     "run one simulation across the MPI ranks of mpirun (mpirun -np N "
                     "ai-fabric-sim --mpi ..., or ./ai-fabric mpi N ...): each rank simulates "
                     "the nodes --mpi-partition gives it on ns-3's ns3::DistributedSimulatorImpl, "
                     "rank 0 merges the outputs; needs a build with -DAI_FABRIC_MPI=ON and a "
                     "point-to-point --workload or none (--background only with "
                     "--qp-sharing=pair), or a collective --workload of one iteration "
                     "without --background or --flows; the deadlock detector is off "
                     "(doc/distributed.md)",
                     &C::mpi));
    k.push_back(Applies(
        Choice("mpi-partition",
               "how --mpi splits the fabric over the ranks: group (the topology's "
               "structure: GPU servers whole, pods / leaves / torus slabs / DragonFly "
               "groups in blocks, the top tier spread; cuts no scale-up cable; a "
               "topology file: graph), block (node ids in contiguous blocks) or graph "
               "(METIS: balanced, fewest cables cut, short ones last; MPI builds) "
               "(RankPartition, doc/distributed.md)",
               &C::mpiPartition,
               RankPartition::GetMethods()),
        Only(IsMpi, "applies only to a run across ranks; give --mpi (under mpirun) or drop it")));
}

/// The knobs of the RDMA traffic class and the ECN marking thresholds.
void
PriorityAndEcnKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Sets(Unsigned("priority",
                              "traffic class (802.1p priority / SL) of RDMA data; 3 is the common "
                              "lossless RoCE class in vendor defaults",
                              &C::priority,
                              0,
                              7),
                     {Always("ns3::RoceSwitch::ClassBasePriority")}));
    k.push_back(Applies(
        Sets(OptionalSize("kmin",
                          "ECN Kmin in bytes; '' = the --cc-preset's, scaled with link rate "
                          "(dcqcn paper: 5KB at 40Gbps; hpcc: 100KB at 25Gbps)",
                          &C::kmin),
             {WhenGiven("ns3::EcnMarker::ScaleWithRate"), WhenGiven("ns3::EcnMarker::Kmin")},
             "--kmin=10KB"),
        Only(OnRoce, ROCE_SWITCH)));
    k.push_back(Applies(
        Sets(OptionalSize("kmax",
                          "ECN Kmax in bytes; '' = the --cc-preset's, scaled with link rate "
                          "(dcqcn paper: 200KB at 40Gbps; hpcc: 400KB at 25Gbps)",
                          &C::kmax),
             {WhenGiven("ns3::EcnMarker::ScaleWithRate"), WhenGiven("ns3::EcnMarker::Kmax")},
             "--kmax=400KB"),
        Only(OnRoce, ROCE_SWITCH)));
    k.push_back(Applies(
        Sets(
            MakeKnob(
                "pmax",
                "ECN marking probability at Kmax; '' = the --cc-preset's (dcqcn paper: 0.01; hpcc: "
                "0.2)",
                "'' or a number in [0, 1]",
                Type::REAL,
                [](C& c, const std::string& v) {
                    if (v.empty())
                    {
                        c.pmax.reset();
                        return;
                    }
                    const double x = ParseReal(v);
                    if (!(x >= 0 && x <= 1))
                    {
                        throw ConfigError("'" + v +
                                          "' is out of range; allowed a number in [0, 1]");
                    }
                    c.pmax = x;
                },
                [](const C& c) { return c.pmax ? FormatReal(*c.pmax) : std::string(); },
                true),
            {WhenGiven("ns3::EcnMarker::ScaleWithRate"), WhenGiven("ns3::EcnMarker::Pmax")},
            "--pmax=0.1"),
        Only(OnRoce, ROCE_SWITCH)));
}

/// The knobs of shared-cluster jobs and their classes (doc/jobs.md).
void
JobKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(Path("jobs",
                             "jobs sharing the fabric (--workload=jobs): a JSON array, each "
                             "job a training model or a collective loop with its GPUs, "
                             "placement (packed, spread, random, a host list), start, traffic "
                             "class and partition (doc/jobs.md)",
                             &C::jobs),
                        FirstOf({Only([](const C& c) { return !NotJobs(c); },
                                      "needs --workload=jobs: no other workload reads it"),
                                 Only([](const C& c) { return !c.mpi; },
                                      "runs in one process: each job's baseline is a "
                                      "simulation of its own (allowed without --mpi)")})));
    k.push_back(Applies(Flag("jobs-baseline",
                             "also run each job alone (one more simulation per job, same "
                             "configuration) for its slowdown = iteration time shared / alone",
                             &C::jobsBaseline),
                        Only([](const C& c) { return !c.jobs.empty(); }, "needs --jobs")));
    k.push_back(Applies(
        Sets(MakeKnob(
                 "ets-weights",
                 "ETS bandwidth weights of the switches' egress per priority (IEEE 802.1Q "
                 "clause 37, 802.1Qaz): deficit weighted round robin, priority p's quantum "
                 "ns3::RoceSwitch::DwrrQuantum x its weight; PRIO:WEIGHT,... (unnamed "
                 "priorities 1); '' = strict priority, the switches' default",
                 "'' or PRIO:WEIGHT,... (PRIO 0..6, WEIGHT 1..100)",
                 Type::STRING,
                 [](C& c, const std::string& v) {
                     try
                     {
                         EtsWeights::Parse(v);
                     }
                     catch (const std::invalid_argument& e)
                     {
                         throw ConfigError(e.what());
                     }
                     c.etsWeights = v;
                 },
                 [](const C& c) { return c.etsWeights; },
                 true),
             {// (set before every run: false, the attribute's default, without weights)
              WhenGiven("ns3::RoceSwitch::Dwrr",
                        [](const C& c) {
                            return Ptr<AttributeValue>(Create<BooleanValue>(!c.etsWeights.empty()));
                        }),
              WhenGiven("ns3::RoceSwitch::EtsWeights",
                        [](const C& c) {
                            return Ptr<AttributeValue>(
                                Create<EtsWeightsValue>(EtsWeights::Parse(c.etsWeights)));
                        })},
             "--ets-weights=3:3,4:1"),
        Only(OnRoce, ROCE_SWITCH)));
    k.push_back(
        Applies(MakeKnob(
                    "qos-vlarb-low",
                    "the Subnet Manager's QoS policy: the low-priority VL arbitration table it "
                    "programs into every port, switch and HCA, as OpenSM's qos_vlarb_low "
                    "(VL:WEIGHT,..., weight in 64-byte units); SL s travels on VL s mod the data "
                    "VLs (ns3::IbNetDevice::NumDataVls, 2); '' = every VL weight 64 in turn",
                    "'' or VL:WEIGHT,... (VL 0..14, WEIGHT 0..255, at most 64 entries)",
                    Type::STRING,
                    [](C& c, const std::string& v) {
                        try
                        {
                            IbQosPolicy::ParseTable(v);
                        }
                        catch (const std::invalid_argument& e)
                        {
                            throw ConfigError(e.what());
                        }
                        c.qosVlarbLow = v;
                    },
                    [](const C& c) { return c.qosVlarbLow; },
                    true),
                Only(OnInfiniBand,
                     "needs --fabric=infiniband: the Subnet Manager programs VL arbitration (on "
                     "RoCEv2: --ets-weights)")));
}

/// --fast-forward (doc/fast-forward.md).
void
FastForwardKnobs(std::vector<Knob>& k)
{
    using C = ScenarioConfig;
    k.push_back(Applies(
        Flag("fast-forward",
             "1 = skip the packets of steady collective messages: once the queue fitted to a "
             "transfer's last 8 messages reproduces them (mean error within 1%, each within "
             "5%) and no unsteady transfer is in flight at either rank, its messages complete "
             "when that queue says, without packets (ns3::FastForwardTransport "
             "StableMessages, Tolerance, JitterFactor; after Wormhole, NSDI 2026); "
             "summary.json fast_forward says what was skipped, or why nothing was "
             "(background or file flows, failures, no collective); queue, PFC and hop "
             "counts then omit the skipped messages (doc/fast-forward.md); 0 = off, no cost",
             &C::fastForward),
        Only([](const ScenarioConfig& c) { return !c.mpi && !c.attribution; },
             "is not available with --mpi or --attribution (a skipped message has no packets "
             "to split into causes, and across ranks a receiver cannot see a skipped send); "
             "allowed: --fast-forward=0, or one process without --attribution")));
}

std::vector<Knob>
BuildKnobs()
{
    std::vector<Knob> k;
    ClusterAndFamilyKnobs(k);
    TopologySizeKnobs(k);
    LinkKnobs(k);
    SwitchTimingKnobs(k);
    PacketAndBufferKnobs(k);
    EcnAndPcapKnobs(k);
    PcapNodesKnobs(k);
    CcAndRoutingKnobs(k);
    WorkloadKnobs(k);
    CollectiveKnobs(k);
    ChunkKnobs(k);
    FlowKnobs(k);
    VerbKnobs(k);
    ReceiveQueueKnobs(k);
    TcpAndRunKnobs(k);
    FailureKnobs(k);
    PfcFaultKnobs(k);
    MonitorAndAckKnobs(k);
    NicKnobs(k);
    EngineKnobs(k);
    PriorityAndEcnKnobs(k);
    JobKnobs(k);
    FastForwardKnobs(k);
    const ScenarioConfig defaults;
    for (auto& knob : k)
    {
        knob.defaultValue = knob.get(defaults);
    }
    return k;
}

bool
RecordFlag(std::vector<std::pair<std::string, std::string>>* recorded,
           std::string name,
           std::string value)
{
    recorded->emplace_back(name, value);
    return true;
}

bool
RecordConfig(std::string* configFile, std::string value)
{
    *configFile = value;
    return true;
}

/// --markdown-help: the flag table as Markdown (doc/scenario-runner.md's), then exit 0
void
PrintMarkdownHelp()
{
    std::cout << ScenarioConfig::MarkdownHelp();
    std::exit(0);
}

/// The runner's own help-like flags (ns-3's are IsNs3PrintFlag's), by name
const std::map<std::string, void (*)()>&
OwnHelpFlags()
{
    static const std::map<std::string, void (*)()> table = {{"markdown-help", &PrintMarkdownHelp}};
    return table;
}

bool
IsNs3PrintFlag(const std::string& name)
{
    static const char* const kNames[] = {"help",
                                         "PrintHelp",
                                         "version",
                                         "PrintVersion",
                                         "PrintGroups",
                                         "PrintTypeIds",
                                         "PrintGlobals",
                                         "PrintGroup",
                                         "PrintAttributes"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

std::string
MarkdownEscape(std::string s)
{
    std::string r;
    for (char c : s)
    {
        if (c == '|')
        {
            r += '\\';
        }
        r += c;
    }
    return r;
}

} // namespace

const std::vector<ScenarioConfig::KnobInfo>&
ScenarioConfig::Knobs()
{
    static const std::vector<KnobInfo> knobs = BuildKnobs();
    return knobs;
}

const std::vector<ScenarioConfig::NamedType>&
ScenarioConfig::EventLists()
{
    static const std::vector<NamedType> lists = {
        {"timing-wheel", "ns3::TimingWheelScheduler"},
        {"quaternary-heap", "ns3::QuaternaryHeapScheduler"},
        {"map", "ns3::MapScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"calendar", "ns3::CalendarScheduler"},
        {"list", "ns3::ListScheduler"}};
    return lists;
}

const std::vector<ScenarioConfig::NamedType>&
ScenarioConfig::SimulatorImpls()
{
    static const std::vector<NamedType> impls = {{"fabric", "ns3::FabricSimulatorImpl"},
                                                 {"default", "ns3::DefaultSimulatorImpl"}};
    return impls;
}

const ScenarioConfig::KnobInfo*
ScenarioConfig::FindKnob(const std::string& name)
{
    const std::string n = Normalize(name);
    for (const auto& knob : Knobs())
    {
        if (knob.name == n)
        {
            return &knob;
        }
    }
    return nullptr;
}

void
ScenarioConfig::Set(const std::string& name, const std::string& value)
{
    NS_LOG_FUNCTION(this << name << value);
    if (name.rfind("ns3::", 0) == 0)
    {
        SetAttribute(name, value);
        return;
    }
    const KnobInfo* knob = FindKnob(name);
    if (knob == nullptr)
    {
        throw ConfigError(UnknownFlagMessage(name));
    }
    try
    {
        knob->set(*this, value);
    }
    catch (const ConfigError& e)
    {
        throw ConfigError("--" + knob->name + ": " + e.what());
    }
    MarkGiven(knob->name);
}

namespace
{

/// Whether \p text parses as a value of the numeric ns-3 attribute type \p valueType
/// (true for other types). ns-3.37's DoubleValue, UintegerValue, IntegerValue and
/// TimeValue abort the process on malformed text instead of refusing it, and
/// TimeValue takes "1.5.3ms" as 1.5 s: check those here first.
bool
NumericAttributeTextIsValid(const std::string& valueType, const std::string& text)
{
    struct Syntax
    {
        std::regex pattern; ///< the whole text
        bool real;          ///< and a finite double
    };

    static const std::map<std::string, Syntax> kSyntax{
        {"ns3::DoubleValue", {std::regex(R"([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)"), true}},
        {"ns3::UintegerValue", {std::regex(R"(\+?\d+)"), false}},
        {"ns3::IntegerValue", {std::regex(R"([+-]?\d+)"), false}},
        {"ns3::TimeValue",
         {std::regex(R"([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(s|ms|us|ns|ps|fs|min|h|d)?)"),
          false}}};
    const auto syntax = kSyntax.find(valueType);
    if (syntax == kSyntax.end())
    {
        return true;
    }
    return std::regex_match(text, syntax->second.pattern) &&
           (!syntax->second.real || std::isfinite(std::strtod(text.c_str(), nullptr)));
}

} // namespace

void
ScenarioConfig::SetAttribute(const std::string& name, const std::string& value)
{
    RecordAttribute(name, value);
    MarkGiven(name);
}

void
ScenarioConfig::RecordAttribute(const std::string& name, const std::string& value)
{
    const size_t sep = name.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid) ||
        !tid.LookupAttributeByName(name.substr(sep + 2), &info) ||
        !NumericAttributeTextIsValid(info.checker->GetValueTypeName(), value) ||
        !info.checker->CreateValidValue(StringValue(value)))
    {
        throw ConfigError(AttributeOverrideError(name, value));
    }
    for (auto& [n, v] : attributes)
    {
        if (n == name)
        {
            v = value;
            return;
        }
    }
    attributes.emplace_back(name, value);
}

void
ScenarioConfig::ApplyAttributes() const
{
    for (const auto& [name, value] : attributes)
    {
        if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw ConfigError(AttributeOverrideError(name, value));
        }
    }
}

void
ScenarioConfig::ApplyKnobDefaults() const
{
    for (const KnobInfo& knob : Knobs())
    {
        for (const KnobAttribute& a : knob.attributes)
        {
            if (a.value)
            {
                Config::SetDefault(a.name, *a.value(*this));
            }
        }
    }
}

std::string
ScenarioConfig::CanonicalAttribute(const std::string& name)
{
    const size_t sep = name.rfind("::");
    TypeId tid;
    if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid))
    {
        return "";
    }
    const std::string attr = name.substr(sep + 2);
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attr)
            {
                return t.GetName() + "::" + attr;
            }
        }
        if (t.GetParent() == t)
        {
            return "";
        }
    }
}

void
ScenarioConfig::CheckAttributeOverrides() const
{
    for (const auto& [name, value] : attributes)
    {
        const std::string canonical = CanonicalAttribute(name);
        for (const KnobInfo& knob : Knobs())
        {
            for (const KnobAttribute& a : knob.attributes)
            {
                if ((!a.when || a.when(*this)) && canonical == CanonicalAttribute(a.name))
                {
                    throw ConfigError("--" + name + "=" + value + ": the runner sets " + a.name +
                                      " from --" + knob.name +
                                      "; set it there (allowed: an attribute no flag sets)");
                }
            }
        }
    }
}

std::string
ScenarioConfig::Get(const std::string& name) const
{
    for (const auto& [n, v] : attributes)
    {
        if (n == name)
        {
            return v;
        }
    }
    const KnobInfo* knob = FindKnob(name);
    if (knob == nullptr)
    {
        throw ConfigError(UnknownFlagMessage(name));
    }
    return knob->get(*this);
}

void
ScenarioConfig::LoadJsonFile(const std::string& path)
{
    NS_LOG_FUNCTION(this << path);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        throw ConfigError("--config: '" + path + "' is a directory; allowed: a JSON file");
    }
    std::ifstream in(path);
    if (!in)
    {
        throw ConfigError("--config: cannot open '" + path + "': " + std::strerror(errno));
    }
    const nlohmann::json j = ParseStrictJson(in, path);
    LoadJson(j, path);
}

namespace
{

/// A JSON value of \p knob as the knob's text; \p where names it in errors.
std::string
JsonKnobText(const ScenarioConfig::KnobInfo& knob,
             const nlohmann::json& value,
             const std::string& where)
{
    using KnobType = ScenarioConfig::KnobType;
    const bool numeric = knob.type == KnobType::INTEGER || knob.type == KnobType::FLAG ||
                         knob.type == KnobType::SIZE || knob.type == KnobType::REAL;
    std::string text;
    if (value.is_string())
    {
        text = value.get<std::string>();
    }
    else if (value.is_boolean() && knob.type == KnobType::FLAG)
    {
        text = value.get<bool>() ? "1" : "0";
    }
    else if (value.is_number_unsigned() && numeric)
    {
        text = std::to_string(value.get<uint64_t>());
    }
    else if (value.is_number_integer() && numeric)
    {
        text = std::to_string(value.get<int64_t>());
    }
    else if (value.is_number_float() && numeric)
    {
        text = FormatReal(value.get<double>());
    }
    else
    {
        std::string expected = "a string";
        if (knob.type == KnobType::FLAG)
        {
            expected = "0, 1, true or false";
        }
        else if (numeric)
        {
            expected = "a number or a string";
        }
        throw ConfigError(where + " has the wrong type (" + value.type_name() + "); expected " +
                          expected);
    }
    return text;
}

} // namespace

void
ScenarioConfig::LoadJson(const nlohmann::json& j, const std::string& origin)
{
    NS_LOG_FUNCTION(this << origin);
    if (!j.is_object())
    {
        throw ConfigError(origin +
                          ": the top level must be a JSON object of flag names, e.g. "
                          "{\"topology\": \"fattree\", \"k\": 8}; got " +
                          std::string(j.type_name()));
    }
    if (j.contains("config") && j["config"].is_object() && j.contains("complete"))
    {
        // a run's summary.json: its "config" echo is the configuration that ran
        LoadJson(j["config"], origin + " (its \"config\")");
        return;
    }
    std::set<std::string> seen;
    for (const auto& [key, value] : j.items())
    {
        if (key.rfind("ns3::", 0) == 0)
        {
            // an ns-3 attribute default: its value as ns-3 parses it (StringValue)
            if (!value.is_string() && !value.is_number() && !value.is_boolean())
            {
                throw ConfigError(origin + ": key '" + key +
                                  "' needs a string, number or "
                                  "boolean (the attribute's value as text); got " +
                                  std::string(value.type_name()));
            }
            SetAttribute(key,
                         value.is_string()    ? value.get<std::string>()
                         : value.is_boolean() ? (value.get<bool>() ? "true" : "false")
                                              : value.dump());
            continue;
        }
        const KnobInfo* knob = FindKnob(key);
        if (knob == nullptr)
        {
            throw ConfigError(origin + ": unknown key '" + key + "'" + Suggestion(key, ""));
        }
        if (!seen.insert(knob->name).second)
        {
            throw ConfigError(origin + ": key '" + key + "' given twice (as '-' and '_' names)");
        }
        const std::string text = JsonKnobText(*knob, value, origin + ": key '" + key + "'");
        try
        {
            knob->set(*this, text);
        }
        catch (const ConfigError& e)
        {
            throw ConfigError(origin + ": key '" + key + "': " + e.what());
        }
        MarkGiven(knob->name);
    }
}

namespace
{

/// Flags that set the same quantity another way: the cables' delays are --link-delay
/// on every cable, or --cable-lengths x --propagation-delay per tier.
const std::map<std::string, std::vector<std::string>>&
RivalFlags()
{
    static const std::map<std::string, std::vector<std::string>> rivals{
        {"link-delay", {"cable-lengths", "propagation-delay"}},
        {"cable-lengths", {"link-delay"}},
        {"propagation-delay", {"link-delay"}},
    };
    return rivals;
}

} // namespace

void
ScenarioConfig::MarkGiven(const std::string& name)
{
    m_given.insert(name);
    const auto rivals = RivalFlags().find(name);
    if (!m_cluster || rivals == RivalFlags().end())
    {
        return;
    }
    const ScenarioConfig defaults;
    for (const ClusterPreset::Field& f : m_cluster->GetFields())
    {
        const auto& names = rivals->second;
        if (f.applied && m_given.count(f.name) == 0 &&
            std::find(names.begin(), names.end(), f.name) != names.end())
        {
            FindKnob(f.name)->set(*this, defaults.Get(f.name)); // the preset's value withdrawn
        }
    }
}

bool
ScenarioConfig::GivenByUser(const std::string& name) const
{
    if (m_given.count(name) != 0)
    {
        return true;
    }
    const auto rivals = RivalFlags().find(name);
    if (rivals == RivalFlags().end())
    {
        return false;
    }
    return std::any_of(rivals->second.begin(), rivals->second.end(), [this](const std::string& r) {
        return m_given.count(r) != 0;
    });
}

bool
ScenarioConfig::IsGiven(const std::string& name) const
{
    return GivenByUser(name);
}

void
ScenarioConfig::ApplyCluster(const std::string& nameOrFile)
{
    NS_LOG_FUNCTION(this << nameOrFile);
    std::shared_ptr<const ClusterPreset> next;
    if (!nameOrFile.empty())
    {
        next = std::make_shared<const ClusterPreset>(ClusterPreset::Load(nameOrFile));
    }
    const ScenarioConfig defaults;
    if (m_cluster)
    {
        // What the previous preset set and nobody gave goes back to its default.
        for (const ClusterPreset::Field& f : m_cluster->GetFields())
        {
            if (!f.applied || m_given.count(f.name) != 0)
            {
                continue;
            }
            if (f.name.rfind("ns3::", 0) == 0)
            {
                attributes.erase(std::remove_if(attributes.begin(),
                                                attributes.end(),
                                                [&f](const auto& a) { return a.first == f.name; }),
                                 attributes.end());
            }
            else
            {
                FindKnob(f.name)->set(*this, defaults.Get(f.name));
            }
        }
    }
    m_cluster = next;
    cluster = nameOrFile;
    if (!m_cluster)
    {
        return;
    }
    for (const ClusterPreset::Field& f : m_cluster->GetFields())
    {
        if (!f.applied || GivenByUser(f.name))
        {
            continue; // a given flag wins, whenever it was given
        }
        if (f.name.rfind("ns3::", 0) == 0)
        {
            RecordAttribute(f.name, f.value);
        }
        else
        {
            FindKnob(f.name)->set(*this, f.value); // checked by ClusterPreset::Load
        }
    }
}

nlohmann::json
ScenarioConfig::ClusterJson() const
{
    nlohmann::json j = nlohmann::json::object();
    if (!m_cluster)
    {
        return j;
    }
    j["name"] = m_cluster->GetName();
    j["file"] = m_cluster->GetFile();
    j["description"] = m_cluster->GetDescription();
    nlohmann::json values = nlohmann::json::object();
    nlohmann::json sources = nlohmann::json::object();
    nlohmann::json overridden = nlohmann::json::object();
    nlohmann::json notApplied = nlohmann::json::object();
    for (const ClusterPreset::Field& f : m_cluster->GetFields())
    {
        values[f.name] = f.value;
        sources[f.name] = f.source;
        if (!f.applied)
        {
            notApplied[f.name] = f.value;
            continue;
        }
        std::string preset = f.value;
        if (f.name.rfind("ns3::", 0) != 0)
        {
            // The preset's value as the knob writes it, to compare like with like.
            ScenarioConfig scratch;
            FindKnob(f.name)->set(scratch, f.value);
            preset = scratch.Get(f.name);
        }
        const std::string used = Get(f.name);
        if (GivenByUser(f.name) && used != preset)
        {
            overridden[f.name] = used;
        }
    }
    j["values"] = values;
    j["sources"] = sources;
    j["overridden"] = overridden;
    j["not_applied"] = notApplied;
    return j;
}

nlohmann::json
ScenarioConfig::ToJson() const
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& knob : Knobs())
    {
        const std::string text = knob.get(*this);
        if (text.empty() && knob.optional)
        {
            j[knob.name] = "";
            continue;
        }
        switch (knob.type)
        {
        case KnobType::INTEGER:
        case KnobType::FLAG:
            j[knob.name] = ParseUnsigned(text, 0, std::numeric_limits<uint64_t>::max());
            break;
        case KnobType::SIZE:
            j[knob.name] = ParseByteSize(text);
            break;
        case KnobType::REAL:
            j[knob.name] = ParseReal(text);
            break;
        default:
            j[knob.name] = text;
        }
    }
    for (const auto& [name, value] : attributes)
    {
        j[name] = value;
    }
    return j;
}

// NS_DEPRECATED: ValidateTopologyFlags (until 1a2e136)
void
ScenarioConfig::ValidateTopologyFlags() const
{
    ValidateApplicableFlags();
}

namespace
{

/// Refuse a flag that sizes other topology families than --topology's.
void
RefuseOtherFamiliesFlags(const ScenarioConfig& c)
{
    const std::string& topology = c.topology;
    // A flag that sizes other topology families than the chosen one, given a value
    // other than its default, would be ignored: refuse it. (Against the defaults, not
    // against "given at all", so that a configuration echoed in summary.json or
    // round-tripped through Python, which carries every knob, still loads.)
    const std::vector<std::string> names = TopologyRegistry::GetNames();
    if (std::find(names.begin(), names.end(), topology) == names.end())
    {
        return; // the --topology knob reports it
    }
    const std::vector<std::string>& used = TopologyRegistry::Get(topology).flags;
    const ScenarioConfig defaults;
    std::map<std::string, std::string> others; // flag -> the families it sizes
    for (const std::string& family : names)
    {
        for (const std::string& flag : TopologyRegistry::Get(family).flags)
        {
            if (std::find(used.begin(), used.end(), flag) == used.end())
            {
                std::string& families = others[flag];
                families += (families.empty() ? "--topology=" : " or --topology=") + family;
            }
        }
    }
    for (const auto& [flag, families] : others)
    {
        const std::string value = c.Get(flag);
        if (value != defaults.Get(flag))
        {
            throw ConfigError("--" + flag + "=" + value + " does not apply to --topology=" +
                              topology + "; it sizes " + families);
        }
    }
}

} // namespace

void
ScenarioConfig::ValidateApplicableFlags() const
{
    RefuseOtherFamiliesFlags(*this);
    if (IsTraining(*this) && training.empty() && chakra.empty())
    {
        throw ConfigError("--workload=training needs --training=FILE (a JSON model or an "
                          "ASTRA-sim/SimAI workload file) or --chakra=PREFIX (a Chakra "
                          "execution trace)");
    }
    if (!training.empty() && !chakra.empty())
    {
        throw ConfigError("--training=" + training + " and --chakra=" + chakra +
                          " both give the training step; allowed: one of them");
    }
    // Each knob where it does not apply, given a value other than its default, would
    // be ignored: refuse it. (Against the defaults, not against "given at all", so that
    // a configuration echoed in summary.json, which carries every knob, still loads.)
    for (const KnobInfo& knob : Knobs())
    {
        const std::string value = knob.notApplicable ? knob.get(*this) : knob.defaultValue;
        if (value != knob.defaultValue)
        {
            if (const std::string why = knob.notApplicable(*this); !why.empty())
            {
                throw ConfigError("--" + knob.name + "=" + value + " " + why);
            }
        }
    }
}

namespace
{

/// Refuse a failure of \p what \p id (from --\p flag) scheduled at or after --stop-time.
void
RefuseFailureAfterStop(const ScenarioConfig& c,
                       const std::string& flag,
                       const std::string& what,
                       uint32_t id,
                       Time at)
{
    if (at >= c.stopTime)
    {
        throw ConfigError("--" + flag + "=" + c.Get(flag) + ": " + what + " " + std::to_string(id) +
                          " fails at " + FormatTime(at) + ", not before --stop-time=" +
                          FormatTime(c.stopTime) + " (allowed: a time before it)");
    }
}

} // namespace

void
ScenarioConfig::ValidateApplicableFlagsNamingPresets() const
{
    try
    {
        ValidateApplicableFlags();
    }
    catch (const ConfigError& e)
    {
        // A preset's value that does not apply here: say where it came from.
        const std::string what = e.what();
        if (m_cluster)
        {
            for (const ClusterPreset::Field& f : m_cluster->GetFields())
            {
                if (f.applied && m_given.count(f.name) == 0 &&
                    what.rfind("--" + f.name + "=", 0) == 0)
                {
                    throw ConfigError(what + " (--cluster=" + cluster + " sets it; give --" +
                                      f.name + "=" + ScenarioConfig().Get(f.name) +
                                      " or another cluster)");
                }
            }
        }
        throw;
    }
}

void
ScenarioConfig::Validate() const
{
    if (kmin && kmax && *kmin > *kmax)
    {
        throw ConfigError("--kmin (" + FormatByteSize(*kmin) + ") must not exceed --kmax (" +
                          FormatByteSize(*kmax) + ")");
    }
    if (SizedBy(*this, "topology-file") && topologyFile.empty())
    {
        throw ConfigError("--topology=file needs --topology-file=PATH");
    }
    ValidateApplicableFlagsNamingPresets();
    if (!cableLengths.empty() && linkDelay != ScenarioConfig().linkDelay)
    {
        throw ConfigError("--link-delay=" + FormatTime(linkDelay) +
                          " and --cable-lengths=" + cableLengths +
                          " both set the cables' delays; give one of them (--cable-lengths "
                          "with --propagation-delay per tier, or --link-delay on every cable)");
    }
    // (the families' own constraints: the fat-tree's even k, the dragonfly's global links)
    if (SizedBy(*this, "k") && k % 2 != 0)
    {
        throw ConfigError("--k: '" + std::to_string(k) +
                          "' is not allowed; a fat-tree needs an even k (2..256)");
    }
    if (SizedBy(*this, "g") && static_cast<uint64_t>(g) > static_cast<uint64_t>(a) * h + 1)
    {
        throw ConfigError("--g: '" + std::to_string(g) + "' exceeds a*h + 1 = " +
                          std::to_string(static_cast<uint64_t>(a) * h + 1) +
                          " (each group needs a global link to every other)");
    }
    if (SizedBy(*this, "dims") && dims.empty())
    {
        throw ConfigError("--dims: empty; use sizes >= 2 joined by 'x', e.g. 8x8");
    }
    for (const auto& f : linkFailures)
    {
        RefuseFailureAfterStop(*this, "link-failure", "link", f.link, f.at);
    }
    for (const auto& f : hostFailures)
    {
        RefuseFailureAfterStop(*this, "host-failure", "host", f.host, f.at);
    }
    for (const auto& f : nodeFailures)
    {
        RefuseFailureAfterStop(*this, "node-failure", "node", f.node, f.at);
    }
}

namespace
{

/// What a flag that is not a knob does with its value: append to ns-3's arguments, or refuse.
using SpecialFlag = void (*)(const std::string& name,
                             const std::string& value,
                             std::vector<std::string>& ns3Args);

/// --RngSeed, --RngRun: the runner sets them from --seed and --run
void
RefuseRngFlag(const std::string& name, const std::string&, std::vector<std::string>&)
{
    throw ConfigError("--" + name + " is set through --seed and --run here");
}

/// --config=FILE: passed on to CommandLine, which records it (RecordConfig)
void
PassConfigFlag(const std::string&, const std::string& value, std::vector<std::string>& ns3Args)
{
    if (value.empty())
    {
        throw ConfigError("--config needs a file: --config=FILE");
    }
    ns3Args.push_back("--config=" + value);
}

/// The flags that are not knobs, by name
const std::map<std::string, SpecialFlag>&
SpecialFlags()
{
    static const std::map<std::string, SpecialFlag> table = {{"RngSeed", &RefuseRngFlag},
                                                             {"RngRun", &RefuseRngFlag},
                                                             {"config", &PassConfigFlag}};
    return table;
}

/**
 * Check every argument (ns-3's CommandLine would abort on a typo).
 * \param program argv[0]
 * \param attributes receives the --ns3::Class::Attribute=value arguments
 * \return the other arguments as ns-3's CommandLine takes them, after \p program
 */
std::vector<std::string>
CheckedArguments(int argc,
                 char** argv,
                 const std::string& program,
                 std::vector<std::pair<std::string, std::string>>* attributes)
{
    std::vector<std::string> ns3Args{program};
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        std::string body;
        if (arg.rfind("--", 0) == 0)
        {
            body = arg.substr(2);
        }
        else if (arg.size() > 1 && arg[0] == '-')
        {
            body = arg.substr(1);
        }
        else
        {
            throw ConfigError("unexpected argument '" + arg +
                              "'; flags have the form --name=value; run with --help for the "
                              "list");
        }
        const std::size_t eq = body.find('=');
        const bool hasValue = eq != std::string::npos;
        const std::string name = body.substr(0, eq);
        std::string value = hasValue ? body.substr(eq + 1) : "";
        if (name.rfind("ns3::", 0) == 0)
        {
            if (!hasValue)
            {
                throw ConfigError("--" + name + " needs a value: --" + name + "=VALUE");
            }
            attributes->emplace_back(name, value);
            continue;
        }
        if (auto special = SpecialFlags().find(name); special != SpecialFlags().end())
        {
            special->second(name, value, ns3Args);
            continue;
        }
        const ScenarioConfig::KnobInfo* knob = ScenarioConfig::FindKnob(name);
        if (knob == nullptr)
        {
            throw ConfigError(UnknownFlagMessage(name));
        }
        if (!hasValue)
        {
            if (knob->type != ScenarioConfig::KnobType::FLAG)
            {
                throw ConfigError("--" + knob->name + " needs a value: --" + knob->name +
                                  "=VALUE (allowed: " + knob->allowed + ")");
            }
            value = "1";
        }
        ns3Args.push_back("--" + knob->name + "=" + value);
    }
    return ns3Args;
}

} // namespace

ScenarioConfig
ScenarioConfig::FromCommandLine(int argc, char** argv)
{
    const std::string program = argc > 0 ? argv[0] : "ai-fabric-sim";
    std::vector<std::pair<std::string, std::string>> recorded;
    std::string configFile;

    CommandLine cmd;
    cmd.Usage("ai-fabric-sim: packet-level simulation of an AI-cluster network (RoCEv2 or "
              "InfiniBand).\n"
              "Flags are --name=value. --config=FILE loads a JSON object with the same names "
              "('-' or '_'); flags on the command line override it. ns-3 attribute defaults: "
              "--ns3::Class::Attribute=value.\n"
              "Writes into --out: summary.json (last, when the run completes), fct.csv, "
              "collective.csv, pfc.csv, qlen.csv, drops.csv and, with --pcap=1, *.pcap.\n" +
              ExitStatusHelp());
    cmd.AddValue("config",
                 "JSON file of flag names and values, applied before the other flags",
                 MakeBoundCallback(&RecordConfig, &configFile));
    for (const auto& knob : Knobs())
    {
        cmd.AddValue(knob.name,
                     knob.help + " {" + knob.allowed + "}",
                     MakeBoundCallback(&RecordFlag, &recorded, knob.name),
                     knob.defaultValue);
    }

    // Help-like flags win over everything else, as in any ns-3 program.
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        const std::string body = arg.substr(arg.find_first_not_of('-') == std::string::npos
                                                ? arg.size()
                                                : arg.find_first_not_of('-'));
        const std::string name = body.substr(0, body.find('='));
        if (auto own = OwnHelpFlags().find(name); own != OwnHelpFlags().end())
        {
            own->second(); // prints and exits
        }
        if (IsNs3PrintFlag(name))
        {
            cmd.Parse(std::vector<std::string>{program, arg}); // prints and exits
        }
    }

    // Check every argument ourselves: ns-3's CommandLine would abort on a typo.
    std::vector<std::pair<std::string, std::string>> attributes;
    const std::vector<std::string> ns3Args = CheckedArguments(argc, argv, program, &attributes);
    cmd.Parse(ns3Args);

    ScenarioConfig cfg;
    if (!configFile.empty())
    {
        cfg.LoadJsonFile(configFile);
    }
    for (const auto& [name, value] : recorded)
    {
        cfg.Set(name, value);
    }
    for (const auto& [name, value] : attributes)
    {
        cfg.SetAttribute(name, value); // checked now, applied by the runner
    }
    cfg.Validate();
    return cfg;
}

std::string
ScenarioConfig::MarkdownHelp()
{
    std::ostringstream os;
    os << "| flag | default | allowed | meaning | ns-3 attributes it sets |\n"
          "|---|---|---|---|---|\n";
    os << "| `--config` | | a JSON file | flag names and values, applied before the other "
          "flags | |\n";
    for (const auto& knob : Knobs())
    {
        std::vector<std::string> sets;
        for (const KnobAttribute& a : knob.attributes)
        {
            sets.push_back("`" + a.name + "`" +
                           (a.condition.empty() ? std::string() : " (" + a.condition + ")"));
        }
        os << "| `--" << knob.name << "` | "
           << (knob.defaultValue.empty() ? "''" : "`" + knob.defaultValue + "`") << " | "
           << MarkdownEscape(knob.allowed) << " | " << MarkdownEscape(knob.help) << " | "
           << MarkdownEscape(Join(sets)) << " |\n";
    }
    return os.str();
}

bool
ScenarioConfig::operator==(const ScenarioConfig& other) const
{
    for (const auto& knob : Knobs())
    {
        if (knob.get(*this) != knob.get(other))
        {
            return false;
        }
    }
    return attributes == other.attributes;
}

bool
ScenarioConfig::operator!=(const ScenarioConfig& other) const
{
    return !(*this == other);
}

uint32_t
ScenarioConfig::ChoiceIndex(const std::string& name) const
{
    const KnobInfo* knob = FindKnob(name);
    if (knob == nullptr || knob->type != KnobType::CHOICE)
    {
        throw ConfigError("ChoiceIndex: '" + name + "' is no choice flag");
    }
    const std::string value = knob->get(*this);
    const std::string& allowed = knob->allowed; // "a, b, c" (Join)
    uint32_t index = 0;
    for (size_t start = 0;; ++index)
    {
        const size_t found = allowed.find(", ", start);
        const size_t end = found == std::string::npos ? allowed.size() : found;
        if (allowed.compare(start, end - start, value) == 0 && value.size() == end - start)
        {
            return index;
        }
        if (found == std::string::npos)
        {
            break;
        }
        start = found + 2;
    }
    throw ConfigError("--" + knob->name + "=" + value + ": not one of " + allowed);
}

ScenarioConfig::Transport
ScenarioConfig::GetTransport() const
{
    return static_cast<Transport>(ChoiceIndex("transport"));
}

ScenarioConfig::CollectiveVerb
ScenarioConfig::GetCollectiveVerb() const
{
    return static_cast<CollectiveVerb>(ChoiceIndex("collective-verb"));
}

ScenarioConfig::QpSharing
ScenarioConfig::GetQpSharing() const
{
    return static_cast<QpSharing>(ChoiceIndex("qp-sharing"));
}

ScenarioConfig::Verb
ScenarioConfig::GetVerb() const
{
    return static_cast<Verb>(ChoiceIndex("verb"));
}

} // namespace ns3
