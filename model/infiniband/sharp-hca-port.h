/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHARP_HCA_PORT_H
#define SHARP_HCA_PORT_H

#include "ib-frame.h"
#include "ib-net-device.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>

namespace ns3
{

class IbHca;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief A host's SHARP endpoint on its HCA port: sends the AGGREGATE frames of its
 * reductions to its parent in the tree and collects the RESULT frames that come back
 * (what the SHARP library and the ConnectX HCA do for NCCL's CollNet).
 *
 * Attach puts it in front of the HCA on the port (IbNetDevice's callbacks): SHARP frames
 * (BTH opcode SharpHeader::OPCODE) are its own, every other packet goes to the HCA, and
 * on the wire its frames take turns with the HCA's packets on their VL, packet by packet.
 * SendOperation queues an operation of a tree; operations go in the order queued and at
 * most a window of payload bytes per tree is outstanding (sent, its result not all back):
 * the Aggregation Manager's quota, so that the switches' aggregation buffers never
 * overflow. Frames (at most the HCA's MTU of payload each) are built when the port pulls
 * them. The result callback fires when every RESULT frame of an operation is in. Nothing
 * is attached unless a SHARP tree uses the host: a host without it pays nothing.
 */
class SharpHcaPort : public Object
{
  public:
    /// (host, tree, epoch, operation): the operation's result is all in
    typedef Callback<void, uint32_t, uint16_t, uint16_t, uint32_t> ResultCallback;

    static TypeId GetTypeId();
    SharpHcaPort();
    ~SharpHcaPort() override;

    /// Take over \p hca's port.
    void Attach(Ptr<IbHca> hca);
    /**
     * Join \p tree: frames go to \p parentLid; at most \p windowBytes of payload
     * outstanding; \p cb gets the results.
     */
    void JoinTree(uint16_t tree, uint16_t parentLid, uint64_t windowBytes, ResultCallback cb);
    /// Leave \p tree (its operations must be done).
    void LeaveTree(uint16_t tree);
    /// Queue operation \p operation of \p tree, epoch \p epoch: \p bytes of payload (at
    /// least one frame, even of 0 bytes).
    void SendOperation(uint16_t tree, uint16_t epoch, uint32_t operation, uint64_t bytes);

    uint64_t GetFramesSent() const;     //!< \return SHARP frames sent
    uint64_t GetFramesReceived() const; //!< \return SHARP frames received
    /// \return the most payload bytes outstanding at once on any tree
    uint64_t GetPeakOutstanding() const;

  protected:
    void DoDispose() override;

  private:
    /// An operation queued or being sent.
    struct Operation
    {
        uint16_t epoch;
        uint32_t operation;
        uint64_t bytes;     //!< payload
        uint16_t frames;    //!< frames of it
        uint16_t next{0};   //!< next frame to build
        uint64_t remaining; //!< payload not yet framed
    };

    /// One tree this host is a leaf of.
    struct Tree
    {
        uint16_t parentLid{0};
        uint64_t window{0};
        uint64_t outstanding{0};     //!< payload bytes admitted, results not all in
        std::deque<Operation> queue; //!< not yet all sent, in order
        size_t admitted{0};          //!< admitted operations at the front of queue (not all sent)
        std::unordered_map<uint64_t, uint64_t> inFlight; //!< (epoch, op) -> bytes
        ResultCallback cb;
    };

    uint32_t Head(Ptr<IbNetDevice> dev, uint8_t vl);
    Ptr<Packet> Dequeue(Ptr<IbNetDevice> dev, uint8_t vl);
    void Receive(Ptr<IbNetDevice> dev, Ptr<Packet> p, const IbFrameView& v, Time txIn);
    /// A RESULT frame whose tail is in.
    void Process(Ptr<Packet> p, uint8_t vl, uint32_t blocks);
    /// Admit \p t's queued operations within its window.
    void Admit(Tree& t);
    /// Build the next frame into m_staged (if a tree has one to send).
    void Stage();

    Ptr<IbHca> m_hca;
    Ptr<IbNetDevice> m_device;
    IbNetDevice::HeadCallback m_innerHead;
    IbNetDevice::DequeueCallback m_innerDequeue;
    IbNetDevice::FrameCallback m_innerFrame;
    uint32_t m_host{0};
    uint16_t m_lid{0};
    uint32_t m_mtu{0};
    uint8_t m_vl{0};
    std::map<uint16_t, Tree> m_trees;                 //!< ordered: frames go round robin by tree id
    uint16_t m_lastTree{0};                           //!< the tree whose frame went last
    Ptr<Packet> m_staged;                             //!< the next SHARP frame, built
    bool m_myTurn{false};                             //!< the next frame is ours if both wait
    std::unordered_map<uint64_t, uint32_t> m_arrived; //!< (tree, epoch, op) -> frames in
    uint64_t m_sent{0};
    uint64_t m_received{0};
    uint64_t m_peakOutstanding{0};
};

} // namespace ns3

#endif // SHARP_HCA_PORT_H
