/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the switch shared-buffer MMU: figures computed by hand from the
 * dynamic-threshold rule T = alpha * (free shared bytes after the packet).
 */
#include "ai-fabric-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/pfc-headroom.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

const uint32_t PKT = 1000;
const uint8_t LOSSLESS = 3;
const uint8_t LOSSY = 0;

/**
 * 2 ports (or n), 2000 B reserved per PG, 10000 B headroom per lossless PG,
 * shared pool exactly 100000 B, alpha 0.5 for both classes. The headroom is below
 * what the 1 us cable needs (52280 B), on purpose: these tests fill it.
 */
Ptr<SharedBufferMmu>
MakeSmallMmu(uint32_t nPorts = 2, uint64_t reserved = 2000)
{
    Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
    const uint64_t res = nPorts * 8 * reserved;
    const uint64_t hdrm = nPorts * 10000;
    mmu->SetAttribute("BufferSize", UintegerValue(res + hdrm + 100000));
    mmu->SetAttribute("ReservedBytesPerPg", UintegerValue(reserved));
    mmu->SetAttribute("HeadroomBytes", UintegerValue(10000));
    mmu->SetAttribute("AllowLossyHeadroom", BooleanValue(true));
    mmu->SetAttribute("LosslessAlpha", DoubleValue(0.5));
    mmu->SetAttribute("LossyAlpha", DoubleValue(0.5));
    std::vector<DataRate> rates(nPorts, DataRate("100Gbps"));
    std::vector<Time> delays(nPorts, MicroSeconds(1));
    mmu->Configure(nPorts, rates, delays, PKT);
    return mmu;
}

/// Admission then enqueue, as the switch does; returns the admission verdict.
bool
Offer(Ptr<SharedBufferMmu> mmu, uint32_t in, uint8_t prio, uint32_t out, uint8_t q, uint32_t b)
{
    if (!mmu->CheckAdmission(in, prio, out, q, b))
    {
        return false;
    }
    mmu->OnEnqueue(in, prio, out, q, b);
    return true;
}

} // namespace

/**
 * \brief Reserved first, shared next, XOFF at alpha*free, headroom, lossless drop
 * beyond headroom, XON after draining, counters back to zero.
 */
class MmuLosslessPathTest : public TestCase
{
  public:
    MmuLosslessPathTest()
        : TestCase("reserved, shared, headroom; XOFF and XON points; lossless drop; symmetry")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SharedBufferMmu> mmu = MakeSmallMmu();
        uint32_t losslessDrops = 0;
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedPoolSize(), 100000, "pool = buffer - res - hdrm");
        NS_TEST_ASSERT_MSG_EQ(mmu->IsLossless(3), true, "prio 3 lossless by default");
        NS_TEST_ASSERT_MSG_EQ(mmu->IsLossless(0), false, "prio 0 lossy by default");

        // Two packets fit the 2000 B reserved slice; the shared pool is untouched.
        Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT);
        Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT);
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressReservedUsed(0, LOSSLESS), 2000, "reserved first");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedUsed(), 0, "no shared bytes yet");
        Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT);
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressSharedUsed(0, LOSSLESS), 1000, "then shared");

        // Shared x is allowed while x <= 0.5 * (100000 - x), i.e. x <= 33333:
        // 33 packets (33000 B) in shared, the 34th shared packet goes to headroom.
        for (int i = 0; i < 32; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT), true, "admit");
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressSharedUsed(0, LOSSLESS), 33000, "33 shared pkts");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, LOSSLESS), 0, "no headroom yet");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(0, LOSSLESS), false, "33000 <= T = 33500");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetXoffThreshold(), 33500, "T = 0.5 * 67000");

        NS_TEST_ASSERT_MSG_EQ(Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT), true, "to headroom");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, LOSSLESS), 1000, "crossed T: headroom");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressSharedUsed(0, LOSSLESS), 33000, "shared capped");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(0, LOSSLESS), true, "XOFF at the crossing");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(1, LOSSLESS), false, "other port unaffected");
        mmu->SetPaused(0, LOSSLESS, true);
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(0, LOSSLESS), false, "already paused");

        // In-flight bytes after the pause: 9 more fill the 10000 B headroom, the next drops.
        for (int i = 0; i < 9; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT), true, "headroom");
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, LOSSLESS), 10000, "headroom full");
        mmu->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&MmuLosslessPathTest::CountDrop, &losslessDrops));
        NS_TEST_ASSERT_MSG_EQ(Offer(mmu, 0, LOSSLESS, 1, LOSSLESS, PKT), false, "beyond hdrm");
        NS_TEST_ASSERT_MSG_EQ(losslessDrops, 1, "reported as a lossless drop");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEgressBytes(1, LOSSLESS), 45000, "45 packets queued");

        // Drain: headroom released first; after 10 dequeues shared = 33000 and
        // 33000 + 2000 > T = 33500; after 11, 32000 + 2000 <= T = 34000: XON.
        for (int i = 0; i < 10; ++i)
        {
            mmu->OnDequeue(0, LOSSLESS, 1, LOSSLESS, PKT);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, LOSSLESS), 0, "headroom released first");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetXonOffset(), 2000, "default XON offset 2 x MTU");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldResume(0, LOSSLESS), false, "within XON offset");
        mmu->OnDequeue(0, LOSSLESS, 1, LOSSLESS, PKT);
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldResume(0, LOSSLESS), true, "XON below T - offset");
        mmu->SetPaused(0, LOSSLESS, false);
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldResume(0, LOSSLESS), false, "resumed");

        for (int i = 0; i < 34; ++i)
        {
            mmu->OnDequeue(0, LOSSLESS, 1, LOSSLESS, PKT);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressBytes(0, LOSSLESS), 0, "ingress back to zero");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedUsed(), 0, "shared back to zero");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetTotalUsed(), 0, "all slices back to zero");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEgressBytes(1, LOSSLESS), 0, "egress back to zero");
    }

    static void CountDrop(uint32_t* n, uint32_t, uint8_t, uint32_t, uint8_t, uint32_t, bool ll)
    {
        if (ll)
        {
            ++*n;
        }
    }
};

