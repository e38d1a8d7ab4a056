/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-output-merger.h"

#include "output-error.h"
#include "output-writer.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// One data row: its fields and the file and line it came from (for errors).
struct Row
{
    std::vector<std::string> fields;
    std::vector<int64_t> key;
};

std::vector<std::string>
Split(const std::string& line)
{
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
    {
        out.push_back(field);
    }
    if (!line.empty() && line.back() == ',')
    {
        out.emplace_back();
    }
    return out;
}

int64_t
Integer(const std::string& text, const std::string& where)
{
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || end == nullptr || *end != '\0')
    {
        throw OutputError(where + ": '" + text + "' is not an integer");
    }
    return v;
}

/**
 * The data rows of \p name in every part folder, each with the integer columns
 * \p keyColumns as its sort key, sorted by them (then by the whole row's text).
 */
std::vector<Row>
ReadSorted(const std::vector<std::string>& parts,
           const std::string& name,
           size_t columns,
           const std::vector<size_t>& keyColumns)
{
    std::vector<Row> rows;
    for (const std::string& dir : parts)
    {
        const std::string path = dir + "/" + name;
        std::ifstream in(path);
        if (!in)
        {
            throw OutputError("cannot read the rank part file " + path);
        }
        std::string line;
        std::getline(in, line); // header
        for (uint64_t n = 2; std::getline(in, line); ++n)
        {
            const std::string where = path + " line " + std::to_string(n);
            Row r;
            r.fields = Split(line);
            if (r.fields.size() != columns)
            {
                throw OutputError(where + ": " + std::to_string(r.fields.size()) +
                                  " fields, expected " + std::to_string(columns));
            }
            for (size_t c : keyColumns)
            {
                r.key.push_back(Integer(r.fields[c], where));
            }
            rows.push_back(std::move(r));
        }
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(a.key, a.fields) < std::tie(b.key, b.fields);
    });
    return rows;
}

} // namespace

void
RankOutputMerger::Merge(const std::vector<std::string>& parts, int64_t endNs, OutputWriter& into)
{
    auto late = [endNs](int64_t t) { return endNs >= 0 && t > endNs; };
    // fct.csv: flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,kind
    std::vector<Row> fct = ReadSorted(parts, "fct.csv", 9, {0, 1, 2, 3, 4, 5, 6});
    for (Row& r : fct)
    {
        r.key = {r.key[4] + r.key[5], r.key[0]}; // completion time, then flow id
    }
    std::stable_sort(fct.begin(), fct.end(), [](const Row& a, const Row& b) {
        return a.key < b.key;
    });
    for (const Row& r : fct)
    {
        FctRecord f;
        f.flowId = static_cast<uint64_t>(Integer(r.fields[0], "fct.csv"));
        f.src = static_cast<uint32_t>(Integer(r.fields[1], "fct.csv"));
        f.dst = static_cast<uint32_t>(Integer(r.fields[2], "fct.csv"));
        f.sizeBytes = static_cast<uint64_t>(Integer(r.fields[3], "fct.csv"));
        f.startNs = Integer(r.fields[4], "fct.csv");
        f.fctNs = Integer(r.fields[5], "fct.csv");
        f.idealFctNs = Integer(r.fields[6], "fct.csv");
        f.kind = r.fields[8];
        into.AppendFct(f);
    }
    // pfc.csv: time_ns,node,port,priority,event
    for (const Row& r : ReadSorted(parts, "pfc.csv", 5, {0, 1, 2, 3}))
    {
        if (!late(r.key[0]))
        {
            into.AppendPfc(r.key[0],
                           static_cast<uint32_t>(r.key[1]),
                           static_cast<uint32_t>(r.key[2]),
                           static_cast<uint32_t>(r.key[3]),
                           r.fields[4] == "pause");
        }
    }
    // qlen.csv: time_ns,node,port,queue,bytes
    for (const Row& r : ReadSorted(parts, "qlen.csv", 5, {0, 1, 2, 3, 4}))
    {
        if (!late(r.key[0]))
        {
            into.AppendQlen(r.key[0],
                            static_cast<uint32_t>(r.key[1]),
                            static_cast<uint32_t>(r.key[2]),
                            static_cast<uint32_t>(r.key[3]),
                            static_cast<uint64_t>(r.key[4]));
        }
    }
    // drops.csv: time_ns,node,port,reason
    for (const Row& r : ReadSorted(parts, "drops.csv", 4, {0, 1, 2}))
    {
        if (!late(r.key[0]))
        {
            into.AppendDrop(r.key[0],
                            static_cast<uint32_t>(r.key[1]),
                            static_cast<uint32_t>(r.key[2]),
                            r.fields[3]);
        }
    }
}

} // namespace ns3
