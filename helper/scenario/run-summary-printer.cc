/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-summary-printer.h"

#include "fabric-builder-registry.h"

#include "ns3/attribution-recorder.h"
#include "ns3/message-kind.h"
#include "ns3/topology-registry.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

using nlohmann::json;

/// The value at a path of keys, or nullptr when any step is missing.
const json*
At(const json& j, std::initializer_list<const char*> path)
{
    const json* cur = &j;
    for (const char* key : path)
    {
        if (!cur->is_object() || !cur->contains(key))
        {
            return nullptr;
        }
        cur = &(*cur)[key];
    }
    return cur;
}

std::optional<double>
Number(const json& j, std::initializer_list<const char*> path)
{
    const json* v = At(j, path);
    if (v == nullptr || !v->is_number())
    {
        return std::nullopt;
    }
    return v->get<double>();
}

/// A value as short text: 4 significant digits for reals, exact integers.
std::string
Text(const json* v)
{
    if (v == nullptr || v->is_null())
    {
        return "n/a";
    }
    if (v->is_string())
    {
        return v->get<std::string>();
    }
    if (v->is_number_float())
    {
        std::ostringstream os;
        os.precision(4);
        os << v->get<double>();
        return os.str();
    }
    return v->dump();
}

std::string
Text(const json& j, std::initializer_list<const char*> path)
{
    return Text(At(j, path));
}

std::string
TopologyDescription(const json& s)
{
    const std::string topo = Text(s, {"config", "topology"});
    // The flags that size the family (TopologyRegistry), as flag=value.
    std::string shape;
    try
    {
        // Plain hosts (one GPU per server) leave out the server flags, unless the family
        // is sized in servers (rail).
        const std::vector<std::string>& flags = TopologyRegistry::Get(topo).flags;
        const bool servers = (Text(s, {"config", "gpus-per-server"}) != "1" &&
                              At(s, {"config", "gpus-per-server"}) != nullptr) ||
                             std::find(flags.begin(), flags.end(), "servers") != flags.end();
        const auto& serverFlags = TopologyRegistry::ServerFlags();
        for (const std::string& flag : flags)
        {
            const bool serverFlag = std::any_of(serverFlags.begin(),
                                                serverFlags.end(),
                                                [&flag](const auto& f) { return f.first == flag; });
            if (!serverFlag || servers)
            {
                shape += " " + flag + "=" + Text(s, {"config", flag.c_str()});
            }
        }
    }
    catch (const std::invalid_argument&)
    {
        // A summary of another build's family: its name alone.
    }
    std::string size;
    if (At(s, {"topology"}) != nullptr)
    {
        size = " (" + Text(s, {"topology", "hosts"}) + " hosts, " +
               Text(s, {"topology", "switches"}) + " switches, " + Text(s, {"topology", "links"}) +
               " links)";
    }
    return topo + shape + size;
}

void
PrintCollectives(std::ostream& os, const json& s)
{
    const json* c = At(s, {"collectives"});
    if (c == nullptr || c->is_null() || (c->is_array() && c->empty()))
    {
        return;
    }
    if (c->is_array())
    {
        // One entry per job (communicator): its operation, finished iterations and
        // step-time statistics.
        for (const auto& job : *c)
        {
            os << "  collective:   ";
            if (auto op = At(job, {"operation"}))
            {
                os << Text(op) << " ";
            }
            if (auto alg = At(job, {"algorithm"}))
            {
                os << Text(alg) << " ";
            }
            // NCCL's protocol, when it is not the default Simple
            if (auto proto = At(job, {"protocol"}); proto && Text(proto) != "simple")
            {
                os << Text(proto) << " ";
            }
            if (auto ranks = At(job, {"ranks"}))
            {
                os << Text(ranks) << " ranks, ";
            }
            if (auto it = At(job, {"finished_iterations"}))
            {
                os << Text(it);
                if (auto total = At(job, {"iterations"}))
                {
                    os << "/" << Text(total);
                }
                os << " iterations";
            }
            if (auto mean = Number(job, {"step_time_ns", "mean"}))
            {
                json us = *mean / 1000.0;
                os << ", step mean " << Text(&us) << " us";
            }
            if (auto p99 = Number(job, {"step_time_ns", "p99"}))
            {
                json us = *p99 / 1000.0;
                os << ", p99 " << Text(&us) << " us";
            }
            if (auto b = Number(job, {"busbw_gbps"}))
            {
                json bw = *b;
                os << ", busbw " << Text(&bw) << " Gb/s";
            }
            os << "\n";
        }
        return;
    }
    if (c->is_object())
    {
        os << "  collectives: ";
        for (const auto& [key, value] : c->items())
        {
            if (value.is_primitive())
            {
                os << " " << key << "=" << Text(&value);
            }
        }
        os << "\n";
    }
}

