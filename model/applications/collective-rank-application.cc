/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-rank-application.h"

#include "ns3/abort.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/log.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveRankApplication");

NS_OBJECT_ENSURE_REGISTERED(CollectiveRankApplication);

TypeId
CollectiveRankApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveRankApplication")
            .SetParent<Application>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollectiveRankApplication>()
            .AddAttribute("Operation",
                          "Collective operation: allreduce, reducescatter, allgather, alltoall, "
                          "broadcast or reduce (CollectiveOpFromString). Default allreduce, the "
                          "data-parallel gradient exchange.",
                          StringValue("allreduce"),
                          MakeStringAccessor(&CollectiveRankApplication::m_operation),
                          MakeStringChecker())
            .AddAttribute("Algorithm",
                          "Algorithm of the operation (CollectiveAlgorithm::Create: ring, tree, "
                          "hd, 2d, ... as registered for it). Default ring, NCCL's default "
                          "allreduce algorithm for large messages.",
                          StringValue("ring"),
                          MakeStringAccessor(&CollectiveRankApplication::m_algorithm),
                          MakeStringChecker())
            .AddAttribute("Bytes",
                          "Bytes per rank (S, nccl-tests' size), at least 1. Default 1000000, "
                          "the scenario runner's --bytes default.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&CollectiveRankApplication::m_bytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Iterations",
                          "Operations run one after the other (the training loop's steps), at "
                          "least 1. Default 1, the runner's --iterations default.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveRankApplication::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeGap",
                          "Time between the end of one iteration and the start of the next "
                          "(the compute phase). Default 0: back to back, as the runner's "
                          "--iterations runs them.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveRankApplication::m_computeGap),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CollectiveCompleted",
                            "An operation of the collective finished: its record (every rank "
                            "fires it)",
                            MakeTraceSourceAccessor(&CollectiveRankApplication::m_completedTrace),
                            "ns3::CollectiveRankApplication::CollectiveCompletedCallback");
    return tid;
}

CollectiveRankApplication::CollectiveRankApplication() = default;

CollectiveRankApplication::~CollectiveRankApplication() = default;

void
CollectiveRankApplication::DoDispose()
{
    if (m_group)
    {
        m_group->ranks[m_rank] = nullptr;
        bool last = true;
        for (const CollectiveRankApplication* r : m_group->ranks)
        {
            last = last && r == nullptr;
        }
        if (last)
        {
            m_group->app->Dispose();
            m_group->transport->Dispose();
            m_group->app = nullptr;
            m_group->transport = nullptr;
        }
    }
    m_group = nullptr;
    Application::DoDispose();
}

void
CollectiveRankApplication::Join(std::shared_ptr<Group> group, uint32_t rank)
{
    NS_ABORT_MSG_IF(m_group, "CollectiveRankApplication::Join: rank of a collective already");
    NS_ABORT_MSG_IF(rank >= group->ranks.size(),
                    "rank " << rank << " of a collective of " << group->ranks.size() << " ranks");
    m_group = group;
    m_rank = rank;
    group->ranks[rank] = this;
    if (rank == 0)
    {
        // A raw pointer: the group holds the CollectiveApplication that holds this
        // callback, and the last rank disposes that application before the group goes.
        group->app->SetRecordCallback(
            MakeBoundCallback(&CollectiveRankApplication::OnRecord, group.get()));
    }
}

void
CollectiveRankApplication::OnRecord(Group* group, const CollectiveRecord& record)
{
    for (CollectiveRankApplication* r : group->ranks)
    {
        if (r != nullptr)
        {
            r->m_completedTrace(record);
        }
    }
}

uint32_t
CollectiveRankApplication::GetRank() const
{
    return m_rank;
}

const std::vector<CollectiveRecord>&
CollectiveRankApplication::GetRecords() const
{
    static const std::vector<CollectiveRecord> none;
    return m_group && m_group->app ? m_group->app->GetRecords() : none;
}

bool
CollectiveRankApplication::IsFinished() const
{
    return m_group && m_group->app && m_group->app->IsFinished();
}

Ptr<CollectiveAlgorithm>
CollectiveRankApplication::GetAlgorithm() const
{
    return m_group && m_group->app ? m_group->app->GetAlgorithm(0) : nullptr;
}

void
CollectiveRankApplication::StartApplication()
{
    NS_ABORT_MSG_IF(!m_group,
                    "CollectiveRankApplication on node "
                        << GetNode()->GetId()
                        << " is no rank of a collective (install it with CollectiveHelper)");
    m_group->started++;
    NS_LOG_INFO("rank " << m_rank << " started (" << m_group->started << " of "
                        << m_group->ranks.size() << ")");
    if (m_group->started == m_group->ranks.size() && !m_group->launched &&
        !m_group->app->IsStopped())
    {
        m_group->launched = true;
        m_group->app->Start();
    }
}

void
CollectiveRankApplication::StopApplication()
{
    if (m_group && m_group->app)
    {
        m_group->app->Stop();
    }
}

} // namespace ns3
