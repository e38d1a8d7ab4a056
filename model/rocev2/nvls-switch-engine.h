/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NVLS_SWITCH_ENGINE_H
#define NVLS_SWITCH_ENGINE_H

#include "roce-net-device.h"
#include "roce-port-owner.h"
#include "roce-switch.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/roce-frame.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief In-switch reduction and multicast (NVIDIA's NVLink SHARP, which NCCL's NVLS
 * algorithm uses) in a server's scale-up crossbar.
 *
 * Attach puts it in front of the crossbar's switch as the owner of the ports that face
 * GPUs: NVLS frames (EtherType NvlsHeader::ETHERTYPE) are its own, every other frame goes
 * to the switch, and on the wire its frames take turns with the switch's.
 *
 * State machine, per (group, slice) an aggregation entry: a CONTRIBUTION frame adds one
 * to its frame's count (the payload is summed into the entry's accumulator, so the
 * frame's buffer is free at once); when a frame's count reaches the group's size its
 * RESULT frame (the sum, same size) goes to the slice's owner, ProcessingDelay later;
 * the entry is removed when its last frame's result has gone. A MULTICAST frame from an
 * owner is replicated, ProcessingDelay later, to every member's port (the owner's too,
 * as NVLink multicast stores write every member's memory). This is NCCL's NVLS
 * allreduce in one server (src/device/all_reduce.h, NCCL_ALGO_NVLS, oneNode): the
 * owner of each slice reduces it with multimem.ld_reduce (the switch sums the members'
 * copies) and writes the sum back with multimem.st (the switch replicates it).
 *
 * Output: per port a queue of frames; an NVLS frame leaves a port at most at
 * Efficiency x the port's rate. Queued frames count against the port and class they came
 * in by (a result against its last contribution's, a copy against its multicast's);
 * above PauseBytes that class of that port is paused (PFC), below half of it resumed.
 * Contributions and multicasts travel in classes of their own (NvlsGpuPort), so a head
 * paused for its copies keeps sending contributions. Nothing is dropped.
 */
class NvlsSwitchEngine : public Object, public RocePortOwner
{
  public:
    /// Signature of the SliceReduced trace: (group, slice)
    typedef void (*SliceReducedCallback)(uint16_t group, uint32_t slice);

    static TypeId GetTypeId();
    NvlsSwitchEngine();
    ~NvlsSwitchEngine() override;

    /**
     * Stand in front of \p sw on its ports \p gpuPorts (those with a GPU at the other
     * end); the switch keeps every frame that is not NVLS.
     */
    void Attach(Ptr<RoceSwitch> sw, const std::vector<uint32_t>& gpuPorts);
    /**
     * A multicast group: its members' host indices and the crossbar port of each.
     * \return its id (NvlsHeader group)
     */
    uint16_t AddGroup(const std::vector<uint32_t>& hosts, const std::vector<uint32_t>& ports);

    uint64_t GetContributions() const;   //!< \return CONTRIBUTION frames absorbed
    uint64_t GetResults() const;         //!< \return RESULT frames sent
    uint64_t GetMulticastCopies() const; //!< \return frames sent as multicast copies
    uint64_t GetOpenEntries() const;     //!< \return aggregation entries now open
    uint64_t GetPeakEntries() const;     //!< \return most entries open at once

    // RocePortOwner
    bool DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame) override;
    bool HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const override;
    void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) override;

  protected:
    void DoDispose() override;

  private:
    /// One (group, slice) being reduced.
    struct Entry
    {
        std::vector<uint8_t> count; //!< per frame: contributions in
        uint32_t done{0};           //!< frames whose result has gone
    };

    /// A frame waiting for its port, charged to the port and class it came in by.
    struct Out
    {
        RoceParsedFrame frame; //!< the frame
        uint32_t charge;       //!< the port whose NVLS buffer it occupies
        uint8_t prio;          //!< the class it came in by
    };

    /// One GPU-facing port.
    struct Port
    {
        Ptr<RoceNetDevice> dev;            //!< null: not ours
        std::deque<Out> queue;             //!< NVLS frames to send
        int64_t nextTicks{0};              //!< earliest start of its next NVLS frame
        std::array<uint64_t, 8> charged{}; //!< per class: bytes queued that came in here
        bool myTurn{false};                //!< the next frame is ours if both wait
        uint8_t pausing{0};                //!< classes of its peer this engine pauses
    };

    /// One group.
    struct Group
    {
        std::vector<uint32_t> ports;                 //!< its members' ports
        std::unordered_map<uint32_t, uint32_t> port; //!< host -> port
    };

    bool Ready(const Port& p, uint8_t pausedMask) const;
    void Take(Port& p, RoceParsedFrame& frame);
    /// Every member's port (Emit's port)
    static constexpr uint32_t ALL_MEMBERS = 0xFFFFFFFFu;
    /**
     * Queue \p packet on \p port (ALL_MEMBERS: a copy on each port of \p group), ready
     * ProcessingDelay from now, charged to class \p prio of \p charge until it leaves.
     */
    void Emit(uint16_t group, uint32_t port, Ptr<Packet> packet, uint32_t charge, uint8_t prio);
    /// Add \p bytes to what class \p prio of \p port holds; pause or resume it.
    void Charge(uint32_t port, uint8_t prio, int64_t bytes);

    Ptr<RoceSwitch> m_switch;
    RocePortOwner* m_inner{nullptr}; //!< the switch, as its ports' owner
    std::vector<Port> m_ports;       //!< by switch port
    std::vector<Group> m_groups;
    std::unordered_map<uint64_t, Entry> m_entries; //!< (group, slice) -> entry
    double m_efficiency;                           //!< attribute Efficiency
    Time m_delay;                                  //!< attribute ProcessingDelay
    uint64_t m_pauseBytes;                         //!< attribute PauseBytes
    uint64_t m_contributions{0};
    uint64_t m_results{0};
    uint64_t m_copies{0};
    uint64_t m_peakEntries{0};
    TracedCallback<uint16_t, uint32_t> m_sliceReducedTrace; //!< (group, slice) all results out
};

} // namespace ns3

#endif // NVLS_SWITCH_ENGINE_H
