/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NCCL's tree on GPU servers (NcclTree, TreeAllreduce with GpusPerServer): the double
 * binary tree over the servers equals NCCL's ncclGetDtree (transcribed here from its
 * documented bit rules, independently of the model's code), each server runs a chain of
 * its GPUs from the GPU whose NIC the channel uses, every edge between servers stays on
 * that NIC's rail, the NICs share the channels equally, the schedules deliver what an
 * allreduce promises, and one-NIC hosts keep the tree over all ranks.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/alpha-beta-collective-transport.h"
#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/communicator.h"
#include "ns3/nccl-tree.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/tree-allreduce.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// NCCL's ncclGetBtree for one rank (src/graph/trees.cc): parent (-1 at the root) and
/// the two children (-1 if none), with its loop that lowers down1 until it is in range.
void
NcclBtree(int nranks, int rank, int* up, int* d0, int* d1)
{
    int bit = 1;
    for (; bit < nranks; bit <<= 1)
    {
        if (bit & rank)
        {
            break;
        }
    }
    if (rank == 0)
    {
        *up = -1;
        *d0 = -1;
        *d1 = nranks > 1 ? bit >> 1 : -1;
        return;
    }
    *up = (rank ^ bit) | (bit << 1);
    if (*up >= nranks)
    {
        *up = rank ^ bit;
    }
    int lowbit = bit >> 1;
    *d0 = lowbit == 0 ? -1 : rank - lowbit;
    *d1 = lowbit == 0 ? -1 : rank + lowbit;
    while (*d1 >= nranks)
    {
        *d1 = lowbit == 0 ? -1 : rank + lowbit;
        lowbit >>= 1;
    }
}

/// NCCL's ncclGetDtree: tree 1 mirrors tree 0 (even count) or shifts it by one (odd).
void
NcclDtree(int nranks, int rank, int tree, int* up, int* d0, int* d1)
{
    if (tree == 0)
    {
        NcclBtree(nranks, rank, up, d0, d1);
        return;
    }
    auto back = [nranks](int x, bool shift) {
        return x == -1 ? -1 : shift ? (x + 1) % nranks : nranks - 1 - x;
    };
    const bool shift = nranks % 2 == 1;
    NcclBtree(nranks, shift ? (rank - 1 + nranks) % nranks : nranks - 1 - rank, up, d0, d1);
    *up = back(*up, shift);
    *d0 = back(*d0, shift);
    *d1 = back(*d1, shift);
}

/// Alpha-beta transport of n ranks at 100 Gb/s, alpha 2 us, sides independent.
Ptr<AlphaBetaCollectiveTransport>
MakeTransport(uint32_t n)
{
    auto t = CreateObject<AlphaBetaCollectiveTransport>();
    t->SetAttribute("NRanks", UintegerValue(n));
    t->SetAttribute("Bandwidth", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("Alpha", TimeValue(MicroSeconds(2)));
    t->SetAttribute("CoupledSides", BooleanValue(false));
    return t;
}

/// A tree allreduce of n ranks on servers of g GPUs, set up (not run).
Ptr<CollectiveAlgorithm>
MakeTree(uint32_t n, uint32_t g, uint32_t channels, uint64_t bytes, uint32_t chunk = 131072)
{
    Ptr<CollectiveAlgorithm> alg = CreateObject<TreeAllreduce>();
    alg->SetAttribute("Channels", UintegerValue(channels));
    alg->SetAttribute("ChunkBytes", UintegerValue(chunk));
    alg->SetAttribute("GpusPerServer", UintegerValue(g));
    alg->Setup(Communicator::AllHosts(n), bytes);
    return alg;
}

/// The transfers of a schedule as (channel, src, dst, reduce), in graph order.
std::vector<std::tuple<uint32_t, uint32_t, uint32_t, bool>>
Transfers(Ptr<CollectiveAlgorithm> alg)
{
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t, bool>> v;
    for (uint32_t i = 0; i < alg->GetNTransfers(); ++i)
    {
        const CollectiveTransfer& t = alg->GetTransfer(i);
        v.emplace_back(t.channel, t.src, t.dst, t.reduce);
    }
    return v;
}

/**
 * \brief The double binary tree over nodes is NCCL's: parent and children (down0, then
 * down1) of every node of both trees, for 1..40 nodes, against the transcription above.
 */
class NodeTreeTest : public TestCase
{
  public:
    NodeTreeTest()
        : TestCase("the tree over servers is NCCL's ncclGetDtree (1..40 nodes, both trees)")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t nodes = 1; nodes <= 40; ++nodes)
        {
            for (uint32_t tree = 0; tree < 2; ++tree)
            {
                std::vector<uint32_t> parent;
                std::vector<std::vector<uint32_t>> kids;
                NcclTree::GetNodeTree(nodes, tree, parent, kids);
                for (uint32_t r = 0; r < nodes; ++r)
                {
                    int up;
                    int d0;
                    int d1;
                    NcclDtree(nodes, r, tree, &up, &d0, &d1);
                    const std::string what = std::to_string(nodes) + " nodes, tree " +
                                             std::to_string(tree) + ", node " + std::to_string(r);
                    NS_TEST_ASSERT_MSG_EQ(parent[r],
                                          (up == -1 ? NcclTree::NONE : static_cast<uint32_t>(up)),
                                          what + ": parent");
                    std::vector<uint32_t> expect;
                    for (int d : {d0, d1})
                    {
                        if (d != -1)
                        {
                            expect.push_back(d);
                        }
                    }
                    NS_TEST_ASSERT_MSG_EQ((kids[r] == expect), true, what + ": children");
                }
            }
        }
    }
};

