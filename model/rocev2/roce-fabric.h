/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_FABRIC_H
#define ROCE_FABRIC_H

#include "ns3/callback.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-fabric.h"
#include "ns3/topology-graph.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RoceNic;
class RoceSwitch;
class RoceNetDevice;
class RdmaQueuePair;
class RouteTable;
struct RdmaMessage;

/**
 * \ingroup ai-fabric
 * \brief A RoCEv2 fabric installed on a topology graph: nodes, ports, cables,
 * NICs and switches, plus the queue-pair connections the workloads use.
 *
 * Built by RoceFabricHelper. Applications post messages host to host; the
 * fabric creates (once) the RC queue pair between two hosts, with its
 * congestion controller, and reports each message's completion with its
 * flow-completion time and the ideal (unloaded) time on its path.
 */
class RoceFabric : public RdmaFabric
{
  public:
    static TypeId GetTypeId();
    RoceFabric();
    ~RoceFabric() override;

    Ptr<const RouteTable> GetRoutes() const override;
    Ptr<RoceNic> GetNic(uint32_t host) const;
    const std::vector<Ptr<RoceSwitch>>& GetSwitches() const;
    std::vector<Ptr<RoceNetDevice>> GetAllDevices() const;

    /// RDMA traffic class (priority) of new queue pairs.
    void SetPriority(uint8_t priority);
    /// Priority (0..6) of the queue pairs between \p src and \p dst (a job's class).
    void SetPairClass(uint32_t src, uint32_t dst, uint8_t trafficClass) override;

    /// RdmaFabric::GetPathHops; aborts for a route of 64 switches or more (the TTL).
    uint32_t GetPathHops(uint32_t src, uint32_t dst) const override;

    Counters GetCounters() const override;
    PortTx GetPortTx(uint32_t node, uint32_t port) const override;
    void CollectStalledQueues(int64_t stallTicks, WaitForGraph& graph) override;
    /// Every NIC's IpPriority becomes \p trafficClass (0..7): the NICs always carry IP.
    void EnableIp(uint8_t trafficClass) override;
    /// \return host \p host's NIC port
    Ptr<NetDevice> GetIpDevice(uint32_t host) const override;
    IpCounters GetIpCounters() const override;
    /// Switch ports whose PFC headroom (per lossless priority group) is below what
    /// arrives after XOFF (SharedBufferMmu::GetHeadroomNeeded): a lossless class drops.
    std::vector<BufferShortfall> GetBufferShortfalls() const override;

    /// LinkStateChange trace: (graph link id, true if it works again).
    typedef void (*LinkStateChangeCallback)(uint32_t link, bool up);
    /// RoutesConverged trace: (graph link id, true after it came back).
    typedef void (*RoutesConvergedCallback)(uint32_t link, bool up);

    /**
     * Fail a switch-to-switch cable at simulated time \p down (>= now) and, if \p up
     * is positive (> down), bring it back then. At \p down the cable carries nothing
     * either way: frames on it and queued for it at both ends are dropped (link_down),
     * no pause holds across it (RoceSwitch::SetPortDown, RoceNetDevice::SetLinkDown).
     * FailureDetectionTime later the two end switches notice (BFD) and choose among
     * their other candidates (RoceSwitch::SetPortExcluded); RouteConvergenceTime after
     * that every switch gets a route table recomputed without the cable (the routing
     * protocol has propagated the withdrawal). After \p up the same two delays
     * restore its use. Checked at once, as IbFabric::FailLink: the link exists, is not
     * a host cable, is not already failing, and the routing engine can route the graph
     * without it and the other failing links. Throws std::invalid_argument naming the
     * link and the reason.
     */
    void FailLink(uint32_t link, Time down, Time up = Time(-1)) override;
    /// \return GetNic(host)
    Ptr<RdmaNic> GetHostNic(uint32_t host) const override;
    /**
     * Host \p host's NIC stops taking frames of the routing classes' priorities (the
     * lossless ones under PFC: SetPriority's and the next GetNumClasses() - 1) from
     * \p start to \p end (RoceNic::SetReceiveStalled), so its port pauses its leaf.
     */
    void StallReceive(uint32_t host, Time start, Time end = Time(-1)) override;
    /// Every port of \p node: its device's Pfc trace, frames sent.
    void ConnectPfcSent(uint32_t node, PfcSentCallback cb) override;
    /// Every switch's Drop trace (link_down included: the switch drops them).
    void ConnectDrops(DropCallback cb) override;
    void EnableAttribution(Ptr<FctAttribution> attribution) override;
    /// Every switch's non-empty egress queues (RoceSwitch::GetQueueBytes).
    bool VisitSwitchQueues(const std::function<bool(uint32_t)>& nodes,
                           const QueueVisitor& visit) const override;

