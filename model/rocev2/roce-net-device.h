/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_NET_DEVICE_H
#define ROCE_NET_DEVICE_H

#include "roce-channel.h"
#include "roce-port-owner.h"

#include "ns3/ai-fabric-deprecated.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/fabric-simulator.h"
#include "ns3/frame-fifo.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/rdma-net-device.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/traced-callback.h"

#include <algorithm>
#include <array>
#include <memory>

namespace ns3
{

class FctAttribution;

class RoceChannel;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief One full-duplex Ethernet port of a RoCEv2 NIC or switch, with 802.1Qbb PFC.
 *
 * The device owns the wire: serialization at its DataRate (frame bytes plus FCS,
 * preamble and inter-frame gap), the transmit state machine, and both halves of
 * PFC on this link: it honours pause frames received from the peer (per priority,
 * for the time they carry) and it emits pause frames towards the peer when its
 * owner asks (SetPeerPaused), refreshing them before they expire and sending a
 * zero-quanta frame to resume.
 *
 * It owns no data queue: when the wire is free it pulls the next frame from its
 * owner (switch or NIC, a RocePortOwner), passing the set of
 * priorities it may not send. Pulling keeps a NIC's packets unbuilt until the
 * moment they go on the wire, and keeps all switch buffering in the switch's MMU.
 */
class RoceNetDevice : public RdmaNetDevice
{
  public:
    /// PFC trace: (device, priority, pause quanta: above 0 a pause (XOFF), 0 a resume
    /// (XON); true if sent by this device, false if received).
    typedef void (*PfcTracedCallback)(Ptr<const RoceNetDevice>, uint8_t, uint16_t, bool);
    /// PauseSent and PauseReceived traces: (device, priority, pause quanta, above 0).
    typedef void (*PauseTracedCallback)(Ptr<const RoceNetDevice>, uint8_t, uint16_t);
    /// ResumeSent and ResumeReceived traces: (device, priority).
    typedef void (*ResumeTracedCallback)(Ptr<const RoceNetDevice>, uint8_t);

    static TypeId GetTypeId();
    RoceNetDevice();
    ~RoceNetDevice() override;

    bool Attach(Ptr<RoceChannel> ch);
    /// The switch or NIC this port belongs to (not owned; it outlives the port's use).
    void SetOwner(RocePortOwner* owner);

    /// The owner has a frame ready (or a pacing timer expired): start sending if idle.
    void NotifyDataAvailable();

    /**
     * \return true if NotifyDataAvailable would now pull a frame of priority \p prio
     * and put it on the wire at once: the wire is free (or its last frame has ended
     * with no completion event), no pause frame waits, the peer does not pause \p prio.
     */
    bool CanTransmitNow(uint8_t prio) const
    {
        if (!m_control.empty() || ((m_pausedMask >> prio) & 1) != 0)
        {
            return false;
        }
        return !m_busy || (!m_completionPending && FabricSimulator::NowTicks() >= m_txEnd);
    }

    /**
     * CanTransmitNow for a switch's frame ready at time step \p ready (0: now): it may
     * also be handed over while the frame on the wire still runs, if that one ends
     * by \p ready (the port would start it then with nothing in between: no pause
     * frame waits, \p prio is not paused).
     */
    bool CanTransmitBy(uint8_t prio, int64_t ready) const
    {
        if (!m_control.empty() || ((m_pausedMask >> prio) & 1) != 0)
        {
            return false;
        }
        return !m_busy ||
               (!m_completionPending && std::max(FabricSimulator::NowTicks(), ready) >= m_txEnd);
    }

    /**
     * Put \p frame on the wire now, as NotifyDataAvailable does with the frame the owner
     * hands over (CanTransmitNow must hold; the owner has done its dequeue work).
     */
    void TransmitNow(RoceParsedFrame& frame);
    /**
     * TransmitNow for an owner that knows nothing waits behind \p frame (its HasFrame
     * is false for this port, and no pause frame was queued since CanTransmitNow):
     * the completion check after the frame is skipped, as it would find nothing.
     */
    void TransmitNowAlone(RoceParsedFrame& frame);
    /// Called by the channel when a frame has fully arrived (it may be moved away).
    void Receive(RoceParsedFrame& frame);
    /// Called by the channel when its delay or a port's node changes: what this port
    /// keeps of its cable is read again at the next frame.
    void ForgetCable();

