/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TCP_FLOW_TRANSPORT_H
#define TCP_FLOW_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Address;
class Socket;

/**
 * \ingroup ai-fabric
 * \brief Flows carried by ns-3's own TCP over a fabric's hosts (RoCEv2, or InfiniBand
 * through IP over InfiniBand), reported as RdmaFabric reports its messages (one
 * RdmaFabric::MessageRecord per finished flow).
 *
 * Install gives every host's IP device (RdmaFabric::GetIpDevice, after EnableIp)
 * ns-3's internet stack (InternetStackHelper) and its address (Ipv4AddressHelper over
 * 10.0.0.0/8 from 10.0.0.1, host i taking 10.0.0.1 + i: on RoCEv2 the address the
 * switches route to host i), resolves them (RdmaFabric::ResolveIpNeighbours: the
 * IPoIB neighbour tables on InfiniBand), sets the TCP variant
 * (ns3::TcpL4Protocol::SocketType) and opens a listening socket on every host. Each
 * PostFlow opens a TCP connection of its own from src to dst, writes the flow's bytes
 * as ns-3's BulkSendApplication does (as much as the send buffer takes, more when it
 * drains) and closes it. A flow is finished when its receiving application has read
 * its last byte; its record's start is the PostFlow time (the handshake counts).
 */
class TcpFlowTransport : public Object
{
  public:
    static TypeId GetTypeId();
    TcpFlowTransport();
    ~TcpFlowTransport() override;

    /// \return the TypeId names of the variants: {"newreno", "ns3::TcpNewReno"}, ...
    static const std::vector<std::pair<std::string, std::string>>& Variants();

    /**
     * Install the internet stack, the addresses, the TCP variant \p socketType (a
     * subclass of ns3::TcpCongestionOps, e.g. ns3::TcpDctcp) and the listeners on
     * every host of \p fabric, whose IP path is enabled (RdmaFabric::EnableIp). \p useEcn: the
     * sockets negotiate ECN (RFC 3168; DCTCP uses it whatever this says).
     */
    void Install(Ptr<RdmaFabric> fabric, TypeId socketType, bool useEcn);
    /// \return the hosts' interfaces, host i at index i
    const Ipv4InterfaceContainer& GetInterfaces() const;

    /// Start a flow of \p bytes from host \p src to host \p dst now. \return its id
    uint64_t PostFlow(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag, uint8_t kind);
    /// Called with each finished flow.
    void SetMessageCallback(Callback<void, const RdmaFabric::MessageRecord&> cb);
    /// \return flows posted and not finished
    uint64_t GetPendingFlows() const;
    /// \return flows posted
    uint64_t GetFlowCount() const;

  protected:
    void DoDispose() override;

  private:
    /// One flow: its sender's state, then what its receiver has read.
    struct Flow
    {
        RdmaFabric::MessageRecord record; //!< src, dst, bytes, tag, kind, start
        Ptr<Socket> sender;               //!< the connection's sending socket
        uint64_t sent{0};                 //!< bytes handed to the sender socket
        uint64_t received{0};             //!< bytes read by the receiver
        bool done{false};                 //!< the receiver has every byte
    };

    /// Open flow \p id's connection (PostFlow, from an event).
    void Open(uint64_t id);
    /// Write what the send buffer takes of \p flow's bytes.
    void SendMore(uint64_t flow);
    /// A listener accepted a connection: find its flow by the sender's address.
    void Accepted(Ptr<Socket> socket, const Address& from);
    /// A receiving socket has data to read.
    void Readable(Ptr<Socket> socket);

    Ptr<RdmaFabric> m_fabric;
    Ipv4InterfaceContainer m_interfaces;
    uint16_t m_port;                                        //!< Port attribute
    uint32_t m_segmentSize;                                 //!< SegmentSize attribute
    uint32_t m_sendBuffer;                                  //!< SendBufferBytes attribute
    uint32_t m_receiveBuffer;                               //!< ReceiveBufferBytes attribute
    Time m_minRto;                                          //!< MinRto attribute
    bool m_useEcn{false};                                   //!< Install's useEcn
    std::vector<Flow> m_flows;                              //!< by id
    std::vector<Ptr<Socket>> m_listeners;                   //!< by host
    std::unordered_map<uint64_t, uint64_t> m_flowOfSender;  //!< (src ip, src port) -> id
    std::unordered_map<Socket*, uint64_t> m_flowOfReceiver; //!< accepted socket -> id
    uint64_t m_pending{0};                                  //!< GetPendingFlows
    Callback<void, const RdmaFabric::MessageRecord&> m_messageCallback;
};

} // namespace ns3

#endif // TCP_FLOW_TRANSPORT_H
