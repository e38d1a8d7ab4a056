/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaSendTimes, a requester's send times by PSN in 32-bit entries: every time the
 * requester may still read (the PSNs from the oldest unacknowledged to the highest
 * sent) reads back exactly as a 64-bit ring gives it, across rebases (times more than
 * 2^32 steps after the base), growth, and the switch to 64-bit entries when the live
 * times span more than 2^32 steps.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-send-times.h"

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * A requester's pattern against a 64-bit reference ring: PSNs sent in order with
 * occasional resends, acknowledged some time later, time steps advancing by small
 * and (now and then) very large amounts; at every step each live entry is compared.
 */
class SendTimesTestCase : public TestCase
{
  public:
    SendTimesTestCase()
        : TestCase("Send times in 32 bits read back as at full width")
    {
    }

  private:
    /// Run the pattern; \p longWaits: an unacknowledged PSN may stay for > 2^32 steps.
    /// \return the number of mismatches; \p wide: whether the ring went to 64 bits
    static uint32_t Run(uint32_t seed, bool longWaits, bool& wide)
    {
        std::mt19937_64 rng(seed);
        RdmaSendTimes ring(64);
        std::vector<int64_t> ref(64, 0);
        uint64_t una = 0;
        uint64_t next = 0;
        uint64_t maxSent = 0;
        int64_t now = 1000;
        uint64_t lastJumpNext = 0;
        uint32_t wrong = 0;
        for (int step = 0; step < 20000; ++step)
        {
            const uint32_t r = rng() % 100;
            // Time: mostly nanoseconds in picoseconds, sometimes 2^31 steps (a rebase
            // keeping the PSNs in flight), sometimes up to 3 x 2^32 (a rebase on an empty
            // window, or, with long waits, a span past 32 bits).
            if (r < 3)
            {
                if (!longWaits)
                {
                    una = next; // (all acknowledged before the long gap)
                }
                now += static_cast<int64_t>(rng() % (int64_t{3} << 32));
                lastJumpNext = next;
            }
            else if (r < 6)
            {
                if (!longWaits)
                {
                    una = std::max(una, lastJumpNext); // (in flight: sent since the last gap)
                }
                now += (int64_t{1} << 31) + static_cast<int64_t>(rng() % 4096);
                lastJumpNext = next;
            }
            else
            {
                now += static_cast<int64_t>(rng() % 5000);
            }
            if (r < 60 || una == next)
            {
                // Send next (or, 1 in 10, resend one in flight).
                uint64_t psn = next;
                if (r % 10 == 0 && una < next)
                {
                    psn = una + rng() % (next - una);
                }
                if (psn - una >= ring.Size())
                {
                    uint64_t size = ring.Size() * 2;
                    while (psn - una >= size)
                    {
                        size *= 2;
                    }
                    std::vector<int64_t> grown(size, 0);
                    for (uint64_t p = una; p < next; ++p)
                    {
                        grown[p & (size - 1)] = ref[p & (ref.size() - 1)];
                    }
                    ref.swap(grown);
                    ring.Grow(size, una, next);
                }
                ring.Set(psn, now, una, std::max(maxSent, psn + 1));
                ref[psn & (ref.size() - 1)] = now;
                if (psn == next)
                {
                    ++next;
                }
                maxSent = std::max(maxSent, next);
            }
            else if (!longWaits || r > 90)
            {
                una += 1 + rng() % (next - una); // acknowledge some
            }
            for (uint64_t p = una; p < maxSent; ++p)
            {
                wrong += ring.Get(p) != ref[p & (ref.size() - 1)];
            }
            if (maxSent - una > 4000)
            {
                una = maxSent - 100; // keep the window bounded
            }
        }
        wide = ring.IsWide();
        return wrong;
    }

    void DoRun() override
    {
        for (uint32_t seed = 1; seed <= 4; ++seed)
        {
            bool wide = true;
            NS_TEST_ASSERT_MSG_EQ(Run(seed, false, wide), 0, "every live time read back");
            NS_TEST_ASSERT_MSG_EQ(wide, false, "acknowledged in time: 32-bit entries throughout");
            NS_TEST_ASSERT_MSG_EQ(Run(seed, true, wide), 0, "every live time read back");
            NS_TEST_ASSERT_MSG_EQ(wide, true, "a PSN unacknowledged for > 2^32 steps: 64 bits");
        }
        // Never written, and cleared by growth: 0, as the 64-bit ring read.
        RdmaSendTimes ring(4);
        NS_TEST_ASSERT_MSG_EQ(ring.Get(3), 0, "unwritten entries read 0");
        ring.Set(0, 7, 0, 1);
        ring.Set(1, 9, 0, 2);
        ring.Grow(8, 0, 1);
        NS_TEST_ASSERT_MSG_EQ(ring.Get(0), 7, "kept by growth");
        NS_TEST_ASSERT_MSG_EQ(ring.Get(1), 0, "cleared by growth, as before");
        RdmaSendTimes unused(4); // (no memory before the first Set)
        unused.Grow(16, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(unused.Get(9), 0, "grown before any Set: reads 0");
        unused.Set(9, 5, 9, 10);
        NS_TEST_ASSERT_MSG_EQ(unused.Get(9), 5, "the first Set");
        NS_TEST_ASSERT_MSG_EQ(unused.Get(10), 0, "the others read 0");
    }
};

/**
 * Which controllers read RTT samples: those whose OnAck reads RdmaAckSample::rtt (Swift,
 * TIMELY, theta-PowerTCP, UET NSCC) say so, and their queue pairs keep send times; the
 * ones that act on ECN, CNPs, INT or nothing say no, and theirs keep none.
 */
class UsesRttSamplesTestCase : public TestCase
{
  public:
    UsesRttSamplesTestCase()
        : TestCase("Controllers that read RTT samples say so")
    {
    }

  private:
    void DoRun() override
    {
        const std::pair<const char*, bool> algorithms[] = {
            {"ns3::SwiftCongestionControl", true},
            {"ns3::TimelyCongestionControl", true},
            {"ns3::ThetaPowertcpCongestionControl", true},
            {"ns3::NsccCongestionControl", true},
            {"ns3::RcccCreditGate", true}, // (the default: it does not say)
            {"ns3::NoneCongestionControl", false},
            {"ns3::DcqcnCongestionControl", false},
            {"ns3::DctcpCongestionControl", false},
            {"ns3::HpccCongestionControl", false},
            {"ns3::PowertcpCongestionControl", false},
            {"ns3::IbtaCongestionControl", false},
        };
        for (const auto& [name, uses] : algorithms)
        {
            ObjectFactory f(name);
            Ptr<RdmaCongestionControl> cc = f.Create<RdmaCongestionControl>();
            NS_TEST_ASSERT_MSG_EQ(cc->UsesRttSamples(), uses, name);
        }
    }
};

/// The send-time ring's suite.
class SendTimesTestSuite : public TestSuite
{
  public:
    SendTimesTestSuite()
        : TestSuite("ai-fabric-rdma-send-times", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new SendTimesTestCase, AI_FABRIC_QUICK);
        AddTestCase(new UsesRttSamplesTestCase, AI_FABRIC_QUICK);
    }
};

SendTimesTestSuite g_sendTimesTestSuite;

} // namespace
