/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "chakra-trace.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#ifdef AI_FABRIC_CHAKRA
#include "chakra-et.pb.h"
#endif

namespace ns3
{

namespace
{
#ifdef AI_FABRIC_CHAKRA
std::string
RankFile(const std::string& prefix, uint32_t rank)
{
    return prefix + "." + std::to_string(rank) + ".et";
}

/// The Chakra NodeType names (chakra-et.proto), for messages.
const char* const NODE_TYPES = "METADATA_NODE (1), COMP_NODE (4), COMM_SEND_NODE (5), "
                               "COMM_RECV_NODE (6), COMM_COLL_NODE (7)";
const char* const COMM_TYPES =
    "ALL_REDUCE (0), REDUCE (1), ALL_GATHER (2), BROADCAST (5), ALL_TO_ALL (6), "
    "REDUCE_SCATTER (7)";

/// The node attributes read (Chakra's names, as its feeder for ASTRA-sim reads them).
enum class Attr
{
    IS_CPU_OP,
    COMM_TYPE,
    COMM_SIZE,
    COMM_SRC,
    COMM_DST,
    COMM_TAG,
    PG_NAME,
    OTHER,
};

const std::map<std::string, Attr> ATTRIBUTES{{"is_cpu_op", Attr::IS_CPU_OP},
                                             {"comm_type", Attr::COMM_TYPE},
                                             {"comm_size", Attr::COMM_SIZE},
                                             {"comm_src", Attr::COMM_SRC},
                                             {"comm_dst", Attr::COMM_DST},
                                             {"comm_tag", Attr::COMM_TAG},
                                             {"pg_name", Attr::PG_NAME}};

/// An attribute's integer value, whichever integer type the writer chose.
bool
IntegerOf(const chakra::Attribute& a, int64_t& v)
{
    switch (a.value_case())
    {
    case chakra::Attribute::kInt32Val:
        v = a.int32_val();
        return true;
    case chakra::Attribute::kInt64Val:
        v = a.int64_val();
        return true;
    case chakra::Attribute::kUint32Val:
        v = a.uint32_val();
        return true;
    case chakra::Attribute::kUint64Val:
        v = static_cast<int64_t>(a.uint64_val());
        return a.uint64_val() <= static_cast<uint64_t>(INT64_MAX);
    case chakra::Attribute::kSint32Val:
        v = a.sint32_val();
        return true;
    case chakra::Attribute::kSint64Val:
        v = a.sint64_val();
        return true;
    default:
        return false;
    }
}

/// One rank's file parsed into nodes; throws naming the file, byte and node.
void
ReadRank(const std::string& file,
         std::vector<ChakraNode>& nodes,
         std::string& version,
         uint32_t nRanks,
         uint32_t rank)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        throw std::invalid_argument(file + ": cannot open it (allowed: a readable file)");
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    const std::string data = buf.str();
    std::size_t pos = 0;
    uint64_t message = 0;
    std::string last = "before the GlobalMetadata";
    while (pos < data.size())
    {
        // the length: a base-128 varint, low group first
        uint64_t len = 0;
        int shift = 0;
        const std::size_t start = pos;
        bool complete = false;
        while (pos < data.size() && shift < 64)
        {
            const auto b = static_cast<uint8_t>(data[pos++]);
            len |= static_cast<uint64_t>(b & 0x7f) << shift;
            shift += 7;
            if ((b & 0x80) == 0)
            {
                complete = true;
                break;
            }
        }
        if (!complete)
        {
            throw std::invalid_argument(file + ": truncated stream: the length of message " +
                                        std::to_string(message + 1) + " at byte " +
                                        std::to_string(start) + " is cut off (" + last +
                                        "); a message is a varint length, then its bytes");
        }
        if (len > data.size() - pos)
        {
            throw std::invalid_argument(
                file + ": truncated stream: message " + std::to_string(message + 1) + " at byte " +
                std::to_string(start) + " announces " + std::to_string(len) + " bytes, " +
                std::to_string(data.size() - pos) + " remain (" + last + ")");
        }
        const char* body = data.data() + pos;
        pos += len;
        if (message++ == 0)
        {
            chakra::GlobalMetadata meta;
            if (!meta.ParseFromArray(body, static_cast<int>(len)))
            {
                throw std::invalid_argument(file +
                                            ": the first message is not a Chakra GlobalMetadata");
            }
            version = meta.version();
            last = "after the GlobalMetadata";
            continue;
        }
        chakra::Node n;
        if (!n.ParseFromArray(body, static_cast<int>(len)))
        {
            throw std::invalid_argument(file + ": message " + std::to_string(message) +
                                        " at byte " + std::to_string(start) +
                                        " is not a Chakra Node (" + last + ")");
        }
        ChakraNode node;
        node.id = n.id();
        node.name = n.name();
        const std::string where = file + ": node " + std::to_string(n.id()) + " '" + n.name() + "'";
        last = "after node " + std::to_string(n.id());
        for (uint64_t d : n.ctrl_deps())
        {
            node.ctrlDeps.push_back(d);
        }
        for (uint64_t d : n.data_deps())
        {
            node.deps.push_back(d);
        }
        bool hasType = false;
        bool hasSize = false;
        bool hasPeer = false;
        int64_t commType = 0;
        for (const chakra::Attribute& a : n.attr())
        {
            int64_t v = 0;
            const std::string& key = a.name();
            const auto known = ATTRIBUTES.find(key);
            // other attributes (num_ops, tensor_size, comm_priority, ...) are not modelled
            const Attr attr = known == ATTRIBUTES.end() ? Attr::OTHER : known->second;
            const bool integer = IntegerOf(a, v);
            auto needInteger = [&]() {
                if (!integer)
                {
                    throw std::invalid_argument(where + ": attribute \"" + key +
                                                "\" is not an integer (allowed: int32_val, "
                                                "int64_val, uint32_val, uint64_val)");
                }
            };
            if (attr == Attr::IS_CPU_OP)
            {
                if (a.value_case() != chakra::Attribute::kBoolVal)
                {
                    throw std::invalid_argument(where +
                                                ": attribute \"is_cpu_op\" is not a bool_val");
                }
                node.cpu = a.bool_val();
            }
            else if (attr == Attr::COMM_TYPE)
            {
                needInteger();
                hasType = true;
                commType = v;
            }
            else if (attr == Attr::COMM_SIZE)
            {
                needInteger();
                if (v < 1)
                {
                    throw std::invalid_argument(where + ": \"comm_size\": " + std::to_string(v) +
                                                " is not allowed; allowed: 1 or more bytes");
                }
                hasSize = true;
                node.bytes = static_cast<uint64_t>(v);
            }
            else if ((attr == Attr::COMM_SRC && n.type() == chakra::COMM_RECV_NODE) ||
                     (attr == Attr::COMM_DST && n.type() == chakra::COMM_SEND_NODE))
            {
                needInteger();
                if (v < 0 || v >= static_cast<int64_t>(nRanks) || v == static_cast<int64_t>(rank))
                {
                    throw std::invalid_argument(
                        where + ": \"" + key + "\": " + std::to_string(v) +
                        " is not allowed; allowed: another rank of the trace, 0.." +
                        std::to_string(nRanks - 1) + " except " + std::to_string(rank));
                }
                hasPeer = true;
                node.peer = static_cast<uint32_t>(v);
            }
            else if (attr == Attr::COMM_TAG)
            {
                needInteger();
                node.tag = v;
            }
            else if (attr == Attr::PG_NAME)
            {
                if (a.value_case() != chakra::Attribute::kStringVal)
                {
                    throw std::invalid_argument(where +
                                                ": attribute \"pg_name\" is not a string_val");
                }
                node.group = a.string_val();
            }
        }
        switch (static_cast<int>(n.type()))
        {
        case chakra::METADATA_NODE:
            node.kind = ChakraNode::NOOP;
            break;
        case chakra::COMP_NODE:
            node.kind = ChakraNode::COMPUTE;
            if (n.duration_micros() > static_cast<uint64_t>(INT64_MAX / 1000))
            {
                throw std::invalid_argument(
                    where + ": \"duration_micros\": " + std::to_string(n.duration_micros()) +
                    " is out of range");
            }
            node.durationNs = static_cast<int64_t>(n.duration_micros()) * 1000;
            break;
        case chakra::COMM_COLL_NODE:
            node.kind = ChakraNode::COLLECTIVE;
            if (!hasType)
            {
                throw std::invalid_argument(where + ": a COMM_COLL_NODE needs \"comm_type\" (" +
                                            COMM_TYPES + ")");
            }
            switch (commType)
            {
            case chakra::ALL_REDUCE:
                node.op = CollectiveOp::ALLREDUCE;
                break;
            case chakra::REDUCE:
                node.op = CollectiveOp::REDUCE;
                break;
            case chakra::ALL_GATHER:
                node.op = CollectiveOp::ALL_GATHER;
                break;
            case chakra::BROADCAST:
                node.op = CollectiveOp::BROADCAST;
                break;
            case chakra::ALL_TO_ALL:
                node.op = CollectiveOp::ALL_TO_ALL;
                break;
            case chakra::REDUCE_SCATTER:
                node.op = CollectiveOp::REDUCE_SCATTER;
                break;
            default:
                throw std::invalid_argument(where + ": \"comm_type\": " + std::to_string(commType) +
                                            " is not allowed (GATHER 3, SCATTER 4, "
                                            "REDUCE_SCATTER_BLOCK 8 and BARRIER 9 are not "
                                            "modelled); allowed: " +
                                            COMM_TYPES);
            }
            if (!hasSize)
            {
                throw std::invalid_argument(where + ": a COMM_COLL_NODE needs \"comm_size\"");
            }
            break;
        case chakra::COMM_SEND_NODE:
        case chakra::COMM_RECV_NODE: {
            const bool send = n.type() == chakra::COMM_SEND_NODE;
            node.kind = send ? ChakraNode::SEND : ChakraNode::RECV;
            if (!hasPeer)
            {
                throw std::invalid_argument(where + ": a " +
                                            (send ? "COMM_SEND_NODE needs \"comm_dst\""
                                                  : "COMM_RECV_NODE needs \"comm_src\""));
            }
            if (!hasSize)
            {
                throw std::invalid_argument(where + ": a " +
                                            (send ? "COMM_SEND_NODE" : "COMM_RECV_NODE") +
                                            " needs \"comm_size\"");
            }
            break;
        }
        default:
            throw std::invalid_argument(
                where + ": \"type\": " + std::to_string(static_cast<int>(n.type())) +
                " is not allowed (INVALID_NODE 0, and MEM_LOAD_NODE 2 and MEM_STORE_NODE 3 "
                "are not modelled); allowed: " +
                NODE_TYPES);
        }
        nodes.push_back(std::move(node));
    }
    if (message == 0)
    {
        throw std::invalid_argument(file + ": empty; a Chakra trace starts with a GlobalMetadata");
    }
}
#endif
} // namespace

