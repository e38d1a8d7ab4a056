/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_CONFIG_H
#define SCENARIO_CONFIG_H

#include "ns3/ai-fabric-deprecated.h"
#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class ClusterPreset;

/**
 * \brief Everything that defines one ai-fabric scenario, as typed fields.
 *
 * Field names are the CLI flags (doc/scenario-runner.md) in camelCase (--host-rate ->
 * hostRate). One table, Knobs(), describes every flag: its name, help text
 * (unit and default), allowed values, a setter/getter from/to text and the ns-3
 * attributes it sets (KnobAttribute). The CLI (FromCommandLine), the JSON loader
 * (LoadJson), the config echo (ToJson), --help, the flag table, the Python bindings
 * (names with '-' turned into '_'), the runner's Config::SetDefault calls and the
 * refusal of a conflicting --ns3:: default all come from that table, so adding a knob
 * is one field plus one table entry.
 *
 * Errors are reported as ConfigError naming the flag, the value and what is
 * allowed; nothing here aborts the process except --help-like flags.
 */
class ScenarioConfig
{
  public:
    /// How a knob's value is written; decides the JSON types it accepts and emits.
    enum class KnobType
    {
        STRING,  ///< free text or a file path (JSON string)
        CHOICE,  ///< one of a fixed list of names (JSON string)
        INTEGER, ///< unsigned integer in a range (JSON number or string)
        FLAG,    ///< 0 or 1 (JSON number, boolean or string)
        SIZE,    ///< byte count with optional KB/KiB... suffix (JSON number or string)
        RATE,    ///< ns-3 DataRate text (JSON string)
        TIME,    ///< ns-3 Time text (JSON string)
        REAL,    ///< real number (JSON number or string)
    };

    /// A cable that fails during the run (--link-failure=LINK@DOWN[-UP]).
    struct LinkFailure
    {
        uint32_t link; ///< TopologyGraph link id (the topology's cable order)
        Time at;       ///< simulated time of the failure
        Time up;       ///< when it works again (0: it stays down)
    };

    /// A switch failing mid-run (--node-failure=NODE@TIME): all its cables.
    struct NodeFailure
    {
        uint32_t node; ///< TopologyGraph node id of a switch
        Time at;       ///< simulated time of the failure
    };

    /// A host (GPU server) that fails for good (--host-failure=HOST@TIME).
    struct HostFailure
    {
        uint32_t host; ///< host index
        Time at;       ///< simulated time of the failure
    };

    /// A host NIC whose receive pipeline stalls (--pfc-storm=HOST@START[-END]).
    struct PfcStorm
    {
        uint32_t host; ///< host index
        Time start;    ///< when it stalls
        Time end;      ///< when it recovers; 0 = never
    };

    /**
     * An ns-3 attribute a knob sets. From this declaration come the runner's
     * Config::SetDefault (when \c value is given), the refusal of a conflicting
     * --ns3:: default of the same attribute and the knob's row in the flag table.
     */
    struct KnobAttribute
    {
        std::string name; ///< "ns3::Class::Attribute"
        /// when the knob sets it, so that an --ns3:: default of it conflicts: nullptr =
        /// always (the default alone is refused too), else when this holds
        std::function<bool(const ScenarioConfig&)> when;
        /// \c when in words for the flag table ("" = always)
        std::string condition;
        /// what the runner's Config::SetDefault gives it before every run (--ns3::
        /// defaults are applied after); nullptr = the component that builds the objects
        /// (fabric builder, workload, fault injector) sets it on them
        std::function<Ptr<AttributeValue>(const ScenarioConfig&)> value;
    };