/**
 * \brief Per channel on servers: every rank once in the tree; inside a server the chain
 * h, h+1, ..., h-1 from the head h = (channel / 2) mod G; between servers only heads,
 * parent and children as ncclGetDtree over the servers with tree channel mod 2, all on
 * rail h; every NIC carries the same number of tree edges over NCCL's 2 G channels; the
 * depth is the chain's G - 1 plus the server tree's.
 */
class ServerTreeShapeTest : public TestCase
{
  public:
    ServerTreeShapeTest()
        : TestCase("per channel: chains in servers from NIC (c div 2) mod G, heads joined as "
                   "ncclGetDtree over servers, NICs shared equally")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t g : {2u, 4u, 8u})
        {
            for (uint32_t servers : {2u, 3u, 4u, 5u, 8u})
            {
                const uint32_t n = servers * g;
                NcclTree layout(n, g);
                NS_TEST_ASSERT_MSG_EQ(layout.IsServerTree(), true, "servers of GPUs");
                NS_TEST_ASSERT_MSG_EQ(layout.GetNNodes(), servers, "one node per server");
                std::vector<uint32_t> edgesPerNic(g, 0);
                for (uint32_t c = 0; c < 2 * g; ++c)
                {
                    const std::string what = std::to_string(servers) + " x " + std::to_string(g) +
                                             ", channel " + std::to_string(c);
                    const uint32_t h = (c / 2) % g;
                    NS_TEST_ASSERT_MSG_EQ(layout.GetHeadGpu(c), h, what);
                    const NcclTree::RankTree t = layout.GetTree(c);
                    uint32_t rootNode = 0;
                    uint32_t nodeDepth = 0;
                    for (uint32_t s = 0; s < servers; ++s)
                    {
                        int up;
                        int d0;
                        int d1;
                        NcclDtree(servers, s, c % 2, &up, &d0, &d1);
                        if (up == -1)
                        {
                            rootNode = s;
                        }
                        uint32_t d = 0;
                        for (int q = s; q != -1; NcclDtree(servers, q, c % 2, &q, &d0, &d1))
                        {
                            ++d;
                        }
                        nodeDepth = std::max(nodeDepth, d - 1);
                        NcclDtree(servers, s, c % 2, &up, &d0, &d1);
                        for (uint32_t i = 0; i < g; ++i)
                        {
                            const uint32_t local = (h + i) % g;
                            const uint32_t r = s * g + local;
                            std::vector<uint32_t> kids;
                            if (i + 1 < g)
                            {
                                kids.push_back(s * g + (local + 1) % g); // chain child first
                            }
                            if (i == 0)
                            {
                                NS_TEST_ASSERT_MSG_EQ(t.parent[r],
                                                      (up == -1 ? NcclTree::NONE : up * g + h),
                                                      what + ": head's parent is a head");
                                for (int k : {d0, d1})
                                {
                                    if (k != -1)
                                    {
                                        kids.push_back(k * g + h);
                                        edgesPerNic[h]++;
                                    }
                                }
                            }
                            else
                            {
                                NS_TEST_ASSERT_MSG_EQ(t.parent[r],
                                                      s * g + (local + g - 1) % g,
                                                      what + ": chain predecessor");
                            }
                            NS_TEST_ASSERT_MSG_EQ((t.children[r] == kids), true, what + ": kids");
                        }
                    }
                    NS_TEST_ASSERT_MSG_EQ(t.root, rootNode * g + h, what + ": root");
                    NS_TEST_ASSERT_MSG_EQ(t.depth, g - 1 + nodeDepth, what + ": depth");
                    // every rank once: n - 1 edges, all reaching the root
                    uint32_t edges = 0;
                    for (uint32_t r = 0; r < n; ++r)
                    {
                        edges += t.children[r].size();
                        uint32_t hops = 0;
                        for (uint32_t q = r; q != t.root && hops <= n; q = t.parent[q])
                        {
                            ++hops;
                        }
                        NS_TEST_ASSERT_MSG_LT_OR_EQ(hops, t.depth, what + ": reaches the root");
                    }
                    NS_TEST_ASSERT_MSG_EQ(edges, n - 1, what + ": a spanning tree");
                }
                for (uint32_t nic = 0; nic < g; ++nic)
                {
                    // tree 0 and tree 1 over the servers: servers - 1 edges each
                    NS_TEST_ASSERT_MSG_EQ(edgesPerNic[nic], 2 * (servers - 1), "NIC " << nic);
                }
            }
        }
        // one-NIC hosts, one server, G not dividing the ranks: the tree over all ranks
        for (const auto& [n, gpus] :
             std::vector<std::pair<uint32_t, uint32_t>>{{16, 0}, {16, 1}, {8, 8}, {12, 8}})
        {
            NcclTree flat(n, gpus);
            NS_TEST_ASSERT_MSG_EQ(flat.IsServerTree(), false, "not servers");
            NS_TEST_ASSERT_MSG_EQ(flat.GetNNodes(), n, "every rank a node");
            for (uint32_t c = 0; c < 4; ++c)
            {
                const NcclTree::RankTree t = flat.GetTree(c);
                for (uint32_t r = 0; r < n; ++r)
                {
                    int up;
                    int d0;
                    int d1;
                    NcclDtree(n, r, c % 2, &up, &d0, &d1);
                    NS_TEST_ASSERT_MSG_EQ(t.parent[r],
                                          (up == -1 ? NcclTree::NONE : static_cast<uint32_t>(up)),
                                          "flat tree, rank " << r);
                }
            }
        }
    }
};