    /// Report the hops of frames with a journey and this port's pauses to
    /// \p attribution (nullptr: off, the default).
    void SetAttribution(FctAttribution* attribution)
    {
        m_attribution = attribution;
    }

    /// Ask the peer to stop (true) or resume (false) sending priority prio.
    void SetPeerPaused(uint8_t prio, bool paused);
    bool IsPeerPaused(uint8_t prio) const;
    /// True while this device may not send priority prio (a pause from the peer holds).
    bool IsPausedByPeer(uint8_t prio) const;
    /// Bitmask of priorities this device may not send now.
    uint8_t GetPausedMask() const;

    DataRate GetDataRate() const;
    /// Set the line rate (attribute DataRate).
    void SetDataRate(DataRate rate);
    /// \return the time a frame of \p frameBytes (FCS excluded) occupies the wire
    Time GetTransmitTime(uint32_t frameBytes) const;

    /// GetTransmitTime in time steps (the per-frame path: no Time objects).
    int64_t GetTransmitTicks(uint32_t frameBytes) const
    {
        // FCS, preamble and inter-frame gap occupy the wire too. Rounded half away
        // from zero, as std::llround (a libm call) rounds a non-negative value:
        // ticks - n is exact for 0 <= n <= ticks < n + 1.
        const double ticks =
            (frameBytes + RoceEthernetHeader::WIRE_OVERHEAD_BYTES) * m_ticksPerByte;
        auto n = static_cast<int64_t>(ticks);
        if (ticks - static_cast<double>(n) >= 0.5)
        {
            ++n;
        }
        return n;
    }

    /**
     * Wire bytes (frame + FCS, preamble, gap) of the frame being transmitted that
     * have not left yet; 0 when the port is idle. Adaptive routing counts them as
     * load: a port whose queue is empty may still be busy for a whole MTU.
     */
    uint64_t GetUnsentWireBytes() const;
    Ptr<RoceChannel> GetRoceChannel() const;

    /// \return the id of the node this port belongs to (cached; events run in its context)
    uint32_t GetNodeId() const
    {
        return m_nodeId;
    }

    /// \return GetIfIndex() without a virtual call: the port's number on its owner
    uint32_t GetPortIndex() const
    {
        return m_ifIndex;
    }

    uint64_t GetTxFrames() const;
    uint64_t GetTxBytes() const;
    /**
     * \return PFC pause (XOFF) frames this port sent: a priority's quanta above 0,
     * refreshes included. Resume (XON, quanta 0) frames are counted apart
     * (GetPfcResumesSent); pauses plus resumes are all the PFC frames sent.
     */
    uint64_t GetPfcPausesSent() const;
    /// \return PFC resume (XON: quanta 0) frames this port sent
    uint64_t GetPfcResumesSent() const;
    /**
     * \return PFC pause frames that arrived at this port (any enabled class with
     * quanta above 0), whether or not they were honoured (PFC off, link down, pauses
     * ignored by the watchdog)
     */
    uint64_t GetPfcPausesReceived() const;
    /// \return PFC resume frames (every enabled class at quanta 0) that arrived
    uint64_t GetPfcResumesReceived() const;
    /**
     * \deprecated The name until commit bef3edc, kept for one release (CHANGES.md).
     * \return all PFC frames this port sent, pauses and resumes, as it always did:
     * GetPfcPausesSent() + GetPfcResumesSent()
     */
    AI_FABRIC_DEPRECATED("RoceNetDevice::GetPauseFramesSent counts pauses and resumes: use "
                         "GetPfcPausesSent() + GetPfcResumesSent() (see CHANGES.md)")
    uint64_t GetPauseFramesSent() const;
    /**
     * \deprecated The name until commit bef3edc, kept for one release (CHANGES.md).
     * \return all PFC frames that arrived at this port, pauses and resumes, as it always
     * did: GetPfcPausesReceived() + GetPfcResumesReceived()
     */
    AI_FABRIC_DEPRECATED("RoceNetDevice::GetPauseFramesReceived counts pauses and resumes: use "
                         "GetPfcPausesReceived() + GetPfcResumesReceived() (see CHANGES.md)")
    uint64_t GetPauseFramesReceived() const;
    /// When the peer's current pause of \p prio began (meaningful while IsPausedByPeer).
    Time GetPauseStart(uint8_t prio) const;
    /// Time during which priority prio was paused by the peer, so far.
    Time GetPausedTime(uint8_t prio) const;
    /**
     * When the peer's latest pause request for \p prio ends or ended: arrival plus its
     * pause time, or the arrival of its resume (XON); 0 before any. Kept while pauses
     * are ignored (SetPauseIgnored): a peer that keeps refreshing keeps it ahead of now.
     */
    Time GetPeerPauseEnd(uint8_t prio) const;
    /**
     * Stop (true) or resume (false) honouring the peer's pauses of \p prio: the PFC
     * watchdog's mitigation (PfcWatchdog). Pause frames still arrive, are traced and
     * timed (GetPeerPauseEnd), but no longer stop the port; a pause in force
     * ends at once.
     */
    void SetPauseIgnored(uint8_t prio, bool ignored);
    /// \return true while pauses of \p prio from the peer are ignored
    bool IsPauseIgnored(uint8_t prio) const;
    /**
     * The cable of this port failed (true) or works again (false), as
     * RoceFabric::FailLink says. While it is down the port honours no pause frame
     * (none can cross the cable, so a pause in force ends at once and a pause frame
     * still arriving is ignored): nothing stays paused by a dead partner. The frames
     * themselves are dropped by the owner (RoceSwitch::SetPortDown).
     */
    void SetLinkDown(bool down);

