/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The compact stores that hold a large collective's state: CompactIndexArray (a
 * schedule's per-transfer columns) reads back every value appended, TagRunQueue (posted
 * receives) pops what was pushed in order, and FctSample's statistics equal those of the
 * sorted doubles the output writer held before (bit for bit), narrow and wide.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/compact-index-array.h"
#include "ns3/fct-sample.h"
#include "ns3/output-writer.h"
#include "ns3/tag-run-queue.h"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// The statistics as OutputWriter computed them from held doubles (before FctSample).
nlohmann::json
ReferenceStats(std::vector<double> sample)
{
    nlohmann::json j;
    if (sample.empty())
    {
        for (const char* key : {"p50", "p90", "p99", "p999", "max", "mean"})
        {
            j[key] = nullptr;
        }
        return j;
    }
    std::sort(sample.begin(), sample.end());
    j["p50"] = OutputWriter::Percentile(sample, 0.50);
    j["p90"] = OutputWriter::Percentile(sample, 0.90);
    j["p99"] = OutputWriter::Percentile(sample, 0.99);
    j["p999"] = OutputWriter::Percentile(sample, 0.999);
    j["max"] = sample.back();
    j["mean"] = std::accumulate(sample.begin(), sample.end(), 0.0) / sample.size();
    return j;
}

} // namespace

/// CompactIndexArray: progressions (wrapping mod 2^32, the reserved step), irregular
/// blocks and a partial last block read back exactly; progressions take less memory.
class CompactIndexArrayTestCase : public TestCase
{
  public:
    CompactIndexArrayTestCase()
        : TestCase("CompactIndexArray reads back every value")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(7);
        std::vector<uint32_t> values;
        // a ring-like column: segment (i - step - 1) mod n, one irregular block per step
        const uint32_t n = 100;
        for (uint32_t step = 0; step < 50; ++step)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                values.push_back((i + 2 * n - step - 1) % n);
            }
        }
        for (uint32_t i = 0; i < 200; ++i)
        {
            values.push_back(0xfffffff0u + 3 * i); // wraps modulo 2^32
        }
        for (uint32_t i = 0; i < 130; ++i)
        {
            values.push_back(5u + 0x80000000u * i); // the reserved step: kept value by value
        }
        for (uint32_t i = 0; i < 300; ++i)
        {
            values.push_back(rng());
        }
        for (uint32_t i = 0; i < 77; ++i)
        {
            values.push_back(42); // constant, then a partial block
        }
        CompactIndexArray a;
        for (size_t i = 0; i < values.size(); ++i)
        {
            a.Append(values[i]);
            // before Seal, GetAny reads the unsealed tail too
            NS_TEST_ASSERT_MSG_EQ(a.GetAny(i), values[i], "unsealed value " << i);
        }
        a.Seal();
        NS_TEST_ASSERT_MSG_EQ(a.Size(), values.size(), "size");
        for (size_t i = 0; i < values.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(a.Get(i), values[i], "value " << i);
        }
        // a long progression: 8 bytes per 64 values
        CompactIndexArray p;
        for (uint32_t i = 0; i < 64 * 1000; ++i)
        {
            p.Append(7 * i + 3);
        }
        p.Seal();
        NS_TEST_ASSERT_MSG_EQ(p.GetMemoryBytes(), 8000, "a progression's blocks");
        NS_TEST_ASSERT_MSG_EQ(p.Get(64 * 1000 - 1), 7u * (64 * 1000 - 1) + 3, "last");
        p.Clear();
        NS_TEST_ASSERT_MSG_EQ(p.Size(), 0, "cleared");
    }
};

