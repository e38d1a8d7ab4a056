/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NET_DEVICE_H
#define RDMA_NET_DEVICE_H

#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

class PcapFileWrapper;

/**
 * \ingroup ai-fabric
 * \brief What a port of either fabric (RoceNetDevice, IbNetDevice) is to ns-3: one end
 * of a point-to-point cable that needs no ARP, broadcasts and multicasts nothing and
 * sends from its own address only; and how ns-3's trace helpers record it.
 *
 * It holds what ns-3's stack sets and reads and no frame's path does (the node, the MTU,
 * the receive callbacks): the fabrics' devices keep the members a frame reads in their own
 * layout. A trace helper (RdmaFabricHelper::EnablePcap, EnableAscii) asks a
 * port for its pcap link type and its trace sources instead of casting it to a
 * fabric's class.
 */
class RdmaNetDevice : public NetDevice
{
  public:
    /// The trace sources ns-3's ascii trace (AsciiTraceHelper's default sinks) reads.
    struct AsciiTraceSources
    {
        std::string transmit; //!< for the dequeue sink ("-"): a frame starts on the wire
        std::string receive;  //!< for the receive sink ("r"); empty: none
        std::string drop;     //!< for the drop sink ("d"); empty: none
    };

    static TypeId GetTypeId();

    /// \return the pcap link type (DLT) of the records HookPcap writes
    virtual uint32_t GetPcapLinkType() const = 0;
    /**
     * Write every frame of this port into \p file, opened with GetPcapLinkType()
     * (nanosecond timestamps).
     */
    virtual void HookPcap(Ptr<PcapFileWrapper> file) = 0;
    /// \return the trace sources an ascii trace of this port connects to
    virtual AsciiTraceSources GetAsciiTraceSources() const = 0;

    // NetDevice API: the parts both fabrics' ports answer alike
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    /// Send, from this port's own address (SupportsSendFrom is false)
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    bool NeedsArp() const override;
    bool SupportsSendFrom() const override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;

    /**
     * Hand \p packet (its link headers removed) to the node's protocol stack: the
     * promiscuous and receive callbacks of NetDevice, as a packet for this host. The
     * fabrics call it for the IP packets a host's port receives (RoceNic, IpoibInterface).
     */
    void DeliverUp(Ptr<Packet> packet, uint16_t protocol, const Address& from);

  protected:
    void DoDispose() override;

    Ptr<Node> m_node;                                    //!< SetNode
    uint16_t m_mtu{0};                                   //!< SetMtu (the device's default)
    NetDevice::ReceiveCallback m_rxCallback;             //!< the stack's receive callback
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< and its promiscuous one
};

} // namespace ns3

#endif // RDMA_NET_DEVICE_H