/**
 * \brief Lossy packets stop at the egress dynamic threshold; lossless ones into
 * the same queue are still admitted.
 */
class MmuLossyEgressTest : public TestCase
{
  public:
    MmuLossyEgressTest()
        : TestCase("lossy drop at egress threshold, lossless admitted")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SharedBufferMmu> mmu = MakeSmallMmu();
        // Egress e = 2000 + 1000 k after k shared packets; the next is admitted while
        // 3000 + 1000 k <= 0.5 * (100000 - 1000 (k + 1)), i.e. k <= 31: 2 + 32 packets.
        uint32_t admitted = 0;
        while (Offer(mmu, 0, LOSSY, 1, LOSSY, PKT))
        {
            ++admitted;
            NS_TEST_ASSERT_MSG_LT(admitted, 1000u, "lossy must stop somewhere");
        }
        NS_TEST_ASSERT_MSG_EQ(admitted, 34, "34 lossy packets before the egress threshold");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEgressBytes(1, LOSSY), 34000, "egress bytes");
        // Lossless traffic into the same egress queue is not subject to it.
        for (int i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(Offer(mmu, 0, LOSSLESS, 1, LOSSY, PKT), true, "lossless ok");
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressSharedUsed(0, LOSSLESS), 1000, "1 shared");
        NS_TEST_ASSERT_MSG_EQ(Offer(mmu, 0, LOSSY, 1, LOSSY, PKT), false, "lossy still refused");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(0, LOSSY), false, "lossy never pauses");
        for (uint32_t i = 0; i < admitted; ++i)
        {
            mmu->OnDequeue(0, LOSSY, 1, LOSSY, PKT);
        }
        for (int i = 0; i < 3; ++i)
        {
            mmu->OnDequeue(0, LOSSLESS, 1, LOSSY, PKT);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetTotalUsed(), 0, "symmetric");
    }
};

/**
 * \brief Two ingress ports competing for the pool: each settles at
 * alpha / (1 + 2 alpha) of it; the threshold shrinks as the other port fills.
 */
class MmuCompetitionTest : public TestCase
{
  public:
    MmuCompetitionTest()
        : TestCase("two ports each get alpha over (1 + 2 alpha) of the shared pool")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t b = 100;
        {
            Ptr<SharedBufferMmu> other = MakeSmallMmu(3, 0);
            NS_TEST_ASSERT_MSG_EQ(other->GetXoffThreshold(), 50000, "empty: T = 0.5 * 100000");
            // Port 1 alone takes 10000 B: T for every PG drops to 0.5 * 90000.
            for (int i = 0; i < 100; ++i)
            {
                Offer(other, 1, LOSSLESS, 2, LOSSLESS, b);
            }
            NS_TEST_ASSERT_MSG_EQ(other->GetXoffThreshold(), 45000, "T shrinks as others use");
            NS_TEST_ASSERT_MSG_EQ(other->ShouldPause(0, LOSSLESS), false, "port 0 empty");
        }
        // Both ports fill in turn from empty until each crosses its threshold.
        Ptr<SharedBufferMmu> mmu = MakeSmallMmu(3, 0);
        const double pool = mmu->GetSharedPoolSize();
        bool full0 = false;
        bool full1 = false;
        while (!(full0 && full1))
        {
            if (!full0)
            {
                Offer(mmu, 0, LOSSLESS, 2, LOSSLESS, b);
                full0 = mmu->GetHeadroomUsed(0, LOSSLESS) > 0;
            }
            if (!full1)
            {
                Offer(mmu, 1, LOSSLESS, 2, LOSSLESS, b);
                full1 = mmu->GetHeadroomUsed(1, LOSSLESS) > 0;
            }
        }
        const double alpha = 0.5;
        const double expect = alpha / (1 + 2 * alpha) * pool; // 25000 B
        NS_TEST_ASSERT_MSG_EQ_TOL(double(mmu->GetIngressSharedUsed(0, LOSSLESS)),
                                  expect,
                                  b,
                                  "port 0 equilibrium share");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(mmu->GetIngressSharedUsed(1, LOSSLESS)),
                                  expect,
                                  b,
                                  "port 1 equilibrium share");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(0, LOSSLESS), true, "both paused");
        NS_TEST_ASSERT_MSG_EQ(mmu->ShouldPause(1, LOSSLESS), true, "both paused");
    }
};