    /// One configuration knob: everything the CLI, JSON and bindings need.
    struct KnobInfo
    {
        std::string name;         ///< flag name as on the CLI, with '-' ("host-rate")
        std::string help;         ///< what it means, with unit and source of the default
        std::string allowed;      ///< allowed values or range, human readable
        std::string defaultValue; ///< the default, as text (Get() of a default config)
        KnobType type;            ///< value kind
        bool optional;            ///< "" (unset) is a valid value
        /// Parse text into the config; throws ConfigError without the flag prefix.
        std::function<void(ScenarioConfig&, const std::string&)> set;
        /// Current value as text; Set(name, Get(name)) leaves the config unchanged.
        std::function<std::string(const ScenarioConfig&)> get;
        /// the ns-3 attributes it sets
        std::vector<KnobAttribute> attributes{};
        /// flags (this knob's first) under which it sets every attribute it declares,
        /// e.g. "--pcap-snaplen=64 --pcap=1"; "" = the knob at its default does
        std::string example{};
        /// where it applies: why a value other than its default does not apply to a
        /// configuration ("does not apply to --fabric=infiniband; ..."), "" where it
        /// does; nullptr = everywhere. ValidateApplicableFlags refuses "--name=value why".
        std::function<std::string(const ScenarioConfig&)> notApplicable{};
    };

