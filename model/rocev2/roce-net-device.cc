/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-net-device.h"

#include "roce-channel.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-simulator.h"
#include "ns3/fct-attribution.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/trace-sinks.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <typeinfo>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNetDevice");

NS_OBJECT_ENSURE_REGISTERED(RoceNetDevice);

TypeId
RoceNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNetDevice")
            .SetParent<RdmaNetDevice>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port (bit/s)",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&RoceNetDevice::SetDataRate, &RoceNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest frame payload (IP packet) in bytes; 4200 fits a 4096-byte "
                          "RoCEv2 payload plus its headers",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&RoceNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(68, 9216))
            .AddAttribute("PfcEnabled",
                          "Honour received 802.1Qbb pause frames and send them when asked",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNetDevice::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PauseQuanta",
                          "Pause time carried by an XOFF frame, in quanta of 512 bit times "
                          "(65535, the maximum, as switches commonly send; refreshed at half "
                          "that time while the pause holds)",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&RoceNetDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(2, 65535))
            .AddTraceSource("PhyTxBegin",
                            "A frame starts on the wire",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame has fully arrived",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame sent or received, for pcap",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Pfc",
                            "A PFC frame's priority sent or received: its quanta tell a "
                            "pause (XOFF, quanta > 0) from a resume (XON, quanta 0), its "
                            "last argument sent (true) from received (false)",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_pfcTrace),
                            "ns3::RoceNetDevice::PfcTracedCallback")
            .AddTraceSource("PauseSent",
                            "This port asked its peer to stop a priority (an XOFF frame, "
                            "refreshes included): (device, priority, pause quanta); one call "
                            "per frame GetPfcPausesSent counts",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_pauseSentTrace),
                            "ns3::RoceNetDevice::PauseTracedCallback")
            .AddTraceSource("ResumeSent",
                            "This port let its peer resume a priority (an XON frame, quanta "
                            "0): (device, priority); one call per frame GetPfcResumesSent "
                            "counts",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_resumeSentTrace),
                            "ns3::RoceNetDevice::ResumeTracedCallback")
            .AddTraceSource("PauseReceived",
                            "A pause frame arrived asking this port to stop a priority: "
                            "(device, priority, pause quanta), once per enabled class with "
                            "quanta above 0, whether or not it is honoured (PFC off, link "
                            "down, watchdog)",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_pauseReceivedTrace),
                            "ns3::RoceNetDevice::PauseTracedCallback")
            .AddTraceSource("ResumeReceived",
                            "A PFC frame arrived letting this port resume a priority "
                            "(quanta 0): (device, priority), whether or not it is honoured",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_resumeReceivedTrace),
                            "ns3::RoceNetDevice::ResumeTracedCallback");
    return tid;
}

RoceNetDevice::RoceNetDevice()
    : m_ifIndex(0),
      m_busy(false),
      m_pausedMask(0),
      m_peerPausedMask(0),
      m_txFrames(0),
      m_txBytes(0),
      m_pfcEnabled(true),
      m_pauseQuanta(65535)
{
    m_mtu = 9000;
}

RoceNetDevice::~RoceNetDevice() = default;

void
RoceNetDevice::DoDispose()
{
    for (uint8_t i = 0; m_pfcTimers && i < 8; ++i)
    {
        m_pfcTimers->pauseEvent[i].Cancel();
        m_pfcTimers->refreshEvent[i].Cancel();
    }
    m_control.clear();
    m_channel = nullptr;
    m_cable = nullptr;
    m_outgoing = nullptr;
    m_owner = nullptr;
    RdmaNetDevice::DoDispose();
}

bool
RoceNetDevice::Attach(Ptr<RoceChannel> ch)
{
    m_channel = ch;
    m_cable = PeekPointer(ch);
    ch->Attach(this);
    return true;
}

void
RoceNetDevice::SetOwner(RocePortOwner* owner)
{
    m_owner = owner;
}

