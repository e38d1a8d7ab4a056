/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-scenario-workload.h"

#include "workload-options.h"

#include "ns3/message-kind.h"
#include "ns3/output-writer.h"
#include "ns3/string.h"
#include "ns3/tcp-flow-transport.h"

#include <filesystem>

namespace ns3
{

void
FlowScenarioWorkload::Install(const ScenarioConfig& c, const Context& ctx)
{
    // (--background at its default, none, and no --flows file: nothing to install)
    if ((c.background.empty() || c.background == ScenarioConfig().background) && c.flows.empty())
    {
        return;
    }
    m_flows = CreateObject<FlowWorkload>();
    m_flows->SetAttribute("BackgroundDuration", TimeValue(c.backgroundDuration));
    m_flows->SetAttribute("QpSharing", StringValue(c.qpSharing));
    m_flows->SetAttribute(
        "Verb",
        StringValue(c.GetVerb() == ScenarioConfig::Verb::SEND ? "Send" : "Write"));
    m_flows->AssignStreams(100);
    if (ctx.tcp)
    {
        Ptr<TcpFlowTransport> tcp = ctx.tcp;
        m_flows->SetPoster([tcp](const FlowSpec& f, uint8_t kind) {
            return tcp->PostFlow(f.src, f.dst, f.sizeBytes, f.id, kind);
        });
    }
    else if (c.GetVerb() == ScenarioConfig::Verb::READ)
    {
        // The flow's bytes go src -> dst: dst reads them (on the pair's connection, or
        // one of the flow's own as --qp-sharing says).
        Ptr<RdmaFabric> fabric = ctx.fabric;
        const bool perFlow = c.GetQpSharing() == ScenarioConfig::QpSharing::FLOW;
        m_flows->SetPoster([fabric, perFlow](const FlowSpec& f, uint8_t kind) {
            return perFlow ? fabric->PostReadOnOwnConnection(f.dst, f.src, f.sizeBytes, f.id, kind)
                           : fabric->PostRead(f.dst, f.src, f.sizeBytes, f.id, kind);
        });
    }
    m_flows->DeferFctTxt(); // (opened once the writer has opened --out: OpenFiles)
    WorkloadOptions::AsConfigError(
        [&]() { m_flows->Install(WorkloadOptions::Flows(c), ctx.fabric); });
}

bool
FlowScenarioWorkload::HasWork() const
{
    return m_flows != nullptr;
}

bool
FlowScenarioWorkload::IsFinished() const
{
    return !m_flows || (m_flows->AllPosted() && m_finished >= m_flows->GetMessageCount());
}

void
FlowScenarioWorkload::OpenFiles()
{
    if (m_flows)
    {
        WorkloadOptions::AsConfigError([this]() { m_flows->OpenFctTxt(); });
    }
}

void
FlowScenarioWorkload::OnMessage(const RdmaFabric::MessageRecord& r, bool tcp)
{
    if (tcp && m_flows)
    {
        m_flows->NotifyFinished(r); // (RDMA flows reach it from the fabric)
    }
    if (r.kind == KIND_FLOW || r.kind == KIND_BACKGROUND)
    {
        m_finished++;
    }
}

uint64_t
FlowScenarioWorkload::GetExpectedMessages() const
{
    return m_flows ? m_flows->GetMessageCount() : 0;
}

uint64_t
FlowScenarioWorkload::GetFinishedMessages() const
{
    return m_finished;
}

void
FlowScenarioWorkload::AddProgress(RankRun::Progress& p) const
{
    p.finishedFlows += m_finished;
    p.flows = m_flows;
}

void
FlowScenarioWorkload::AddSummary(nlohmann::json& s) const
{
    if (!m_flows)
    {
        return;
    }
    s["flow_workload"] = {
        {"background_flows", m_flows->GetBackgroundFlows().size()},
        {"file_flows", m_flows->GetFileFlows().size()},
        {"background_window_end_s", m_flows->GetBackgroundWindowEnd().GetSeconds()},
        {"posted", m_flows->GetPostedCount()}};
}

void
FlowScenarioWorkload::WriteFiles(OutputWriter& writer)
{
    if (m_flows && !m_flows->Close())
    {
        std::filesystem::remove(m_flows->GetFctTxtPath());
        writer.AbandonAfterWriteError("cannot write " + m_flows->GetFctTxtPath());
    }
}

void
FlowScenarioWorkload::Dispose()
{
    if (m_flows)
    {
        m_flows->Dispose();
        m_flows = nullptr;
    }
}

} // namespace ns3
