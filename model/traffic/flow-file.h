/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_FILE_H
#define FLOW_FILE_H

#include "flow-spec.h"

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief One line of the HPCC-derived simulators' fct.txt.
 *
 * Written as "sip dip sport dport size start_ns fct_ns standalone_fct_ns",
 * IPs as 8 lower-case hex digits without 0x (their "%08x").
 */
struct HpccFctRecord
{
    uint32_t src{0};             //!< sender node id (written as its IPv4 address)
    uint32_t dst{0};             //!< receiver node id (written as its IPv4 address)
    uint16_t sport{0};           //!< source port
    uint16_t dport{0};           //!< destination port
    uint64_t sizeBytes{0};       //!< message size (bytes)
    uint64_t startNs{0};         //!< start time (ns)
    uint64_t fctNs{0};           //!< flow completion time (ns)
    uint64_t standaloneFctNs{0}; //!< FCT alone on an idle path (ns), the slowdown base
};

/**
 * \param a first record
 * \param b second record
 * \return true if all fields are equal
 */
inline bool
operator==(const HpccFctRecord& a, const HpccFctRecord& b)
{
    return a.src == b.src && a.dst == b.dst && a.sport == b.sport && a.dport == b.dport &&
           a.sizeBytes == b.sizeBytes && a.startNs == b.startNs && a.fctNs == b.fctNs &&
           a.standaloneFctNs == b.standaloneFctNs;
}

/**
 * \brief Reader and writer of the HPCC-derived ns-3 RDMA simulators' text files.
 *
 * Flow file: line 1 the number of flows, then one flow per line
 * "src dst priority dport size_bytes start_s" (start in seconds, decimal).
 * Those simulators schedule flows in file order, so start times must be
 * non-decreasing. Read flows get ids 0, 1, ... in file order. Blank lines
 * are skipped; anything else malformed throws std::invalid_argument naming the
 * file, the line number, the text and what is allowed.
 *
 * Node ids and IPs follow their convention: node i has IPv4 address
 * 0x0b000001 + (i / 256) * 0x10000 + (i % 256) * 0x100, i.e. 11.(i/256).(i%256).1
 * (node 0 = 0b000001 = 11.0.0.1, node 257 = 0b010101 = 11.1.1.1), and
 * node id = (ip >> 8) & 0xffff.
 */
class FlowFile
{
  public:
    /**
     * \brief Read a flow file.
     * \param path file path
     * \param numNodes if > 0, src and dst must be < numNodes
     * \return the flows in file order
     * \throws std::invalid_argument if unreadable or malformed
     */
    static std::vector<FlowSpec> Read(const std::string& path, uint32_t numNodes = 0);

    /**
     * \brief Parse flow file text.
     * \param in the text
     * \param sourceName name used in error messages
     * \param numNodes if > 0, src and dst must be < numNodes
     * \return the flows in file order
     * \throws std::invalid_argument if malformed
     */
    static std::vector<FlowSpec> Parse(std::istream& in,
                                       const std::string& sourceName,
                                       uint32_t numNodes = 0);

    /**
     * \brief Write flows in the flow file format (start with ns precision).
     * \param path file path
     * \param flows the flows, in non-decreasing start order
     * \throws std::invalid_argument if the file cannot be written or starts decrease
     */
    static void Write(const std::string& path, const std::vector<FlowSpec>& flows);

    /**
     * \brief Write flows in the flow file format.
     * \param out the stream
     * \param flows the flows, in non-decreasing start order
     */
    static void Write(std::ostream& out, const std::vector<FlowSpec>& flows);

    /**
     * \brief Write one fct.txt line.
     * \param out the stream
     * \param r the record
     */
    static void WriteFctLine(std::ostream& out, const HpccFctRecord& r);

    /**
     * \brief Parse an fct.txt (for comparisons with those simulators' output).
     * \param in the text
     * \param sourceName name used in error messages
     * \return the records
     * \throws std::invalid_argument if malformed
     */
    static std::vector<HpccFctRecord> ParseFct(std::istream& in, const std::string& sourceName);

    /**
     * \param nodeId node id (< 65536)
     * \return its IPv4 address as a host-order integer (11.(id/256).(id%256).1)
     */
    static uint32_t NodeIdToIpv4(uint32_t nodeId);

    /**
     * \param ip host-order IPv4 address
     * \return the node id ((ip >> 8) & 0xffff)
     */
    static uint32_t Ipv4ToNodeId(uint32_t ip);
};

} // namespace ns3

#endif // FLOW_FILE_H
