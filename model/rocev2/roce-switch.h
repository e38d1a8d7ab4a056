/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_SWITCH_H
#define ROCE_SWITCH_H

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <vector>

namespace ns3
{

class RoceNetDevice;
class Packet;
class RouteTable;
class SharedBufferMmu;
class EcnMarker;
class EgressPortPolicy;
struct RoceFrameView;

/**
 * \ingroup ai-fabric
 * \brief A shared-buffer RoCEv2 switch: forwarding, 8 priority queues per port,
 * ingress PFC and egress ECN.
 *
 * Each frame is classified to a priority (802.1p if tagged, else DSCP / 8),
 * routed to one of the routing engine's candidate ports by the egress policy,
 * admitted by the shared-buffer MMU (which may drop lossy traffic and triggers
 * PFC XOFF/XON per ingress port and priority), queued, and marked CE at dequeue
 * with the RED-style probability of the egress queue's depth (DCQCN's CP).
 * Frames are forwarded with their headers untouched except the ECN bits; the
 * TTL is not decremented (routing is loop-free by construction).
 */
class RoceSwitch : public Object
{
  public:
    /// Drop trace: (switch node id, port, reason).
    typedef void (*DropTracedCallback)(uint32_t, uint32_t, const std::string&);
    /// Queue sample: (port, queue, bytes) — fired by SampleQueues.
    static TypeId GetTypeId();
    RoceSwitch();
    ~RoceSwitch() override;

    /// Ports are numbered in the order they are added (the topology's port numbers).
    void AddPort(Ptr<RoceNetDevice> device);
    void SetRouting(Ptr<const RouteTable> table, uint32_t graphNode);
    void SetEgressPolicy(Ptr<EgressPortPolicy> policy);
    /// Configure the MMU and ECN markers once all ports are added.
    void Setup(uint32_t mtuFrameBytes);

    uint32_t GetNPorts() const;
    Ptr<RoceNetDevice> GetPort(uint32_t i) const;
    Ptr<SharedBufferMmu> GetMmu() const;
    uint32_t GetHashSeed() const;
    uint64_t GetQueueBytes(uint32_t port, uint8_t queue) const;
    uint32_t GetQueuePackets(uint32_t port, uint8_t queue) const;

    uint64_t GetLosslessDrops() const;
    uint64_t GetLossyDrops() const;
    uint64_t GetEcnMarks() const;
    uint64_t GetForwarded() const;

    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    struct QueuedFrame
    {
        Ptr<Packet> packet;
        uint32_t bytes;
        uint16_t inPort;
        bool ect;
    };

    struct EgressPort
    {
        std::array<std::deque<QueuedFrame>, 8> queues;
        std::array<uint64_t, 8> bytes{};
        std::array<int64_t, 8> deficit{};
        uint8_t dwrrNext{0};
    };

    void ReceiveFrame(Ptr<RoceNetDevice> dev, Ptr<Packet> p, const RoceFrameView& view);
    Ptr<Packet> Dequeue(Ptr<RoceNetDevice> dev, uint8_t pausedMask);
    int PickQueue(EgressPort& port, uint8_t pausedMask);
    void Drop(uint32_t port, const char* reason, bool lossless);

    std::vector<Ptr<RoceNetDevice>> m_ports;
    std::vector<EgressPort> m_egress;
    std::vector<Ptr<EcnMarker>> m_ecn; //!< per port
    Ptr<const RouteTable> m_routes;
    uint32_t m_graphNode;
    Ptr<EgressPortPolicy> m_policy;
    Ptr<UniformRandomVariable> m_uniform;

    // Attributes
    Ptr<SharedBufferMmu> m_mmu;
    bool m_ecnEnabled;
    bool m_dwrr;
    uint32_t m_hashSeed;
    uint32_t m_dwrrQuantum;

    uint64_t m_losslessDrops;
    uint64_t m_lossyDrops;
    uint64_t m_ecnMarks;
    uint64_t m_forwarded;

    TracedCallback<uint32_t, uint32_t, const std::string&> m_dropTrace;
};

} // namespace ns3

#endif // ROCE_SWITCH_H
