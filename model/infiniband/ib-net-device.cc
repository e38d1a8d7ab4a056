/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-net-device.h"

#include "ib-channel.h"
#include "ib-fabric.h"
#include "ib-journey-tag.h"
#include "ib-pcap-writer.h"
#include "vl-arbiter.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-simulator.h"
#include "ns3/fct-attribution.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/rounded-time.h"
#include "ns3/simulator.h"
#include "ns3/trace-sinks.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbNetDevice");

NS_OBJECT_ENSURE_REGISTERED(IbNetDevice);

TypeId
IbNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbNetDevice")
            .SetParent<RdmaNetDevice>()
            .SetGroupName("AiFabric")
            .AddConstructor<IbNetDevice>()
            .AddAttribute(
                "DataRate",
                "Link data rate (4x EDR 100, HDR 200, NDR 400, XDR 800 Gb/s)",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&IbNetDevice::SetDataRate, &IbNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("NumDataVls",
                          "Data VLs in use (VL0..n-1; the IBTA allows up to 15). 2 lets the "
                          "torus dateline classes use VL0/VL1",
                          UintegerValue(2),
                          MakeUintegerAccessor(&IbNetDevice::m_numDataVls),
                          MakeUintegerChecker<uint8_t>(1, MAX_DATA_VLS))
            .AddAttribute("VlBufferBytes",
                          "Receive buffer per data VL, bytes (whole 64-byte credits), 64.."
                          "131072: at most 2048 blocks, as the 12-bit credit counters cannot "
                          "advertise more (IBTA Vol. 1, 7.9.4). 0 (default) = automatic: the "
                          "link's credit round trip (GetCreditRoundTripBytes: rate x (2 x "
                          "cable delay + the receiver's hold time) + 2 maximum packets + the "
                          "6-byte flow-control packet), at least 64 KiB, at most 128 KiB "
                          "(logged as a warning when the round trip needs more). A ScaleUp "
                          "port (not InfiniBand) ignores it and is always automatic, up to "
                          "2 MiB",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbNetDevice::SetVlBufferBytes,
                                               &IbNetDevice::GetVlBufferBytesAttribute),
                          MakeUintegerChecker<uint32_t>(0, MAX_VL_BUFFER_BLOCKS * 64))
            .AddAttribute("ScaleUp",
                          "A scale-up port: one end of a GPU's NVLink-class cable to its "
                          "server's crossbar (IbFabricHelper sets it on both ends of "
                          "TopologyGraph's scale-up cables; both ends must agree). NVLink's "
                          "link-level flow control is credit-based but not IBTA's, so the "
                          "12-bit counters' cap does not apply: the credit counters are 16 "
                          "bits wide (the model's choice; NVIDIA publishes no width) and the "
                          "buffer is sized to the credit round trip (as VlBufferBytes 0, "
                          "which it ignores), up to 32768 blocks (2 MiB). false (default): "
                          "an InfiniBand port",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbNetDevice::SetScaleUp, &IbNetDevice::IsScaleUp),
                          MakeBooleanChecker())
            .AddAttribute("FlowControlPeriod",
                          "Period of the unconditional flow-control refresh while the link is "
                          "active (the IBTA asks for one at least every 65,536 symbol times, "
                          "~2.5 us at 25 Gbaud per lane)",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&IbNetDevice::m_fcPeriod),
                          MakeTimeChecker(NanoSeconds(10)))
            .AddTraceSource("PhyTxBegin",
                            "A data packet starts on the wire",
                            MakeTraceSourceAccessor(&IbNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every data packet, LRH to VCRC, for pcap: sent when its first bit "
                            "goes on the wire, received when its head arrives. Flow-control "
                            "packets are not packets of the model (ReceiveFlowControl)",
                            MakeTraceSourceAccessor(&IbNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("LinkDownDrop",
                            "A data packet was lost because the cable failed while it was on it",
                            MakeTraceSourceAccessor(&IbNetDevice::m_linkDownDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Credits",
                            "Credits (64-byte blocks) left on a VL after a packet was sent",
                            MakeTraceSourceAccessor(&IbNetDevice::m_creditTrace),
                            "ns3::IbNetDevice::CreditsCallback")
            .AddTraceSource("CreditStall",
                            "A VL's head packet could not be sent for want of credits when the "
                            "wire was free: (VL, 64-byte blocks the packet needs, blocks of "
                            "credit left); one call per stall GetCreditStalls counts",
                            MakeTraceSourceAccessor(&IbNetDevice::m_creditStallTrace),
                            "ns3::IbNetDevice::CreditStallCallback");
    return tid;
}

IbNetDevice::IbNetDevice()
    : m_ifIndex(0),
      m_address(Mac48Address()),
      m_rate(DataRate("100Gbps")),
      m_numDataVls(2),
      m_vlBufferBytes(0),
      m_vlBufferBlocks(AUTO_MIN_VL_BUFFER_BYTES / IbFrame::BLOCK_BYTES),
      m_fcPeriod(MicroSeconds(2)),
      m_busy(false),
      m_fcPending(0),
      m_active(false),
      m_txPackets(0),
      m_txBytes(0),
      m_fcSent(0),
      m_overflows(0),
      m_negative(0),
      m_stalls(0),
      m_rxPackets(0),
      m_linkDownDrops(0),
      m_linkUp(true)
{
    m_mtu = 4096;
    m_arbiter = CreateObject<VlArbiter>();
}

IbNetDevice::~IbNetDevice() = default;

void
IbNetDevice::DoDispose()
{
    m_fcTimer.Cancel();
    m_channel = nullptr;
    m_arbiter = nullptr;
    m_head = HeadCallback();
    m_dequeue = DequeueCallback();
    m_frameCallback = FrameCallback();
    m_send = SendCallback();
    RdmaNetDevice::DoDispose();
}

bool
IbNetDevice::Attach(Ptr<IbChannel> ch)
{
    m_channel = ch;
    ch->Attach(this);
    UpdateVlBufferBlocks();
    return true;
}

void
IbNetDevice::SetVlBufferBytes(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes != 0 && bytes < IbFrame::BLOCK_BYTES,
                    "IbNetDevice VlBufferBytes = " << bytes
                                                   << ": allowed 0 (automatic) or 64..131072");
    m_vlBufferBytes = bytes;
    UpdateVlBufferBlocks();
}

void
IbNetDevice::SetScaleUp(bool scaleUp)
{
    m_counterMask = scaleUp ? SCALE_UP_COUNTER_MASK : COUNTER_MASK;
    UpdateVlBufferBlocks();
}

uint32_t
IbNetDevice::GetVlBufferBytesAttribute() const
{
    return m_vlBufferBytes;
}

void
IbNetDevice::SetReceiverHoldTime(Time hold)
{
    m_holdTime = hold;
    UpdateVlBufferBlocks();
}

uint32_t
IbNetDevice::GetMaxPacketBytes() const
{
    return m_mtu + MAX_HEADER_BYTES;
}

uint64_t
IbNetDevice::GetCreditRoundTripBytes() const
{
    if (!m_channel)
    {
        return 0;
    }
    // bytes = rate x time: bit/s x ps / 8e12, rounded up
    const uint64_t ps = static_cast<uint64_t>(
        std::max<int64_t>((m_channel->GetDelay() * 2 + m_holdTime).GetPicoSeconds(), 0));
    const __uint128_t bits = static_cast<__uint128_t>(m_rate.GetBitRate()) * ps;
    const uint64_t wire = static_cast<uint64_t>((bits + 8000000000000ULL - 1) / 8000000000000ULL);
    const uint64_t packet = IbFrame::Blocks(GetMaxPacketBytes()) * IbFrame::BLOCK_BYTES;
    const uint64_t bytes = wire + 2 * packet + FC_PACKET_BYTES;
    return (bytes + IbFrame::BLOCK_BYTES - 1) / IbFrame::BLOCK_BYTES * IbFrame::BLOCK_BYTES;
}

void
IbNetDevice::UpdateVlBufferBlocks()
{
    if (m_vlBufferBytes != 0 && !IsScaleUp())
    {
        m_vlBufferBlocks = m_vlBufferBytes / IbFrame::BLOCK_BYTES;
        return;
    }
    const uint64_t need = GetCreditRoundTripBytes() / IbFrame::BLOCK_BYTES;
    const uint64_t floor = AUTO_MIN_VL_BUFFER_BYTES / IbFrame::BLOCK_BYTES;
    const uint32_t cap = GetMaxVlBufferBlocks();
    m_vlBufferBlocks = static_cast<uint32_t>(std::min<uint64_t>(std::max(need, floor), cap));
    if (need > cap)
    {
        NS_LOG_WARN("node " << (m_node ? m_node->GetId() : 0) << " port " << m_ifIndex
                            << ": the credit round trip needs " << need * IbFrame::BLOCK_BYTES
                            << " B of VL buffer, above the credit counters' cap of " << cap
                            << " blocks (" << cap * IbFrame::BLOCK_BYTES
                            << " B): the link cannot run at line rate");
    }
}

void
IbNetDevice::InitializeCredits()
{
    Ptr<IbNetDevice> peer = m_channel->GetPeer(this);
    NS_ABORT_MSG_IF(peer->m_numDataVls != m_numDataVls,
                    "IB link ends disagree on NumDataVls (" << +m_numDataVls << " vs "
                                                            << +peer->m_numDataVls << ")");
    NS_ABORT_MSG_IF(peer->m_counterMask != m_counterMask,
                    "IB link ends disagree on ScaleUp (" << IsScaleUp() << " vs "
                                                         << peer->IsScaleUp() << ")");
    for (uint8_t vl = 0; vl < m_numDataVls; ++vl)
    {
        // At the first bring-up the peer's buffer is empty and its ABR 0: its whole
        // buffer; after a failure, what it has free (IBTA Vol. 1, 7.9.4).
        m_fctbs[vl] = 0;
        m_fccl[vl] = peer->AdvertisedLimit(vl);
    }
    if (m_arbiter->GetHighTable().empty() && m_arbiter->GetLowTable().empty())
    {
        m_arbiter->SetDefaultTables(m_numDataVls);
    }
}

void
IbNetDevice::SetHeadCallback(HeadCallback cb)
{
    m_head = cb;
}

void
IbNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeue = cb;
}

void
IbNetDevice::SetFrameCallback(FrameCallback cb)
{
    m_frameCallback = cb;
}

IbNetDevice::HeadCallback
IbNetDevice::GetHeadCallback() const
{
    return m_head;
}

IbNetDevice::DequeueCallback
IbNetDevice::GetDequeueCallback() const
{
    return m_dequeue;
}

IbNetDevice::FrameCallback
IbNetDevice::GetFrameCallback() const
{
    return m_frameCallback;
}

void
IbNetDevice::SetSendCallback(SendCallback cb)
{
    m_send = cb;
}

uint8_t
IbNetDevice::GetNumDataVls() const
{
    return m_numDataVls;
}

uint32_t
IbNetDevice::GetAvailableCredits(uint8_t vl) const
{
    uint32_t c = (m_fccl[vl] - m_fctbs[vl]) & m_counterMask;
    return c > GetMaxVlBufferBlocks() ? 0 : c;
}

uint32_t
IbNetDevice::GetUsedBlocks(uint8_t vl) const
{
    return m_used[vl];
}

Ptr<VlArbiter>
IbNetDevice::GetArbiter() const
{
    return m_arbiter;
}

DataRate
IbNetDevice::GetDataRate() const
{
    return m_rate;
}

void
IbNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
    m_txTimes.fill(TxTimeSlot{});
    UpdateVlBufferBlocks();
}

