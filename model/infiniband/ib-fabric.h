/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_FABRIC_H
#define IB_FABRIC_H

#include "ib-pcap-writer.h"
#include "subnet-manager.h"

#include "ns3/congestion-control-factory.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-fabric.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

class IbChannel;
class IbHca;
class IbSwitch;
class IbNetDevice;
class RdmaQueuePair;
struct RdmaMessage;

/**
 * \ingroup ai-fabric
 * \brief An InfiniBand fabric on a topology graph: HCAs, switches programmed by the
 * Subnet Manager, credit-based links; the same RdmaFabric interface as RoceFabric.
 *
 * Built by IbFabricHelper. One RC connection per host pair, created on first use,
 * on the fabric's service level (SetServiceLevel, or per pair SetPairServiceLevel).
 *
 * Link failures: FailLink(link, at) cuts a switch-to-switch cable at a simulated
 * time (IbChannel::Fail: what is on the cable is lost, the switches discard what
 * they queued for it and what their LFTs still send into it, as link-down drops).
 * SubnetManagerReactionTime later the Subnet Manager sweeps: it marks the failed
 * cables down in the graph, re-runs the same routing engine (which skips down
 * links) and reprograms every switch's LFT and adaptive set while the simulation
 * runs. The RC transport's NAK / timeout recovery resends what was lost. A cable that
 * comes back (FailLink(link, down, up)) is activated by the SM's next sweep, which
 * routes over it again.
 */
class IbFabric : public RdmaFabric
{
  public:
    /// LinkFailed trace: (graph link id).
    typedef void (*LinkFailedCallback)(uint32_t link);
    /// Rerouted trace: (re-route number from 1, LFT entries whose port changed).
    typedef void (*ReroutedCallback)(uint32_t reroute, uint32_t changedEntries);

    static TypeId GetTypeId();
    IbFabric();
    ~IbFabric() override;

    Ptr<const RouteTable> GetRoutes() const override;
    Ptr<IbHca> GetHca(uint32_t host) const;
    const std::vector<Ptr<IbSwitch>>& GetSwitches() const;
    Ptr<IbNetDevice> GetDevice(uint32_t node, uint32_t port) const;
    std::vector<Ptr<IbNetDevice>> GetAllDevices() const;
    Ptr<const SubnetManager> GetSubnetManager() const;
    /// \return the cable of a graph link
    Ptr<IbChannel> GetChannel(uint32_t link) const;

    /**
     * Fail a switch-to-switch cable at simulated time `at` (>= now). Checked at once:
     * the link exists, is not a host cable (that would cut the host off), is not
     * already failing, and the routing engine can still route the graph without it
     * (and without the other failing links). Throws std::invalid_argument naming the
     * link and the reason.
     */
    void FailLink(uint32_t link, Time at);
    /**
     * FailLink(link, down), and when \p up is not negative the cable trains again at
     * \p up: its ports wait in INIT until the Subnet Manager's sweep,
     * SubnetManagerReactionTime later, activates them (credits re-initialised, IbChannel::
     * Restore) and re-routes over it (RerouteOnLinkFailure).
     */
    void FailLink(uint32_t link, Time down, Time up) override;
    /// \return GetHca(host)
    Ptr<RdmaNic> GetHostNic(uint32_t host) const override;
    /// Refused (std::invalid_argument): InfiniBand links have no pause frames.
    void StallReceive(uint32_t host, Time start, Time end = Time(-1)) override;
    /// Every switch's Drop trace, and every port's LinkDownDrop (reason "link_down").
    void ConnectDrops(DropCallback cb) override;
    void EnableAttribution(Ptr<FctAttribution> attribution) override;

    /// What one port's LinkDownDrop connection of ConnectDrops calls (kept by the fabric).
    struct LinkDownSink
    {
        DropCallback cb; //!< ConnectDrops' callback
        uint32_t node;   //!< the port's graph node
        uint32_t port;   //!< and port
    };

