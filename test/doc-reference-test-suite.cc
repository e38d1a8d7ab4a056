/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The model pages of doc/ list every Attribute and TraceSource of the module as the
 * TypeIds declare them.
 *
 * Each TypeId of the AiFabric group that declares attributes has one attributes block
 * on one page of doc/, and each that declares trace sources one trace-sources block:
 *
 *     <!-- attributes ns3::RoceSwitch -->
 *     | Attribute | Default | Values | Meaning, unit, source of the default |
 *     ...
 *     <!-- end attributes ns3::RoceSwitch -->
 *
 * (the same with "trace-sources": name, callback signature, Config path, help text).
 * The suite builds the blocks from the registered TypeIds and fails, naming each, when
 * a TypeId lacks a block (or has two), when a block names no TypeId of the module or
 * one without such members, or when a block's text differs from what the TypeId says
 * now. With AI_FABRIC_UPDATE_DOCS=1 in the environment it rewrites the blocks that
 * exist instead (a new TypeId's blocks start as their two marker lines, placed on its
 * model page by hand). TypeIds the test code itself defines are left out.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-nic.h"
#include "ns3/test.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The repository's doc/ folder.
std::filesystem::path
DocDir()
{
#ifdef AI_FABRIC_SOURCE_DIR
    return std::filesystem::path(AI_FABRIC_SOURCE_DIR) / "doc";
#else
    return std::filesystem::path(__FILE__).parent_path().parent_path() / "doc";
#endif
}

/// \p text for a Markdown table cell: pipes escaped, on one line.
std::string
Cell(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        if (c == '|')
        {
            out += "\\|";
        }
        else if (c == '\n')
        {
            out += ' ';
        }
        else
        {
            out += c;
        }
    }
    return out;
}

bool
IsOrChildOf(TypeId tid, TypeId base)
{
    return tid == base || tid.IsChildOf(base);
}

/// How a user reaches trace source \p source of \p tid.
std::string
ConfigPath(TypeId tid, const std::string& source)
{
    const std::string name = tid.GetName();
    if (tid.IsChildOf(NetDevice::GetTypeId()))
    {
        return "`/NodeList/*/DeviceList/*/$" + name + "/" + source + "`";
    }
    // The fabric helpers aggregate each switch and each host adapter to its node.
    if (name == "ns3::RoceSwitch" || name == "ns3::IbSwitch" ||
        IsOrChildOf(tid, RdmaNic::GetTypeId()))
    {
        return "`/NodeList/*/$" + name + "/" + source + "`";
    }
    if (IsOrChildOf(tid, RdmaCongestionControl::GetTypeId()))
    {
        return "per queue pair: `qp->GetCongestionControl()->TraceConnectWithoutContext(\"" +
               source + "\", cb)`, e.g. in a `QpCreated` sink";
    }
    return "`TraceConnectWithoutContext(\"" + source + "\", cb)` on the object";
}

/// Block kinds: "attributes", "trace-sources".
const char* const KINDS[] = {"attributes", "trace-sources"};

/// TypeIds that test/ defines (linked into the test runner, not the library).
const std::set<std::string> TEST_ONLY = {"ns3::FixedFractionCongestionControl",
                                         "ns3::FrameCountingRoceChannel"};

/// The \p kind block of \p tid, marker lines included ("" if it has no such members).
std::string
Block(TypeId tid, const std::string& kind)
{
    const std::string name = tid.GetName();
    std::ostringstream os;
    os << "<!-- " << kind << " " << name << " -->\n";
    os << "`" << name << "`";
    if (tid.GetParent() != tid)
    {
        os << " (parent `" << tid.GetParent().GetName() << "`)";
    }
    os << ":\n\n";
    if (kind == "attributes")
    {
        if (tid.GetAttributeN() == 0)
        {
            return "";
        }
        os << "| Attribute | Default | Values | Meaning, unit, source of the default |\n";
        os << "| --- | --- | --- | --- |\n";
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation a = tid.GetAttribute(i);
            std::string def = a.initialValue ? a.initialValue->SerializeToString(a.checker) : "";
            const auto* time = dynamic_cast<const TimeValue*>(PeekPointer(a.initialValue));
            if (time != nullptr)
            {
                // "+30ms", not "+3e+07ns": the largest unit the value reaches (Time::AUTO
                // exists only in newer ns-3 releases than this module supports)
                const Time v = time->Get();
                Time::Unit unit = Time::PS;
                for (Time::Unit u : {Time::S, Time::MS, Time::US, Time::NS})
                {
                    if (v.IsZero() || Abs(v) >= Time::FromInteger(1, u))
                    {
                        unit = u;
                        break;
                    }
                }
                std::ostringstream t;
                t << v.As(unit);
                def = t.str();
            }
            os << "| `" << a.name << "` | " << (def.empty() ? "(empty)" : "`" + Cell(def) + "`")
               << " | " << Cell(a.checker ? a.checker->GetUnderlyingTypeInformation() : "") << " | "
               << Cell(a.help) << " |\n";
        }
    }
    else
    {
        if (tid.GetTraceSourceN() == 0)
        {
            return "";
        }
        os << "| Trace source | Signature | Config path | When, with what |\n";
        os << "| --- | --- | --- | --- |\n";
        for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
        {
            const TypeId::TraceSourceInformation t = tid.GetTraceSource(i);
            os << "| `" << t.name << "` | `" << t.callback << "` | " << ConfigPath(tid, t.name)
               << " | " << Cell(t.help) << " |\n";
        }
    }
    os << "<!-- end " << kind << " " << name << " -->";
    return os.str();
}