    // NetDevice API
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    /// RdmaNetDevice::SetNode, and the node's id kept for the frames' events
    void SetNode(Ptr<Node> node) override;

    // RdmaNetDevice
    uint32_t GetPcapLinkType() const override;
    void HookPcap(Ptr<PcapFileWrapper> file) override;
    AsciiTraceSources GetAsciiTraceSources() const override;

  protected:
    void DoDispose() override;

  private:
    /// Start sending if the wire is free, else make sure TransmitComplete will pull.
    void RequestTransmit();
    /// Pull and send the next frame; the wire must be free.
    void TryTransmit();
    /// Schedule TransmitComplete \p delayTicks time steps ahead (a FabricSimulator call).
    void ScheduleCompletion(int64_t delayTicks);
    void StartTransmission(RoceParsedFrame& frame);
    /**
     * Begin sending \p frame: at once, or for a switch's frame when it is ready
     * (RoceParsedFrame::readyTicks) and the wire is free. \return the time steps
     * until its end. Inlined into its two callers (StartTransmission, TransmitNowAlone):
     * a hop then makes one call, to Carry.
     */
    [[gnu::always_inline]] int64_t PutOnWire(RoceParsedFrame& frame);
    /// Count \p frame, trace it and hand it to the cable; it starts \p startIn time
    /// steps from now (negative: it started before) and lasts \p txTicks.
    void Carry(RoceParsedFrame& frame, int64_t startIn, int64_t txTicks);
    /// PhyTxBegin and PromiscSniffer for a frame starting \p startIn time steps from now.
    void FireTxTraces(Ptr<Packet> p, int64_t startIn);
    /**
     * Send the first pause frame waiting now if the wire is idle until the frame
     * committed to it starts and it fits there. \return true if it was sent
     */
    bool SendInGap();
    void TransmitComplete();
    /// TransmitComplete of \p port, as a FabricSimulator call.
    static void CompleteCall(void* port, void* payload);
    void HandlePfcFrame(const Ptr<Packet>& p);
    void PauseExpired(uint8_t prio);
    void SendPfcFrame(uint8_t prio, uint16_t quanta);
    void RefreshPause(uint8_t prio);
    /// Attribution on: \p frame (a journey) starts on the wire as PutOnWire puts it.
    /// \return false if its journey ended here (the frame then carries none)
    [[gnu::noinline, gnu::cold]] bool NoteJourney(const RoceParsedFrame& frame,
                                                  int64_t now,
                                                  int64_t txTicks);

