/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sharp-hca-port.h"

#include "ib-hca.h"
#include "sharp-header.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharpHcaPort");

NS_OBJECT_ENSURE_REGISTERED(SharpHcaPort);

namespace
{

/// (epoch, operation) as one key
uint64_t
OpKey(uint16_t epoch, uint32_t operation)
{
    return (static_cast<uint64_t>(epoch) << 32) | operation;
}

} // namespace

TypeId
SharpHcaPort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SharpHcaPort")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<SharpHcaPort>();
    return tid;
}

SharpHcaPort::SharpHcaPort() = default;

SharpHcaPort::~SharpHcaPort() = default;

void
SharpHcaPort::DoDispose()
{
    m_hca = nullptr;
    m_device = nullptr;
    m_innerHead = IbNetDevice::HeadCallback();
    m_innerDequeue = IbNetDevice::DequeueCallback();
    m_innerFrame = IbNetDevice::FrameCallback();
    m_trees.clear();
    m_staged = nullptr;
    Object::DoDispose();
}

void
SharpHcaPort::Attach(Ptr<IbHca> hca)
{
    NS_ABORT_MSG_IF(m_hca, "SharpHcaPort attached twice");
    m_hca = hca;
    m_device = hca->GetDevice();
    m_host = hca->GetHostIndex();
    m_lid = hca->GetLid();
    m_mtu = hca->GetMtu();
    m_innerHead = m_device->GetHeadCallback();
    m_innerDequeue = m_device->GetDequeueCallback();
    m_innerFrame = m_device->GetFrameCallback();
    m_device->SetHeadCallback(MakeCallback(&SharpHcaPort::Head, this));
    m_device->SetDequeueCallback(MakeCallback(&SharpHcaPort::Dequeue, this));
    m_device->SetFrameCallback(MakeCallback(&SharpHcaPort::Receive, this));
}

void
SharpHcaPort::JoinTree(uint16_t tree, uint16_t parentLid, uint64_t windowBytes, ResultCallback cb)
{
    NS_ABORT_MSG_IF(m_trees.count(tree),
                    "host " << m_host << " joined SHARP tree " << tree << " twice");
    Tree& t = m_trees[tree];
    t.parentLid = parentLid;
    t.window = windowBytes;
    t.cb = cb;
}

void
SharpHcaPort::LeaveTree(uint16_t tree)
{
    m_trees.erase(tree);
}

uint64_t
SharpHcaPort::GetFramesSent() const
{
    return m_sent;
}

uint64_t
SharpHcaPort::GetFramesReceived() const
{
    return m_received;
}

uint64_t
SharpHcaPort::GetPeakOutstanding() const
{
    return m_peakOutstanding;
}

void
SharpHcaPort::SendOperation(uint16_t tree, uint16_t epoch, uint32_t operation, uint64_t bytes)
{
    auto it = m_trees.find(tree);
    NS_ABORT_MSG_IF(it == m_trees.end(), "host " << m_host << " is not in SHARP tree " << tree);
    const uint64_t frames = std::max<uint64_t>(1, (bytes + m_mtu - 1) / m_mtu);
    NS_ABORT_MSG_IF(frames > 0xFFFF,
                    "SHARP operation of " << bytes << " bytes needs " << frames
                                          << " frames; at most 65535 (smaller chunks)");
    Operation op;
    op.epoch = epoch;
    op.operation = operation;
    op.bytes = bytes;
    op.frames = static_cast<uint16_t>(frames);
    op.remaining = bytes;
    it->second.queue.push_back(op);
    Admit(it->second);
    m_device->NotifyDataAvailable();
}

void
SharpHcaPort::Admit(Tree& t)
{
    while (t.admitted < t.queue.size())
    {
        const Operation& op = t.queue[t.admitted];
        if (t.outstanding > 0 && t.outstanding + op.bytes > t.window)
        {
            return;
        }
        t.outstanding += op.bytes;
        t.inFlight[OpKey(op.epoch, op.operation)] = op.bytes;
        t.admitted++;
        m_peakOutstanding = std::max(m_peakOutstanding, t.outstanding);
    }
}

