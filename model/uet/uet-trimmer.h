/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_TRIMMER_H
#define UET_TRIMMER_H

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RoceParsedFrame;
struct RoceFrameView;

/**
 * \ingroup ai-fabric
 * \brief Packet trimming at a switch's egress (Ultra Ethernet specification 1.0, the
 * link and network layers' packet trimming; the UEC's simulator uet-htsim's trimming
 * queues): a data frame that would push its egress queue beyond TrimThreshold bytes is
 * cut to its headers instead of being queued whole or dropped, re-marked with
 * TRIMMED_DSCP_BITS and sent on TrimPriority (a high class, ahead of the data), so the
 * receiver learns of the loss one queueing delay sooner and NACKs it (UetNic).
 *
 * A RoceSwitch has none by default (its Trimmer attribute is null): then its frame path
 * tests no more than it did. Counted per egress port (GetTrimmed) and traced (Trim).
 */
class UetTrimmer : public Object
{
  public:
    /**
     * The low DSCP bits of a trimmed frame: its DSCP is TrimPriority << 3 (the class,
     * RoceSwitch's classification) | 100b, which no NIC's frame carries (a NIC's DSCP is
     * its class << 3, with bit 0 for INT). The UEC specification leaves the trimmed
     * code point to the operator's configuration; this is the model's choice, shared by
     * the switches and UetNic.
     */
    static constexpr uint8_t TRIMMED_DSCP_BITS = 4;

    /// \return whether the frame of view \p v is a trimmed one (its DSCP's low bits)
    static bool IsTrimmed(const RoceFrameView& v);

    /// Trim trace: (egress port, frame bytes before, after).
    typedef void (*TrimTracedCallback)(uint32_t, uint32_t, uint32_t);

    static TypeId GetTypeId();
    UetTrimmer();
    ~UetTrimmer() override;

    /// Size the per-port counters for a switch of \p ports ports.
    void SetPorts(uint32_t ports);
    /// \return TrimThreshold, bytes
    uint32_t GetThreshold() const;
    /// \return TrimPriority
    uint8_t GetPriority() const;

    /**
     * \param frame a frame about to join egress queue (\p port, its class) that holds
     * \p queueBytes bytes
     * \return true if it should be trimmed: a UET request with payload (or a RoCEv2 data
     * frame), not trimmed yet, whose bytes would take the queue beyond TrimThreshold
     */
    bool ShouldTrim(RoceParsedFrame& frame, uint64_t queueBytes) const;
    /**
     * Cut \p frame (ShouldTrim) to its headers, give it DSCP TrimPriority << 3 | TRIMMED_DSCP_BITS
     * (its class becomes TrimPriority) and count it on \p port. Its bytes, if written, are dropped
     * and rewritten from the new view when asked for.
     */
    void Trim(RoceParsedFrame& frame, uint32_t port);

    /**
     * \return whether trimmed frame \p frameBytes long may join the trimmed headers'
     * queue of egress port \p port, which holds \p queueBytes: within TrimQueueLimit.
     * A header refused is counted (GetTrimDropped); the switch drops it.
     */
    bool AdmitTrimmed(uint32_t port, uint64_t queueBytes, uint32_t frameBytes);
    /// \return the bound of the trimmed headers' queue, bytes (TrimQueueLimit resolved)
    uint64_t GetTrimQueueLimit() const;

    /// \return frames trimmed on egress port \p port
    uint64_t GetTrimmed(uint32_t port) const;
    /// \return trimmed headers dropped on egress port \p port (their queue was full)
    uint64_t GetTrimDropped(uint32_t port) const;
    /// \return frames trimmed on every port
    uint64_t GetTotalTrimmed() const;

  private:
    uint32_t m_threshold;                                     //!< TrimThreshold, bytes
    uint8_t m_priority;                                       //!< TrimPriority
    uint32_t m_trimQueueLimit;                                //!< TrimQueueLimit, bytes
    std::vector<uint64_t> m_trimmed;                          //!< per egress port
    std::vector<uint64_t> m_trimDropped;                      //!< per egress port
    TracedCallback<uint32_t, uint32_t, uint32_t> m_trimTrace; //!< Trim
};

} // namespace ns3

#endif // UET_TRIMMER_H