Time
IbNetDevice::GetTransmitTime(uint32_t bytes) const
{
    for (const TxTimeSlot& slot : m_txTimes)
    {
        if (slot.bytes == bytes)
        {
            return TimeStep(slot.ticks);
        }
    }
    // Not among the sizes remembered: replace them in turn.
    TxTimeSlot& slot = m_txTimes[m_nextTxTime];
    m_nextTxTime = (m_nextTxTime + 1) % m_txTimes.size();
    slot.bytes = bytes;
    slot.ticks = RoundedTxTime(m_rate, bytes).GetTimeStep();
    return TimeStep(slot.ticks);
}

Ptr<IbChannel>
IbNetDevice::GetIbChannel() const
{
    return m_channel;
}

void
IbNetDevice::NotifyDataAvailable()
{
    TryTransmit();
}

uint16_t
IbNetDevice::AdvertisedLimit(uint8_t vl) const
{
    uint32_t freeBlocks = GetVlBufferBlocks() - m_used[vl];
    return static_cast<uint16_t>((m_abr[vl] + freeBlocks) & m_counterMask);
}

void
IbNetDevice::NotifyLinkDown()
{
    if (!m_linkUp)
    {
        return;
    }
    NS_LOG_INFO("node " << (m_node ? m_node->GetId() : 0) << " port " << m_ifIndex
                        << ": link down");
    m_linkUp = false;
    m_fcPending = 0;
    m_fcTimer.Cancel();
    m_linkChangeCallbacks();
}

