/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHARP_AGGREGATION_ENGINE_H
#define SHARP_AGGREGATION_ENGINE_H

#include "ib-frame.h"
#include "ib-net-device.h"
#include "sharp-header.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class IbSwitch;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief A SHARP aggregation node (NVIDIA's Scalable Hierarchical Aggregation and
 * Reduction Protocol, streaming aggregation) in an InfiniBand switch: it sums the
 * AGGREGATE frames of its children in a reduction tree and sends one frame up; the
 * root turns the sum around and every node replicates the RESULT frames down.
 *
 * Attach puts it in front of the switch on every port (IbNetDevice's callbacks): SHARP
 * frames (BTH opcode SharpHeader::OPCODE) are its own, every other packet goes to the
 * switch as before, and on the wire its frames take turns with the switch's on their VL.
 * The Aggregation Manager (AggregationManager) gives it its place in each tree (AddTree:
 * the parent port, or none at the root, and the child ports).
 *
 * State machine, per (tree, epoch, operation) an aggregation entry with a count per
 * frame. An AGGREGATE frame from a child is processed when its tail is in and
 * AggregationLatency has passed (the ALU reads the whole payload); its payload is summed
 * into the entry (the frame's input buffer is freed, its credits go back). When a frame's
 * count reaches the node's children its sum leaves: up to the parent as one AGGREGATE
 * frame, or, at the root, down to every child as a RESULT frame. A RESULT frame from the
 * parent is replicated to every child; its input buffer is freed when the last copy has
 * left. An entry's frame holds its payload bytes of the aggregation buffer from its
 * first contribution until its sum (every copy) has left the switch; the peak is
 * reported (GetPeakBufferBytes). The hosts keep within the tree's share of BufferBytes
 * (SharpHcaPort's window, which the Aggregation Manager sets to BufferBytes / MaxTrees),
 * as SHARP's hosts keep within the outstanding operations the manager gives their job.
 *
 * A server's crossbar (GPU servers) holds an engine too, as the relay between GPU j and
 * its NIC j (crossbar uplink j): one child, so each frame is forwarded as it is.
 */
class SharpAggregationEngine : public Object
{
  public:
    /// AddTree's parent port of the root
    static constexpr uint32_t NO_PARENT = 0xFFFFFFFFu;
    /// Signature of the OperationReduced trace: (tree, epoch, operation)
    typedef void (*OperationReducedCallback)(uint16_t tree, uint16_t epoch, uint32_t operation);

    static TypeId GetTypeId();
    SharpAggregationEngine();
    ~SharpAggregationEngine() override;

    /// Stand in front of \p sw on all its ports; \p lid is the switch's LID (the SLID of
    /// its frames)
    void Attach(Ptr<IbSwitch> sw, uint16_t lid);
    /// \return whether Attach was called
    bool IsAttached() const;
    /**
     * This switch's place in \p tree.
     * \param tree the tree's id
     * \param parentPort the port towards the parent, or NO_PARENT at the root
     * \param parentLid the parent's LID (the DLID of frames going up)
     * \param childPorts the ports towards the children
     * \param childLids their LIDs (the DLIDs of frames going down)
     */
    void AddTree(uint16_t tree,
                 uint32_t parentPort,
                 uint16_t parentLid,
                 const std::vector<uint32_t>& childPorts,
                 const std::vector<uint16_t>& childLids);
    /// Forget \p tree (the Aggregation Manager freed it).
    void RemoveTree(uint16_t tree);

    uint32_t GetMaxTrees() const;        //!< \return attribute MaxTrees
    uint64_t GetBufferBytes() const;     //!< \return attribute BufferBytes
    uint32_t GetTrees() const;           //!< \return trees this switch is a node of now
    uint64_t GetAggregated() const;      //!< \return AGGREGATE frames absorbed
    uint64_t GetSentUp() const;          //!< \return AGGREGATE frames sent to a parent
    uint64_t GetResultCopies() const;    //!< \return RESULT frames sent to children
    uint64_t GetOpenEntries() const;     //!< \return aggregation entries open now
    uint64_t GetPeakBufferBytes() const; //!< \return most aggregation buffer bytes held
    uint64_t GetBufferInUse() const;     //!< \return aggregation buffer bytes held now

  protected:
    void DoDispose() override;

  private:
    /// This switch's place in one tree.
    struct TreeNode
    {
        uint32_t parentPort{NO_PARENT};
        uint16_t parentLid{0};
        std::vector<uint32_t> childPorts;
        std::vector<uint16_t> childLids;
    };

    /// One (tree, epoch, operation) being reduced.
    struct Entry
    {
        std::vector<uint16_t> count; //!< per frame: contributions in
        uint32_t done{0};            //!< frames whose sum has left (been queued)
    };

    /// What frees when a frame's last copy has left.
    struct Hold
    {
        uint32_t copies{0}; //!< copies still queued
        uint64_t buffer{0}; //!< aggregation buffer bytes to free
        uint32_t inPort{0}; //!< input port whose blocks to free (RESULT relays)
        uint8_t inVl{0};    //!< their VL
        uint32_t blocks{0}; //!< blocks to free (0: none)
    };

    /// A frame waiting for its port.
    struct Out
    {
        Ptr<Packet> packet; //!< the frame
        uint64_t hold;      //!< its Hold
    };

    uint32_t Head(Ptr<IbNetDevice> dev, uint8_t vl);
    Ptr<Packet> Dequeue(Ptr<IbNetDevice> dev, uint8_t vl);
    void Receive(Ptr<IbNetDevice> dev, Ptr<Packet> p, const IbFrameView& v, Time txIn);
    /// A SHARP frame whose tail is in and whose latency has passed.
    void Process(uint32_t inPort, Ptr<Packet> p, uint8_t vl, uint32_t blocks);
    /// Queue a frame with header \p h (its payload bytes after it) to \p dlid out of
    /// \p port, freeing \p hold when it leaves.
    void Emit(uint32_t port, uint16_t dlid, const SharpHeader& h, uint64_t hold);

    Ptr<IbSwitch> m_switch;
    uint16_t m_lid{0};
    std::vector<Ptr<IbNetDevice>> m_ports;
    std::vector<IbNetDevice::HeadCallback> m_innerHead;       //!< the switch's, by port
    std::vector<IbNetDevice::DequeueCallback> m_innerDequeue; //!< the switch's, by port
    std::vector<IbNetDevice::FrameCallback> m_innerFrame;     //!< the switch's, by port
    std::vector<std::deque<Out>> m_out;                       //!< SHARP frames, by port
    std::vector<uint8_t> m_myTurn; //!< by port: the next frame is ours if both wait
    std::unordered_map<uint16_t, TreeNode> m_trees;
    std::unordered_map<uint64_t, Entry> m_entries; //!< (tree, epoch, operation) -> entry
    std::unordered_map<uint64_t, Hold> m_holds;
    uint64_t m_nextHold{1};
    uint32_t m_maxTrees; //!< attribute MaxTrees
    uint64_t m_buffer;   //!< attribute BufferBytes
    Time m_latency;      //!< attribute AggregationLatency (0: the switch's)
    uint8_t m_vl{0};     //!< the VL of SHARP frames
    uint64_t m_bufferInUse{0};
    uint64_t m_peakBuffer{0};
    uint64_t m_aggregated{0};
    uint64_t m_sentUp{0};
    uint64_t m_resultCopies{0};
    TracedCallback<uint16_t, uint16_t, uint32_t> m_reducedTrace; //!< OperationReduced
};

} // namespace ns3

#endif // SHARP_AGGREGATION_ENGINE_H
