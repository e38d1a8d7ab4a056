/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_HCA_H
#define IB_HCA_H

#include "ib-frame.h"

#include "ns3/object.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <vector>

namespace ns3
{

class IbNetDevice;
class IpoibInterface;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief An InfiniBand Host Channel Adapter: the shared RC transport (RdmaQueuePair)
 * with IB framing (LRH / BTH / RETH / ImmDt / AETH / ICRC / VCRC).
 *
 * Like RoceNic, packets are built only when the port asks for them: per data VL the
 * HCA stages at most one packet (an ACK/NAK/CNP first, else the next data packet of
 * the round-robin among that VL's queue pairs that window and pacing allow), and
 * hands it over when the port's credits and VL arbitration let it go. A QP's VL is
 * its SL modulo the port's data VLs (the HCA port's SL2VL). Received packets are
 * processed when their tail is in; their buffer blocks are freed at once (an HCA
 * drains to host memory at line rate).
 *
 * IP over InfiniBand (EnableIpoib): the HCA also carries an IPoIB UD queue pair
 * (IpoibInterface) whose packets take turns with RDMA data on their VL, packet by
 * packet, after ACK/NAK/CNP; UD SEND-only packets received go to it. Without it the
 * RDMA path pays one pointer test per packet built, and one opcode test per packet
 * received.
 */
class IbHca final : public RdmaNic
{
  public:
    /// PKeyViolation trace: (source LID, P_Key) of the dropped packet.
    typedef void (*PKeyViolationCallback)(uint16_t slid, uint16_t pKey);

    static TypeId GetTypeId();
    IbHca();
    ~IbHca() override;

    /// Attach to the port; give the HCA its host index and LID.
    void Setup(Ptr<IbNetDevice> device, uint32_t hostIndex, uint16_t lid);
    /// Create a QP towards (peerHost, peerLid) on service level sl.
    Ptr<RdmaQueuePair> CreateQueuePair(uint32_t peerHost, uint16_t peerLid, uint8_t sl);
    void ConnectQueuePair(Ptr<RdmaQueuePair> qp, uint32_t peerQpn);

    /**
     * Carry IP over this HCA's port (RFC 4391 datagram mode) through \p ipoib: it is
     * set up on the port, on the VL of its service level.
     */
    void EnableIpoib(Ptr<IpoibInterface> ipoib);
    /// \return the IPoIB interface (null unless EnableIpoib)
    Ptr<IpoibInterface> GetIpoib() const;
    /// \return UD packets received that no IPoIB interface took (none enabled)
    uint64_t GetUnclaimedDatagrams() const;

    /**
     * The port's P_Key table as the Subnet Manager programs it (PortInfo / P_KeyTable,
     * IBTA Vol. 1 10.9): a packet received whose BTH P_Key matches no entry is dropped
     * and counted (GetPKeyViolations, trace PKeyViolation). Two keys match when their
     * low 15 bits are equal and one of them is a full member (bit 15 set; IBTA 10.9.3).
     * Empty (the default): no check, nothing done per packet.
     */
    void SetPKeyTable(const std::vector<uint16_t>& table);
    /// The BTH P_Key \p qp's packets carry (its partition; default 0xFFFF)
    void SetQueuePairPKey(const RdmaQueuePair& qp, uint16_t pKey);
    /// \return packets dropped because of a P_Key the port's table does not hold
    uint64_t GetPKeyViolations() const;
    /// \return whether P_Keys \p a and \p b match (IBTA Vol. 1 10.9.3)
    static bool PKeysMatch(uint16_t a, uint16_t b);

    uint16_t GetLid() const;
    Ptr<IbNetDevice> GetDevice() const;
    uint32_t GetFullPacketBytes() const; //!< \return bytes of a full data packet (MTU + 26)
    uint32_t GetAckBytes() const;        //!< \return bytes of an ACK (30)

  protected:
    void DoDispose() override;

  private:
    uint32_t Head(Ptr<IbNetDevice> dev, uint8_t vl);
    Ptr<Packet> Dequeue(Ptr<IbNetDevice> dev, uint8_t vl);
    void ReceiveFrame(Ptr<IbNetDevice> dev, Ptr<Packet> p, const IbFrameView& v, Time txIn);
    /// The transport's part of a packet whose tail is in.
    void Process(const IbFrameView& v);
    /// Process of the IbFrameView \p payload on \p hca, as a FabricSimulator call.
    static void ProcessCall(void* hca, void* payload);
    /// A UD packet (IPoIB) whose head is in: its tail is \p txIn later.
    [[gnu::noinline]] void ReceiveDatagram(Ptr<Packet> p, const IbFrameView& v, Time txIn);
    /// Its tail is in: free its blocks and hand it to the IPoIB interface.
    void ProcessDatagram(Ptr<Packet> p, uint8_t vl);
    /// \return true if an IPoIB packet waits on \p vl (m_ipoib set)
    [[gnu::noinline]] bool IpoibWaits(uint8_t vl) const;
    Ptr<Packet> BuildNext(uint8_t vl);
    Ptr<Packet> BuildData(const RdmaQueuePair& qp, const RdmaSegment& s);
    void QueueControl(const RdmaQueuePair& qp,
                      uint8_t opcode,
                      uint32_t psn,
                      uint32_t msn,
                      bool nak) override;
    void NotifyPort() override;
    uint8_t VlOf(uint8_t sl) const;
    /// \return the P_Key of \p qp's packets (SetQueuePairPKey)
    uint16_t PKeyOf(const RdmaQueuePair& qp) const;
    /// \return whether \p pKey matches an entry of the P_Key table
    bool PKeyAllowed(uint16_t pKey) const;

    Ptr<IbNetDevice> m_device;
    uint16_t m_lid;
    std::vector<uint16_t> m_peerLid;                   //!< by QpnSlot of the local QPN
    std::array<Ptr<Packet>, 16> m_staged;              //!< per VL
    std::array<std::deque<Ptr<Packet>>, 16> m_control; //!< ACK/NAK/CNP per VL
    Ptr<IpoibInterface> m_ipoib;                       //!< EnableIpoib (null: no IP)
    bool m_ipoibTurn{false}; //!< the next packet on the IPoIB VL is an IP one, if one waits
    uint64_t m_unclaimedDatagrams{0};  //!< GetUnclaimedDatagrams
    std::vector<uint16_t> m_pKeyTable; //!< SetPKeyTable (empty: no check)
    std::vector<uint16_t> m_qpPKey;    //!< by QpnSlot of the local QPN (empty: all 0xFFFF)
    uint64_t m_pKeyViolations{0};      //!< GetPKeyViolations
    /// (source LID, P_Key) of a packet dropped for its P_Key
    TracedCallback<uint16_t, uint16_t> m_pKeyViolationTrace;
};

} // namespace ns3

#endif // IB_HCA_H