void
IbNetDevice::NotifyLinkUp()
{
    if (m_linkUp)
    {
        return;
    }
    NS_LOG_INFO("node " << (m_node ? m_node->GetId() : 0) << " port " << m_ifIndex << ": link up");
    m_linkUp = true;
    m_abr.fill(0);
    m_linkChangeCallbacks();
}

void
IbNetDevice::TryTransmit()
{
    if (m_busy || !m_channel || !m_linkUp)
    {
        return;
    }
    if (m_fcPending)
    {
        // Flow-control packets go first: they unblock the peer.
        uint8_t vl = 0;
        while (!(m_fcPending & (1U << vl)))
        {
            ++vl;
        }
        m_fcPending &= static_cast<uint16_t>(~(1U << vl));
        Time tx = GetTransmitTime(FC_PACKET_BYTES);
        m_busy = true;
        m_fcSent++;
        m_channel->TransmitFlowControl(this, vl, m_fctbs[vl], AdvertisedLimit(vl), tx);
        ScheduleCompletion(tx);
        return;
    }
    if (m_head.IsNull())
    {
        return;
    }
    uint16_t eligible = 0;
    uint16_t stalled = 0;
    for (uint8_t vl = 0; vl < m_numDataVls; ++vl)
    {
        uint32_t bytes = m_head(this, vl);
        if (bytes == 0)
        {
            continue;
        }
        uint32_t raw = (m_fccl[vl] - m_fctbs[vl]) & m_counterMask;
        if (raw > GetMaxVlBufferBlocks())
        {
            m_negative++; // FCTBS ran past FCCL: a flow-control bug
            continue;
        }
        if (IbFrame::Blocks(bytes) <= raw)
        {
            eligible |= static_cast<uint16_t>(1U << vl);
        }
        else
        {
            stalled |= static_cast<uint16_t>(1U << vl);
            m_stalls++;
            if (__builtin_expect(HasSinks(m_creditStallTrace), false))
            {
                TraceCreditStall(vl, bytes, raw);
            }
        }
    }
    if (__builtin_expect(m_attribution != nullptr, false))
    {
        NoteCreditStarvation(stalled);
    }
    if (!eligible)
    {
        return;
    }
    uint8_t vl = m_arbiter->Pick(eligible);
    Ptr<Packet> p = m_dequeue(this, vl);
    NS_ASSERT_MSG(p, "owner announced a head packet on VL " << +vl << " but gave none");
    uint32_t bytes = p->GetSize();
    m_arbiter->Charge(bytes);
    m_fctbs[vl] = static_cast<uint16_t>((m_fctbs[vl] + IbFrame::Blocks(bytes)) & m_counterMask);
    m_txPackets++;
    m_txBytes += bytes;
    m_txVlBytes[vl] += bytes;
    NoteActivity();
    m_creditTrace(vl, GetAvailableCredits(vl));
    m_phyTxBeginTrace(p);
    if (HasSinks(m_promiscSnifferTrace))
    {
        m_promiscSnifferTrace(p);
    }
    Time tx = GetTransmitTime(bytes);
    m_busy = true;
    if (__builtin_expect(m_attribution != nullptr, false))
    {
        NoteJourney(p, vl, tx);
    }
    m_channel->TransmitStart(p, this, tx);
    ScheduleCompletion(tx);
}