bool
ChakraTrace::IsAvailable()
{
#ifdef AI_FABRIC_CHAKRA
    return true;
#else
    return false;
#endif
}

uint32_t
ChakraTrace::GetNRanks() const
{
    return static_cast<uint32_t>(ranks.size());
}

std::string
ChakraTrace::Where(uint32_t rank, const ChakraNode& node) const
{
    return files.at(rank) + ": node " + std::to_string(node.id) + " '" + node.name + "'";
}

ChakraTrace
ChakraTrace::Load([[maybe_unused]] const std::string& prefix)
{
#ifndef AI_FABRIC_CHAKRA
    throw std::invalid_argument("this build reads no Chakra traces: protobuf "
                                "(libprotobuf-dev, protobuf-compiler) was not found when it was "
                                "configured; install them and configure again");
#else
    GOOGLE_PROTOBUF_VERIFY_VERSION;
    ChakraTrace t;
    t.prefix = prefix;
    uint32_t n = 0;
    while (std::filesystem::is_regular_file(RankFile(prefix, n)))
    {
        ++n;
    }
    if (n == 0)
    {
        throw std::invalid_argument(RankFile(prefix, 0) +
                                    ": no such file (a Chakra trace is PREFIX.0.et, "
                                    "PREFIX.1.et, ..., one file per rank)");
    }
    t.ranks.resize(n);
    t.versions.resize(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        t.files.push_back(RankFile(prefix, r));
        ReadRank(t.files[r], t.ranks[r], t.versions[r], n, r);
    }
    t.Check();
    return t;
#endif
}

