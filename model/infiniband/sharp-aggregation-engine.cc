/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sharp-aggregation-engine.h"

#include "ib-switch.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharpAggregationEngine");

NS_OBJECT_ENSURE_REGISTERED(SharpAggregationEngine);

namespace
{

/// (tree, epoch, operation) as one key
uint64_t
EntryKey(uint16_t tree, uint16_t epoch, uint32_t operation)
{
    return (static_cast<uint64_t>(tree) << 48) | (static_cast<uint64_t>(epoch) << 32) | operation;
}

} // namespace

TypeId
SharpAggregationEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SharpAggregationEngine")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<SharpAggregationEngine>()
            .AddAttribute("MaxTrees",
                          "Streaming-aggregation trees this switch can be a node of at once "
                          "(the Aggregation Manager gives a job no tree through a switch that "
                          "has none left). Default 1: NVIDIA Quantum (HDR, SHARPv2) runs one "
                          "active streaming-aggregation tree per switch (NVIDIA SHARP 3.13 "
                          "documentation, 'General Information'); Quantum-2 (NDR, SHARPv3) "
                          "allows one per port, i.e. up to its port count",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SharpAggregationEngine::m_maxTrees),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BufferBytes",
                          "Aggregation buffer, bytes: what the switch's open entries and the "
                          "sums waiting for their port may hold. The Aggregation Manager gives "
                          "each tree through the switch BufferBytes / MaxTrees of it: its "
                          "hosts' window of outstanding payload bytes (SHARP's per-job quota "
                          "of a node's outstanding operations and buffers). Default 1 MiB, the "
                          "model's choice: NVIDIA "
                          "does not publish the SHARP buffer of its switches; 1 MiB covers a "
                          "400 Gb/s tree's round trip (50 GB/s x ~10 us = 500 KB) twice",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&SharpAggregationEngine::m_buffer),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("AggregationLatency",
                          "Time from a SHARP frame's tail arriving to its sum (or its copies) "
                          "being ready to leave. 0 (default) = the switch's SwitchLatency: "
                          "NVIDIA publishes no per-switch aggregation latency; the model adds "
                          "store-and-forward (the ALU reads the whole payload) to it",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SharpAggregationEngine::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("OperationReduced",
                            "The last sum of an operation left this switch: (tree, epoch, "
                            "operation)",
                            MakeTraceSourceAccessor(&SharpAggregationEngine::m_reducedTrace),
                            "ns3::SharpAggregationEngine::OperationReducedCallback");
    return tid;
}

SharpAggregationEngine::SharpAggregationEngine()
    : m_maxTrees(1),
      m_buffer(1 << 20)
{
}

SharpAggregationEngine::~SharpAggregationEngine() = default;

void
SharpAggregationEngine::DoDispose()
{
    m_switch = nullptr;
    m_ports.clear();
    m_innerHead.clear();
    m_innerDequeue.clear();
    m_innerFrame.clear();
    m_out.clear();
    m_entries.clear();
    m_holds.clear();
    Object::DoDispose();
}

void
SharpAggregationEngine::Attach(Ptr<IbSwitch> sw, uint16_t lid)
{
    NS_ABORT_MSG_IF(m_switch, "SharpAggregationEngine attached twice");
    m_switch = sw;
    m_lid = lid;
    if (m_latency.IsZero())
    {
        TimeValue t;
        sw->GetAttribute("SwitchLatency", t);
        m_latency = t.Get();
    }
    const uint32_t n = sw->GetNPorts();
    m_out.resize(n);
    m_myTurn.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<IbNetDevice> dev = sw->GetPort(i);
        m_ports.push_back(dev);
        m_innerHead.push_back(dev->GetHeadCallback());
        m_innerDequeue.push_back(dev->GetDequeueCallback());
        m_innerFrame.push_back(dev->GetFrameCallback());
        dev->SetHeadCallback(MakeCallback(&SharpAggregationEngine::Head, this));
        dev->SetDequeueCallback(MakeCallback(&SharpAggregationEngine::Dequeue, this));
        dev->SetFrameCallback(MakeCallback(&SharpAggregationEngine::Receive, this));
    }
}

