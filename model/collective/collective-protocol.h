/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_PROTOCOL_H
#define COLLECTIVE_PROTOCOL_H

#include "ns3/data-rate.h"
#include "ns3/nccl-tuning-model.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief What one of NCCL's protocols (LL, LL128, Simple) changes on the wire: the
 * bytes a message carries for its payload, the step a channel moves at a time and
 * the fixed time each step costs beyond the wire.
 *
 * NCCL moves a collective's data through per-connection buffers of NCCL_STEPS (8)
 * slots. LL writes 16-byte lines of 8 data bytes and two 4-byte flags the receiver
 * polls (2 wire bytes per payload byte); LL128 writes 128-byte lines of 120 data bytes
 * and one 8-byte flag, a warp's 16 lines (2048 bytes) at a time; Simple writes the
 * data itself and signals it with a separate fence and flag. A message of P payload
 * bytes therefore carries ceil(P / LineDataBytes) x LineBytes wire bytes, and a step
 * (one slot of the buffer) carries BufferBytes / NCCL_STEPS wire bytes, that is
 * GetStepBytes() of payload, which is the chunk CollectiveAlgorithm pipelines.
 *
 * The step latencies are what a step costs beyond moving its bytes, on a network hop
 * and on a hop inside a server (the scale-up domain). They are differences in NCCL
 * 2.30.7's own model (src/graph/tuning.cc, hwLat of the ring, per hop): LL's figure
 * (2.7 us on the network, 0.6 us on NVLink), the bare write and the flag poll, is what
 * a packet-level simulation already simulates; each other protocol adds its excess
 * over LL (Simple: fence, proxy and GPUDirect flush, 14 - 2.7 = 11.3 us on the network,
 * 3.4 - 0.6 = 2.8 us on NVLink; LL128: 4.0 - 2.7 and 1.9 - 0.6 = 1.3 us). The
 * executor adds them at the receiver, between a transfer's delivery and its
 * completion, when the caller asks for them (CollectiveAlgorithm::SetProtocol).
 *
 * The base latencies are what one call costs before its first step moves: NCCL
 * 2.30.7's baseLat per algorithm and protocol (src/graph/tuning.cc: the kernel launch,
 * the work's setup and the first flag handshakes), which no packet carries. The
 * executor delays an operation's first transfers by GetBaseLatency of its algorithm
 * (NCCL's tree figure for the tree, its ring figure for every other schedule).
 *
 * The channel step time is what one channel's thread block spends on a step that
 * carries lines, whatever the wire: NCCL runs a channel's steps one after another in
 * one block (src/device/prims_ll.h: poll the lines, reduce, store them to the next
 * GPU, then the barriers and the FIFO head update before the next step), so a rank
 * cannot finish two such steps of one channel closer than this. A step without lines
 * (an empty chunk: nelem <= 0) polls nothing and is not bounded. Only LL declares it
 * (its per-step figure in NCCL's model, 0.6 us on NVLink); 0 = no bound.
 *
 * One subclass per protocol (NcclLlProtocol, NcclLl128Protocol, NcclSimpleProtocol),
 * each with its defaults as attributes; Create(name) makes one by NCCL_PROTO's name.
 */
class CollectiveProtocol : public Object
{
  public:
    /// NCCL_STEPS (src/include/device.h): slots of a connection's buffer.
    static constexpr uint32_t STEPS = 8;

    static TypeId GetTypeId();
    CollectiveProtocol();
    ~CollectiveProtocol() override;

    /**
     * \param name "ll", "ll128" or "simple" (NCCL_PROTO's names, lower case)
     * \return a new protocol object with its attributes' defaults
     * \throws std::invalid_argument naming the value and the allowed names
     */
    static Ptr<CollectiveProtocol> Create(const std::string& name);
    /// \return "ll", "ll128", "simple"
    static std::vector<std::string> GetNames();

    /// \return the protocol (the tuning model's enumerator)
    virtual NcclProtocol GetProtocol() const = 0;
    /// \return NcclProtocolToString(GetProtocol())
    std::string GetName() const;
    /// \return the wire bytes of a message of \p payload bytes (0 for 0)
    uint64_t GetWireBytes(uint64_t payload) const;
    /// \return wire bytes per payload byte of whole lines (LineBytes / LineDataBytes)
    double GetWireFactor() const;
    /// \return payload bytes of one step: BufferBytes / STEPS in whole lines, their data
    uint32_t GetStepBytes() const;
    /**
     * \param network true for a step between servers, false inside one
     * \return the step's fixed cost beyond its bytes
     */
    Time GetStepLatency(bool network) const;
    /**
     * \param algorithm NCCL's algorithm (TREE: the tree's figure; any other: the ring's)
     * \return the fixed cost of one call before its first step (NCCL's baseLat)
     */
    Time GetBaseLatency(NcclAlgorithm algorithm) const;
    /// \return true if a channel's steps are bounded (ChannelStepTime or ChannelLineRate)
    bool HasChannelStepTime() const;
    /**
     * \param wireBytes the step's bytes on the wire (lines)
     * \return the least time one channel's block spends on the step: ChannelStepTime
     * plus the lines at ChannelLineRate (0 for a step without lines)
     */
    Time GetChannelStepTime(uint64_t wireBytes) const;

  protected:
    uint32_t m_lineBytes{1};     //!< wire bytes of one line (the unit written)
    uint32_t m_lineDataBytes{1}; //!< payload bytes one line carries
    uint32_t m_bufferBytes{0};   //!< wire bytes of a connection's buffer (STEPS slots)
    Time m_networkLatency;       //!< per network step, beyond its bytes
    Time m_scaleUpLatency;       //!< per step inside a server, beyond its bytes
    Time m_ringBaseLatency;      //!< per call of the ring (and other schedules)
    Time m_treeBaseLatency;      //!< per call of the tree
    Time m_channelStepTime;      //!< a channel's least time per step with lines
    DataRate m_channelLineRate;  //!< lines one channel's block writes per second (0: no bound)
};

} // namespace ns3

#endif // COLLECTIVE_PROTOCOL_H