    /// pcap link type of the files EnablePcap writes: LINKTYPE_ETHERNET (1, DLT_EN10MB;
    /// tcpdump.org's list of link-layer header types), frames from the destination MAC
    /// on, without FCS.
    static constexpr uint32_t PCAP_LINK_TYPE = 1;
    /// Links are lossless when PFC is on (RoceNetDevice PfcEnabled of any port).
    bool HasLosslessLinks() const override;
    /// NVLink SHARP: every cable of every scale-up crossbar carries PFC at both ends (the
    /// pauses bound the crossbar's NvlsSwitchEngine buffer); false where PFC is off
    /// (PfcEnabled false: --pfc=0, UetFabricHelper's fabrics).
    bool HasNvlinkSharp() const override;
    /// The switches' classes (RoceSwitch::GetNumClasses: 1 with UseClassRule false).
    uint32_t GetSwitchClasses() const override;

  protected:
    void DoDispose() override;
    /**
     * The pcap of one port for RdmaFabric::EnablePcap: PCAP_LINK_TYPE, snapshot length
     * the PcapSnapLength attribute. A port records each frame it sends when its first
     * bit goes on the wire, and each frame it receives when its last bit has arrived,
     * PFC pause frames included.
     */
    void EnablePcapPort(const std::string& prefix, uint32_t node, uint32_t port) override;

  private:
    friend class RoceFabricHelper;

    /// The cable of failure \p i stops (false) or starts (true) carrying frames.
    void SetCableState(uint32_t i, bool up);
    /// Failure \p i's end switches notice its state (BFD).
    void DetectCableState(uint32_t i, bool up);
    /// \return true if failure \p r's cable carries frames now (it came back)
    static bool IsCableUpNow(const LinkFailureRecord& r);
    /// Every switch gets routes computed on the graph with failure \p i's cable as it is.
    void ConvergeRoutes(uint32_t i, bool up);
    /// The switch at graph node \p node, or null for a host.
    RoceSwitch* SwitchAt(uint32_t node) const;
    /// RdmaFabric::FailHost's cut: each cable of the host is down at both ends
    /// (RoceSwitch::SetPortDown, RoceNetDevice::SetLinkDown), for good.
    void CutHostCables(uint32_t host) override;
    /// The first ECMP candidate of switch \p node towards host \p dst (RouteTable).
    uint32_t GetRoutedPort(uint32_t node, uint32_t dst) const override;

    /// The RC queue pairs of a connection on the two NICs: the pair's priority
    /// (SetPairClass, else SetPriority's) and the connection's entropy (UDP source port).
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(uint32_t src,
                                                              uint32_t dst,
                                                              uint32_t connection) override;
    HostPort GetHostPort(uint32_t host) const override;

    Ptr<const RouteTable> m_routes;
    std::vector<Ptr<RoceNic>> m_nics;                       //!< by host index
    std::vector<Ptr<RoceSwitch>> m_switches;                //!< in graph switch order
    std::vector<std::vector<Ptr<RoceNetDevice>>> m_devices; //!< by graph node, port
    uint8_t m_priority;
    std::vector<const RoceSwitch*> m_switchOfNode;         //!< by graph node (null for hosts)
    Time m_detectionTime;                                  //!< Attribute FailureDetectionTime
    Time m_convergenceTime;                                //!< Attribute RouteConvergenceTime
    bool m_symmetricEntropy{false};                        //!< Attribute SymmetricEntropy
    TracedCallback<uint32_t, bool> m_linkStateTrace;       //!< (link, up)
    TracedCallback<uint32_t, bool> m_routesConvergedTrace; //!< (link, up)
};

} // namespace ns3

#endif // ROCE_FABRIC_H
