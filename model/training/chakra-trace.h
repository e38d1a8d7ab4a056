/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_TRACE_H
#define CHAKRA_TRACE_H

#include "ns3/collective-metrics.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * One node of a rank's Chakra execution trace, as ChakraEngine runs it.
 */
struct ChakraNode
{
    /// What the node does.
    enum Kind : uint8_t
    {
        NOOP,       //!< METADATA_NODE: no work, done once its dependencies are
        COMPUTE,    //!< COMP_NODE: busy for durationNs on the rank's GPU (or CPU)
        COLLECTIVE, //!< COMM_COLL_NODE: op over bytes on its process group
        SEND,       //!< COMM_SEND_NODE: bytes to peer
        RECV,       //!< COMM_RECV_NODE: bytes from peer
    };

    uint64_t id{0};                 //!< the trace's node id (unique per rank)
    std::string name;               //!< as traced
    Kind kind{NOOP};                //!< from its NodeType
    std::vector<uint64_t> deps;     //!< data_deps: it starts once these finished
    std::vector<uint64_t> ctrlDeps; //!< ctrl_deps: its caller (checked, not waited for)
    int64_t durationNs{0};          //!< COMPUTE: duration_micros x 1000
    bool cpu{false};                //!< COMPUTE: attribute is_cpu_op (the CPU, not the GPU)
    CollectiveOp op{CollectiveOp::ALLREDUCE}; //!< COLLECTIVE: from comm_type
    uint64_t bytes{0};                        //!< COLLECTIVE, SEND, RECV: comm_size
    std::string group; //!< COLLECTIVE: pg_name ("" = every rank of the trace)
    uint32_t peer{0};  //!< SEND: comm_dst; RECV: comm_src
    int64_t tag{0};    //!< SEND, RECV: comm_tag (0 when absent)
};

/**
 * \ingroup ai-fabric
 * \brief An MLCommons Chakra execution trace (github.com/mlcommons/chakra): one file per
 * rank, PREFIX.RANK.et for ranks 0, 1, ... (as many as exist in a row), each a stream of
 * protobuf messages, every one preceded by its length as a base-128 varint: a
 * GlobalMetadata, then the rank's Node messages (model/training/chakra-et.proto).
 *
 * Load reads and checks the whole trace: every node's type is one this module runs
 * (METADATA, COMP, COMM_COLL, COMM_SEND, COMM_RECV), every collective's comm_type one of
 * its collectives, every dependency (data_deps and ctrl_deps) a node of the same rank, no
 * cycle of data_deps, every
 * process group's members issue the same collectives (type and size) in the same order,
 * and every send has its receive. An error throws std::invalid_argument naming the file,
 * the node (id and name) and the field.
 *
 * Builds without protobuf (found at configure time) cannot read traces: Load throws,
 * saying so, and IsAvailable is false.
 */
class ChakraTrace
{
  public:
    std::string prefix;                         //!< as given to Load
    std::vector<std::string> files;             //!< one per rank
    std::vector<std::string> versions;          //!< GlobalMetadata version per rank
    std::vector<std::vector<ChakraNode>> ranks; //!< each rank's nodes in file order

    /// Whether this build reads Chakra traces (protobuf was found at configure time).
    static bool IsAvailable();
    /// Reads and checks PREFIX.0.et, PREFIX.1.et, ...; throws std::invalid_argument.
    static ChakraTrace Load(const std::string& prefix);
    /// Checks one rank's parsed nodes and the ranks against each other (Load calls it).
    void Check() const;
    /// The number of ranks (files).
    uint32_t GetNRanks() const;
    /// The ranks of process group \p group: all for "", else those issuing collectives on it.
    std::vector<uint32_t> GetGroupRanks(const std::string& group) const;
    /// "FILE: node ID 'NAME'" for error messages.
    std::string Where(uint32_t rank, const ChakraNode& node) const;
};

} // namespace ns3

#endif // CHAKRA_TRACE_H