/// --workload=training: GPUs, iterations, iteration time and exposed communication.
void
PrintTraining(std::ostream& os, const json& s)
{
    const json* t = At(s, {"training"});
    if (t == nullptr || !t->is_object())
    {
        return;
    }
    os << "  training:     " << Text(*t, {"model"}) << " on " << Text(*t, {"gpus"}) << " GPUs (tp "
       << Text(*t, {"parallelism", "tp"}) << " pp " << Text(*t, {"parallelism", "pp"}) << " dp "
       << Text(*t, {"parallelism", "dp"}) << " ep " << Text(*t, {"parallelism", "ep"}) << "), "
       << Text(*t, {"finished_iterations"}) << " iterations";
    if (auto mean = Number(*t, {"iteration_ns", "mean"}))
    {
        json us = *mean / 1000.0;
        os << ", iteration mean " << Text(&us) << " us";
    }
    if (auto p99 = Number(*t, {"iteration_ns", "p99"}))
    {
        json us = *p99 / 1000.0;
        os << ", p99 " << Text(&us) << " us";
    }
    if (auto exposed = Number(*t, {"exposed_comm_ns", "mean"}))
    {
        json us = *exposed / 1000.0;
        os << ", exposed communication " << Text(&us) << " us";
    }
    os << "\n";
}

/// --workload=training --chakra: ranks, nodes, iterations and the mean iteration time.
void
PrintChakra(std::ostream& os, const json& s)
{
    const json* t = At(s, {"chakra"});
    if (t == nullptr || !t->is_object())
    {
        return;
    }
    os << "  chakra:       " << Text(*t, {"ranks"}) << " ranks, " << Text(*t, {"nodes", "compute"})
       << " compute, " << Text(*t, {"nodes", "collective"}) << " collective, "
       << Text(*t, {"nodes", "send"}) << " send nodes; " << Text(*t, {"finished_iterations"})
       << " iterations";
    if (auto mean = Number(*t, {"mean_iteration_ns"}))
    {
        json us = *mean / 1000.0;
        os << ", iteration mean " << Text(&us) << " us";
    }
    os << "\n";
}

/// --workload=jobs: one line per job (iterations, mean iteration time, slowdown).
void
PrintJobs(std::ostream& os, const json& s)
{
    const json* jobs = At(s, {"jobs"});
    if (jobs == nullptr || !jobs->is_array())
    {
        return;
    }
    for (const json& j : *jobs)
    {
        os << "  job " << Text(j, {"name"}) << ":  " << Text(j, {"workload"}) << " on "
           << Text(j, {"gpus"}) << " GPUs (" << Text(j, {"placement"}) << ", class "
           << Text(j, {"class"}) << "), " << Text(j, {"finished_iterations"}) << " iterations";
        if (auto mean = Number(j, {"mean_iteration_ns"}))
        {
            json us = *mean / 1000.0;
            os << ", iteration mean " << Text(&us) << " us";
        }
        if (auto alone = Number(j, {"alone_mean_iteration_ns"}))
        {
            json us = *alone / 1000.0;
            os << " (alone " << Text(&us) << " us, slowdown " << Text(j, {"slowdown"}) << ")";
        }
        os << "\n";
    }
}