    /// --cluster: a hardware preset's name or JSON file ("" = none); ApplyCluster()
    std::string cluster;
    // Fabric and topology
    std::string fabric{"rocev2"};      ///< rocev2 | infiniband
    std::string topology{"leafspine"}; ///< leafspine | fattree | torus | mesh | dragonfly | file
    uint32_t k{4};                     ///< fat-tree radix
    uint32_t leaves{4};                ///< leaf-spine: leaf switches
    uint32_t spines{2};                ///< leaf-spine: spine switches
    uint32_t hostsPerSwitch{4};        ///< hosts per leaf / torus or mesh router
    std::vector<uint32_t> dims{4, 4};  ///< torus/mesh dimensions ("4x4")
    uint32_t p{2};                     ///< dragonfly: hosts per router
    uint32_t a{4};                     ///< dragonfly: routers per group
    uint32_t h{2};                     ///< dragonfly: global links per router
    uint32_t g{9};                     ///< dragonfly: groups
    std::string topologyFile;          ///< topology file (HPCC-derived format)
    uint32_t servers{4};               ///< rail: GPU servers
    uint32_t railSpines{0};            ///< rail: spines (0 = rail-only)
    uint32_t gpusPerServer{1};         ///< GPUs per server (1 = plain hosts)
    DataRate scaleUpRate{3600000000000ULL}; ///< GPU-to-crossbar rate per direction
    Time scaleUpLatency{NanoSeconds(150)};  ///< GPU-to-crossbar cable delay
    double scaleUpEfficiency{1.0};          ///< payload share of the scale-up rate
    DataRate hostRate{100000000000ULL};     ///< host link rate
    DataRate nicInjectionCap{0};            ///< NIC host-interface cap; 0 = none
    DataRate fabricRate{100000000000ULL};   ///< switch-to-switch link rate
    Time linkDelay{MicroSeconds(1)};        ///< per-link propagation delay
    /// --cable-lengths: metres per cable tier "L0[,L1[,L2]]" ("" = linkDelay everywhere)
    std::string cableLengths;
    Time propagationDelay{NanoSeconds(5)}; ///< delay per metre of cable (--cable-lengths)
    /// every switch's port-to-port latency; unset = the fabric's switch default
    std::optional<Time> switchLatency;
    /// cut-through (true) or store-and-forward switches; unset as switchLatency
    std::optional<bool> cutThrough;
    uint32_t mtu{1000};             ///< payload bytes per packet
    uint64_t bytes{1000000};        ///< message / collective size in bytes
    uint64_t buffer{32000000};      ///< switch shared buffer in bytes
    bool pfc{true};                 ///< PFC (RoCEv2) on
    bool allowLossyHeadroom{false}; ///< accept a PFC headroom below the round trip
    std::optional<bool> ecn;        ///< ECN marking on; unset = on unless the cc ignores ECN
    bool pcap{false};               ///< write pcap traces
    uint32_t pcapSnaplen{0};        ///< bytes kept per pcap record; 0 = whole frames
    /// --ib-pcap-format: the InfiniBand pcaps' records, erf (LINKTYPE_ERF) or raw (247)
    std::string ibPcapFormat{"erf"};
    /// --pcap-nodes: the nodes (name or id) and optional ports to trace; empty = all
    std::vector<std::pair<std::string, std::optional<uint32_t>>> pcapNodes;
    bool checksums{false};          ///< compute ICRC / VCRC into every frame
    std::string cc{"none"};         ///< none | dcqcn | swift
    std::string ccPreset;           ///< preset name; "" = the runner's default
    std::string recovery{"auto"};   ///< auto | gbn | sr
    std::string routing{"auto"};    ///< auto | ecmp | updown | dor | minimal | valiant | ugal
    std::string lb{"ecmp"};         ///< ecmp | spray | roundrobin | adaptive | flowlet
    uint32_t nicEntropy{1};         ///< entropy values (UDP source ports) per QP
    std::string workload{"incast"}; ///< none | incast | permutation | alltoall | ...
    uint32_t ranks{0};              ///< collective ranks; 0 = all hosts
    std::string algorithm{"ring"};  ///< ring | tree | hd | 2d | ... | auto (NCCL's tuner)
    /// NCCL protocol of the collectives: ll | ll128 | simple | auto (NCCL's tuner)
    std::string protocol{"simple"};
    /// add the protocols' step latencies; unset = on under --protocol=auto or
    /// --algorithm=auto, off otherwise (the runner resolves it)
    std::optional<bool> protocolLatency;
    uint32_t iterations{1}; ///< collective iterations
    /// collective pipeline chunk; 0 = unpipelined; unset = the protocol's step (512 KiB
    /// for Simple; the runner resolves it unless the tuner picks the protocol)
    std::optional<uint64_t> chunk;
    /// collective channels (NCCL's); unset = NCCL's choice for the topology (2 on one-NIC
    /// hosts, RailRingOrder::NcclChannels on GPU servers)
    std::optional<uint32_t> channels;
    /// channels holds the runner's default for '' (NCCL's count), not a given count
    bool channelsFromNccl{false};
    bool pxn{true};                 ///< NCCL's PXN in the rings on GPU servers (RingAllreduce::Pxn)
    uint32_t fanin{8};              ///< incast senders
    std::string background{"none"}; ///< none | websearch | fbhadoop | CDF file path
    double load{0.3};               ///< background load, fraction of host link
    Time backgroundDuration{MilliSeconds(1)}; ///< background arrival window; 0 = stop time
    std::string flows;                        ///< flow file path ("" = none)
    std::string training;                     ///< training model file ("" = none)
    std::string chakra;                       ///< Chakra trace prefix ("" = none)
    std::string jobs;                         ///< --jobs: the jobs file ("" = none)
    bool jobsBaseline{true};                  ///< --jobs-baseline: run each job alone too
    std::string etsWeights;                   ///< --ets-weights: ETS weights per priority
    std::string qosVlarbLow;                  ///< --qos-vlarb-low: the SM's VL arbitration
    /// Not a flag: the one job a baseline run of --jobs runs alone (-1 = all)
    int32_t jobOnly{-1};
    /// Not a flag: each job's iteration times alone (ns; JobsScenarioWorkload::RunBaselines)
    std::vector<std::vector<int64_t>> jobBaselineNs;
    std::string qpSharing{"flow"};       ///< flow | pair: RC connections of flows
    std::string transport{"rdma"};       ///< rdma | tcp: transport of the flows
    std::string verb{"write"};           ///< write | read | send: verb of point-to-point and flows
    std::string collectiveVerb{"write"}; ///< write | send: verb of collective messages
    uint32_t qpsPerConnection{1};        ///< QPs of a collective channel's connection
    bool splitDataOnQps{false};          ///< cut each collective message over its QPs
    uint32_t rqDepth{512};               ///< receives kept posted per queue pair (SEND)
    Time rqRepostDelay{Time(0)};         ///< a consumed receive is re-posted this late
    std::string tcpVariant{"cubic"};     ///< --transport=tcp's congestion control
    uint32_t tcpPriority{0};             ///< --transport=tcp's traffic class
    uint32_t seed{1};                    ///< ns-3 RngSeed
    uint64_t run{1};                     ///< ns-3 RngRun
    Time stopTime{Seconds(1)};           ///< simulated-time cap
    std::string out{"out"};              ///< output directory
    Time qlenInterval{MicroSeconds(10)}; ///< queue sampling period; 0 = off
    bool portBytes{false};               ///< write ports.csv (bytes sent per port)
    bool attribution{false};             ///< attribution.csv, summary tail_attribution
    bool fastForward{false};             ///< skip steady collective messages (FastForwardTransport)
    Time deadlockStallTime{MicroSeconds(500)}; ///< DeadlockDetector::StallTime; 0 = off
    /// ACK at least every K packets; unset = 1 for a --cc that reads INT, else 10
    std::optional<uint32_t> ackInterval;
    Time ackCoalescingTime{MicroSeconds(8)}; ///< ... and within this time; 0 = no bound
    int32_t ackPriority{-1};                 ///< class of ACKs/NAKs; -1 = the data's
    uint32_t qpCache{0};                     ///< RdmaNic::QpCacheSize; 0 = unlimited
    Time qpCacheMiss{MicroSeconds(1)};       ///< RdmaNic::QpCacheMissLatency
    std::string scheduler{"timing-wheel"};   ///< event list (EventLists())
    std::string simulator{"fabric"};         ///< simulator implementation (SimulatorImpls())
    bool mpi{false};                         ///< run across the MPI ranks of mpirun
    std::string mpiPartition{"group"};       ///< RankPartition method of the ranks
    uint32_t priority{3};                    ///< RDMA traffic class
    std::optional<uint64_t> kmin;            ///< ECN Kmin bytes; unset = scale from link rate
    std::optional<uint64_t> kmax;            ///< ECN Kmax bytes; unset = scale from link rate
    std::optional<double> pmax;              ///< ECN Pmax; unset = scale from link rate
    std::vector<LinkFailure> linkFailures;   ///< cables failing mid-run
    std::vector<NodeFailure> nodeFailures;   ///< switches failing mid-run
    std::vector<HostFailure> hostFailures;   ///< hosts (GPU servers) failing mid-run
    Time pfcWatchdogDetect{0};               ///< PfcWatchdog::DetectionTime; 0 = off
    Time pfcWatchdogRestore{0};              ///< PfcWatchdog::RestorationTime; 0 = 2x detect
    std::string pfcWatchdogAction{"drop"};   ///< drop | forward
    std::vector<PfcStorm> pfcStorms;         ///< NICs that stop draining (RoCEv2)
    /// ns-3 attribute defaults ("ns3::Class::Attribute", value text) in the order
    /// given; applied by the runner after the knobs' own, so they win
    std::vector<std::pair<std::string, std::string>> attributes;