void
RoceNetDevice::NotifyDataAvailable()
{
    RequestTransmit();
}

void
RoceNetDevice::RequestTransmit()
{
    if (!m_busy)
    {
        TryTransmit();
        return;
    }
    if (m_completionPending)
    {
        return; // TransmitComplete will pull
    }
    // Busy without a completion event: the frame on the wire was sent when there
    // was nothing behind it. Pull now if it has left, else at its end.
    const int64_t now = FabricSimulator::NowTicks();
    if (now >= m_txEnd)
    {
        m_busy = false;
        TryTransmit();
    }
    else
    {
        ScheduleCompletion(m_txEnd - now);
    }
}

void
RoceNetDevice::TransmitNow(RoceParsedFrame& frame)
{
    m_busy = false; // (it may still be set for a frame that has ended)
    StartTransmission(frame);
}

void
RoceNetDevice::TransmitNowAlone(RoceParsedFrame& frame)
{
    NS_ASSERT_MSG(m_control.empty() &&
                      (m_owner == nullptr || !m_owner->HasFrame(*this, m_pausedMask)),
                  "TransmitNowAlone with frames waiting behind");
    PutOnWire(frame);
}

void
RoceNetDevice::CompleteCall(void* port, void* /* payload */)
{
    static_cast<RoceNetDevice*>(port)->TransmitComplete();
}

void
RoceNetDevice::ScheduleCompletion(int64_t delayTicks)
{
    m_completionPending = true;
    // A call: with the timing wheel, the port itself is what it loads first.
    static const FabricSimulator::CallOps complete{&RoceNetDevice::CompleteCall, nullptr};
    FabricSimulator::ScheduleCall(m_nodeId, delayTicks, &complete, this);
}

void
RoceNetDevice::TryTransmit()
{
    if (m_busy)
    {
        return;
    }
    RoceParsedFrame frame;
    if (!m_control.empty())
    {
        frame = std::move(m_control.front());
        m_control.pop_front();
        StartTransmission(frame);
        return;
    }
    if (m_owner != nullptr && m_owner->DequeueFrame(*this, m_pausedMask, frame))
    {
        StartTransmission(frame);
    }
}

void
RoceNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
    // Simulator ticks per byte, so that a frame's serialization time is one multiply:
    // DataRate::CalculateBytesTxTime goes through a 128-bit division per call, the
    // largest single cost of a packet hop in profiles before this cache.
    const uint64_t bps = rate.GetBitRate();
    m_ticksPerByte =
        bps == 0 ? 0.0
                 : 8.0 * static_cast<double>(Seconds(1).GetTimeStep()) / static_cast<double>(bps);
}

Time
RoceNetDevice::GetTransmitTime(uint32_t frameBytes) const
{
    return TimeStep(GetTransmitTicks(frameBytes));
}

uint64_t
RoceNetDevice::GetUnsentWireBytes() const
{
    if (!m_busy)
    {
        return 0; // (busy may outlast the frame when no completion was scheduled)
    }
    const int64_t ticks = m_txEnd - FabricSimulator::NowTicks();
    return ticks > 0 ? static_cast<uint64_t>(std::llround(ticks / m_ticksPerByte)) : 0;
}

void
RoceNetDevice::StartTransmission(RoceParsedFrame& frame)
{
    const int64_t txTicks = PutOnWire(frame);
    // The end of a transmission is an event only when something waits behind it:
    // an idle port (a switch port between two frames of a flow, most of them) would
    // otherwise cost an event per frame that finds nothing to send.
    if (!m_control.empty() || (m_owner != nullptr && m_owner->HasFrame(*this, m_pausedMask)))
    {
        ScheduleCompletion(txTicks);
    }
}

