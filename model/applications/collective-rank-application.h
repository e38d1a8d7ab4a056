/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_RANK_APPLICATION_H
#define COLLECTIVE_RANK_APPLICATION_H

#include "ns3/application.h"
#include "ns3/collective-metrics.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class CollectiveApplication;
class CollectiveAlgorithm;
class RdmaCollectiveTransport;

/**
 * \ingroup ai-fabric
 * \brief One rank of a collective, as an ns-3 Application on its host Node.
 *
 * The ranks of one collective (CollectiveHelper::Install on a NodeContainer: rank i
 * is the i-th Node) share one CollectiveApplication and one RdmaCollectiveTransport
 * on the fabric, whose TagSpace the helper sets alike, from a tag space no other
 * collective on the fabric has. The collective's first iteration starts when the
 * last rank has started (its StartTime), as a collective call returns nothing until
 * every rank has called it; the next iterations follow ComputeGap after each other.
 * A rank's StopTime stops the collective: no further iteration starts (the running
 * one finishes and is recorded).
 *
 * Each finished operation (CollectiveRecord: duration, algbw and busbw as
 * nccl-tests define them) is in GetRecords() and given to every rank's
 * CollectiveCompleted trace source: a wildcard Config path sees each operation once
 * per rank.
 *
 * The Attributes are the collective's: CollectiveHelper sets them alike on every
 * rank and builds the collective from them at Install.
 */
class CollectiveRankApplication : public Application
{
  public:
    /// CollectiveCompleted trace: the finished operation.
    typedef void (*CollectiveCompletedCallback)(const CollectiveRecord& record);

    /// What the ranks of one collective share.
    struct Group
    {
        Ptr<CollectiveApplication> app;                //!< runs the operations
        Ptr<RdmaCollectiveTransport> transport;        //!< on the fabric
        std::vector<CollectiveRankApplication*> ranks; //!< by rank (null once disposed)
        uint32_t started{0};                           //!< ranks that started
        bool launched{false};                          //!< the first iteration was scheduled
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    CollectiveRankApplication();
    ~CollectiveRankApplication() override;

    /**
     * Make this application rank \p rank of \p group (CollectiveHelper does).
     * \param group the collective
     * \param rank this rank
     */
    void Join(std::shared_ptr<Group> group, uint32_t rank);

    /// \return this application's rank
    uint32_t GetRank() const;
    /// \return the finished operations of the collective, in order
    const std::vector<CollectiveRecord>& GetRecords() const;
    /// \return true when every iteration finished
    bool IsFinished() const;
    /// \return the collective's algorithm object (its schedule and Attributes)
    Ptr<CollectiveAlgorithm> GetAlgorithm() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// The CollectiveApplication's record callback: every rank's trace.
    static void OnRecord(Group* group, const CollectiveRecord& record);

    std::string m_operation; //!< Operation Attribute
    std::string m_algorithm; //!< Algorithm Attribute
    uint64_t m_bytes;        //!< Bytes Attribute
    uint32_t m_iterations;   //!< Iterations Attribute
    Time m_computeGap;       //!< ComputeGap Attribute

    std::shared_ptr<Group> m_group;                           //!< the collective
    uint32_t m_rank{0};                                       //!< this rank
    TracedCallback<const CollectiveRecord&> m_completedTrace; //!< CollectiveCompleted

    friend class CollectiveHelper;
};

} // namespace ns3

#endif // COLLECTIVE_RANK_APPLICATION_H
