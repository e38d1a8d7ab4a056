/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_WORKLOAD_H
#define FLOW_WORKLOAD_H

#include "ns3/ai-fabric-deprecated.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/flow-spec.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-fabric.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class ScenarioConfig; // deprecated overloads only (helper/scenario/workload-options.cc)

/**
 * \ingroup ai-fabric
 * \brief Open-loop flows for a scenario: generated background traffic
 * (--background, --load) and/or a flow file (--flows), posted on an RdmaFabric
 * at each flow's start time.
 *
 * Background flows come from a BackgroundTrafficGenerator (Poisson arrivals per
 * host, sizes from the CDF) over the window [BackgroundStart, BackgroundStart +
 * BackgroundDuration), cut at the scenario's stop time; none starts after it.
 * They are posted with kind BackgroundKind (fct.csv "background"); flow-file
 * flows with kind FlowFileKind ("flow").
 *
 * Each flow is one RDMA WRITE from src to dst. With QpSharing "flow" (the
 * default) each flow opens an RC connection (a queue pair at each end) of its own,
 * released once the flow is done (RdmaFabric::PostWriteOnOwnConnection), as the
 * HPCC-derived simulators do (their RdmaClient application adds a queue pair per
 * flow, each with its own UDP source port, and deletes it at completion) and as
 * applications that open a connection per request or stream do: flows of one host
 * pair run side by side, the NIC serving their queue pairs in turn. With "pair"
 * the flows of one host pair share the pair's one RC connection and are served in
 * post order, one after the other; a flow's FCT counts from its start time and so
 * includes that wait.
 *
 * Only the next start time is in the event queue (one event per distinct start
 * time, chained), so a million-flow schedule costs no scheduler memory.
 *
 * With --flows, an HPCC-format fct.txt (FlowFile::WriteFctLine) is written into
 * the output directory beside fct.csv, one line per finished file flow, in
 * completion order; sport is 10000 + the flow's index among the flows of its host
 * pair (src, dst) (the HPCC simulator's port numbering, third.cc: a counter per
 * pair from 10000), standalone FCT is the fabric's ideal FCT.
 */
