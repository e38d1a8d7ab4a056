/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-faults.h"

#include "size-parser.h"

#include "ns3/config-error.h"
#include "ns3/fault-injection-helper.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/rdma-fabric.h"
#include "ns3/run-recorder.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"

#include <cctype>
#include <tuple>
#include <vector>

namespace ns3
{

ScenarioFaults::ScenarioFaults() = default;

ScenarioFaults::~ScenarioFaults() = default;

void
ScenarioFaults::Install(const ScenarioConfig& c, const TopologyGraph& graph, Ptr<RdmaFabric> fabric)
{
    m_config = &c;
    m_graph = &graph;
    m_fabric = fabric;
    FaultInjectionHelper faults;
    const std::string stormFlag = "--pfc-storm=" + c.Get("pfc-storm");
    for (const auto& storm : c.pfcStorms)
    {
        try
        {
            faults.PfcStorm(m_fabric, storm.host, storm.start, storm.end);
            if (storm.start >= c.stopTime)
            {
                throw std::invalid_argument("it starts at or after --stop-time=" +
                                            FormatTime(c.stopTime));
            }
        }
        catch (const std::invalid_argument& e)
        {
            Refuse(stormFlag, e);
        }
    }
    FailCables(faults);
    const std::string hostFlag = "--host-failure=" + c.Get("host-failure");
    for (const auto& f : c.hostFailures)
    {
        try
        {
            faults.FailHost(m_fabric, f.host, f.at);
        }
        catch (const std::invalid_argument& e)
        {
            Refuse(hostFlag, e);
        }
    }
    if (c.pfcWatchdogDetect > Time(0))
    {
        faults.SetPfcWatchdogAttribute("DetectionTime", TimeValue(c.pfcWatchdogDetect));
        faults.SetPfcWatchdogAttribute("RestorationTime", TimeValue(c.pfcWatchdogRestore));
        // PfcWatchdog::Action's values are the flag's, capitalized ("drop": "Drop")
        std::string action = c.pfcWatchdogAction;
        action[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(action[0])));
        faults.SetPfcWatchdogAttribute("Action", StringValue(action));
        m_watchdog = faults.InstallPfcWatchdog(m_fabric);
    }
}

void
ScenarioFaults::Refuse(const std::string& flag, const std::invalid_argument& e)
{
    m_fabric->Dispose(); // break the fabric's reference cycles before giving up
    m_fabric = nullptr;
    throw ConfigError(flag + ": " + e.what());
}

void
ScenarioFaults::FailCables(const FaultInjectionHelper& faults)
{
    const ScenarioConfig& c = *m_config;
    // --link-failure's cables, then each --node-failure switch's, all checked first.
    const std::string linkFlag = "--link-failure=" + c.Get("link-failure");
    const std::string nodeFlag = "--node-failure=" + c.Get("node-failure");
    std::vector<std::tuple<uint32_t, Time, Time, const std::string*>> cables; // link, down, up
    for (const auto& f : c.linkFailures)
    {
        cables.emplace_back(f.link, f.at, f.up, &linkFlag);
    }
    m_failedNodeOfLink.clear();
    for (const auto& f : c.nodeFailures)
    {
        std::vector<uint32_t> links;
        try
        {
            links = FaultInjectionHelper::GetNodeCables(*m_graph, f.node);
        }
        catch (const std::invalid_argument& e)
        {
            Refuse(nodeFlag, e);
        }
        for (uint32_t link : links)
        {
            cables.emplace_back(link, f.at, Time(0), &nodeFlag);
            m_failedNodeOfLink[link] = f.node;
        }
    }
    for (const auto& [link, down, up, flag] : cables)
    {
        try
        {
            faults.FailLink(m_fabric, link, down, up);
        }
        catch (const std::invalid_argument& e)
        {
            Refuse(*flag, e);
        }
    }
}

Ptr<PfcWatchdog>
ScenarioFaults::GetWatchdog() const
{
    return m_watchdog;
}

void
ScenarioFaults::AddSummary(nlohmann::json& s, const RunRecorder& recorder) const
{
    if (!m_config->linkFailures.empty() || !m_config->nodeFailures.empty())
    {
        s["failures"] = recorder.FailuresJson(m_failedNodeOfLink);
    }
    if (!m_config->hostFailures.empty())
    {
        // Each failed host; what it did to the transport is the run's qp_errors and
        // timeouts (and to jobs, their "state").
        nlohmann::json hosts = nlohmann::json::array();
        for (const RdmaFabric::HostFailureRecord& r : m_fabric->GetHostFailures())
        {
            hosts.push_back({{"host", r.host}, {"node", r.node}, {"at_ns", r.at.GetNanoSeconds()}});
        }
        s["host_failures"] = hosts;
    }
    if (m_watchdog)
    {
        s["pfc_watchdog_events"] = RunRecorder::WatchdogJson(*m_watchdog);
    }
}

void
ScenarioFaults::Dispose()
{
    if (m_watchdog)
    {
        m_watchdog->Dispose();
        m_watchdog = nullptr;
    }
    m_fabric = nullptr;
}

} // namespace ns3