inline int64_t
RoceNetDevice::PutOnWire(RoceParsedFrame& frame)
{
    // Per-packet path: no NS_LOG_FUNCTION (its check alone costs ~2% of a run).
    m_busy = true;
    const int64_t now = FabricSimulator::NowTicks();
    const int64_t txTicks = GetTransmitTicks(frame.view.frameBytes);
    int64_t start = now;
    if (__builtin_expect(frame.view.journey != 0, false))
    {
        // (Attribution on: before readyTicks is cleared. A journey that ends at its
        // first hop leaves the frame: the next ones see none and may pack it.)
        if (!NoteJourney(frame, now, txTicks))
        {
            frame.view.journey = 0;
        }
    }
    if (frame.readyTicks != 0)
    {
        // A switch's frame (RoceSwitch: SwitchLatency, CutThrough): not before it is
        // ready, nor before the wire was free. Cut-through may put the start before
        // now (the frame arrived whole, its head earlier): the wire has been idle
        // since m_txEnd (PauseExpired moves it to a resume), and the frame's end is
        // never before now (the switch made it wait for its tail).
        start = std::max(frame.readyTicks, m_txEnd);
        frame.readyTicks = 0;
    }
    m_txStart = start;
    m_txEnd = start + txTicks;
    NS_ASSERT_MSG(m_txEnd >= now, "a frame ending before it arrived");
    Carry(frame, start - now, txTicks);
    return m_txEnd - now;
}

void
RoceNetDevice::Carry(RoceParsedFrame& frame, int64_t startIn, int64_t txTicks)
{
    m_txFrames++;
    m_txBytes += frame.view.frameBytes;
    if (HasSinks(m_phyTxBeginTrace) || HasSinks(m_promiscSnifferTrace))
    {
        FireTxTraces(frame.GetPacket(), startIn);
    }
    if (m_outgoing == nullptr)
    {
        m_outgoing = m_cable->GetDirectionFrom(this); // both ends are attached by now
        m_peer = m_outgoing->GetReceiver();
        m_peerNode = m_outgoing->GetReceiverNode();
        m_cableDelayTicks = m_outgoing->GetDelayTicks();
        m_plainCable = typeid(*m_cable) == typeid(RoceChannel);
    }
    // The frame's last bit leaves startIn + txTicks from now.
    const int64_t endIn = startIn + txTicks;
    if (!m_plainCable)
    {
        // A channel subclass (a remote channel, a test's) sees every frame.
        m_cable->TransmitStart(frame, this, TimeStep(endIn));
        return;
    }
    // RoceChannel::TransmitStart, devirtualized: the cable's direction is read only
    // without the timing wheel.
    RoceChannel::Direction::Carry(frame, m_peer, m_peerNode, endIn + m_cableDelayTicks);
}

void
RoceNetDevice::FireTxTraces(Ptr<Packet> p, int64_t startIn)
{
    if (startIn > 0)
    {
        // The frame waits for its switch's latency: trace it (pcap) when it starts.
        Simulator::Schedule(TimeStep(startIn), &RoceNetDevice::FireTxTraces, this, p, 0);
        return;
    }
    m_phyTxBeginTrace(p);
    m_promiscSnifferTrace(p);
}

bool
RoceNetDevice::NoteJourney(const RoceParsedFrame& frame, int64_t now, int64_t txTicks)
{
    // The start PutOnWire gives it, and the cable's delay (Carry keeps it only from the
    // port's first frame on).
    const int64_t ready = frame.readyTicks;
    const int64_t start = ready != 0 ? std::max(ready, m_txEnd) : now;
    const RoceFrameView& v = frame.view;
    return m_attribution->OnTransmit(v.journey,
                                     this,
                                     m_nodeId,
                                     GetPortIndex(),
                                     v.hasVlan ? v.pcp : static_cast<uint8_t>(v.dscp >> 3),
                                     ready,
                                     start,
                                     txTicks,
                                     m_outgoing != nullptr
                                         ? m_cableDelayTicks
                                         : m_cable->GetDirectionFrom(this)->GetDelayTicks());
}