void
IbNetDevice::NoteCreditStarvation(uint16_t stalled)
{
    // A VL whose head packet lacks credits is blocked until one is sent or fits.
    for (uint8_t vl = 0; vl < m_numDataVls; ++vl)
    {
        m_attribution->OnPortBlocked(this, vl, ((stalled >> vl) & 1) != 0);
    }
}

void
IbNetDevice::NoteJourney(Ptr<Packet> p, uint8_t vl, Time tx)
{
    IbJourneyTag tag;
    if (p->PeekPacketTag(tag))
    {
        const bool followed = m_attribution->OnTransmit(tag.GetJourney(),
                                                        this,
                                                        GetNode()->GetId(),
                                                        m_ifIndex,
                                                        vl,
                                                        0,
                                                        FabricSimulator::NowTicks(),
                                                        tx.GetTimeStep(),
                                                        m_channel->GetDelay().GetTimeStep());
        if (!followed)
        {
            p->RemovePacketTag(tag); // (its journey ended at this first hop)
        }
    }
}

void
IbNetDevice::ScheduleCompletion(Time tx)
{
    // In the running event's context, as Simulator::Schedule would.
    static const FabricSimulator::CallOps complete{&IbNetDevice::CompleteCall, nullptr};
    FabricSimulator::ScheduleCall(FabricSimulator::Context(), tx.GetTimeStep(), &complete, this);
}