bool
SharpAggregationEngine::IsAttached() const
{
    return m_switch != nullptr;
}

void
SharpAggregationEngine::AddTree(uint16_t tree,
                                uint32_t parentPort,
                                uint16_t parentLid,
                                const std::vector<uint32_t>& childPorts,
                                const std::vector<uint16_t>& childLids)
{
    NS_ABORT_MSG_IF(childPorts.empty() || childPorts.size() != childLids.size(),
                    "SHARP tree " << tree << ": a node needs children");
    NS_ABORT_MSG_IF(m_trees.count(tree), "SHARP tree " << tree << " added twice");
    TreeNode node;
    node.parentPort = parentPort;
    node.parentLid = parentLid;
    node.childPorts = childPorts;
    node.childLids = childLids;
    m_trees[tree] = node;
}

void
SharpAggregationEngine::RemoveTree(uint16_t tree)
{
    m_trees.erase(tree);
}

uint32_t
SharpAggregationEngine::GetMaxTrees() const
{
    return m_maxTrees;
}

uint64_t
SharpAggregationEngine::GetBufferBytes() const
{
    return m_buffer;
}

uint32_t
SharpAggregationEngine::GetTrees() const
{
    return static_cast<uint32_t>(m_trees.size());
}

uint64_t
SharpAggregationEngine::GetAggregated() const
{
    return m_aggregated;
}

uint64_t
SharpAggregationEngine::GetSentUp() const
{
    return m_sentUp;
}

uint64_t
SharpAggregationEngine::GetResultCopies() const
{
    return m_resultCopies;
}

uint64_t
SharpAggregationEngine::GetOpenEntries() const
{
    return m_entries.size();
}

uint64_t
SharpAggregationEngine::GetPeakBufferBytes() const
{
    return m_peakBuffer;
}

uint64_t
SharpAggregationEngine::GetBufferInUse() const
{
    return m_bufferInUse;
}

void
SharpAggregationEngine::Receive(Ptr<IbNetDevice> dev,
                                Ptr<Packet> p,
                                const IbFrameView& v,
                                Time txIn)
{
    const uint32_t port = dev->GetIfIndex();
    if (v.opcode != SharpHeader::OPCODE)
    {
        m_innerFrame[port](dev, p, v, txIn);
        return;
    }
    // Store and forward: the sum needs the whole payload.
    Simulator::Schedule(txIn + m_latency,
                        &SharpAggregationEngine::Process,
                        this,
                        port,
                        p,
                        v.vl,
                        IbFrame::Blocks(v.packetBytes));
}