    /// \return LFT entries changed by the Subnet Manager's re-routes so far
    uint64_t GetRerouteChangedEntries() const;
    /// \return Subnet Manager re-routes done so far
    uint32_t GetReroutes() const;
    /// Each failure: detected and converged when the SM's sweep reprogrammed the LFTs
    /// (the switches have no local repair); up is -1 (a failed cable stays down).

    /// pcap link type of the files EnablePcap writes with PcapFormat Raw:
    /// LINKTYPE_INFINIBAND (247, DLT_INFINIBAND; tcpdump.org's list of link-layer header
    /// types): raw InfiniBand packets from the Local Route Header on (IBTA Vol. 1
    /// chapter 5), here LRH, BTH, [RETH], [ImmDt], [AETH], payload and pad, ICRC, VCRC.
    /// With PcapFormat Erf (the default) the files are LINKTYPE_ERF (197) and each record
    /// is an ERF InfiniBand header (ErfHeader) before the same bytes (IbPcapWriter).
    static constexpr uint32_t PCAP_LINK_TYPE = 247;
    /// \return the link type of the files EnablePcap writes (PcapFormat: 197 or 247)
    uint32_t GetPcapLinkType() const;

    /// Service level of new connections (0..15). Throws std::invalid_argument under a
    /// routing with per-path SLs (dfsssp: the SM gives each direction its layer's SL).
    void SetServiceLevel(uint8_t sl);
    /// Service level of the connection src -> dst (before its first message); the same
    /// refusal.
    void SetPairServiceLevel(uint32_t src, uint32_t dst, uint8_t sl);
    /// SetPairServiceLevel both ways: the service level (0..15) of a job's connections.
    void SetPairClass(uint32_t src, uint32_t dst, uint8_t trafficClass) override;
    /**
     * The Subnet Manager assigns the partitions (SubnetManager::SetPartitions) and
     * programs every HCA port's P_Key table; each queue pair then carries its host's
     * P_Key in the BTH, and a port drops a packet of a partition it is not in
     * (IbHca::SetPKeyTable). Before the first message.
     */
    void AssignPartitions(const std::vector<uint16_t>& pKeys) override;
    /// The HCAs' P_Key violations, summed.
    uint64_t GetPKeyViolations() const override;
    /**
     * The Subnet Manager programs \p policy's VL arbitration tables into every port,
     * switch and HCA (VlArbiter tables and HighLimit). Before the first message.
     * \throws std::invalid_argument for a VL a port does not have (IbNetDevice
     *         NumDataVls), naming it
     */
    void ApplyQosPolicy(const IbQosPolicy& policy);

    Counters GetCounters() const override;
    PortTx GetPortTx(uint32_t node, uint32_t port) const override;
    /// Credit-starved switch outputs (no VL bytes sent between two calls, too few
    /// credits for the first packet, for stallTicks) and the input buffers they fill.
    void CollectStalledQueues(int64_t stallTicks, WaitForGraph& graph) override;
    std::string GetLaneName() const override;
    /// Ports whose VL buffer is below their link's credit round trip
    /// (IbNetDevice::GetCreditRoundTripBytes): such a link waits for credits.
    std::vector<BufferShortfall> GetBufferShortfalls() const override;

    /**
     * IP over InfiniBand (RFC 4391, datagram mode) on every host: an IpoibInterface
     * from \p factory (ns3::IpoibInterface) on each HCA (IbHca::EnableIpoib). Before
     * the hosts get their internet stack; ResolveIpNeighbours after their addresses.
     * \throws std::invalid_argument under a routing with per-path SLs (dfsssp), whose
     *         virtual layers one IPoIB SL would leave
     */
    void EnableIpoib(const ObjectFactory& factory);
    /// EnableIpoib with the IPoIB service level \p trafficClass (0..15).
    void EnableIp(uint8_t trafficClass) override;
    /// \return host \p host's HCA port, once IPoIB is enabled (null before)
    Ptr<NetDevice> GetIpDevice(uint32_t host) const override;
    /**
     * Fill every IPoIB interface's neighbour table with every other host's IPv4
     * address (its node's Ipv4, the interface of its HCA port), LID (the Subnet
     * Manager's) and IPoIB QPN: what ARP and the SA's path records resolve on a real
     * subnet. \throws std::invalid_argument if a host has no IPv4 address on that port
     */
    void ResolveIpNeighbours() override;
    IpCounters GetIpCounters() const override;