/// One block found on a page: where it starts and ends in the page's text.
struct Found
{
    std::filesystem::path page;
    std::size_t begin{0}; //!< of its opening marker
    std::size_t end{0};   //!< past its closing marker
};

class DocReferenceTestCase : public TestCase
{
  public:
    DocReferenceTestCase()
        : TestCase(
              "every AiFabric TypeId has its attributes and trace sources in the docs, as declared")
    {
    }

  private:
    void DoRun() override
    {
        // "kind name" -> block
        std::map<std::string, std::string> expected;
        uint32_t typeIds = 0;
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            TypeId tid = TypeId::GetRegistered(i);
            if (tid.GetGroupName() != "AiFabric" || TEST_ONLY.count(tid.GetName()) != 0)
            {
                continue;
            }
            ++typeIds;
            for (const char* kind : KINDS)
            {
                std::string block = Block(tid, kind);
                if (!block.empty())
                {
                    expected[std::string(kind) + " " + tid.GetName()] = block;
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(typeIds, 30, "the module's TypeIds are registered");

        std::map<std::string, std::vector<Found>> found;
        std::map<std::filesystem::path, std::string> pages;
        for (const auto& entry : std::filesystem::directory_iterator(DocDir()))
        {
            if (entry.path().extension() != ".md")
            {
                continue;
            }
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            const std::string text = ss.str();
            pages[entry.path()] = text;
            for (const std::string kind : KINDS)
            {
                const std::string open = "<!-- " + kind + " ns3::";
                for (std::size_t at = text.find(open); at != std::string::npos;
                     at = text.find(open, at + 1))
                {
                    const std::size_t close = text.find(" -->", at);
                    const std::string name =
                        text.substr(at + open.size() - 5, close - at - open.size() + 5);
                    const std::string endMarker = "<!-- end " + kind + " " + name + " -->";
                    const std::size_t endAt = text.find(endMarker, at);
                    NS_TEST_ASSERT_MSG_NE(endAt,
                                          std::string::npos,
                                          entry.path().filename()
                                              << ": the " << kind << " block of " << name
                                              << " has no '" << endMarker << "'");
                    found[kind + " " + name].push_back(
                        Found{entry.path(), at, endAt + endMarker.size()});
                }
            }
        }

        const bool update = std::getenv("AI_FABRIC_UPDATE_DOCS") != nullptr &&
                            std::string(std::getenv("AI_FABRIC_UPDATE_DOCS")) == "1";
        std::set<std::filesystem::path> changed;
        // Blocks are replaced from the end of each page back, so earlier offsets hold.
        std::map<std::filesystem::path, std::map<std::size_t, std::pair<std::size_t, std::string>>>
            replacements;
        for (const auto& [name, block] : expected)
        {
            auto it = found.find(name);
            NS_TEST_EXPECT_MSG_EQ((it != found.end()),
                                  true,
                                  "doc/*.md has no " << name << " block (add '<!-- " << name
                                                     << " -->' and '<!-- end " << name
                                                     << " -->' to its model page, then run "
                                                        "this suite with AI_FABRIC_UPDATE_DOCS=1)");
            if (it == found.end())
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(it->second.size(),
                                  1,
                                  "doc/*.md has " << it->second.size() << " " << name << " blocks");
            const Found& f = it->second.front();
            const std::string now = pages[f.page].substr(f.begin, f.end - f.begin);
            if (now != block)
            {
                if (update)
                {
                    replacements[f.page][f.begin] = {f.end, block};
                    changed.insert(f.page);
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(
                        now,
                        block,
                        f.page.filename() << ": the " << name
                                          << " block differs from its TypeId (run this suite with "
                                             "AI_FABRIC_UPDATE_DOCS=1 to rewrite it)");
                }
            }
        }
        for (const auto& [name, list] : found)
        {
            NS_TEST_EXPECT_MSG_EQ(expected.count(name),
                                  1,
                                  list.front().page.filename()
                                      << ": a block '" << name
                                      << "' names no TypeId of the AiFabric group with such "
                                         "members");
        }
        for (const auto& page : changed)
        {
            std::string text = pages[page];
            const auto& r = replacements[page];
            for (auto it = r.rbegin(); it != r.rend(); ++it)
            {
                text.replace(it->first, it->second.first - it->first, it->second.second);
            }
            std::ofstream out(page, std::ios::binary);
            out << text;
            std::cout << "rewrote blocks of " << page.filename() << std::endl;
        }
        std::cout << typeIds << " TypeIds, " << expected.size() << " blocks" << std::endl;
    }
};

class DocReferenceTestSuite : public TestSuite
{
  public:
    DocReferenceTestSuite()
        : TestSuite("ai-fabric-doc-reference", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new DocReferenceTestCase(), AI_FABRIC_QUICK);
    }
};

DocReferenceTestSuite g_docReferenceTestSuite;

} // namespace
