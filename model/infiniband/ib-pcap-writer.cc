/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-pcap-writer.h"

#include "erf-header.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbPcapWriter");

/// LINKTYPE_INFINIBAND (DLT_INFINIBAND): tcpdump.org's list of link-layer header types.
static constexpr uint32_t LINKTYPE_INFINIBAND = 247;

uint32_t
IbPcapWriter::GetLinkType(Format format)
{
    return format == ERF ? ErfHeader::LINKTYPE_ERF : LINKTYPE_INFINIBAND;
}

uint32_t
IbPcapWriter::GetRecordHeaderBytes(Format format)
{
    return format == ERF ? ErfHeader::SIZE : 0;
}

void
IbPcapWriter::Attach(Ptr<NetDevice> device, Ptr<PcapFileWrapper> file, Format format)
{
    if (format == RAW)
    {
        PcapHelper().HookDefaultSink<NetDevice>(device, "PromiscSniffer", file);
        return;
    }
    const bool ok = device->TraceConnectWithoutContext("PromiscSniffer",
                                                       MakeBoundCallback(&WriteErfRecord, file));
    NS_ABORT_MSG_UNLESS(ok,
                        "IbPcapWriter: " << device->GetInstanceTypeId().GetName()
                                         << " has no PromiscSniffer trace source");
}

void
IbPcapWriter::WriteErfRecord(Ptr<PcapFileWrapper> file, Ptr<const Packet> packet)
{
    const uint32_t wire = packet->GetSize();
    NS_ABORT_MSG_IF(wire > ErfHeader::MAX_RECORD_LENGTH - ErfHeader::SIZE,
                    "IbPcapWriter: a " << wire << "-byte packet does not fit an ERF record");
    const Time now = Simulator::Now();
    ErfHeader erf;
    erf.SetTimestamp(now);
    erf.SetType(ErfHeader::TYPE_INFINIBAND);
    erf.SetFlags(ErfHeader::FLAG_VARYING_LENGTH);
    // The record holds what the snapshot length keeps (PcapFile::Write cuts the same).
    erf.SetRecordLength(
        static_cast<uint16_t>(std::min(ErfHeader::SIZE + wire, file->GetSnapLen())));
    erf.SetLossCounter(0);
    erf.SetWireLength(static_cast<uint16_t>(wire));
    NS_LOG_LOGIC(erf);
    file->Write(now, erf, packet);
}

} // namespace ns3