/**
 * \brief Headroom for 100 Gb/s, 1 us cable, 1000 B MTU by the stated formula,
 * between the two published approximations (PfcHeadroom).
 */
class MmuHeadroomTest : public TestCase
{
  public:
    MmuHeadroomTest()
        : TestCase("headroom formula: 100G, 1 us, 1000 B")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate r("100Gbps");
        const Time d = MicroSeconds(1);
        // 2 x 1 us x 100 Gb/s / 8 = 25000; 2 x MTU = 2000; PFC 64;
        // 394 quanta x 512 bit / 8 = 25216.
        const uint64_t h = PfcHeadroom::Compute(r, d, 1000, 394);
        NS_TEST_ASSERT_MSG_EQ(h, 52280, "25000 + 2000 + 64 + 25216");
        const uint64_t hpcc = PfcHeadroom::HpccApproximation(r, d);
        const uint64_t nic = PfcHeadroom::NicDriverApproximation(r, d, 1000);
        NS_TEST_ASSERT_MSG_EQ(hpcc, 37500, "3 x 100e9 x 1e-6 / 8");
        NS_TEST_ASSERT_MSG_EQ(nic, 76020, "(301 + 2.16 x 200 m) x 100 + 2720");
        NS_TEST_ASSERT_MSG_GT(h, hpcc, "above the HPCC approximation");
        NS_TEST_ASSERT_MSG_LT(h, nic, "below the NIC-driver approximation");
        NS_TEST_ASSERT_MSG_EQ(PfcHeadroom::Compute(r, d, 1000, 2), 27192, "2 quanta only");

        Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>(); // defaults
        mmu->Configure(2,
                       {DataRate("100Gbps"), DataRate("400Gbps")},
                       {MicroSeconds(1), MicroSeconds(1)},
                       1000);
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomSize(0, 3), 52280, "MMU uses the formula");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomSize(1, 3),
                              100000 + 2000 + 64 + 25216,
                              "scales with rate");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomSize(0, 0), 0, "no headroom for lossy");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedPoolSize(),
                              32ULL * 1024 * 1024 - 2 * 8 * 4096 - 52280 - 127280,
                              "pool = buffer - reserved - headroom");

        // A headroom below the round trip is refused with the minimum, unless allowed.
        auto configure = [](uint64_t headroom, bool allow) {
            Ptr<SharedBufferMmu> m = CreateObject<SharedBufferMmu>();
            m->SetAttribute("HeadroomBytes", UintegerValue(headroom));
            m->SetAttribute("AllowLossyHeadroom", BooleanValue(allow));
            std::string error;
            try
            {
                m->Configure(1, {DataRate("100Gbps")}, {MicroSeconds(1)}, 1000);
            }
            catch (const std::invalid_argument& e)
            {
                error = e.what();
            }
            return error;
        };
        const std::string low = configure(52279, false);
        NS_TEST_ASSERT_MSG_NE(low.find("PFC headroom of 52279 B (HeadroomBytes) is below the "
                                       "52280 B port 0's round trip needs"),
                              std::string::npos,
                              low);
        NS_TEST_ASSERT_MSG_NE(low.find("allowed: HeadroomBytes >= 52280"), std::string::npos, low);
        NS_TEST_ASSERT_MSG_EQ(configure(52280, false), "", "the minimum itself is accepted");
        NS_TEST_ASSERT_MSG_EQ(configure(1000, true), "", "a low one when allowed");
    }
};

/// \brief The MMU test suite.
class SharedBufferMmuTestSuite : public TestSuite
{
  public:
    SharedBufferMmuTestSuite()
        : TestSuite("ai-fabric-shared-buffer-mmu", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new MmuLosslessPathTest, AI_FABRIC_QUICK);
        AddTestCase(new MmuLossyEgressTest, AI_FABRIC_QUICK);
        AddTestCase(new MmuCompetitionTest, AI_FABRIC_QUICK);
        AddTestCase(new MmuHeadroomTest, AI_FABRIC_QUICK);
    }
};

static SharedBufferMmuTestSuite g_sharedBufferMmuTestSuite; //!< registers the suite
