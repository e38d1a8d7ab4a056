/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{

class IntHeader;

/**
 * \ingroup ai-fabric
 * What a queue pair knows about its path when it starts sending.
 */
struct RdmaCcContext
{
    DataRate lineRate{"100Gbps"};  //!< rate of the sender's NIC port
    uint32_t mtuBytes{1000};       //!< payload bytes per full packet
    uint32_t wireBytes{1082};      //!< bytes one full packet occupies on the wire (headers,
                                   //!< FCS, preamble and inter-frame gap included)
    Time baseRtt{MicroSeconds(8)}; //!< unloaded round-trip time of the path
    uint32_t hops{1};              //!< switch hops on the forward path
};

/**
 * \ingroup ai-fabric
 * What a congestion controller learns from one acknowledgement.
 */
struct RdmaAckSample
{
    uint64_t ackedBytes{0};   //!< payload bytes newly acknowledged by this ACK
    uint32_t ackedPackets{0}; //!< packets newly acknowledged by this ACK
    Time rtt;                 //!< now minus the send timestamp the ACK echoes
    Time remoteDelay;         //!< time the data packet spent inside the receiving NIC
                              //!< (echoed by the ACK; rtt - remoteDelay = fabric delay)
    uint32_t hops{0};         //!< switch hops the acknowledged data packet crossed
                              //!< (RoCEv2: echoed from its TTL; else the route's)
    /// The in-band telemetry records the ACK echoes (the switches' records of the data
    /// packet it acknowledges); nullptr unless the fabric carries INT (RoceNic
    /// IntEnabled, for an algorithm whose registry entry has usesInt). Valid during
    /// OnAck only.
    const IntHeader* intHeader{nullptr};
    bool ecnEcho{false}; //!< the ACK echoes ECN CE for the packets it acknowledges
                         //!< (RoCEv2 NIC EcnEchoInAck: its BTH BECN bit; DCTCP)
};

/**
 * \ingroup ai-fabric
 * Interface between the RDMA transport and a congestion-control algorithm.
 *
 * A controller decides a pacing rate and a window (in-flight payload bytes).
 * The transport calls the On* hooks; the controller calls SetRate/SetWindowBytes,
 * which notify the queue pair so it re-evaluates when it may send. Controllers
 * may schedule their own timers (DCQCN's alpha and rate-increase timers) and must
 * cancel them in Stop().
 */
class RdmaCongestionControl : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaCongestionControl();
    ~RdmaCongestionControl() override;

    /// Called once when the queue pair starts; default: line rate, no window.
    virtual void Start(const RdmaCcContext& ctx);
    /// Called when the queue pair is done or destroyed; cancel timers here.
    virtual void Stop();

    /// Current pacing rate, never above the line rate.
    DataRate GetRate() const
    {
        return DataRate(m_rateBps.Get());
    }

    /// GetRate in bit/s (per packet: no DataRate object).
    uint64_t GetRateBps() const
    {
        return m_rateBps.Get();
    }

    /// Current window in payload bytes; std::numeric_limits<uint64_t>::max() if unlimited.
    uint64_t GetWindowBytes() const
    {
        return m_windowBytes.Get();
    }

    virtual void OnPacketSent(uint32_t payloadBytes);
    virtual void OnAck(const RdmaAckSample& sample);
    /// A congestion notification packet (RoCEv2 CNP or IB BECN) arrived for this QP.
    virtual void OnCnp();
    /// A NAK (sequence error) arrived.
    virtual void OnNack();

    /// A NAK for a packet the receiver infers lost (the RDMA sequence error NAK, UET's
    /// RCVR_INFER_LOSS NACK) arrived; default: OnNack. (A trim NACK is OnNack.)
    virtual void OnLossNack()
    {
        OnNack();
    }

    /// The retransmission timer fired.
    virtual void OnTimeout();

    /// \return whether a resend of a trimmed packet may go now. Default true (the window
    /// alone decides); a credit-gated controller (UET's RCCC) says no while it holds no
    /// credit, since every packet it sends, a resend too, spends credit.
    virtual bool MayResend() const
    {
        return true;
    }

    /// \return whether OnAck reads RdmaAckSample::rtt. Default true; an algorithm that
    /// never does says false, and its queue pair keeps no per-packet send times (a
    /// thousand packets in flight per 1 MB flow without congestion control: 4 KB a flow).
    virtual bool UsesRttSamples() const
    {
        return true;
    }

    /// Short algorithm name for outputs: "none", "dcqcn", "swift".
    virtual std::string GetName() const = 0;

    /**
     * A copy of this controller with its attribute values, not started (like
     * TcpCongestionOps::Fork): CongestionControlFactory copies one configured
     * controller per queue pair instead of constructing each from attributes.
     * Call it on a controller that has not been started.
     */
    virtual Ptr<RdmaCongestionControl> Fork() const = 0;

    /// The queue pair's hook, called whenever rate or window change.
    void SetChangeCallback(Callback<void> cb);

    const RdmaCcContext& GetContext() const
    {
        return m_ctx;
    }

  protected:
    void DoDispose() override;
    /// Set the pacing rate (clamped to [1 bit/s, line rate]) and notify the QP.
    void SetRate(DataRate rate);
    /// Set the window in payload bytes and notify the QP.
    void SetWindowBytes(uint64_t bytes);
    /// Notify the QP though rate and window are unchanged (RCCC: credit came back, so a
    /// resend that waited for it may go: MayResend).
    void NotifyChange();

    RdmaCcContext m_ctx; //!< path facts given at Start()

  private:
    TracedValue<uint64_t> m_rateBps;     //!< current pacing rate, bit/s
    TracedValue<uint64_t> m_windowBytes; //!< current window, payload bytes
    Callback<void> m_changed;            //!< the queue pair's re-evaluation hook
};

} // namespace ns3

#endif // RDMA_CONGESTION_CONTROL_H