void
IbNetDevice::CompleteCall(void* port, void* /* payload */)
{
    static_cast<IbNetDevice*>(port)->TransmitComplete();
}

void
IbNetDevice::TransmitComplete()
{
    m_busy = false;
    TryTransmit();
}

void
IbNetDevice::Receive(Ptr<Packet> p, Time txTime)
{
    m_rxPackets++;
    if (!m_linkUp)
    {
        // Its head had not reached this end when the cable failed: lost on the cable.
        // Our buffer never held it, so no credits change.
        m_linkDownDrops++;
        m_linkDownDropTrace(p);
        return;
    }
    if (HasSinks(m_promiscSnifferTrace))
    {
        m_promiscSnifferTrace(p);
    }
    IbFrameView v;
    if (!IbFrame::Peek(p, v))
    {
        NS_LOG_WARN("truncated IB packet dropped");
        return;
    }
    uint32_t blocks = IbFrame::Blocks(v.packetBytes);
    if (v.vl >= m_numDataVls || m_used[v.vl] + blocks > GetVlBufferBlocks())
    {
        // The sender ignored our limit: never happens unless flow control is broken.
        m_overflows++;
        NS_LOG_ERROR("credit overflow on VL " << +v.vl << ": " << blocks << " blocks, "
                                              << m_used[v.vl] << " used");
        return;
    }
    m_used[v.vl] += blocks;
    m_abr[v.vl] = static_cast<uint16_t>((m_abr[v.vl] + blocks) & m_counterMask);
    NoteActivity();
    if (!m_frameCallback.IsNull())
    {
        m_frameCallback(this, p, v, txTime);
    }
}

void
IbNetDevice::ReleaseBlocks(uint8_t vl, uint32_t blocks)
{
    NS_ASSERT_MSG(m_used[vl] >= blocks, "releasing more blocks than held on VL " << +vl);
    m_used[vl] -= blocks;
    MarkFlowControl(vl);
}

void
IbNetDevice::ReceiveFlowControl(uint8_t vl, uint16_t fctbs, uint16_t fccl)
{
    if (vl >= m_numDataVls || !m_linkUp)
    {
        return; // a flow-control packet still on a failed cable is lost
    }
    // The peer's FCTBS counts every block it sent before this packet, all of which
    // have reached us (the link is FIFO): resynchronise the ABR with it.
    m_abr[vl] = fctbs & m_counterMask;
    m_fccl[vl] = fccl & m_counterMask;
    TryTransmit();
}

