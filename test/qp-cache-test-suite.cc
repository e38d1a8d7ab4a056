/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The NIC's QP-context cache (RdmaNic QpCacheSize, QpCacheMissLatency,
 * QpCacheMaxFetches): the LRU's hit and miss sequence, and the stall a miss puts on its
 * queue pair's next packet, on RoCEv2 and InfiniBand.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-hca.h"
#include "ns3/lambda-callback.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/nstime.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-nic.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// One leaf, \p hosts hosts (and one spine the routes never use).
Ptr<TopologyGraph>
OneLeaf(uint32_t hosts)
{
    Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
    h->SetAttribute("Leaves", UintegerValue(1));
    h->SetAttribute("Spines", UintegerValue(1));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hosts));
    return h->Build();
}

void
ConfigureCache(Ptr<RdmaNic> nic, uint32_t size, Time latency, uint32_t maxFetches)
{
    nic->SetAttribute("QpCacheSize", UintegerValue(size));
    nic->SetAttribute("QpCacheMissLatency", TimeValue(latency));
    nic->SetAttribute("QpCacheMaxFetches", UintegerValue(maxFetches));
}

/**
 * LRU order: host 0's NIC caches 2 contexts. One-packet messages, far apart, to hosts
 * 1, 2, 1, 3, 1, 2: miss, miss, hit, miss (evicts 2, the least recently used), hit,
 * miss (evicts 3). Misses and hits are counted; IsQpContextCached follows.
 */
class QpCacheLruTestCase : public TestCase
{
  public:
    QpCacheLruTestCase()
        : TestCase("QP-context cache: LRU hits, misses and eviction order")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = OneLeaf(4);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Ptr<RoceNic> nic = fabric->GetNic(0);
        ConfigureCache(nic, 2, MicroSeconds(1), 8);
        const std::vector<uint32_t> dsts = {1, 2, 1, 3, 1, 2};
        // After each message: (misses, hits) and which peers' contexts are cached.
        const std::vector<std::pair<uint64_t, uint64_t>> counts =
            {{1, 0}, {2, 0}, {2, 1}, {3, 1}, {3, 2}, {4, 2}};
        const std::vector<std::vector<uint32_t>> cached =
            {{1}, {1, 2}, {1, 2}, {1, 3}, {1, 3}, {1, 2}};
        std::map<uint32_t, uint32_t> qpnOf; // peer -> host 0's QPN
        for (std::size_t i = 0; i < dsts.size(); ++i)
        {
            const Time at = MicroSeconds(50 * i);
            ScheduleLambda(at, [=, &fabric] { fabric->PostWrite(0, dsts[i], 1000, i, 0); });
            ScheduleLambda(at + MicroSeconds(40), [=, &qpnOf, &nic] {
                for (const Ptr<RdmaQueuePair>& qp : nic->GetQueuePairs())
                {
                    qpnOf[qp->GetPeerHost()] = qp->GetLocalQpn();
                }
                NS_TEST_EXPECT_MSG_EQ(nic->GetQpCacheMisses(),
                                      counts[i].first,
                                      "misses after message " << i);
                NS_TEST_EXPECT_MSG_EQ(nic->GetQpCacheHits(),
                                      counts[i].second,
                                      "hits after message " << i);
                for (uint32_t peer = 1; peer <= 3; ++peer)
                {
                    const bool expect =
                        std::find(cached[i].begin(), cached[i].end(), peer) != cached[i].end();
                    const bool is = qpnOf.count(peer) && nic->IsQpContextCached(qpnOf[peer]);
                    NS_TEST_EXPECT_MSG_EQ(is,
                                          expect,
                                          "peer " << peer << "'s context after message " << i);
                }
            });
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(nic->GetQpCacheMisses(), 4, "4 misses in all");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetCounters().qpCacheMisses, 4, "fabric counter");
        Simulator::Destroy();
    }
};

/// Sender completion times of one run (by tag) of host 0 writing \p bytes to each of
/// \p dsts at time 0, host 0's cache configured by \p size (0: off), \p latency and
/// \p maxFetches; \p ib: on InfiniBand.
std::map<uint64_t, Time>
RunWrites(bool ib,
          const std::vector<uint32_t>& dsts,
          uint64_t bytes,
          uint32_t size,
          Time latency,
          uint32_t maxFetches,
          uint64_t* misses)
{
    UsePicoseconds();
    Ptr<TopologyGraph> g = OneLeaf(4);
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    Ptr<RdmaFabric> fabric;
    Ptr<RdmaNic> nic;
    if (ib)
    {
        IbFabricHelper helper;
        Ptr<IbFabric> f = helper.Install(g, routes);
        nic = f->GetHca(0);
        fabric = f;
    }
    else
    {
        RoceFabricHelper helper;
        Ptr<RoceFabric> f = helper.Install(g, routes);
        nic = f->GetNic(0);
        fabric = f;
    }
    ConfigureCache(nic, size, latency, maxFetches);
    std::map<uint64_t, Time> ends;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&ends](const RdmaFabric::MessageRecord& r) { ends[r.tag] = r.end; }));
    for (std::size_t i = 0; i < dsts.size(); ++i)
    {
        fabric->PostWrite(0, dsts[i], bytes, i, 0);
    }
    Simulator::Run();
    *misses = nic->GetQpCacheMisses();
    Simulator::Destroy();
    return ends;
}