bool
RoceNetDevice::SendInGap()
{
    // The wire is idle until the frame committed to it starts (its switch's latency):
    // a pause frame that fits before it goes now, as a real port would send it.
    const int64_t now = FabricSimulator::NowTicks();
    if (!m_busy || m_control.empty() || m_txStart <= now)
    {
        return false;
    }
    const int64_t begin = std::max(now, m_gapEnd); // after an earlier one in the gap
    const int64_t txTicks = GetTransmitTicks(m_control.front().view.frameBytes);
    if (begin + txTicks > m_txStart)
    {
        return false;
    }
    RoceParsedFrame frame = std::move(m_control.front());
    m_control.pop_front();
    m_gapEnd = begin + txTicks;
    Carry(frame, begin - now, txTicks);
    return true;
}

void
RoceNetDevice::TransmitComplete()
{
    m_completionPending = false;
    m_busy = false;
    TryTransmit();
}

void
RoceNetDevice::ForgetCable()
{
    m_outgoing = nullptr;
}

void
RoceNetDevice::Receive(RoceParsedFrame& frame)
{
    if (HasSinks(m_phyRxEndTrace))
    {
        m_phyRxEndTrace(frame.GetPacket());
    }
    if (HasSinks(m_promiscSnifferTrace))
    {
        m_promiscSnifferTrace(frame.GetPacket());
    }
    if (frame.view.isPfc)
    {
        HandlePfcFrame(frame.GetPacket());
        return;
    }
    if (m_owner != nullptr)
    {
        m_owner->ReceiveFrame(*this, frame);
    }
}

void
RoceNetDevice::HandlePfcFrame(const Ptr<Packet>& p)
{
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    PfcHeader pfc;
    p->PeekHeader(pfc);
    // A pause if any enabled class asks for time, a resume if all carry 0.
    bool pause = false;
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        pause = pause || (pfc.IsClassEnabled(prio) && pfc.GetPauseTime(prio) > 0);
    }
    (pause ? m_pfcPausesReceived : m_pfcResumesReceived)++;
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        if (pfc.IsClassEnabled(prio))
        {
            const uint16_t quanta = pfc.GetPauseTime(prio);
            if (quanta > 0)
            {
                m_pauseReceivedTrace(this, prio, quanta);
            }
            else
            {
                m_resumeReceivedTrace(this, prio);
            }
        }
    }
    if (!m_pfcEnabled || m_linkDown)
    {
        return;
    }
    PfcTimers& timers = Timers();
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        if (!pfc.IsClassEnabled(prio))
        {
            continue;
        }
        uint16_t quanta = pfc.GetPauseTime(prio);
        m_pfcTrace(this, prio, quanta, false);
        const Time pause = quanta == 0 ? Time(0) : PfcHeader::QuantaToTime(quanta, m_rate);
        timers.pausedUntil[prio] = FabricSimulator::Now() + pause;
        if ((m_pauseIgnoredMask >> prio) & 1)
        {
            continue; // the PFC watchdog mitigates a storm here
        }
        timers.pauseEvent[prio].Cancel();
        if (quanta == 0)
        {
            PauseExpired(prio);
            continue;
        }
        if (!(m_pausedMask & (1U << prio)))
        {
            m_pausedMask |= (1U << prio);
            timers.pauseStart[prio] = FabricSimulator::Now();
            if (m_attribution != nullptr)
            {
                m_attribution->OnPortBlocked(this, prio, true);
            }
        }
        timers.pauseEvent[prio] =
            Simulator::Schedule(pause, &RoceNetDevice::PauseExpired, this, prio);
    }
}