void
SharpHcaPort::Stage()
{
    if (m_staged || m_trees.empty())
    {
        return;
    }
    // Round robin over the trees with an admitted operation, from the one after the last.
    auto it = m_trees.upper_bound(m_lastTree);
    for (size_t i = 0; i < m_trees.size(); ++i, ++it)
    {
        if (it == m_trees.end())
        {
            it = m_trees.begin();
        }
        if (it->second.admitted > 0)
        {
            break;
        }
    }
    if (it == m_trees.end() || it->second.admitted == 0)
    {
        return;
    }
    Tree& t = it->second;
    m_lastTree = it->first;
    Operation& op = t.queue.front();
    const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(op.remaining, m_mtu));
    SharpHeader h;
    h.kind = SharpHeader::AGGREGATE;
    h.tree = it->first;
    h.epoch = op.epoch;
    h.operation = op.operation;
    h.frame = op.next;
    h.frames = op.frames;
    h.payload = static_cast<uint16_t>(payload);
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddHeader(h);
    IbFrameFields f;
    f.opcode = SharpHeader::OPCODE;
    f.payloadBytes = SharpHeader::SIZE + payload;
    f.vl = m_vl;
    f.sl = 0;
    f.dlid = t.parentLid;
    f.slid = m_lid;
    IbFrame::Encapsulate(p, f);
    m_staged = p;
    op.remaining -= payload;
    if (++op.next == op.frames)
    {
        t.queue.pop_front();
        t.admitted--;
    }
}

uint32_t
SharpHcaPort::Head(Ptr<IbNetDevice> dev, uint8_t vl)
{
    const uint32_t inner = m_innerHead(dev, vl);
    if (vl != m_vl)
    {
        return inner;
    }
    Stage();
    if (!m_staged || (inner != 0 && !m_myTurn))
    {
        return inner;
    }
    return m_staged->GetSize();
}

Ptr<Packet>
SharpHcaPort::Dequeue(Ptr<IbNetDevice> dev, uint8_t vl)
{
    if (vl != m_vl)
    {
        return m_innerDequeue(dev, vl);
    }
    Stage();
    if (!m_staged)
    {
        return m_innerDequeue(dev, vl);
    }
    // Packet by packet with the HCA when both have one.
    if (m_innerHead(dev, vl) != 0 && !m_myTurn)
    {
        m_myTurn = true;
        return m_innerDequeue(dev, vl);
    }
    m_myTurn = false;
    Ptr<Packet> p = m_staged;
    m_staged = nullptr;
    m_sent++;
    return p;
}

void
SharpHcaPort::Receive(Ptr<IbNetDevice> dev, Ptr<Packet> p, const IbFrameView& v, Time txIn)
{
    if (v.opcode != SharpHeader::OPCODE)
    {
        m_innerFrame(dev, p, v, txIn);
        return;
    }
    // Processed when its tail is in, as the HCA processes its packets.
    Simulator::Schedule(txIn,
                        &SharpHcaPort::Process,
                        this,
                        p,
                        v.vl,
                        IbFrame::Blocks(v.packetBytes));
}

void
SharpHcaPort::Process(Ptr<Packet> p, uint8_t vl, uint32_t blocks)
{
    m_device->ReleaseBlocks(vl, blocks);
    SharpHeader h;
    p->CreateFragment(IbFrame::LRH_BYTES + IbFrame::BTH_BYTES, SharpHeader::SIZE)->RemoveHeader(h);
    NS_ABORT_MSG_IF(h.kind != SharpHeader::RESULT,
                    "host " << m_host << ": SHARP frame of kind " << +h.kind);
    m_received++;
    const uint64_t key = (static_cast<uint64_t>(h.tree) << 48) | OpKey(h.epoch, h.operation);
    uint32_t& got = m_arrived[key];
    if (++got < h.frames)
    {
        return;
    }
    m_arrived.erase(key);
    auto it = m_trees.find(h.tree);
    if (it == m_trees.end())
    {
        return; // left the tree
    }
    Tree& t = it->second;
    auto f = t.inFlight.find(OpKey(h.epoch, h.operation));
    if (f != t.inFlight.end())
    {
        t.outstanding -= f->second;
        t.inFlight.erase(f);
        Admit(t);
        m_device->NotifyDataAvailable();
    }
    if (!t.cb.IsNull())
    {
        t.cb(m_host, h.tree, h.epoch, h.operation);
    }
}

} // namespace ns3