/**
 * Stall timing. One queue pair, one message: with a 1-entry cache and a 5 us fetch
 * its first packet leaves 5 us late and nothing else changes, so the message ends
 * exactly 5 us later than with the cache off (RoCEv2 and InfiniBand). Two queue pairs
 * of one packet each, one fetch at a time: the second waits for the first fetch, then
 * its own, so the last packet leaves at 10 us (instead of one packet time); with two
 * fetches at once, at 5 us.
 */
class QpCacheStallTestCase : public TestCase
{
  public:
    QpCacheStallTestCase(bool ib)
        : TestCase(std::string("QP-context cache: a miss stalls its queue pair by the fetch "
                               "latency (") +
                   (ib ? "InfiniBand" : "RoCEv2") + ")"),
          m_ib(ib)
    {
    }

  private:
    void DoRun() override
    {
        uint64_t misses = 0;
        const Time lat = MicroSeconds(5);
        auto off = RunWrites(m_ib, {1}, 20000, 0, lat, 1, &misses);
        NS_TEST_ASSERT_MSG_EQ(misses, 0, "off: no miss");
        auto on = RunWrites(m_ib, {1}, 20000, 1, lat, 1, &misses);
        NS_TEST_ASSERT_MSG_EQ(misses, 1, "one queue pair: one miss (it stays cached)");
        NS_TEST_EXPECT_MSG_EQ(on.at(0) - off.at(0), lat, "one stall of exactly 5 us");

        // One packet each: the second queue pair's packet is the last either way.
        off = RunWrites(m_ib, {1, 2}, 1000, 0, lat, 1, &misses);
        auto serial = RunWrites(m_ib, {1, 2}, 1000, 2, lat, 1, &misses);
        NS_TEST_ASSERT_MSG_EQ(misses, 2, "two queue pairs, both fit: two misses");
        auto parallel = RunWrites(m_ib, {1, 2}, 1000, 2, lat, 2, &misses);
        NS_TEST_ASSERT_MSG_EQ(misses, 2, "two misses");
        const Time lastOff = std::max(off.at(0), off.at(1));
        const Time lastSerial = std::max(serial.at(0), serial.at(1));
        const Time lastParallel = std::max(parallel.at(0), parallel.at(1));
        // Without the cache the second packet follows the first (one packet's wire time,
        // about 0.09 us at 100 Gb/s, the tolerance); with one fetch at a time its fetch
        // starts when the first completes and it leaves alone at 2 x 5 us.
        NS_TEST_EXPECT_MSG_EQ_TOL(lastParallel - lastOff,
                                  lat,
                                  NanoSeconds(200),
                                  "two fetches at once: one 5 us stall");
        NS_TEST_EXPECT_MSG_EQ_TOL(lastSerial - lastOff,
                                  2 * lat,
                                  NanoSeconds(200),
                                  "one fetch at a time: 5 us + 5 us");
    }

    bool m_ib;
};

/**
 * Thrashing: host 0 writes to 3 hosts with a 2-entry cache, round robin by packet:
 * contexts are evicted and fetched again and again (far more misses than queue pairs),
 * and every message still completes (no livelock: a fetched context is not evicted
 * before its packet goes).
 */
class QpCacheThrashTestCase : public TestCase
{
  public:
    QpCacheThrashTestCase()
        : TestCase("QP-context cache: 3 queue pairs over 2 entries thrash and complete")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t misses = 0;
        auto ends = RunWrites(false, {1, 2, 3}, 50000, 2, MicroSeconds(1), 8, &misses);
        NS_TEST_EXPECT_MSG_EQ(ends.size(), 3, "all three messages complete");
        NS_TEST_EXPECT_MSG_GT(misses, 10, "contexts fetched again and again");
        uint64_t none = 0;
        RunWrites(false, {1, 2, 3}, 50000, 3, MicroSeconds(1), 8, &none);
        NS_TEST_EXPECT_MSG_EQ(none, 3, "3 entries: one miss per queue pair");
    }
};

