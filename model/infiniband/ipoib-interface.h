/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IPOIB_INTERFACE_H
#define IPOIB_INTERFACE_H

#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>

namespace ns3
{

class IbNetDevice;
class NetDeviceQueue;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief IP over InfiniBand on one HCA port, datagram mode (RFC 4391): the IPoIB
 * Unreliable Datagram queue pair that carries the host's IP packets.
 *
 * The host's IbNetDevice hands it what ns-3's internet stack sends (NetDevice::Send).
 * After IpSendDelay (the host stack's send path) it frames the packet (IpoibFrame: LRH,
 * BTH UD SEND only, DETH with the Q_Key and its QPN, the 4-byte encapsulation header,
 * the IP packet, ICRC, VCRC) to the destination's LID and IPoIB QPN and queues it on
 * the VL of its ServiceLevel; the HCA lets it take turns with RDMA data on that VL,
 * packet by packet, under the port's credits. A received IPoIB packet whose DestQP and
 * Q_Key are this queue pair's is handed to the stack IpReceiveDelay after its tail.
 *
 * Address resolution: real IPoIB resolves an IPv4 address to the 20-byte IPoIB
 * hardware address (flags and QPN, port GID) by ARP over the partition's broadcast
 * group, then the GID to a LID and SL by a path record query to the Subnet
 * Administrator. Here a static neighbour table does both: AddNeighbour(IPv4, LID, QPN),
 * filled by IbFabric::ResolveIpNeighbours from the hosts' assigned addresses and the
 * Subnet Manager's LIDs (IpoibHelper::PopulateNeighbours). No ARP packet is sent (the
 * device's NeedsArp is false); a destination missing from the table is dropped
 * (IpDrop), as an unresolvable neighbour is.
 */
class IpoibInterface : public Object
{
  public:
    /// Q_Key of the IPoIB broadcast group: 0x00000B1B (OpenSM's default for the groups
    /// it creates for IPoIB partitions; libvma's IPOIB_QKEY)
    static constexpr uint32_t DEFAULT_QKEY = 0x0B1B;
    /// Subnet prefix of a port GID: the link-local fe80::/64 (IBTA Vol. 1 section 4.1.1)
    static constexpr uint64_t DEFAULT_GID_PREFIX = 0xFE80000000000000ULL;
    /// The IPoIB hardware address: 1 byte flags, 3 bytes QPN, 16 bytes GID (RFC 4391
    /// section 9.1.1)
    static constexpr uint32_t HW_ADDRESS_BYTES = 20;

    /// One entry of the neighbour table.
    struct Neighbour
    {
        uint16_t lid{0}; //!< the destination port's LID (the Subnet Manager's)
        uint32_t qpn{0}; //!< its IPoIB UD queue pair
    };

    static TypeId GetTypeId();
    IpoibInterface();
    ~IpoibInterface() override;

    /**
     * Attach to the HCA's port \p device (host \p hostIndex, LID \p lid): its Send comes
     * here, its address becomes the IPoIB hardware address, and packets go on \p vl
     * (the HCA's VL of ServiceLevel). Called by IbHca::EnableIpoib.
     */
    void Setup(Ptr<IbNetDevice> device, uint32_t hostIndex, uint16_t lid, uint8_t vl);

    /// Resolve \p ip to the port of LID \p lid whose IPoIB queue pair is \p qpn.
    void AddNeighbour(Ipv4Address ip, uint16_t lid, uint32_t qpn);
    /// \return neighbour table entries
    uint32_t GetNNeighbours() const;

    uint32_t GetQpn() const;            //!< \return the QueuePairNumber Attribute
    uint8_t GetServiceLevel() const;    //!< \return the ServiceLevel Attribute
    uint8_t GetVl() const;              //!< \return the VL its packets leave on
    Ptr<IbNetDevice> GetDevice() const; //!< \return the HCA port

    /**
     * \return the 20-byte IPoIB hardware address of this port: flags 0 (datagram
     * mode), the QPN, and the GID (DEFAULT_GID_PREFIX, port GUID). The port GUID is
     * the model's: a locally administered EUI-64, 02:00:00:00 then the host index + 1.
     */
    Address GetHardwareAddress() const;
    /// \return the Address type of IPoIB hardware addresses (registered once)
    static uint8_t GetAddressType();

    /**
     * A packet of the host's stack (IbNetDevice::Send). \return false (counted, IpDrop)
     * if it is not IPv4, its destination is not in the neighbour table, or it does not
     * fit the IPoIB MTU
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocol);

    /// \return true if a framed packet waits for the wire (the HCA's per-VL check)
    bool HasPacket() const
    {
        return !m_queue.empty();
    }

    /// Take the first framed packet (HasPacket must hold).
    Ptr<Packet> Dequeue();
    /// A UD SEND-only packet (LRH to VCRC) whose tail has arrived at the port.
    void Receive(Ptr<Packet> packet);

    uint64_t GetIpSent() const;     //!< \return IP packets framed and queued for the wire
    uint64_t GetIpReceived() const; //!< \return IP packets handed to the stack
    uint64_t GetIpDrops() const;    //!< \return IP packets dropped (IpDrop)

  protected:
    void DoDispose() override;

  private:
    /// Frame \p packet to \p to and queue it (Send, IpSendDelay later).
    void Queue(Ptr<Packet> packet, Neighbour to);
    /// Count and trace a dropped packet.
    void Drop(Ptr<const Packet> packet);

    Ptr<IbNetDevice> m_device;
    uint32_t m_hostIndex{0};
    uint16_t m_lid{0};
    uint8_t m_vl{0};
    uint32_t m_psn{0}; //!< the UD queue pair's next PSN

    // Attributes
    uint32_t m_qpn;
    uint32_t m_qKey;
    uint16_t m_pKey;
    uint8_t m_sl;
    Time m_ipSendDelay;
    Time m_ipReceiveDelay;
    uint32_t m_ipQueuePackets;

    std::unordered_map<uint32_t, Neighbour> m_neighbours; //!< by IPv4 address
    std::deque<Ptr<Packet>> m_queue;                      //!< framed, waiting for the wire
    uint32_t m_held{0}; //!< packets accepted and not yet on the wire
    Ptr<NetDeviceQueue> m_txQueue;
    uint64_t m_sent{0};
    uint64_t m_received{0};
    uint64_t m_drops{0};
    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace ns3

#endif // IPOIB_INTERFACE_H