    /**
     * \brief Set a knob from text.
     * \param name the flag name, '-' or '_' separated ("host-rate" or "host_rate")
     * \param value the value as on the command line
     * \throws ConfigError e.g. "--topology: 'fatree' is not one of leafspine, ..."
     */
    void Set(const std::string& name, const std::string& value);

    /**
     * \brief Record an ns-3 attribute default ("ns3::Class::Attribute"), replacing an
     * earlier value of the same name. Set() does this for names starting "ns3::".
     * \throws ConfigError when the class, the attribute or the value is not valid
     */
    void SetAttribute(const std::string& name, const std::string& value);

    /// Config::SetDefault every recorded attribute (validated when recorded).
    void ApplyAttributes() const;

    /// Config::SetDefault every attribute a knob sets through the runner
    /// (KnobAttribute::value), from this configuration's values.
    void ApplyKnobDefaults() const;

    /**
     * \brief Refuse a recorded --ns3:: default of an attribute a knob sets (its
     * KnobAttribute::when holds), naming the knob: the knob's value would be overwritten
     * or would silently lose.
     * \throws ConfigError "--ns3::C::A=V: the runner sets ns3::C::A from --flag; ..."
     */
    void CheckAttributeOverrides() const;

    /**
     * \param name "ns3::Class::Attribute", the class possibly a subclass of the one that
     *        declares it
     * \return "ns3::Declaring::Attribute", or "" when there is no such attribute
     */
    static std::string CanonicalAttribute(const std::string& name);