  protected:
    void DoDispose() override;
    /**
     * The pcap of one port for RdmaFabric::EnablePcap: GetPcapLinkType, PcapSnapLength
     * bytes of each packet. A port records each data packet it sends when its first bit
     * goes on the wire, and each it receives when its head arrives
     * (IbNetDevice::Receive), both as the packet's bytes are then (a switch's VL and FECN
     * rewrites show on its output). Link-layer flow-control packets are not written: the
     * model carries their fields, not packets, and both formats are for data packets,
     * which start with an LRH.
     */
    void EnablePcapPort(const std::string& prefix, uint32_t node, uint32_t port) override;

  private:
    friend class IbFabricHelper;

    /// \throws std::invalid_argument if \p sl is not 0..15 or the routing sets every
    ///         path's SL (dfsssp)
    void CheckServiceLevel(uint8_t sl) const;
    /// The RC queue pairs of a connection on the two HCAs, addressed by the SM's LIDs:
    /// the pair's SL (SetPairServiceLevel, else SetServiceLevel's; dfsssp: each path's)
    /// and, with partitions, each port's P_Key.
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(uint32_t src,
                                                              uint32_t dst,
                                                              uint32_t connection) override;
    HostPort GetHostPort(uint32_t host) const override;
    /// The LFT's port of switch \p node towards host \p dst (the Subnet Manager's).
    uint32_t GetRoutedPort(uint32_t node, uint32_t dst) const override;
    void DoFailLink(uint32_t link);
    /// RdmaFabric::FailHost's cut: each cable of the host fails (IbChannel::Fail), for
    /// good; the Subnet Manager's tables stay (the host's LID routes to a dead port).
    void CutHostCables(uint32_t host) override;
    /// The cable trains at its up time: the SM activates it after its reaction time.
    void DoRestoreLink(uint32_t link);
    /// The SM's sweep finds the trained ports: they become ACTIVE, routes are recomputed.
    void ActivateLink(uint32_t link);
    void SweepAfterFailure();

    Ptr<SubnetManager> m_sm;
    std::vector<Ptr<IbHca>> m_hcas;
    std::vector<Ptr<IbSwitch>> m_switches;
    std::vector<std::vector<Ptr<IbNetDevice>>> m_devices; //!< by node, port
    uint8_t m_sl;
    Time m_switchLatency;
    bool m_cutThrough;
    std::vector<Ptr<IbChannel>> m_channels; //!< by graph link
    Time m_smReactionTime;                  //!< Attribute
    bool m_reroute;                         //!< Attribute
    IbPcapWriter::Format m_pcapFormat;      //!< PcapFormat attribute
    uint32_t m_reroutes;
    uint64_t m_rerouteChanged;

    /// CollectStalledQueues' view of one switch output (port, VL) between calls.
    struct StallWatch
    {
        uint64_t txBytes{0};    //!< bytes the port had sent on the VL
        int64_t sinceTicks{-1}; //!< blocked without sending since (-1: not blocked)
    };

    std::vector<StallWatch> m_stallWatch;       //!< by m_watchBase[switch] + port * 16 + VL
    std::vector<uint32_t> m_watchBase;          //!< per switch: its first StallWatch
    std::vector<int32_t> m_switchOfNode;        //!< by graph node: switch index, -1 for hosts
    std::deque<LinkDownSink> m_linkDownSinks;   //!< ConnectDrops' (stable addresses)
    TracedCallback<uint32_t> m_linkFailedTrace; //!< (link)
    TracedCallback<uint32_t, uint32_t> m_reroutedTrace; //!< (reroute #, LFT entries changed)
};

} // namespace ns3

#endif // IB_FABRIC_H
