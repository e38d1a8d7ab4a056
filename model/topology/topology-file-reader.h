/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TOPOLOGY_FILE_READER_H
#define TOPOLOGY_FILE_READER_H

#include "topology-graph.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <istream>
#include <string>

namespace ns3
{

/**
 * \brief Reads the topology files of the HPCC-derived ns-3 RDMA simulators.
 *
 * Format: line 1 `nodes switches links` (a 4th field, the ToR count of one variant,
 * is accepted and ignored); line 2 the switch node ids; then one line per cable
 * `src dst rate delay error_rate` (rate "100Gbps" or plain bps; delay "0.001ms",
 * "1us", or a plain number of seconds as ns-3's Time parser reads it; error_rate
 * is checked to be in [0,1] and otherwise ignored: the fabrics model no bit errors).
 * Blank lines and lines starting with '#' are skipped. Node ids become graph node
 * ids; the non-switch ids are hosts, ranked in ascending id order. A switch's tier
 * is its hop distance to the nearest host minus one (edge/ToR 0, aggregation 1, ...).
 * Every problem throws std::invalid_argument "FILE:LINE: ..." naming the offending
 * text and what is allowed.
 */
class TopologyFileReader
{
  public:
    /**
     * \param fileName path of the topology file
     * \return the validated graph
     */
    static Ptr<TopologyGraph> Read(const std::string& fileName);
    /**
     * \param in the file contents
     * \param name the name used in error messages
     * \return the validated graph
     */
    static Ptr<TopologyGraph> Parse(std::istream& in, const std::string& name);
    /**
     * "100Gbps", "25Gb/s", "400000000000" (bps), "12.5GBps" (bytes/s).
     * Throws std::invalid_argument naming the text.
     * \param text the rate
     * \return the rate
     */
    static DataRate ParseRate(const std::string& text);
    /**
     * "0.001ms", "1us", "500ns", "1e-6" (seconds). Throws std::invalid_argument.
     * \param text the delay
     * \return the delay
     */
    static Time ParseDelay(const std::string& text);
};

} // namespace ns3

#endif // TOPOLOGY_FILE_READER_H