    /**
     * \brief Select a hardware preset (--cluster): its values are set as if given as
     * flags, except those given by Set(), SetAttribute() or LoadJson() (before or after:
     * a given value always wins); a previous preset's values not given are reset to the
     * defaults first. "" selects none.
     * \param nameOrFile a shipped preset's name or a JSON file (ClusterPreset::Load)
     * \throws ConfigError from ClusterPreset::Load; the config is then unchanged
     */
    void ApplyCluster(const std::string& nameOrFile);

    /**
     * \brief summary.json's "cluster" block: the preset's name, file and description,
     * every value it sets ("values", as in the file), the ones a given flag overrode
     * ("overridden": the value used) and the ones this build's runner has no flag for
     * ("not_applied"). An empty object without --cluster.
     * \return the block
     */
    nlohmann::json ClusterJson() const;

    /**
     * \param name the flag name ('-' or '_')
     * \return the knob's current value as text
     * \throws ConfigError for an unknown name
     */
    std::string Get(const std::string& name) const;

    /**
     * \param name a choice flag ('-' or '_')
     * \return the position of its value among the knob's allowed values (in --help
     * order), so that a typed choice reads it without comparing text
     * \throws ConfigError for an unknown flag or one that is no choice
     */
    uint32_t ChoiceIndex(const std::string& name) const;

    /// --transport as a typed choice (its knob's values in order)
    enum class Transport
    {
        RDMA, //!< rdma
        TCP,  //!< tcp
    };

    /// --verb as a typed choice (its knob's values in order)
    enum class Verb
    {
        WRITE, //!< write
        READ,  //!< read
        SEND,  //!< send
    };

    /// --collective-verb as a typed choice (its knob's values in order)
    enum class CollectiveVerb
    {
        WRITE, //!< write
        SEND,  //!< send
    };

    /// --qp-sharing as a typed choice (its knob's values in order)
    enum class QpSharing
    {
        FLOW, //!< flow: a queue pair of each flow's own
        PAIR, //!< pair: the flows of a host pair share one
    };

    /// \return --transport
    Transport GetTransport() const;
    /// \return --qp-sharing
    QpSharing GetQpSharing() const;
    /// \return --collective-verb
    CollectiveVerb GetCollectiveVerb() const;
    /// \return --verb
    Verb GetVerb() const;

    /// \return the knob table, in --help order
    static const std::vector<KnobInfo>& Knobs();

    /// A --scheduler or --simulator value and the ns-3 TypeId it selects.
    struct NamedType
    {
        std::string name;   ///< the flag's value
        std::string typeId; ///< the ns-3 type
    };

    /// \return the --scheduler values (ns-3 Scheduler types), the default first
    static const std::vector<NamedType>& EventLists();
    /// \return the --simulator values (ns-3 SimulatorImpl types), the default first
    static const std::vector<NamedType>& SimulatorImpls();

    /**
     * \param name a flag name, '-' or '_' separated
     * \return the knob, or nullptr if there is none of that name
     */
    static const KnobInfo* FindKnob(const std::string& name);

    /**
     * \brief Load knobs from a JSON file (an object whose keys are flag names).
     * \param path the file
     * \throws ConfigError naming the file, the key and the problem (parse errors
     *         carry nlohmann's line and column)
     */
    void LoadJsonFile(const std::string& path);