/// The first lines: fabric, topology, workload, cc, lb, routing, switches
void
PrintConfiguration(std::ostream& os, const json& s)
{
    os << "ai-fabric-sim: " << Text(s, {"config", "fabric"}) << ", " << TopologyDescription(s)
       << "\n";
    os << "  workload:     " << Text(s, {"config", "workload"});
    const std::string workload = Text(s, {"config", "workload"});
    if (WorkloadRegistry::Has(workload) &&
        WorkloadRegistry::Get(workload).family == WorkloadRegistry::TRAINING)
    {
        // (a Chakra trace is a training workload read from --chakra)
        os << " " << Text(s, {"config", At(s, {"chakra"}) != nullptr ? "chakra" : "training"});
    }
    else if (At(s, {"jobs"}) != nullptr)
    {
        os << " " << Text(s, {"config", "jobs"}); // (the jobs' sizes are in their file)
    }
    else if (workload != "none" && workload != "n/a")
    {
        os << ", " << Text(s, {"config", "bytes"}) << " bytes";
    }
    const std::string background = Text(s, {"config", "background"});
    if (background != "none" && background != "n/a")
    {
        os << "; background " << background << " at load " << Text(s, {"config", "load"});
    }
    os << "; cc " << Text(s, {"config", "cc"});
    if (const std::string preset = Text(s, {"config", "cc-preset"});
        !preset.empty() && preset != "n/a")
    {
        os << " (preset " << preset << ")";
    }
    os << ", lb " << Text(s, {"config", "lb"}) << ", routing " << Text(s, {"config", "routing"});
    if (const json* free = At(s, {"routing_deadlock_free"}); free != nullptr && free->is_boolean())
    {
        // the channel dependency check of the route table (and the VLs / priorities it uses)
        os << " (" << (free->get<bool>() ? "deadlock free" : "NOT deadlock free");
        if (auto vls = Number(s, {"routing_vls"}); vls && *vls > 1)
        {
            os << ", " << Text(s, {"routing_vls"})
               << (FabricBuilderRegistry::IsInfiniBand(Text(s, {"config", "fabric"}))
                       ? " VLs"
                       : " priorities");
        }
        os << ")";
    }
    if (auto latency = Number(s, {"switch_forwarding", "latency_ns"}))
    {
        // What every switch ran with (--switch-latency, --cut-through or the fabric's).
        const json* cut = At(s, {"switch_forwarding", "cut_through"});
        os << "; switches " << Text(s, {"switch_forwarding", "latency_ns"}) << " ns "
           << (cut != nullptr && cut->is_boolean() && cut->get<bool>() ? "cut-through"
                                                                       : "store-and-forward");
    }
    os << "\n";
}

/// status (complete, INCOMPLETE, DEADLOCK), time and, with --mpi, the ranks
void
PrintStatus(std::ostream& os, const json& s)
{
    const json* complete = At(s, {"complete"});
    if (const json* d = At(s, {"deadlock"}))
    {
        os << "  status:       DEADLOCK at " << Text(*d, {"time_ns"})
           << " ns (queues stalled since " << Text(*d, {"stalled_since_ns"})
           << " ns): " << Text(*d, {"text"}) << " (node:port:" << Text(s, {"deadlock", "lane"})
           << ")\n";
    }
    else if (complete != nullptr && complete->is_boolean() && !complete->get<bool>())
    {
        os << "  status:       INCOMPLETE (stopped at --stop-time="
           << Text(s, {"config", "stop-time"}) << ")";
        if (const json* u = At(s, {"unfinished"}))
        {
            os << "; unfinished: " << (u->is_string() ? u->get<std::string>() : u->dump());
        }
        os << "\n";
    }
    else
    {
        os << "  status:       complete\n";
    }
    os << "  time:         simulated " << Text(s, {"sim_time_s"}) << " s, wall "
       << Text(s, {"wall_s"}) << " s, " << Text(s, {"events"}) << " events";
    if (At(s, {"packet_hops"}) != nullptr)
    {
        os << ", " << Text(s, {"packet_hops"}) << " packet hops";
    }
    os << "\n";
    if (const json* mpi = At(s, {"mpi"}))
    {
        os << "  ranks:        " << Text(*mpi, {"ranks"}) << " (partition "
           << Text(*mpi, {"partition"}) << ", " << Text(*mpi, {"cut_cables"})
           << " cables cut, lookahead " << Text(*mpi, {"lookahead_ns"}) << " ns)";
        if (const json* per = At(*mpi, {"per_rank"}); per != nullptr && per->is_array())
        {
            for (const json& r : *per)
            {
                os << "; rank " << Text(r, {"rank"}) << " " << Text(r, {"nodes"}) << " nodes, "
                   << Text(r, {"events"}) << " events, " << Text(r, {"wall_s"}) << " s";
            }
        }
        os << "\n";
    }
}