/// Last sender completion of an all-to-all over \p hosts hosts of a non-blocking
/// leaf-spine (4 hosts per leaf, 4 spines, the topology's default links): every host
/// writes \p bytes to every other at time 0, on one connection each (\p solo: only
/// host 0 to the last host); every NIC caches \p size contexts (0: off) with
/// \p maxFetches fetches of \p latency. \p misses: summed over the NICs,
/// \p maxMisses: the largest one NIC's.
Time
RunAllToAll(uint32_t hosts,
            uint64_t bytes,
            uint32_t size,
            Time latency,
            uint32_t maxFetches,
            bool solo,
            uint64_t* misses,
            uint64_t* maxMisses)
{
    UsePicoseconds();
    Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
    h->SetAttribute("Leaves", UintegerValue(hosts / 4));
    h->SetAttribute("Spines", UintegerValue(4));
    h->SetAttribute("HostsPerLeaf", UintegerValue(4));
    Ptr<TopologyGraph> g = h->Build();
    RoceFabricHelper helper;
    Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
    for (uint32_t i = 0; i < hosts; ++i)
    {
        ConfigureCache(fabric->GetNic(i), size, latency, maxFetches);
    }
    Time last;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&last](const RdmaFabric::MessageRecord& r) { last = std::max(last, r.end); }));
    for (uint32_t src = 0; src < hosts; ++src)
    {
        for (uint32_t dst = 0; dst < hosts; ++dst)
        {
            if (dst != src && (!solo || (src == 0 && dst == hosts - 1)))
            {
                fabric->PostWrite(src, dst, bytes, src * hosts + dst, 0);
            }
        }
    }
    Simulator::Run();
    *misses = fabric->GetCounters().qpCacheMisses;
    *maxMisses = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        *maxMisses = std::max(*maxMisses, fabric->GetNic(i)->GetQpCacheMisses());
    }
    NS_ABORT_MSG_IF(fabric->GetPendingMessages() != 0, "all-to-all did not finish");
    Simulator::Destroy();
    return last;
}

/**
 * The done-when: a 32-rank all-to-all (31 queue pairs sending per NIC, packet
 * round robin) with an 8-entry cache is slower than with an unlimited one by what the
 * misses cost. Cycling over 31 queue pairs, LRU keeps none of the 8 long enough: every
 * packet misses. The fetch engine keeps QpCacheMaxFetches (F) fetches of L under way,
 * so a NIC's m misses take L + (m - 1) L / F: its last packet leaves then (fetches
 * overlap transmission: a NIC sends a packet every L / F = 0.25 us, slower than the
 * 0.087 us it takes on the wire) and its message ends one packet's round trip later
 * (measured alone on the same fabric). The expected slowdown is that time less the run
 * with an unlimited cache, which sends at line rate. Within 20%.
 */
class QpCacheAllToAllTestCase : public TestCase
{
  public:
    QpCacheAllToAllTestCase()
        : TestCase("QP-context cache: 32-rank all-to-all slows down by misses x latency over "
                   "fetches")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t hosts = 32;
        const uint64_t bytes = 20000; // per peer: 20 packets of 1000 bytes
        const Time lat = MicroSeconds(2);
        const uint32_t fetches = 8;
        uint64_t misses = 0;
        uint64_t maxMisses = 0;
        const Time rtt = RunAllToAll(hosts, 1000, 0, lat, fetches, true, &misses, &maxMisses);
        const Time off = RunAllToAll(hosts, bytes, 0, lat, fetches, false, &misses, &maxMisses);
        NS_TEST_ASSERT_MSG_EQ(misses, 0, "unlimited cache: no miss");
        const Time on = RunAllToAll(hosts, bytes, 8, lat, fetches, false, &misses, &maxMisses);
        const uint64_t packetsPerNic = (hosts - 1) * (bytes / 1000);
        NS_TEST_EXPECT_MSG_EQ(maxMisses, packetsPerNic, "every packet misses");
        NS_TEST_EXPECT_MSG_EQ(misses, hosts * packetsPerNic, "on every NIC");
        const double latUs = lat.GetPicoSeconds() / 1e6;
        const double fetchUs = latUs + (maxMisses - 1) * latUs / fetches;
        const double expected = fetchUs + (rtt - off).GetPicoSeconds() / 1e6;
        const double measured = (on - off).GetPicoSeconds() / 1e6;
        ReportValidation("alltoall-32-qp-cache-8-slowdown-us", measured);
        ReportValidation("alltoall-32-qp-cache-8-slowdown-us.expected", expected);
        std::cout << "off " << off.As(Time::US) << " on " << on.As(Time::US) << " rtt "
                  << rtt.As(Time::US) << " misses " << misses << " max " << maxMisses << "\n";
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.2 * expected, "within 20%");
    }
};

class QpCacheTestSuite : public TestSuite
{
  public:
    QpCacheTestSuite()
        : TestSuite("ai-fabric-qp-cache", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new QpCacheLruTestCase, TestCase::QUICK);
        AddTestCase(new QpCacheStallTestCase(false), TestCase::QUICK);
        AddTestCase(new QpCacheStallTestCase(true), TestCase::QUICK);
        AddTestCase(new QpCacheThrashTestCase, TestCase::QUICK);
        AddTestCase(new QpCacheAllToAllTestCase, TestCase::QUICK);
    }
};

static QpCacheTestSuite g_qpCacheTestSuite;

} // namespace
