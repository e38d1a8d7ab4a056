/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATTRIBUTION_RECORDER_H
#define ATTRIBUTION_RECORDER_H

#include "ns3/fct-attribution.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"

#include <deque>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class OutputWriter;
class CollectiveApplication;

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

    /**
     * The critical path of every finished operation of \p app (after the run): from its
     * last transfer to finish back through, at each step, the dependency that finished
     * last (the one that let it be posted), each transfer with its messages'
     * attribution. Collective tags are CollectiveApplication's (job, iteration, transfer).
     */
    void AddCriticalPaths(Ptr<CollectiveApplication> app);
    /// \return whether AddCriticalPaths found any
    bool HasCriticalPaths() const;
    /// critical-path.csv in \p writer's directory: one row per transfer of each path.
    void WriteCriticalPathCsv(OutputWriter& writer) const;
    /// summary.json's critical_path: operations, and the slowest one's path explained.
    nlohmann::json CriticalPathJson() const;

    /**
     * The run summary's lines about the tail (the runner prints them after the run):
     * from \p summary's tail_attribution, the dominant cause of the tail messages'
     * FCT with the next ones and the port where they waited longest; from its
     * critical_path, the slowest operation's explanation. Nothing without them.
     */
    static void PrintSummary(std::ostream& os, const nlohmann::json& summary);

  protected:
    void DoDispose() override;

  private:
    void OnResult(const FctAttribution::Result& r);

    /// Where a message's path waited longest (queueing + pause), by port and class.
    struct HotPort
    {
        uint32_t node{0};
        uint32_t port{0};
        uint8_t queue{0};
        bool found{false};    //!< false: the path had no wait
        int64_t waitTicks{0}; //!< its wait there (time steps)
    };

    /// \return the hottest port of \p hops (the lowest node, port, class of equals)
    static HotPort Hottest(const FctAttribution::HopWait* hops, std::size_t n);
    /// Append the CSV's hottest-hop columns of \p h and the row's end to \p rows.
    static void AppendHottest(std::string& rows, const HotPort& h);

    Ptr<RdmaFabric> m_fabric;
    Ptr<FctAttribution> m_attribution;
    /// The results without their hops (kept in m_hops: no allocation each). Deques: a
    /// long run's tens of thousands of rows grow in blocks, never copied to a twice as
    /// large buffer (a vector's growth held the old and new copies at once: 35 MB).
    std::deque<FctAttribution::Result> m_results;
    std::deque<FctAttribution::HopWait> m_hops; //!< every result's hops, in order
    std::vector<std::size_t> m_hopsEnd;         //!< by result: its hops' end in m_hops
    std::vector<HotPort> m_hottest;             //!< by result
    std::vector<double> m_slowdowns;            //!< by result
    /// GetResults' copy with the hops (made when asked)
    mutable std::vector<FctAttribution::Result> m_full;

    /// One transfer of a critical path.
    struct PathStep
    {
        uint64_t opId{0};
        uint32_t job{0};
        uint32_t iteration{0};
        uint32_t transfer{0};
        uint32_t srcRank{0};
        uint32_t dstRank{0};
        int64_t opStartNs{0};
        int64_t opEndNs{0};
        std::size_t result{0}; //!< its last message's index in m_results
    };

    std::vector<std::vector<PathStep>> m_paths; //!< per operation, first transfer first
};

} // namespace ns3

#endif // ATTRIBUTION_RECORDER_H
