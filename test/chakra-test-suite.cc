/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Chakra execution traces: the engine's iteration time against a hand computation and
 * against the training engine running the same step from a JSON model (alpha-beta
 * transport), its processors (GPU and CPU nodes, lowest id first), and the checks of a
 * trace's graph (cycles, duplicate ids, one-member groups). test/python/test_chakra.py
 * covers the files themselves (written with python3-protobuf) and --workload=training --chakra.
 */

#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/alpha-beta-collective-transport.h"
#include "ns3/chakra-engine.h"
#include "ns3/chakra-trace.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/training-engine.h"
#include "ns3/training-model.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <string>

using namespace ns3;

namespace
{

/// An alpha-beta transport of \p n ranks: 100 Gb/s, alpha 1 us (the training suite's).
Ptr<AlphaBetaCollectiveTransport>
Transport(uint32_t n)
{
    Ptr<AlphaBetaCollectiveTransport> t = CreateObject<AlphaBetaCollectiveTransport>();
    t->SetAttribute("NRanks", UintegerValue(n));
    t->SetAttribute("Bandwidth", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("Alpha", TimeValue(MicroSeconds(1)));
    return t;
}

/// Runs \p trace on an alpha-beta transport, unpipelined single-channel collectives.
Ptr<ChakraEngine>
RunTrace(const ChakraTrace& trace, uint32_t iterations = 1)
{
    Ptr<ChakraEngine> e = CreateObject<ChakraEngine>();
    e->SetAttribute("Iterations", UintegerValue(iterations));
    e->SetAttribute("ChunkBytes", UintegerValue(0));
    e->SetAttribute("Channels", UintegerValue(1));
    e->Setup(trace, Transport(trace.GetNRanks()));
    e->Start();
    Simulator::Run();
    Simulator::Destroy();
    return e;
}

ChakraNode
Compute(uint64_t id, const std::string& name, int64_t us, std::vector<uint64_t> deps, bool cpu)
{
    ChakraNode n;
    n.id = id;
    n.name = name;
    n.kind = ChakraNode::COMPUTE;
    n.durationNs = us * 1000;
    n.deps = std::move(deps);
    n.cpu = cpu;
    return n;
}

ChakraNode
Allreduce(uint64_t id, uint64_t bytes, std::vector<uint64_t> deps)
{
    ChakraNode n;
    n.id = id;
    n.name = "allreduce";
    n.kind = ChakraNode::COLLECTIVE;
    n.op = CollectiveOp::ALLREDUCE;
    n.bytes = bytes;
    n.deps = std::move(deps);
    return n;
}

/// A trace of \p ranks copies of \p nodes (files r.et).
ChakraTrace
Trace(uint32_t ranks, const std::vector<ChakraNode>& nodes)
{
    ChakraTrace t;
    t.prefix = "t";
    for (uint32_t r = 0; r < ranks; ++r)
    {
        t.files.push_back("t." + std::to_string(r) + ".et");
        t.versions.emplace_back("0.0.4");
        t.ranks.push_back(nodes);
    }
    return t;
}

/// The message Check throws ("" if none).
std::string
CheckError(const ChakraTrace& t)
{
    try
    {
        t.Check();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

/// DP = 2, one layer as a trace: forward, input and weight gradient, the allreduce, the
/// update; the iteration is the hand computation and the training engine's time for the
/// same JSON model.
class ChakraHandComputedTestCase : public TestCase
{
  public:
    ChakraHandComputedTestCase()
        : TestCase("DP=2 one layer as a Chakra trace: iteration = hand computation = JSON model")
    {
    }

  private:
    void DoRun() override
    {
        const ChakraTrace t = Trace(2,
                                    {Compute(1, "fwd", 2, {}, false),
                                     Compute(2, "ig", 1, {1}, false),
                                     Compute(3, "wg", 1, {2}, false),
                                     Allreduce(4, 1000000, {3}),
                                     Compute(5, "update", 1, {3, 4}, false)});
        NS_TEST_ASSERT_MSG_EQ(CheckError(t), "", "a valid graph");
        Ptr<ChakraEngine> e = RunTrace(t, 2);
        NS_TEST_ASSERT_MSG_EQ(e->GetIterations().size(), 2, "two iterations");
        // ring allreduce of 1 MB on 2 ranks: two steps of 500 kB (40 us) + alpha 1 us
        const int64_t allreduce = 2 * (500000 * 8 / 100 + 1000);
        const int64_t expect = 2000 + 1000 + 1000 + allreduce + 1000;
        for (const auto& it : e->GetIterations())
        {
            NS_TEST_EXPECT_MSG_EQ(it.endNs - it.startNs, expect, "iteration " << it.iteration);
            NS_TEST_EXPECT_MSG_EQ(it.gpuComputeNs[0], 5000, "GPU compute");
        }
        NS_TEST_EXPECT_MSG_EQ(e->GetCommStats().size(), 1, "one kind of collective");
        NS_TEST_EXPECT_MSG_EQ(e->GetCommStats()[0].durationsNs.size(), 2, "run once a step");

        TrainingModel m = TrainingModel::ParseJson(R"({
  "parallelism": {"dp": 2}, "gradient_bucket_bytes": 0,
  "layers": [{"forward_ns": 2000, "input_grad_ns": 1000, "weight_grad_ns": 1000,
              "update_ns": 1000, "parameter_bytes": 1000000}]
})",
                                                   "hand");
        m.Resolve(2);
        Ptr<TrainingEngine> j = CreateObject<TrainingEngine>();
        j->SetAttribute("Iterations", UintegerValue(2));
        j->SetAttribute("ChunkBytes", UintegerValue(0));
        j->SetAttribute("Channels", UintegerValue(1));
        j->Setup(m, Transport(2));
        j->Start();
        Simulator::Run();
        Simulator::Destroy();
        for (uint32_t i = 0; i < 2; ++i)
        {
            const auto& a = j->GetIterations()[i];
            const auto& b = e->GetIterations()[i];
            NS_TEST_EXPECT_MSG_EQ(b.endNs - b.startNs,
                                  a.endNs - a.startNs,
                                  "the JSON model's iteration " << i);
        }
        ReportValidation(
            "chakra-dp2-iteration-ns",
            static_cast<double>(e->GetIterations()[0].endNs - e->GetIterations()[0].startNs));
        ReportValidation("chakra-dp2-iteration-ns.expected", static_cast<double>(expect));
    }
};

/// A rank's GPU runs one compute node at a time (the ready node of the lowest id
/// first), its CPU another beside it.
class ChakraProcessorsTestCase : public TestCase
{
  public:
    ChakraProcessorsTestCase()
        : TestCase("GPU nodes in turn by id, a CPU node beside them")
    {
    }

  private:
    void DoRun() override
    {
        // 9 and 5 are ready at once on the GPU: 5 first (lowest id), then 9; 7 waits for
        // 9; the CPU's 3 runs beside them; 8 needs 3 and 5. 5's ctrl_deps (its caller, 3)
        // order nothing.
        ChakraTrace t = Trace(2,
                              {Compute(9, "b", 4, {}, false),
                               Compute(5, "a", 2, {}, false),
                               Compute(7, "c", 1, {9}, false),
                               Compute(3, "cpu", 10, {}, true),
                               Compute(8, "d", 1, {3, 5}, false)});
        for (auto& nodes : t.ranks)
        {
            nodes[1].ctrlDeps.push_back(3);
        }
        NS_TEST_ASSERT_MSG_EQ(CheckError(t), "", "a valid graph");
        Ptr<ChakraEngine> e = RunTrace(t);
        const auto& it = e->GetIterations().at(0);
        // GPU: a 0-2, b 2-6, then c (ready at 6, id 7) 6-7; d ready at 10 (cpu), 10-11
        NS_TEST_EXPECT_MSG_EQ(it.endNs - it.startNs, 11000, "CPU beside GPU, GPU in turn");
        NS_TEST_EXPECT_MSG_EQ(it.gpuComputeNs[0], 8000, "GPU busy 8 us");
    }
};

/// A graph the engine cannot run is refused naming the file, the node and the field.
class ChakraCheckTestCase : public TestCase
{
  public:
    ChakraCheckTestCase()
        : TestCase("a cycle, a duplicate id, a one-member group, a missing dependency refused")
    {
    }

  private:
    void DoRun() override
    {
        std::string e =
            CheckError(Trace(2, {Compute(1, "x", 1, {2}, false), Compute(2, "y", 1, {1}, false)}));
        NS_TEST_EXPECT_MSG_EQ(
            (e.find("t.0.et: node 1 'x'") == 0 && e.find("dependency cycle") != std::string::npos),
            true,
            "cycle: '" << e << "'");
        e = CheckError(Trace(2, {Compute(4, "x", 1, {}, false), Compute(4, "y", 1, {}, false)}));
        NS_TEST_EXPECT_MSG_EQ((e.find("t.0.et: node 4 'y': \"id\": 4 is given twice") == 0),
                              true,
                              "duplicate: '" << e << "'");
        e = CheckError(Trace(2, {Compute(1, "x", 1, {3}, false)}));
        NS_TEST_EXPECT_MSG_EQ((e.find("t.0.et: node 1 'x': \"data_deps\": node 3") == 0),
                              true,
                              "missing dependency: '" << e << "'");
        ChakraTrace c = Trace(2, {Compute(1, "x", 1, {}, false)});
        c.ranks[1][0].ctrlDeps.push_back(6);
        e = CheckError(c);
        NS_TEST_EXPECT_MSG_EQ((e.find("t.1.et: node 1 'x': \"ctrl_deps\": node 6") == 0),
                              true,
                              "missing caller: '" << e << "'");
        ChakraTrace g = Trace(2, {Compute(1, "x", 1, {}, false)});
        g.ranks[1].push_back(Allreduce(2, 8, {1}));
        g.ranks[1].back().group = "solo";
        e = CheckError(g);
        NS_TEST_EXPECT_MSG_EQ((e.find("pg_name 'solo' have one member") != std::string::npos),
                              true,
                              "one member: '" << e << "'");
        try
        {
            ChakraTrace::Load("/nonexistent/chakra");
            NS_TEST_EXPECT_MSG_EQ(true, false, "Load of a missing trace throws");
        }
        catch (const std::invalid_argument& x)
        {
            // with protobuf: the missing file; without: the build's missing support
            const std::string w = x.what();
            const std::string expect = ChakraTrace::IsAvailable()
                                           ? "/nonexistent/chakra.0.et: no such file"
                                           : "this build reads no Chakra traces";
            NS_TEST_EXPECT_MSG_EQ(w.rfind(expect, 0), 0, "'" << w << "'");
        }
    }
};

class ChakraTestSuite : public TestSuite
{
  public:
    ChakraTestSuite()
        : TestSuite("ai-fabric-chakra", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new ChakraHandComputedTestCase, AI_FABRIC_QUICK);
        AddTestCase(new ChakraProcessorsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new ChakraCheckTestCase, AI_FABRIC_QUICK);
    }
};

static ChakraTestSuite g_chakraTestSuite; //!< registers the suite
