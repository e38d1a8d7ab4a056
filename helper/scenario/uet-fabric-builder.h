/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_FABRIC_BUILDER_H
#define UET_FABRIC_BUILDER_H

#include "fabric-builder.h"

#include "ns3/roce-fabric.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief --fabric=uet: an Ultra Ethernet fabric from UetFabricHelper. RoCEv2's Ethernet
 * switches (shared buffer, ECN marking of --ecn/--kmin/--kmax/--pmax, the egress policy
 * of --lb, ECMP hashing on the entropy by default) with PFC off and packet trimming at
 * every egress queue (ns3::UetTrimmer's attributes), and a UetNic on every host (per-
 * packet spraying, selective recovery, trim NACKs). --cc=nscc is UET's own congestion
 * control. What is modelled and what is not: doc/uet.md.
 */
class UetFabricBuilder : public FabricBuilder
{
  public:
    /// The switches mark ECN CE (NSCC's signal): --ecn and the thresholds apply.
    bool MarksEcn() const override;
    /// \return false: UET's links are lossy, trimming takes PFC's place (no pause frames)
    bool CarriesPfc() const override;
    /**
     * ECN marking below the trim threshold, as uet-htsim sets it against its queue
     * (htsim/sim/datacenter/main_uec.cpp: low 0.2, high 0.8 of the queue, which trims
     * when full): ns3::EcnMarker Kmin 20 KB, Kmax 80 KB, Pmax 1, not scaled with the
     * rate, for UetTrimmer's 100 KB (--kmin, --kmax, --pmax and --ns3:: defaults win).
     */
    void ConfigureDefaults(const ScenarioConfig& c) const override;
    /// Gives ns3::EcnMarker back the defaults ConfigureDefaults found: a later run in the
    /// same process (a Python sweep, a test) starts from them.
    ~UetFabricBuilder() override;
    /// \throws ConfigError for --recovery=gbn (UET's delivery is unordered), --nic-entropy
    /// (the NIC sprays over ns3::UetNic::SprayEntropies), --verb=read (not UET-framed), a
    /// --cc that needs CNPs or INT, and routing classes (no PFC, one class)
    Ptr<RdmaFabric> Build(const ScenarioConfig& c, const Context& ctx) override;
    /**
     * "ecn_marker" (the switches' EcnMarker) and "trimmer": the UetTrimmer's attributes
     * and, once the fabric ran, what it did: "trimmed" (frames trimmed, all switches),
     * "trimmed_ports" ({node, port, trimmed} of every port that trimmed, graph node
     * order), "trimmed_received" and "trim_nacks_received" (the NICs'); "spraying":
     * "reps_recycled", data packets sent on a recycled entropy. In one process
     * of an --mpi run: that rank's switches and NICs.
     */
    void AddCongestionMarking(nlohmann::json& cc) const override;

  private:
    Ptr<RoceFabric> m_fabric; //!< what Build made (its switches' and NICs' counters)
    /// EcnMarker (attribute, default) pairs ConfigureDefaults replaced
    mutable std::vector<std::pair<std::string, std::string>> m_savedEcnDefaults;
};

} // namespace ns3

#endif // UET_FABRIC_BUILDER_H