    /**
     * \brief Load knobs from a JSON object.
     * \param j the object: keys are flag names ('-' or '_') or ns-3 attribute names
     *          ("ns3::Class::Attribute"), values strings, numbers or booleans; or a
     *          run's summary.json, whose "config" is loaded
     * \param origin prefix for error messages (usually the file name)
     * \throws ConfigError on an unknown key, a wrong type or a bad value
     */
    void LoadJson(const nlohmann::json& j, const std::string& origin = "JSON");

    /**
     * \brief The config echo for summary.json: every knob under its flag name.
     *
     * Integers and sizes are numbers (bytes), flags 0/1, the rest strings;
     * unset optional knobs are "". ns-3 attribute defaults follow under their
     * "ns3::Class::Attribute" names as strings. LoadJson(ToJson()) gives an equal
     * config.
     * \return the JSON object
     */
    nlohmann::json ToJson() const;

    /**
     * \brief Cross-field checks (single values are checked by Set).
     * \throws ConfigError e.g. when kmin > kmax or --topology=file lacks a file
     */
    void Validate() const;
    /// Refuse, when it differs from its default, a topology-sizing flag
    /// (TopologyRegistry's flags) of another family than --topology's, and a knob where
    /// it does not apply (KnobInfo::notApplicable: a RoCEv2 switch flag on InfiniBand,
    /// --pcap-snaplen without --pcap, ...).
    void ValidateApplicableFlags() const;
    /// ValidateApplicableFlags, naming the --cluster preset that set a refused value.
    void ValidateApplicableFlagsNamingPresets() const;
    /**
     * \deprecated The name until commit 1a2e136, which added the RoCEv2 switch flags on
     * InfiniBand to its checks; kept for one release (CHANGES.md): calls
     * ValidateApplicableFlags.
     */
    AI_FABRIC_DEPRECATED("ScenarioConfig::ValidateTopologyFlags is now ValidateApplicableFlags "
                         "(see CHANGES.md)")
    void ValidateTopologyFlags() const;

    /**
     * \brief Build a config from the command line: defaults, then --config=FILE,
     * then the other flags (which override the file), then Validate().
     *
     * Every argument is checked first (unknown flag, missing '=value') so a typo
     * gives a ConfigError rather than ns-3's abort. --help/--PrintHelp and the
     * other ns-3 Print* flags are handled by ns3::CommandLine (they print and exit);
     * --ns3::Class::Attribute=value sets an ns-3 attribute default.
     * \param argc argument count
     * \param argv arguments
     * \return the config
     * \throws ConfigError on any bad flag, value or file
     */
    static ScenarioConfig FromCommandLine(int argc, char** argv);

    /// \return a Markdown table of every knob (flag, default, allowed, meaning, the ns-3
    /// attributes it sets and when)
    static std::string MarkdownHelp();

    /**
     * \param name a knob's name (its flag without "--")
     * \return whether the user gave it (a flag, Set, the JSON config) or a flag that sets
     *         the same thing another way; a preset's value is not given
     */
    bool IsGiven(const std::string& name) const;

    /// \return true if every knob has the same value
    bool operator==(const ScenarioConfig& other) const;
    /// \return true if some knob differs
    bool operator!=(const ScenarioConfig& other) const;

  private:
    /// Record an attribute default (SetAttribute without marking it given).
    void RecordAttribute(const std::string& name, const std::string& value);
    /// The user gave \p name: record it, and withdraw what the preset set for the flags
    /// that set the same thing another way (RivalFlags: a given --link-delay withdraws a
    /// preset's --cable-lengths and --propagation-delay, and the other way round).
    void MarkGiven(const std::string& name);
    /// \return whether the user gave \p name or a flag that sets the same thing
    bool GivenByUser(const std::string& name) const;

    std::shared_ptr<const ClusterPreset> m_cluster; //!< the --cluster preset, if any
    std::set<std::string> m_given; //!< knobs and attributes given (not from the preset)
};

} // namespace ns3

#endif // SCENARIO_CONFIG_H