/// FCT slowdown of every row, then each traffic class when there are several
void
PrintFct(std::ostream& os, const json& s)
{
    if (auto n = Number(s, {"fct", "count"}); n && *n > 0)
    {
        // all rows of fct.csv, then each traffic class on its own line when there are
        // several: a collective's chunk messages must not hide the background's tail
        os << "  FCT slowdown: all " << Text(s, {"fct", "count"}) << " flows p50 "
           << Text(s, {"fct", "slowdown", "p50"}) << ", p99 " << Text(s, {"fct", "slowdown", "p99"})
           << ", max " << Text(s, {"fct", "slowdown", "max"}) << "\n";
        const json* kinds = At(s, {"fct_by_kind"});
        if (kinds != nullptr && kinds->is_object() && kinds->size() > 1)
        {
            for (auto it = kinds->begin(); it != kinds->end(); ++it)
            {
                const json& k = it.value();
                os << "                " << it.key() << " " << Text(k, {"count"})
                   << (it.key() == MessageKindName(KIND_COLLECTIVE) ? " messages p50 "
                                                                    : " flows p50 ")
                   << Text(k, {"slowdown", "p50"}) << ", p99 " << Text(k, {"slowdown", "p99"})
                   << ", max " << Text(k, {"slowdown", "max"}) << "\n";
            }
        }
    }
}

/// drops, PFC frames, retransmissions, the watchdog and a lossless-class warning
void
PrintLosses(std::ostream& os, const json& s)
{
    os << "  losses:       drops lossless " << Text(s, {"drops", "lossless"}) << ", lossy "
       << Text(s, {"drops", "lossy"});
    if (auto down = Number(s, {"drops", "link_down"}); down && *down > 0)
    {
        os << ", link-down " << Text(s, {"drops", "link_down"}); // a failed cable (--link-failure)
    }
    if (auto wd = Number(s, {"drops", "pfc_watchdog"}); wd && *wd > 0)
    {
        os << ", PFC watchdog " << Text(s, {"drops", "pfc_watchdog"}); // --pfc-watchdog drop
    }
    if (auto stalled = Number(s, {"drops", "stalled_receive"}); stalled && *stalled > 0)
    {
        os << ", stalled receiver " << Text(s, {"drops", "stalled_receive"}); // --pfc-storm
    }
    os << "; PFC pause frames " << Text(s, {"pfc_pauses"}) << ", resume frames "
       << Text(s, {"pfc_resumes"}) << "; retransmissions " << Text(s, {"retransmissions"}) << "\n";
    if (const json* events = At(s, {"pfc_watchdog_events"});
        events != nullptr && events->is_array())
    {
        size_t storms = 0;
        for (const json& e : *events)
        {
            storms += e.value("event", "") == "storm" ? 1 : 0;
        }
        os << "  PFC watchdog: " << storms << (storms == 1 ? " storm" : " storms") << " detected, "
           << events->size() - storms << " restored\n";
    }
    if (auto lossless = Number(s, {"drops", "lossless"}); lossless && *lossless > 0)
    {
        const json* onPurpose = At(s, {"lossless_broken_on_purpose"});
        if (onPurpose != nullptr && onPurpose->is_boolean() && onPurpose->get<bool>())
        {
            os << "  note: packets were lost in a lossless class, as --allow-lossy-headroom=1 "
                  "allows (see drops.csv)\n";
        }
        else
        {
            os << "  WARNING: packets were lost in a lossless class (a bug: see drops.csv)\n";
        }
    }
}

/// the output directory and its files
void
PrintFiles(std::ostream& os, const json& s)
{
    const json* dir = At(s, {"output", "dir"});
    os << "  files:        " << (dir ? Text(dir) : Text(s, {"config", "out"})) << "/ summary.json";
    if (const json* rows = At(s, {"output", "rows"}); rows != nullptr && rows->is_object())
    {
        for (const auto& [name, count] : rows->items())
        {
            os << ", " << name << " (" << Text(&count) << " rows)";
        }
    }
    else
    {
        os << ", fct.csv, collective.csv, pfc.csv, qlen.csv, drops.csv";
    }
    os << "\n";
}

} // namespace

void
PrintRunSummary(std::ostream& os, const nlohmann::json& s)
{
    PrintConfiguration(os, s);
    PrintStatus(os, s);
    PrintFct(os, s);
    PrintCollectives(os, s);
    PrintTraining(os, s);
    PrintChakra(os, s);
    PrintJobs(os, s);
    PrintLosses(os, s);
    AttributionRecorder::PrintSummary(os, s); // (--attribution=1: where the tail comes from)
    PrintFiles(os, s);
}

} // namespace ns3