void
RoceNetDevice::PauseExpired(uint8_t prio)
{
    if (m_pausedMask & (1U << prio))
    {
        m_pausedMask &= ~(1U << prio);
        // (A paused priority was paused by a pause frame: the timers exist.)
        m_pfcTimers->pausedTotal[prio] += FabricSimulator::Now() - m_pfcTimers->pauseStart[prio];
        if (m_attribution != nullptr)
        {
            m_attribution->OnPortBlocked(this, prio, false);
        }
        // A switch's frame pulled now may not be backdated (cut-through) to before
        // the pause ended.
        m_txEnd = std::max(m_txEnd, FabricSimulator::NowTicks());
        RequestTransmit();
    }
}

void
RoceNetDevice::SetPeerPaused(uint8_t prio, bool paused)
{
    if (!m_pfcEnabled || paused == IsPeerPaused(prio))
    {
        return;
    }
    if (paused)
    {
        m_peerPausedMask |= (1U << prio);
        SendPfcFrame(prio, m_pauseQuanta);
    }
    else
    {
        m_peerPausedMask &= ~(1U << prio);
        Timers().refreshEvent[prio].Cancel();
        SendPfcFrame(prio, 0);
    }
}

void
RoceNetDevice::RefreshPause(uint8_t prio)
{
    if (IsPeerPaused(prio))
    {
        SendPfcFrame(prio, m_pauseQuanta);
    }
}

void
RoceNetDevice::SendPfcFrame(uint8_t prio, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +prio << quanta);
    PfcHeader pfc;
    pfc.SetPauseTime(prio, quanta);
    Ptr<Packet> p = Create<Packet>();
    RoceFrame::EncapsulatePfc(p, m_address, pfc);
    RoceFrameView view;
    RoceFrame::Peek(*p, view); // once per pause frame, off the data path
    m_control.push_back(RoceParsedFrame(p, view));
    (quanta > 0 ? m_pfcPausesSent : m_pfcResumesSent)++;
    m_pfcTrace(this, prio, quanta, true);
    if (quanta > 0)
    {
        m_pauseSentTrace(this, prio, quanta);
    }
    else
    {
        m_resumeSentTrace(this, prio);
    }
    if (quanta > 0)
    {
        // Refresh at half the pause time so the peer never resumes while we still need it.
        EventId& refresh = Timers().refreshEvent[prio];
        refresh.Cancel();
        refresh = Simulator::Schedule(PfcHeader::QuantaToTime(quanta, m_rate) / 2,
                                      &RoceNetDevice::RefreshPause,
                                      this,
                                      prio);
    }
    SendInGap();
    if (!m_control.empty())
    {
        RequestTransmit();
    }
}

bool
RoceNetDevice::IsPeerPaused(uint8_t prio) const
{
    return m_peerPausedMask & (1U << prio);
}

bool
RoceNetDevice::IsPausedByPeer(uint8_t prio) const
{
    return m_pausedMask & (1U << prio);
}

uint8_t
RoceNetDevice::GetPausedMask() const
{
    return m_pausedMask;
}

DataRate
RoceNetDevice::GetDataRate() const
{
    return m_rate;
}

Ptr<RoceChannel>
RoceNetDevice::GetRoceChannel() const
{
    return m_channel;
}

uint64_t
RoceNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

uint64_t
RoceNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
RoceNetDevice::GetPfcPausesSent() const
{
    return m_pfcPausesSent;
}

uint64_t
RoceNetDevice::GetPfcResumesSent() const
{
    return m_pfcResumesSent;
}

uint64_t
RoceNetDevice::GetPfcPausesReceived() const
{
    return m_pfcPausesReceived;
}

uint64_t
RoceNetDevice::GetPfcResumesReceived() const
{
    return m_pfcResumesReceived;
}

// NS_DEPRECATED: GetPauseFramesSent and GetPauseFramesReceived (until bef3edc)
uint64_t
RoceNetDevice::GetPauseFramesSent() const
{
    return m_pfcPausesSent + m_pfcResumesSent;
}