/// TagRunQueue: random pushes and pops match a std::deque; a strided sequence is one run.
class TagRunQueueTestCase : public TestCase
{
  public:
    TagRunQueueTestCase()
        : TestCase("TagRunQueue is a FIFO of tags")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(11);
        TagRunQueue q;
        std::deque<uint64_t> ref;
        uint64_t next = 0x0100000000000000ULL;
        for (uint32_t k = 0; k < 20000; ++k)
        {
            const uint64_t r = rng() % 10;
            if (r < 6)
            {
                // mostly progressions (stride 1024), sometimes a jump or a repeat
                next += r == 0 ? rng() : r == 1 ? 0 : 1024;
                q.push_back(next);
                ref.push_back(next);
            }
            else if (!ref.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(q.front(), ref.front(), "front at " << k);
                q.pop_front();
                ref.pop_front();
            }
            NS_TEST_ASSERT_MSG_EQ(q.size(), ref.size(), "size at " << k);
            NS_TEST_ASSERT_MSG_EQ(q.empty(), ref.empty(), "empty at " << k);
        }
        while (!ref.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(q.front(), ref.front(), "drain");
            q.pop_front();
            ref.pop_front();
        }
        NS_TEST_ASSERT_MSG_EQ(q.empty(), true, "drained");
    }
};

/// FctSample: the statistics of (fct, ideal) rows equal, bit for bit, those of the
/// slowdown and FCT doubles sorted; in 32 bits and after a value needs 64.
class FctSampleTestCase : public TestCase
{
  public:
    FctSampleTestCase()
        : TestCase("FctSample's statistics are the held doubles'")
    {
    }

  private:
    void Check(FctSample& s,
               const std::vector<double>& slowdowns,
               const std::vector<double>& fcts,
               const std::string& what)
    {
        const nlohmann::json got = s.Stats();
        NS_TEST_ASSERT_MSG_EQ(got["count"].get<uint64_t>(), slowdowns.size(), what << " count");
        NS_TEST_ASSERT_MSG_EQ(got["slowdown"].dump(17),
                              ReferenceStats(slowdowns).dump(17),
                              what << " slowdown");
        NS_TEST_ASSERT_MSG_EQ(got["fct_ns"].dump(17),
                              ReferenceStats(fcts).dump(17),
                              what << " fct");
    }

    void DoRun() override
    {
        std::mt19937_64 rng(3);
        FctSample s;
        std::vector<double> slowdowns;
        std::vector<double> fcts;
        Check(s, slowdowns, fcts, "empty");
        const auto add = [&](int64_t fct, int64_t ideal) {
            s.Add(fct, ideal);
            slowdowns.push_back(static_cast<double>(fct) / static_cast<double>(ideal));
            fcts.push_back(static_cast<double>(fct));
        };
        for (uint32_t i = 0; i < 5000; ++i)
        {
            // many ties and near-ties: small ideals, FCTs a few multiples of them
            const int64_t ideal = 1 + rng() % 50;
            add(static_cast<int64_t>(rng() % (ideal * 7)), ideal);
        }
        for (uint32_t i = 0; i < 500; ++i)
        {
            add(static_cast<int64_t>(rng() % 0xffffffffULL), 1 + rng() % 0xffffffffULL);
        }
        Check(s, slowdowns, fcts, "narrow");
        add(int64_t{1} << 40, 3); // needs 64 bits: the rows widen
        add(-5, 7);               // (a negative FCT stays exact too)
        Check(s, slowdowns, fcts, "wide");
        for (uint32_t i = 0; i < 500; ++i)
        {
            add(static_cast<int64_t>(rng() >> 2), 1 + static_cast<int64_t>(rng() >> 30));
        }
        Check(s, slowdowns, fcts, "wide, large values");
        FctSample merged;
        merged.Append(s);
        Check(merged, slowdowns, fcts, "appended");
    }
};

/// The suite.
class CompactStorageTestSuite : public TestSuite
{
  public:
    CompactStorageTestSuite()
        : TestSuite("ai-fabric-compact-storage", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new CompactIndexArrayTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TagRunQueueTestCase, AI_FABRIC_QUICK);
        AddTestCase(new FctSampleTestCase, AI_FABRIC_QUICK);
    }
};

/// Static instance registering the suite.
static CompactStorageTestSuite g_compactStorageTestSuite;