/**
 * \brief TreeAllreduce with GpusPerServer: every transfer is an edge of its channel's
 * tree (up: reduce to the parent, down: copy to a child), each edge once per chunk and
 * direction; transfers between servers join the channel's head GPUs (one rail); the
 * schedules deliver the allreduce (TrackContributions) for several shapes and channel
 * counts; one-NIC shapes build exactly the schedule of GpusPerServer 0.
 */
class ServerTreeScheduleTest : public TestCase
{
  public:
    ServerTreeScheduleTest()
        : TestCase("tree allreduce on servers: transfers follow the chains and rails, "
                   "contributions verified, flat shapes unchanged")
    {
    }

  private:
    void DoRun() override
    {
        // shape: 4 servers x 8 GPUs, NCCL's 16 channels
        {
            const uint32_t g = 8;
            const uint32_t n = 32;
            Ptr<CollectiveAlgorithm> alg = MakeTree(n, g, 16, 16ULL << 20);
            NcclTree layout(n, g);
            const uint32_t chunks = alg->GetNUnits() / 16;
            NS_TEST_ASSERT_MSG_EQ(alg->GetNTransfers(), 16 * chunks * 2 * (n - 1), "2(N-1) edges");
            std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
            std::vector<uint64_t> netBytes(g, 0);
            for (uint32_t i = 0; i < alg->GetNTransfers(); ++i)
            {
                const CollectiveTransfer& t = alg->GetTransfer(i);
                const NcclTree::RankTree tree = layout.GetTree(t.channel);
                if (t.reduce)
                {
                    NS_TEST_ASSERT_MSG_EQ(tree.parent[t.src], t.dst, "up: to the parent");
                }
                else
                {
                    NS_TEST_ASSERT_MSG_EQ(tree.parent[t.dst], t.src, "down: to a child");
                }
                NS_TEST_ASSERT_MSG_EQ(seen.insert({t.unitBegin, t.src, t.dst}).second,
                                      true,
                                      "each edge once per chunk and direction");
                if (t.src / g != t.dst / g)
                {
                    const uint32_t h = (t.channel / 2) % g;
                    NS_TEST_ASSERT_MSG_EQ(t.src % g, h, "network hops leave from the head");
                    NS_TEST_ASSERT_MSG_EQ(t.dst % g, h, "to the head: rail " << h);
                    netBytes[h] += t.bytes;
                }
                else
                {
                    const uint32_t a = t.src % g;
                    const uint32_t b = t.dst % g;
                    NS_TEST_ASSERT_MSG_EQ((b == (a + 1) % g || a == (b + 1) % g),
                                          true,
                                          "chain neighbours");
                }
            }
            for (uint32_t nic = 1; nic < g; ++nic)
            {
                NS_TEST_ASSERT_MSG_EQ(netBytes[nic], netBytes[0], "every rail carries alike");
            }
        }
        // contributions
        for (const auto& [servers, g, channels] :
             std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>{{2, 8, 16},
                                                                   {4, 8, 16},
                                                                   {3, 4, 8},
                                                                   {5, 2, 4},
                                                                   {2, 8, 1},
                                                                   {3, 4, 3}})
        {
            const uint32_t n = servers * g;
            Ptr<CollectiveAlgorithm> alg = CreateObject<TreeAllreduce>();
            alg->SetAttribute("Channels", UintegerValue(channels));
            alg->SetAttribute("ChunkBytes", UintegerValue(65536));
            alg->SetAttribute("GpusPerServer", UintegerValue(g));
            alg->SetAttribute("TrackContributions", BooleanValue(true));
            Ptr<AlphaBetaCollectiveTransport> tr = MakeTransport(n);
            Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
            app->SetTransport(tr);
            app->AddJob(Communicator::AllHosts(n), alg, 2000000);
            app->Start();
            Simulator::Run();
            std::string why;
            const bool ok = alg->VerifyContributions(&why);
            const bool finished = app->IsFinished();
            Simulator::Destroy();
            app->Dispose();
            const std::string what = std::to_string(servers) + " x " + std::to_string(g) + ", " +
                                     std::to_string(channels) + " channels";
            NS_TEST_ASSERT_MSG_EQ(finished, true, what + ": completes");
            NS_TEST_ASSERT_MSG_EQ(ok, true, what + ": " + why);
        }
        // flat shapes: the schedule of GpusPerServer 0, transfer for transfer
        for (const auto& [n, g] :
             std::vector<std::pair<uint32_t, uint32_t>>{{16, 1}, {8, 8}, {12, 8}, {7, 2}})
        {
            const auto flat = Transfers(MakeTree(n, 0, 2, 4000000));
            NS_TEST_ASSERT_MSG_EQ((Transfers(MakeTree(n, g, 2, 4000000)) == flat),
                                  true,
                                  n << " ranks, G " << g << ": the flat tree");
        }
        // on servers the channel count divides among NICs: 16 channels of 2 x 8 use all
        const auto servers = Transfers(MakeTree(16, 8, 16, 4000000));
        std::set<uint32_t> rails;
        for (const auto& [channel, src, dst, reduce] : servers)
        {
            if (src / 8 != dst / 8)
            {
                rails.insert(src % 8);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(rails.size(), 8u, "16 channels on 8 NICs use every NIC");
    }
};

class NcclTreeTestSuite : public TestSuite
{
  public:
    NcclTreeTestSuite()
        : TestSuite("ai-fabric-nccl-tree", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new NodeTreeTest, AI_FABRIC_QUICK);
        AddTestCase(new ServerTreeShapeTest, AI_FABRIC_QUICK);
        AddTestCase(new ServerTreeScheduleTest, AI_FABRIC_QUICK);
    }
};

static NcclTreeTestSuite g_ncclTreeTestSuite;

} // namespace