uint64_t
RoceNetDevice::GetPauseFramesReceived() const
{
    return m_pfcPausesReceived + m_pfcResumesReceived;
}

RoceNetDevice::PfcTimers&
RoceNetDevice::Timers()
{
    if (!m_pfcTimers)
    {
        m_pfcTimers = std::make_unique<PfcTimers>();
    }
    return *m_pfcTimers;
}

Time
RoceNetDevice::GetPauseStart(uint8_t prio) const
{
    static const std::array<Time, 8> never{}; // no pause frame yet
    return (m_pfcTimers ? m_pfcTimers->pauseStart : never).at(prio);
}

Time
RoceNetDevice::GetPeerPauseEnd(uint8_t prio) const
{
    static const std::array<Time, 8> never{}; // no pause frame yet
    return (m_pfcTimers ? m_pfcTimers->pausedUntil : never).at(prio);
}

void
RoceNetDevice::SetPauseIgnored(uint8_t prio, bool ignored)
{
    NS_ASSERT(prio < 8);
    const auto bit = static_cast<uint8_t>(1U << prio);
    if (ignored)
    {
        m_pauseIgnoredMask |= bit;
        if (m_pfcTimers)
        {
            m_pfcTimers->pauseEvent[prio].Cancel();
        }
        PauseExpired(prio);
    }
    else
    {
        m_pauseIgnoredMask &= static_cast<uint8_t>(~bit);
    }
}

bool
RoceNetDevice::IsPauseIgnored(uint8_t prio) const
{
    return ((m_pauseIgnoredMask >> prio) & 1) != 0;
}

Time
RoceNetDevice::GetPausedTime(uint8_t prio) const
{
    if (!m_pfcTimers)
    {
        return Time(0); // never paused
    }
    Time t = m_pfcTimers->pausedTotal[prio];
    if (m_pausedMask & (1U << prio))
    {
        t += FabricSimulator::Now() - m_pfcTimers->pauseStart[prio];
    }
    return t;
}

void
RoceNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RoceNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RoceNetDevice::GetChannel() const
{
    return m_channel;
}

void
RoceNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
RoceNetDevice::GetAddress() const
{
    return m_address;
}

bool
RoceNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && !m_linkDown;
}

void
RoceNetDevice::SetLinkDown(bool down)
{
    m_linkDown = down;
    if (!down)
    {
        return;
    }
    // No resume can cross a dead cable: end the partner's pauses here now.
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        if (m_pfcTimers)
        {
            m_pfcTimers->pauseEvent[prio].Cancel();
        }
        PauseExpired(prio);
    }
}

void
RoceNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
RoceNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t protocolNumber)
{
    // RDMA traffic bypasses this: its frames come from the owner's dequeue. A host's
    // IP stack hands its packets here; the NIC frames them (RoceNic::SendPacket) and
    // resolves the next hop from the IPv4 destination itself (NeedsArp is false, so
    // the stack passes the broadcast address).
    if (m_owner == nullptr)
    {
        return false;
    }
    return m_owner->SendPacket(*this, packet, protocolNumber);
}

void
RoceNetDevice::SetNode(Ptr<Node> node)
{
    RdmaNetDevice::SetNode(node);
    m_nodeId = node ? node->GetId() : 0;
    if (m_cable != nullptr)
    {
        m_cable->NotifyNodeChanged(this);
    }
}

uint32_t
RoceNetDevice::GetPcapLinkType() const
{
    return RoceFabric::PCAP_LINK_TYPE;
}

void
RoceNetDevice::HookPcap(Ptr<PcapFileWrapper> file)
{
    PcapHelper().HookDefaultSink<NetDevice>(Ptr<NetDevice>(this), "PromiscSniffer", file);
}

RdmaNetDevice::AsciiTraceSources
RoceNetDevice::GetAsciiTraceSources() const
{
    return {"PhyTxBegin", "PhyRxEnd", ""};
}

} // namespace ns3
