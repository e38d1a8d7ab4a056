/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NVLS_GPU_PORT_H
#define NVLS_GPU_PORT_H

#include "roce-net-device.h"
#include "roce-nic.h"
#include "roce-port-owner.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/roce-frame.h"

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A GPU's NVLS engine on its scale-up cable: sends and receives the NVLS frames
 * (NvlsHeader) of in-switch reductions and multicasts, sharing the GPU's one port with
 * its RDMA NIC.
 *
 * Attach puts it in front of the NIC as the port's owner (RocePortOwner): received
 * frames of EtherType NvlsHeader::ETHERTYPE are its own, every other frame goes to the
 * NIC; when the wire is free it takes turns with the NIC frame by frame. SendSlice
 * queues a slice (contributions and multicasts in two queues that take turns); its frames (payload
 * at most the NIC's MTU, Ethernet with an 802.1Q tag of Priority for contributions and
 * MulticastPriority for multicasts, then the 16-byte NvlsHeader) are
 * built when the port pulls them, so a queued slice costs no packets. A priority the crossbar
 * pauses (PFC: its NVLS engine's buffer) holds them. The slice callback fires when every frame of a
 * slice (a switch's RESULT or MULTICAST) has arrived here. Nothing is attached unless NVLS is used:
 * a GPU without it pays nothing.
 */
class NvlsGpuPort : public Object, public RocePortOwner
{
  public:
    /// (host index, kind, group, slice) a whole slice arrived
    typedef Callback<void, uint32_t, uint8_t, uint16_t, uint32_t> SliceCallback;

    static TypeId GetTypeId();
    NvlsGpuPort();
    ~NvlsGpuPort() override;

    /// Take over \p nic's port (the NIC keeps its frames through this).
    void Attach(Ptr<RoceNic> nic);
    /// \param cb called for every slice that arrived whole
    void SetSliceCallback(SliceCallback cb);

    /**
     * Queue a slice of \p bytes (at least one frame, even of 0 bytes).
     * \param kind NvlsHeader::CONTRIBUTION or MULTICAST
     * \param group the crossbar's group
     * \param slice the slice
     * \param owner host index of its owner
     * \param members the group's size
     * \param bytes payload bytes
     */
    void SendSlice(uint8_t kind,
                   uint16_t group,
                   uint32_t slice,
                   uint16_t owner,
                   uint8_t members,
                   uint64_t bytes);

    /// \return the class of contributions (attribute Priority)
    uint8_t GetPriority() const;
    /// \return the class of multicasts (attribute MulticastPriority)
    uint8_t GetMulticastPriority() const;
    uint64_t GetFramesSent() const;     //!< \return NVLS frames sent
    uint64_t GetFramesReceived() const; //!< \return NVLS frames received

    // RocePortOwner
    bool DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame) override;
    bool HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const override;
    void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) override;
    bool SendPacket(RoceNetDevice& dev, Ptr<Packet> packet, uint16_t protocol) override;

  protected:
    void DoDispose() override;

  private:
    /// A slice waiting for the wire: its frames are built one at a time.
    struct Pending
    {
        uint8_t kind;       //!< NvlsHeader kind
        uint8_t members;    //!< group size
        uint16_t group;     //!< group
        uint32_t slice;     //!< slice
        uint16_t owner;     //!< owner host
        uint16_t frames;    //!< frames of the slice
        uint16_t next;      //!< next frame to build
        uint64_t remaining; //!< payload bytes not yet framed
    };

    /// \return queue \p q's frames may go now (its class not paused)
    bool QueueReady(uint8_t q, uint8_t pausedMask) const
    {
        return !m_pending[q].empty() && ((pausedMask >> ClassOf(q)) & 1) == 0;
    }

    /// \return the class of queue \p q's frames
    uint8_t ClassOf(uint8_t q) const
    {
        return q == 0 ? m_priority : m_multicastPriority;
    }

    /// \return whether a frame of ours may go now
    bool Ready(uint8_t pausedMask) const
    {
        return QueueReady(0, pausedMask) || QueueReady(1, pausedMask);
    }

    /// Build the next frame of the first pending slice of a ready queue into \p frame.
    void BuildNext(uint8_t pausedMask, RoceParsedFrame& frame);

    Ptr<RoceNic> m_nic;
    RocePortOwner* m_inner{nullptr}; //!< the NIC, as its port's owner
    Ptr<RoceNetDevice> m_device;
    uint32_t m_host{0};
    uint32_t m_mtu{0};
    uint8_t m_priority{4};          //!< attribute Priority
    uint8_t m_multicastPriority{5}; //!< attribute MulticastPriority
    bool m_myTurn{false};           //!< the next frame is ours if both wait
    /// Slices to send, in order: [0] contributions, [1] multicasts. The two take turns
    /// frame by frame, as NCCL's reduce-and-multicast warps run beside its contributions:
    /// a sum is written back while later contributions still go out.
    std::deque<Pending> m_pending[2];
    uint8_t m_nextQueue{0}; //!< the queue whose turn it is when both wait
    /// (kind, group, slice) -> frames arrived
    std::unordered_map<uint64_t, uint32_t> m_arrived;
    SliceCallback m_sliceCallback;
    uint64_t m_sent{0};
    uint64_t m_received{0};
};

} // namespace ns3

#endif // NVLS_GPU_PORT_H
