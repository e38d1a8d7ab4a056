/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATTRIBUTION_RECORDER_H
#define ATTRIBUTION_RECORDER_H

#include "ns3/fct-attribution.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class OutputWriter;

/**
 * \ingroup ai-fabric
 * \brief --attribution=1's monitor: turns a fabric's FctAttribution on, keeps every
 * message's decomposition, writes attribution.csv (one row per message, in completion
 * order) and summary.json's tail_attribution (doc/attribution.md).
 *
 * \code
 *   Ptr<AttributionRecorder> a = CreateObject<AttributionRecorder>();
 *   a->Install(fabric);            // before the workload posts anything
 *   Simulator::Run();
 *   a->WriteCsv(writer);           // attribution.csv in the writer's directory
 *   summary["tail_attribution"] = a->TailJson();
 * \endcode
 */
class AttributionRecorder : public Object
{
  public:
    /// attribution.csv's header
    static const std::string& CsvHeader();

    static TypeId GetTypeId();
    AttributionRecorder();
    ~AttributionRecorder() override;

    /// Turn attribution on for \p fabric (RdmaFabric::EnableAttribution) and record.
    void Install(Ptr<RdmaFabric> fabric);
    /// \return the messages' decompositions so far, in completion order
    const std::vector<FctAttribution::Result>& GetResults() const;
    /// \return the attribution installed (nullptr before Install)
    Ptr<FctAttribution> GetAttribution() const;

    /**
     * attribution.csv in \p writer's directory, registered with it (AddRunFile).
     * Times in ns with the simulator's picosecond resolution (three decimals), so that
     * the components add up to fct_ns exactly.
     */
    void WriteCsv(OutputWriter& writer) const;
    /**
     * summary.json's tail_attribution: the messages whose slowdown (FCT over the
     * fabric's ideal FCT) is at or above the p99 of all, the mean share of each
     * component of their FCT, the dominant component, and the 10 ports (node, port,
     * class) where they waited longest (queueing plus pause).
     */
    nlohmann::json TailJson() const;

  protected:
    void DoDispose() override;

  private:
    void OnResult(const FctAttribution::Result& r);

    Ptr<RdmaFabric> m_fabric;
    Ptr<FctAttribution> m_attribution;
    std::vector<FctAttribution::Result> m_results;
    std::vector<double> m_slowdowns; //!< by result
};

} // namespace ns3

#endif // ATTRIBUTION_RECORDER_H