    // What a frame's hop reads and writes comes first, together: a few cache lines
    // of a fabric's thousand-odd ports, instead of one per member spread over the
    // object (pause arrays, callbacks and traces used per frame end up far apart).
    // An arrival reads the first line (owner, receive traces, port number); the
    // event list prefetches the start of the port before its arrivals and ends of
    // transmission run.
    RocePortOwner* m_owner{nullptr}; //!< pulls from / receives into it
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;
    uint32_t m_ifIndex;              //!< port number on its switch or NIC
    uint32_t m_nodeId{0};            //!< m_node's id (an event context per frame)
    bool m_busy;                     //!< a frame is (or may still be) on the wire
    bool m_completionPending{false}; //!< TransmitComplete is scheduled
    uint8_t m_pausedMask;            //!< priorities paused by the peer
    uint8_t m_peerPausedMask;        //!< priorities we asked the peer to pause
    /// m_cable is a RoceChannel itself, not a subclass: its TransmitStart is called
    /// without virtual dispatch (the same code, inlined).
    bool m_plainCable{true};
    FrameFifo<RoceParsedFrame> m_control;        //!< pause frames waiting for the wire
    RoceChannel::Direction* m_outgoing{nullptr}; //!< m_cable's direction to the peer
    RoceNetDevice* m_peer{nullptr};              //!< m_outgoing's receiver (kept here)
    int64_t m_cableDelayTicks{0};                //!< m_outgoing's delay (kept here)
    uint32_t m_peerNode{0};                      //!< m_outgoing's receiver node (kept here)
    int64_t m_txEnd{0};                          //!< when the frame on the wire ends (time step)
    int64_t m_txStart{0};                        //!< when it starts (time step; later than
                                                 //!< its commit while its switch's latency runs)
    int64_t m_gapEnd{0};      //!< end of the last pause frame sent before m_txStart (SendInGap)
    double m_ticksPerByte{0}; //!< simulator ticks per byte at m_rate
    uint64_t m_txFrames;      //!< frames sent
    uint64_t m_txBytes;       //!< bytes sent (FCS excluded)
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;
    RoceChannel* m_cable{nullptr}; //!< m_channel, without a Ptr copy per frame

    Ptr<RoceChannel> m_channel;
    Mac48Address m_address;
    DataRate m_rate;
    bool m_pfcEnabled;
    uint16_t m_pauseQuanta;

    /// A port's pause times and timers, per priority: made when the port first sends
    /// or receives a pause frame (most ports of a run never do; 576 bytes otherwise
    /// in each of a large fabric's ports).
    struct PfcTimers
    {
        std::array<Time, 8> pausedUntil;     //!< GetPeerPauseEnd per priority
        std::array<Time, 8> pauseStart;      //!< when the current pause began
        std::array<Time, 8> pausedTotal;     //!< accumulated paused time
        std::array<EventId, 8> pauseEvent;   //!< expiry of the peer's pause
        std::array<EventId, 8> refreshEvent; //!< refresh of our own pause request
    };

    /// \return the PFC timers, made on first use
    PfcTimers& Timers();

    std::unique_ptr<PfcTimers> m_pfcTimers; //!< null until a pause frame is sent or received
    uint8_t m_pauseIgnoredMask{0};          //!< priorities whose pauses are ignored
    bool m_linkDown{false};                 //!< SetLinkDown: the cable failed
    FctAttribution* m_attribution{nullptr}; //!< SetAttribution (nullptr: off)

    uint64_t m_pfcPausesSent{0};      //!< XOFF frames sent (quanta > 0)
    uint64_t m_pfcResumesSent{0};     //!< XON frames sent (quanta 0)
    uint64_t m_pfcPausesReceived{0};  //!< XOFF frames arrived
    uint64_t m_pfcResumesReceived{0}; //!< XON frames arrived

    TracedCallback<Ptr<const RoceNetDevice>, uint8_t, uint16_t, bool> m_pfcTrace;
    TracedCallback<Ptr<const RoceNetDevice>, uint8_t, uint16_t> m_pauseSentTrace;
    TracedCallback<Ptr<const RoceNetDevice>, uint8_t> m_resumeSentTrace;
    TracedCallback<Ptr<const RoceNetDevice>, uint8_t, uint16_t> m_pauseReceivedTrace;
    TracedCallback<Ptr<const RoceNetDevice>, uint8_t> m_resumeReceivedTrace;
};

} // namespace ns3

#endif // ROCE_NET_DEVICE_H