std::vector<uint32_t>
ChakraTrace::GetGroupRanks(const std::string& group) const
{
    std::vector<uint32_t> members;
    for (uint32_t r = 0; r < ranks.size(); ++r)
    {
        bool member = group.empty();
        for (const ChakraNode& node : ranks[r])
        {
            member = member || (node.kind == ChakraNode::COLLECTIVE && node.group == group);
        }
        if (member)
        {
            members.push_back(r);
        }
    }
    return members;
}

void
ChakraTrace::Check() const
{
    // Per rank: unique ids, dependencies on nodes of the rank, no cycle.
    for (uint32_t r = 0; r < ranks.size(); ++r)
    {
        std::map<uint64_t, std::size_t> index;
        for (std::size_t i = 0; i < ranks[r].size(); ++i)
        {
            const ChakraNode& node = ranks[r][i];
            if (!index.emplace(node.id, i).second)
            {
                throw std::invalid_argument(Where(r, node) +
                                            ": \"id\": " + std::to_string(node.id) +
                                            " is given twice; allowed: ids unique in the file");
            }
        }
        std::vector<uint32_t> pending(ranks[r].size(), 0);
        std::vector<std::vector<std::size_t>> children(ranks[r].size());
        for (std::size_t i = 0; i < ranks[r].size(); ++i)
        {
            const ChakraNode& node = ranks[r][i];
            for (uint64_t d : node.ctrlDeps)
            {
                if (index.count(d) == 0)
                {
                    throw std::invalid_argument(Where(r, node) + ": \"ctrl_deps\": node " +
                                                std::to_string(d) +
                                                " is not in the file; allowed: ids of its nodes");
                }
            }
            for (uint64_t d : node.deps)
            {
                auto it = index.find(d);
                if (it == index.end())
                {
                    throw std::invalid_argument(Where(r, node) + ": \"data_deps\": node " +
                                                std::to_string(d) +
                                                " is not in the file; allowed: ids of its nodes");
                }
                children[it->second].push_back(i);
                pending[i]++;
            }
        }
        std::vector<std::size_t> ready;
        for (std::size_t i = 0; i < pending.size(); ++i)
        {
            if (pending[i] == 0)
            {
                ready.push_back(i);
            }
        }
        std::size_t seen = 0;
        while (!ready.empty())
        {
            const std::size_t i = ready.back();
            ready.pop_back();
            ++seen;
            for (std::size_t c : children[i])
            {
                if (--pending[c] == 0)
                {
                    ready.push_back(c);
                }
            }
        }
        if (seen != pending.size())
        {
            for (std::size_t i = 0; i < pending.size(); ++i)
            {
                if (pending[i] > 0)
                {
                    throw std::invalid_argument(Where(r, ranks[r][i]) +
                                                ": \"data_deps\": it is on a dependency "
                                                "cycle; allowed: an acyclic graph");
                }
            }
        }
    }
    // Collectives: each member of a group issues the same sequence on it.
    std::set<std::string> groups;
    for (const auto& nodes : ranks)
    {
        for (const ChakraNode& node : nodes)
        {
            if (node.kind == ChakraNode::COLLECTIVE)
            {
                groups.insert(node.group);
            }
        }
    }
    for (const std::string& g : groups)
    {
        const std::vector<uint32_t> members = GetGroupRanks(g);
        const std::string gname = g.empty() ? "every rank (no pg_name)" : "pg_name '" + g + "'";
        if (members.size() < 2)
        {
            throw std::invalid_argument(
                files[members.front()] + ": the collectives of " + gname +
                " have one member; allowed: a process group of at least 2 ranks");
        }
        std::vector<const ChakraNode*> first;
        for (const ChakraNode& node : ranks[members.front()])
        {
            if (node.kind == ChakraNode::COLLECTIVE && node.group == g)
            {
                first.push_back(&node);
            }
        }
        for (uint32_t m : members)
        {
            std::size_t k = 0;
            for (const ChakraNode& node : ranks[m])
            {
                if (node.kind != ChakraNode::COLLECTIVE || node.group != g)
                {
                    continue;
                }
                if (k >= first.size())
                {
                    throw std::invalid_argument(Where(m, node) + ": collective " +
                                                std::to_string(k + 1) + " of " + gname +
                                                " has no match in " + files[members.front()] +
                                                " (" + std::to_string(first.size()) +
                                                " there); every member issues the same ones");
                }
                const ChakraNode& f = *first[k];
                if (f.op != node.op || f.bytes != node.bytes)
                {
                    throw std::invalid_argument(
                        Where(m, node) + ": \"comm_type\"/\"comm_size\": " +
                        CollectiveOpToString(node.op) + " of " + std::to_string(node.bytes) +
                        " bytes, but collective " + std::to_string(k + 1) + " of " + gname +
                        " in " + Where(members.front(), f) + " is " + CollectiveOpToString(f.op) +
                        " of " + std::to_string(f.bytes) + "; allowed: the same in every member");
                }
                ++k;
            }
            if (k != first.size())
            {
                throw std::invalid_argument(
                    files[m] + ": " + std::to_string(k) + " collectives of " + gname + ", " +
                    std::to_string(first.size()) + " in " + files[members.front()] +
                    "; every member issues the same ones");
            }
        }
    }
    // Point-to-point: the k-th send src -> dst with a tag meets the k-th such receive.
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::vector<const ChakraNode*>> sends;
    std::map<std::tuple<uint32_t, uint32_t, int64_t>,
             std::vector<std::pair<uint32_t, const ChakraNode*>>>
        recvs;
    for (uint32_t r = 0; r < ranks.size(); ++r)
    {
        for (const ChakraNode& node : ranks[r])
        {
            if (node.kind == ChakraNode::SEND)
            {
                sends[{r, node.peer, node.tag}].push_back(&node);
            }
            else if (node.kind == ChakraNode::RECV)
            {
                recvs[{node.peer, r, node.tag}].push_back({r, &node});
            }
        }
    }
    for (const auto& [key, list] : sends)
    {
        const auto& [src, dst, tag] = key;
        const auto it = recvs.find(key);
        const std::size_t nRecv = it == recvs.end() ? 0 : it->second.size();
        for (std::size_t k = 0; k < list.size(); ++k)
        {
            if (k >= nRecv)
            {
                throw std::invalid_argument(
                    Where(src, *list[k]) + ": \"comm_dst\": " + std::to_string(dst) +
                    " (comm_tag " + std::to_string(tag) + "): " + files[dst] +
                    " has no matching COMM_RECV_NODE (comm_src " + std::to_string(src) + ")");
            }
            if (it->second[k].second->bytes != list[k]->bytes)
            {
                throw std::invalid_argument(
                    Where(dst, *it->second[k].second) + ": \"comm_size\": " +
                    std::to_string(it->second[k].second->bytes) + ", but its send " +
                    Where(src, *list[k]) + " has " + std::to_string(list[k]->bytes));
            }
        }
    }
    for (const auto& [key, list] : recvs)
    {
        const auto it = sends.find(key);
        const std::size_t nSend = it == sends.end() ? 0 : it->second.size();
        if (list.size() > nSend)
        {
            const auto& [r, node] = list[nSend];
            throw std::invalid_argument(
                Where(r, *node) + ": \"comm_src\": " + std::to_string(node->peer) + " (comm_tag " +
                std::to_string(node->tag) + "): " + files[node->peer] +
                " has no matching COMM_SEND_NODE");
        }
    }
}

} // namespace ns3
