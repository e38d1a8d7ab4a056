/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-output-merger.h"

#include "ns3/output-error.h"
#include "ns3/output-writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <string_view>
#include <tuple>

namespace ns3
{

namespace
{

/// A data row of a part file: its integer sort key and its text (in the part's buffer).
template <size_t N>
struct Row
{
    std::array<int64_t, N> key;
    std::string_view text;

    bool operator<(const Row& o) const
    {
        return std::tie(key, text) < std::tie(o.key, o.text);
    }
};

/// One rank's part file: its text and its rows, sorted by key then text.
template <size_t N>
struct Part
{
    std::string text;
    std::vector<Row<N>> rows;
    size_t next{0}; ///< the first row not yet merged
};

/// The comma-separated fields of \p line; their count is \p columns or an OutputError.
std::vector<std::string_view>
Fields(std::string_view line, size_t columns, const std::string& path, uint64_t lineNo)
{
    std::vector<std::string_view> out;
    out.reserve(columns);
    size_t from = 0;
    while (true)
    {
        const size_t comma = line.find(',', from);
        out.push_back(line.substr(from, comma == std::string_view::npos ? comma : comma - from));
        if (comma == std::string_view::npos)
        {
            break;
        }
        from = comma + 1;
    }
    if (out.size() != columns)
    {
        throw OutputError(path + " line " + std::to_string(lineNo) + ": " +
                          std::to_string(out.size()) + " fields, expected " +
                          std::to_string(columns));
    }
    return out;
}

int64_t
Integer(std::string_view text, const std::string& path, uint64_t lineNo)
{
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    {
        throw OutputError(path + " line " + std::to_string(lineNo) + ": '" + std::string(text) +
                          "' is not an integer");
    }
    return v;
}

/**
 * Sorts \p rows by key, then text. A rank writes its rows in time order (key[0]), so
 * only runs of equal times may be out of order: those are sorted alone.
 */
template <size_t N>
void
SortRows(std::vector<Row<N>>& rows)
{
    auto earlier = [](const Row<N>& a, const Row<N>& b) { return a.key[0] < b.key[0]; };
    if (!std::is_sorted(rows.begin(), rows.end(), earlier))
    {
        std::sort(rows.begin(), rows.end());
        return;
    }
    for (auto from = rows.begin(); from != rows.end();)
    {
        const auto to = std::upper_bound(from, rows.end(), *from, earlier);
        std::sort(from, to);
        from = to;
    }
}

/**
 * \p name of every part folder, each part's rows keyed by \p keyOf (the integer columns
 * \p keyColumns, in that order, given to it) and sorted by key, then by the row's text.
 */
template <size_t N, size_t K, typename KeyOf>
std::vector<Part<N>>
ReadParts(const std::vector<std::string>& dirs,
          const std::string& name,
          size_t columns,
          const std::array<size_t, K>& keyColumns,
          KeyOf keyOf)
{
    std::vector<Part<N>> parts(dirs.size());
    for (size_t p = 0; p < dirs.size(); ++p)
    {
        const std::string path = dirs[p] + "/" + name;
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (!in)
        {
            throw OutputError("cannot read the rank part file " + path);
        }
        std::string& text = parts[p].text;
        text.resize(static_cast<size_t>(in.tellg()));
        in.seekg(0);
        if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
        {
            throw OutputError("cannot read the rank part file " + path);
        }
        const std::string_view all(text);
        size_t at = all.find('\n'); // after the header
        uint64_t lineNo = 1;
        while (at != std::string_view::npos && at + 1 < all.size())
        {
            const size_t from = at + 1;
            at = all.find('\n', from);
            const std::string_view line =
                all.substr(from, at == std::string_view::npos ? at : at - from);
            ++lineNo;
            const std::vector<std::string_view> fields = Fields(line, columns, path, lineNo);
            std::array<int64_t, K> values;
            for (size_t c = 0; c < K; ++c)
            {
                values[c] = Integer(fields[keyColumns[c]], path, lineNo);
            }
            parts[p].rows.push_back({keyOf(values), line});
        }
        SortRows(parts[p].rows);
    }
    return parts;
}

/// Calls \p emit with every row of \p parts, in key order (a merge of the sorted parts).
template <size_t N, typename Emit>
void
MergeParts(std::vector<Part<N>>& parts, Emit emit)
{
    while (true)
    {
        Part<N>* least = nullptr;
        for (Part<N>& p : parts) // a handful of ranks: a linear scan per row
        {
            if (p.next < p.rows.size() &&
                (least == nullptr || p.rows[p.next] < least->rows[least->next]))
            {
                least = &p;
            }
        }
        if (least == nullptr)
        {
            return;
        }
        emit(least->rows[least->next++]);
    }
}

/// fct.csv of the ranks' parts into \p into (no row is late: the run ends at its last message).
void
MergeFct(const std::vector<std::string>& dirs, OutputWriter& into)
{
    // fct.csv: flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,kind;
    // by completion time (start_ns + fct_ns), then flow id
    auto parts = ReadParts<2>(dirs,
                              "fct.csv",
                              9,
                              std::array<size_t, 7>{0, 1, 2, 3, 4, 5, 6},
                              [](const std::array<int64_t, 7>& v) {
                                  return std::array<int64_t, 2>{v[4] + v[5], v[0]};
                              });
    MergeParts(parts, [&into](const Row<2>& r) {
        const auto f = Fields(r.text, 9, "fct.csv", 0); // (checked when read)
        FctRecord rec;
        rec.flowId = static_cast<uint64_t>(Integer(f[0], "fct.csv", 0));
        rec.src = static_cast<uint32_t>(Integer(f[1], "fct.csv", 0));
        rec.dst = static_cast<uint32_t>(Integer(f[2], "fct.csv", 0));
        rec.sizeBytes = static_cast<uint64_t>(Integer(f[3], "fct.csv", 0));
        rec.startNs = Integer(f[4], "fct.csv", 0);
        rec.fctNs = Integer(f[5], "fct.csv", 0);
        rec.idealFctNs = Integer(f[6], "fct.csv", 0);
        rec.kind = std::string(f[8]);
        into.AppendFct(rec);
    });
}

} // namespace

void
RankOutputMerger::Merge(const std::vector<std::string>& dirs, int64_t endNs, OutputWriter& into)
{
    auto late = [endNs](int64_t t) { return endNs >= 0 && t > endNs; };
    MergeFct(dirs, into);
    {
        // pfc.csv: time_ns,node,port,priority,event
        auto parts = ReadParts<4>(dirs,
                                  "pfc.csv",
                                  5,
                                  std::array<size_t, 4>{0, 1, 2, 3},
                                  [](const std::array<int64_t, 4>& v) { return v; });
        MergeParts(parts, [&](const Row<4>& r) {
            if (!late(r.key[0]))
            {
                into.AppendPfc(r.key[0],
                               static_cast<uint32_t>(r.key[1]),
                               static_cast<uint32_t>(r.key[2]),
                               static_cast<uint32_t>(r.key[3]),
                               Fields(r.text, 5, "pfc.csv", 0)[4] == "pause");
            }
        });
    }
    {
        // qlen.csv: time_ns,node,port,queue,bytes
        auto parts = ReadParts<5>(dirs,
                                  "qlen.csv",
                                  5,
                                  std::array<size_t, 5>{0, 1, 2, 3, 4},
                                  [](const std::array<int64_t, 5>& v) { return v; });
        MergeParts(parts, [&](const Row<5>& r) {
            if (!late(r.key[0]))
            {
                into.AppendQlen(r.key[0],
                                static_cast<uint32_t>(r.key[1]),
                                static_cast<uint32_t>(r.key[2]),
                                static_cast<uint32_t>(r.key[3]),
                                static_cast<uint64_t>(r.key[4]));
            }
        });
    }
    {
        // drops.csv: time_ns,node,port,reason
        auto parts = ReadParts<3>(dirs,
                                  "drops.csv",
                                  4,
                                  std::array<size_t, 3>{0, 1, 2},
                                  [](const std::array<int64_t, 3>& v) { return v; });
        MergeParts(parts, [&](const Row<3>& r) {
            if (!late(r.key[0]))
            {
                into.AppendDrop(r.key[0],
                                static_cast<uint32_t>(r.key[1]),
                                static_cast<uint32_t>(r.key[2]),
                                Fields(r.text, 4, "drops.csv", 0)[3]);
            }
        });
    }
}

} // namespace ns3
