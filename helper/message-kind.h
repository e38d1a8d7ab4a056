/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MESSAGE_KIND_H
#define MESSAGE_KIND_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The kind byte a workload gives each message it posts (RdmaFabric::PostWrite):
 * fct.csv's "kind" column and what the scenario runner counts towards the end of
 * the run.
 */
enum MessageKind : uint8_t
{
    KIND_FLOW = 0,        //!< a flow of a --flows file
    KIND_INCAST = 1,      //!< --workload=incast
    KIND_PERMUTATION = 2, //!< --workload=permutation
    KIND_ALLTOALL = 3,    //!< --workload=alltoall
    KIND_COLLECTIVE = 4,  //!< a collective's chunk message (RdmaCollectiveTransport)
    KIND_BACKGROUND = 5,  //!< a background flow (--background)
    KIND_COUNT = 6,       //!< the number of kinds
};

/// \return fct.csv's name of kind \p kind ("unknown" beyond the table)
inline const char*
MessageKindName(uint8_t kind)
{
    static const char* const names[KIND_COUNT] =
        {"flow", "incast", "permutation", "alltoall", "collective", "background"};
    return kind < KIND_COUNT ? names[kind] : "unknown";
}

/// \return fct.csv's name of kind \p kind for a flow carried by TCP (--transport=tcp):
/// the RDMA kind's name prefixed "tcp-"
inline const char*
TcpMessageKindName(uint8_t kind)
{
    static const char* const names[KIND_COUNT] = {"tcp-flow",
                                                  "tcp-incast",
                                                  "tcp-permutation",
                                                  "tcp-alltoall",
                                                  "tcp-collective",
                                                  "tcp-background"};
    return kind < KIND_COUNT ? names[kind] : "tcp-unknown";
}

} // namespace ns3

#endif // MESSAGE_KIND_H