void
IbNetDevice::MarkFlowControl(uint8_t vl)
{
    if (!m_linkUp)
    {
        return; // nobody listens on a failed cable
    }
    m_fcPending |= static_cast<uint16_t>(1U << vl);
    TryTransmit();
}

void
IbNetDevice::NoteActivity()
{
    m_active = true;
    if (!m_fcTimer.IsRunning() && !m_fcPeriod.IsZero())
    {
        m_fcTimer = Simulator::Schedule(m_fcPeriod, &IbNetDevice::PeriodicFlowControl, this);
    }
}

void
IbNetDevice::PeriodicFlowControl()
{
    if (!m_active || !m_linkUp)
    {
        return; // idle or failed link: stop refreshing until traffic resumes
    }
    m_active = false;
    for (uint8_t vl = 0; vl < m_numDataVls; ++vl)
    {
        m_fcPending |= static_cast<uint16_t>(1U << vl);
    }
    m_fcTimer = Simulator::Schedule(m_fcPeriod, &IbNetDevice::PeriodicFlowControl, this);
    TryTransmit();
}

uint64_t
IbNetDevice::GetTxPackets() const
{
    return m_txPackets;
}

uint64_t
IbNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
IbNetDevice::GetTxBytesOnVl(uint8_t vl) const
{
    return m_txVlBytes.at(vl);
}

uint64_t
IbNetDevice::GetFlowControlPacketsSent() const
{
    return m_fcSent;
}

uint64_t
IbNetDevice::GetCreditOverflows() const
{
    return m_overflows;
}

uint64_t
IbNetDevice::GetNegativeCreditEvents() const
{
    return m_negative;
}

void
IbNetDevice::TraceCreditStall(uint8_t vl, uint32_t bytes, uint32_t credits)
{
    m_creditStallTrace(vl, IbFrame::Blocks(bytes), credits);
}

uint64_t
IbNetDevice::GetCreditStalls() const
{
    return m_stalls;
}

uint64_t
IbNetDevice::GetRxPackets() const
{
    return m_rxPackets;
}

uint64_t
IbNetDevice::GetLinkDownDrops() const
{
    return m_linkDownDrops;
}

void
IbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
IbNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
IbNetDevice::GetChannel() const
{
    return m_channel;
}

void
IbNetDevice::SetAddress(Address address)
{
    m_address = address;
}

Address
IbNetDevice::GetAddress() const
{
    return m_address;
}

bool
IbNetDevice::SetMtu(const uint16_t mtu)
{
    RdmaNetDevice::SetMtu(mtu);
    UpdateVlBufferBlocks();
    return true;
}

bool
IbNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_linkUp;
}

void
IbNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
IbNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    // RDMA traffic enters through the owner's dequeue callback. The node's protocol
    // stack sends here: IP over InfiniBand frames it (IpoibInterface), if enabled.
    return !m_send.IsNull() && m_send(packet, dest, protocolNumber);
}

namespace
{

/// The records of an IB port's pcap from a trace helper: IbFabric's PcapFormat default
/// (Config::SetDefault("ns3::IbFabric::PcapFormat", ...) chooses)
IbPcapWriter::Format
DefaultPcapFormat()
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(IbFabric::GetTypeId().LookupAttributeByName("PcapFormat", &info));
    return static_cast<IbPcapWriter::Format>(
        DynamicCast<const EnumValue>(info.initialValue)->Get());
}

} // namespace

uint32_t
IbNetDevice::GetPcapLinkType() const
{
    return IbPcapWriter::GetLinkType(DefaultPcapFormat());
}

void
IbNetDevice::HookPcap(Ptr<PcapFileWrapper> file)
{
    IbPcapWriter::Attach(Ptr<NetDevice>(this), file, DefaultPcapFormat());
}

RdmaNetDevice::AsciiTraceSources
IbNetDevice::GetAsciiTraceSources() const
{
    return {"PhyTxBegin", "", "LinkDownDrop"};
}

} // namespace ns3