class FlowWorkload : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// The verb each flow is posted as (attribute Verb).
    enum Verb
    {
        VERB_WRITE = 0, //!< an RDMA WRITE with immediate
        VERB_SEND = 1,  //!< a SEND with immediate (consumes a receive at the destination)
    };

    /// How flows map onto RC connections (attribute QpSharing).
    enum QpSharing
    {
        QP_PER_FLOW, //!< each flow its own connection, released when it is done
        QP_PER_PAIR  //!< the flows of a host pair share one connection, in post order
    };

    /// What Install reads (the scenario layer fills it from the flags named here).
    struct Options
    {
        std::string background{"none"};     //!< --background: none, websearch, fbhadoop or a CDF
        double load{0.3};                   //!< --load: background load, fraction of host link
        DataRate hostRate{100000000000ULL}; //!< --host-rate: the load's reference
        std::string flows;                  //!< --flows: a flow file ("" = none)
        Time stopTime{Seconds(1)};          //!< --stop-time: no flow starts at or after it
        uint32_t priority{3};               //!< --priority: every queue pair's class
        std::string out{"out"};             //!< --out: where fct.txt goes (with --flows)
    };

    FlowWorkload();
    ~FlowWorkload() override;

    /**
     * \brief Build the schedule from the scenario and post it on the fabric.
     *
     * Call before Simulator::Run(), after the fabric is installed (and, for
     * --flows, once the output directory exists). The random streams are the
     * ones AssignStreams set (RngStream); seed and run come from RngSeedManager.
     * \param options the background traffic and flow file
     * \param fabric the fabric to post on
     * \throws std::invalid_argument naming the flag, value and what is allowed
     *         (unknown CDF, malformed flow file, host out of range, flow after the
     *         stop time, empty window, unwritable fct.txt)
     */
    void Install(const Options& options, Ptr<RdmaFabric> fabric);
    /// \deprecated Install(WorkloadOptions::Flows(config), fabric); throws ConfigError
    AI_FABRIC_DEPRECATED("use Install(WorkloadOptions::Flows(config), fabric) (see CHANGES.md)")
    void Install(const ScenarioConfig& config, Ptr<RdmaFabric> fabric);
    /**
     * Post the flows with \p poster instead of the fabric's RDMA WRITEs (another
     * transport, e.g. TcpFlowTransport): called with each flow and its kind when it
     * starts, it returns the flow's message id. Set before Install.
     */
    void SetPoster(std::function<uint64_t(const FlowSpec&, uint8_t)> poster);
    /// A flow of the poster's transport finished (its record's id is the poster's):
    /// its line of the HPCC-format FCT log of --flows.
    void NotifyFinished(const RdmaFabric::MessageRecord& r);

    /**
     * \brief Post these flows on the fabric at their start times (low-level
     * entry used by Install; usable directly).
     * \param fabric the fabric
     * \param flows the flows, any order (stable-sorted by start)
     * \param kind message kind for all of them
     */
    void Schedule(Ptr<RdmaFabric> fabric, const std::vector<FlowSpec>& flows, uint8_t kind);

    /// \return flows that will be posted in total (the runner's expected message count)
    uint64_t GetMessageCount() const;
    /// \return flows posted so far
    uint64_t GetPostedCount() const;
    /// \return true once every flow has been posted
    bool AllPosted() const;
    /// \return the generated background flows (empty without --background)
    const std::vector<FlowSpec>& GetBackgroundFlows() const;
    /// \return the flow file's flows (empty without --flows)
    const std::vector<FlowSpec>& GetFileFlows() const;
    /// \return end of the background window actually used (0 if no background)
    Time GetBackgroundWindowEnd() const;
    /// \return path of the fct.txt being written ("" if none)
    std::string GetFctTxtPath() const;

    /**
     * Install() then leaves fct.txt unopened until OpenFctTxt(): a caller that may still
     * refuse the configuration after Install touches nothing on disk before it decides.
     */
    void DeferFctTxt();
    /**
     * Opens (truncates) fct.txt in the output directory, when --flows gave file flows
     * and it is not open yet; Install() calls it unless DeferFctTxt() was called.
     * \throws std::invalid_argument naming the file if it cannot be written
     */
    void OpenFctTxt();

    /// Flush and close fct.txt (also done on dispose).
    /// \return false if a write to it failed (a full disk): the file is incomplete
    bool Close();

    /**
     * \brief Assign fixed random variable stream numbers.
     * \param stream first stream index
     * \return number of streams used (4, the generator's)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for posted flows.
     * \param flow the flow
     * \param kind the message kind it was posted with
     * \param messageId the fabric's message id
     */
    typedef void (*PostedTracedCallback)(const FlowSpec& flow, uint8_t kind, uint64_t messageId);

  private:
    void DoDispose() override;
    /// Adds flows to the schedule; fileFlows = log their completions to fct.txt.
    void Enqueue(Ptr<RdmaFabric> fabric,
                 const std::vector<FlowSpec>& flows,
                 uint8_t kind,
                 bool fileFlows);
    /// Posts every entry whose start has come, then schedules the next start.
    void PostDue();
    /// Fabric completion listener: fct.txt lines for file flows.
    void OnMessage(const RdmaFabric::MessageRecord& r);

    /// One scheduled flow.
    struct Entry
    {
        FlowSpec flow; //!< the flow
        uint8_t kind;  //!< message kind
        bool fileFlow; //!< from the flow file (gets an fct.txt line)
    };

    /// Ports of a posted file flow, for its fct.txt line.
    struct FilePorts
    {
        uint16_t sport; //!< source port (10000 + index among its host pair's flows)
        uint16_t dport; //!< destination port from the file
    };

    Time m_bgStart;           //!< background window start
    Time m_bgDuration;        //!< background window length; 0 = up to the stop time
    uint8_t m_bgKind;         //!< kind of background messages
    uint8_t m_fileKind;       //!< kind of flow-file messages
    std::string m_fctTxtName; //!< file name of the HPCC-format FCT log
    int64_t m_stream;         //!< first RNG stream of the generator
    QpSharing m_qpSharing;    //!< one connection per flow or per host pair
    Verb m_verb;              //!< attribute Verb

    Ptr<RdmaFabric> m_fabric;                                   //!< where flows are posted
    std::function<uint64_t(const FlowSpec&, uint8_t)> m_poster; //!< SetPoster
    std::vector<FlowSpec> m_background;                         //!< generated flows
    std::vector<FlowSpec> m_file;                               //!< flow-file flows
    std::vector<Entry> m_schedule;                              //!< all flows by start time
    size_t m_next;                                              //!< first entry not yet posted
    EventId m_event;                                            //!< the pending PostDue
    Time m_bgEnd;                                               //!< window end used
    std::unordered_map<uint64_t, FilePorts> m_ports;    //!< message id -> ports (file flows)
    std::unordered_map<uint64_t, uint16_t> m_nextSport; //!< src << 32 | dst -> flows posted
    std::ofstream m_fctTxt;                             //!< fct.txt, open with --flows
    std::string m_fctTxtPath;                           //!< its path
    bool m_deferFctTxt{false};                          //!< DeferFctTxt() was called
    bool m_listening;                                   //!< message callback connected

    TracedCallback<const FlowSpec&, uint8_t, uint64_t> m_postedTrace; //!< every post
};

} // namespace ns3

#endif // FLOW_WORKLOAD_H