void
SharpAggregationEngine::Process(uint32_t inPort, Ptr<Packet> p, uint8_t vl, uint32_t blocks)
{
    SharpHeader h;
    p->CreateFragment(IbFrame::LRH_BYTES + IbFrame::BTH_BYTES, SharpHeader::SIZE)->RemoveHeader(h);
    auto it = m_trees.find(h.tree);
    NS_ABORT_MSG_IF(it == m_trees.end(),
                    "SHARP frame of tree " << h.tree << " at a switch not in it");
    const TreeNode& node = it->second;
    if (h.kind == SharpHeader::RESULT)
    {
        // From the parent: one copy per child; the input buffer frees when all have left.
        NS_ABORT_MSG_IF(inPort != node.parentPort, "SHARP result from a port not the parent's");
        const uint64_t hold = m_nextHold++;
        m_holds[hold] = Hold{static_cast<uint32_t>(node.childPorts.size()), 0, inPort, vl, blocks};
        for (size_t c = 0; c < node.childPorts.size(); ++c)
        {
            m_resultCopies++;
            Emit(node.childPorts[c], node.childLids[c], h, hold);
        }
        return;
    }
    NS_ABORT_MSG_IF(h.kind != SharpHeader::AGGREGATE, "SHARP frame of kind " << +h.kind);
    // Summed into the entry: the frame's input buffer is free.
    m_ports[inPort]->ReleaseBlocks(vl, blocks);
    m_aggregated++;
    const uint64_t key = EntryKey(h.tree, h.epoch, h.operation);
    Entry& e = m_entries[key];
    if (e.count.empty())
    {
        e.count.assign(h.frames, 0);
    }
    NS_ABORT_MSG_IF(h.frame >= e.count.size() || e.count[h.frame] >= node.childPorts.size(),
                    "SHARP frame " << h.frame << " of operation " << h.operation
                                   << " out of place");
    if (e.count[h.frame]++ == 0)
    {
        m_bufferInUse += h.payload;
        m_peakBuffer = std::max(m_peakBuffer, m_bufferInUse);
    }
    if (e.count[h.frame] < node.childPorts.size())
    {
        return;
    }
    // The frame's sum is complete: up to the parent, or at the root down to every child.
    const uint64_t hold = m_nextHold++;
    if (node.parentPort != NO_PARENT)
    {
        m_holds[hold] = Hold{1, h.payload, 0, 0, 0};
        m_sentUp++;
        Emit(node.parentPort, node.parentLid, h, hold);
    }
    else
    {
        SharpHeader r = h;
        r.kind = SharpHeader::RESULT;
        m_holds[hold] = Hold{static_cast<uint32_t>(node.childPorts.size()), h.payload, 0, 0, 0};
        for (size_t c = 0; c < node.childPorts.size(); ++c)
        {
            m_resultCopies++;
            Emit(node.childPorts[c], node.childLids[c], r, hold);
        }
    }
    if (++e.done == e.count.size())
    {
        m_entries.erase(key);
        m_reducedTrace(h.tree, h.epoch, h.operation);
    }
}

void
SharpAggregationEngine::Emit(uint32_t port, uint16_t dlid, const SharpHeader& h, uint64_t hold)
{
    Ptr<Packet> p = Create<Packet>(h.payload);
    p->AddHeader(h);
    IbFrameFields f;
    f.opcode = SharpHeader::OPCODE;
    f.payloadBytes = SharpHeader::SIZE + h.payload;
    f.vl = m_vl;
    f.sl = 0;
    f.dlid = dlid;
    f.slid = m_lid;
    IbFrame::Encapsulate(p, f);
    m_out[port].push_back(Out{p, hold});
    m_ports[port]->NotifyDataAvailable();
}

uint32_t
SharpAggregationEngine::Head(Ptr<IbNetDevice> dev, uint8_t vl)
{
    const uint32_t port = dev->GetIfIndex();
    const uint32_t inner = m_innerHead[port](dev, vl);
    if (vl != m_vl || m_out[port].empty() || (inner != 0 && !m_myTurn[port]))
    {
        return inner;
    }
    return m_out[port].front().packet->GetSize();
}

Ptr<Packet>
SharpAggregationEngine::Dequeue(Ptr<IbNetDevice> dev, uint8_t vl)
{
    const uint32_t port = dev->GetIfIndex();
    if (vl != m_vl || m_out[port].empty())
    {
        return m_innerDequeue[port](dev, vl);
    }
    // Frame by frame with the switch when both have one.
    if (m_innerHead[port](dev, vl) != 0 && !m_myTurn[port])
    {
        m_myTurn[port] = 1;
        return m_innerDequeue[port](dev, vl);
    }
    m_myTurn[port] = 0;
    Out o = m_out[port].front();
    m_out[port].pop_front();
    auto it = m_holds.find(o.hold);
    if (it != m_holds.end() && --it->second.copies == 0)
    {
        m_bufferInUse -= it->second.buffer;
        if (it->second.blocks > 0)
        {
            m_ports[it->second.inPort]->ReleaseBlocks(it->second.inVl, it->second.blocks);
        }
        m_holds.erase(it);
    }
    return o.packet;
}

} // namespace ns3
