/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_APPLICATION_H
#define RDMA_FLOW_APPLICATION_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-fabric.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ns3
{

class RdmaNic;
class RdmaQueuePair;
struct RdmaMessage;

/**
 * \ingroup ai-fabric
 * \brief An ns-3 Application on a host that sends MaxMessages RDMA WRITEs of
 * MessageSize bytes to the host RemoteHost over their RC connection.
 *
 * At StartTime it posts the first message (RdmaFabric::PostWrite). With Interval 0
 * the messages go back to back: each is posted when the previous one completes at
 * the sender (its last byte acknowledged), as a perftest ib_write_bw run with one
 * outstanding work request does; with Interval > 0 one is posted every Interval
 * whatever is still in flight (open loop). StopTime stops posting; messages in
 * flight still complete and are recorded.
 *
 * Each completed message yields a record (RdmaFabric::MessageRecord: id, hosts,
 * bytes, post time, completion time, ideal unloaded time on its path), kept in
 * GetRecords() and given to the MessageCompleted trace source. Its tags' top byte
 * is TAG_SPACE, its kind KIND (fct.csv's "flow").
 *
 * The host Node needs an RdmaEndpoint (RoceFabricHelper or IbFabricHelper
 * installed on a FabricTopology); RdmaFlowHelper installs and checks.
 */
class RdmaFlowApplication : public Application
{
  public:
    /// MessageCompleted trace: the finished message.
    typedef void (*MessageCompletedCallback)(const RdmaFabric::MessageRecord& record);

    /// Top 8 bits of this application's tags (below: the message's sequence number).
    static constexpr uint8_t TAG_SPACE = 0xF0;
    /// The kind byte of its messages: the runner's fct.csv "flow" (MessageKind KIND_FLOW).
    static constexpr uint8_t KIND = 0;

    /// \return the TypeId
    static TypeId GetTypeId();
    RdmaFlowApplication();
    ~RdmaFlowApplication() override;

    /// \return every completed message, in completion order
    const std::vector<RdmaFabric::MessageRecord>& GetRecords() const;
    /// \return messages posted so far
    uint32_t GetMessagesPosted() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Post the next message (and, with Interval > 0, schedule the one after).
    void PostNext();
    /// The NIC's MessageSent trace: keep this application's completions.
    void OnMessageSent(Ptr<const RdmaQueuePair> qp, const RdmaMessage& m);

    uint32_t m_remoteHost;  //!< RemoteHost Attribute
    uint64_t m_messageSize; //!< MessageSize Attribute (bytes)
    uint32_t m_maxMessages; //!< MaxMessages Attribute
    Time m_interval;        //!< Interval Attribute (0 = back to back)

    Ptr<RdmaFabric> m_fabric;           //!< the host's fabric (from its RdmaEndpoint)
    Ptr<RdmaNic> m_nic;                 //!< the host's adapter (its MessageSent trace)
    uint32_t m_localHost{0};            //!< this host's index
    bool m_running{false};              //!< between StartApplication and StopApplication
    uint32_t m_posted{0};               //!< messages posted
    EventId m_nextPost;                 //!< the next open-loop post
    std::unordered_set<uint64_t> m_ids; //!< ids of messages posted, not yet completed
    std::vector<RdmaFabric::MessageRecord> m_records;                  //!< completed
    TracedCallback<const RdmaFabric::MessageRecord&> m_completedTrace; //!< MessageCompleted
};

} // namespace ns3

#endif // RDMA_FLOW_APPLICATION_H
