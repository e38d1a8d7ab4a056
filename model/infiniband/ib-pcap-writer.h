/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_PCAP_WRITER_H
#define IB_PCAP_WRITER_H

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class NetDevice;
class Packet;
class PcapFileWrapper;

/**
 * \ingroup ai-fabric
 * \brief How an InfiniBand port's packets go into a pcap: the file's link type, the
 * bytes each record holds before the packet, and the sink that writes them.
 *
 * ERF (the default of IbFabric's PcapFormat): link type LINKTYPE_ERF (197), each record
 * a 16-byte ErfHeader of type InfiniBand (21) followed by the packet from its LRH, as
 * NVIDIA's ibdump writes them; Wireshark and tshark (4.0 included) open and dissect
 * them as they are. RAW: link type LINKTYPE_INFINIBAND (247), each record the packet
 * from its LRH, nothing before it (tcpdump.org's link-type list; Wireshark 4.0 does not
 * open it: "network type 247 unknown or unsupported").
 */
class IbPcapWriter
{
  public:
    /// The record format (the values of IbFabric's PcapFormat attribute).
    enum Format
    {
        ERF, //!< LINKTYPE_ERF, an ERF InfiniBand header before each packet
        RAW, //!< LINKTYPE_INFINIBAND, the packet alone
    };

    /// \return the pcap link type of \p format's files (197 or 247)
    static uint32_t GetLinkType(Format format);
    /// \return the bytes each record of \p format holds before the packet (16 or 0)
    static uint32_t GetRecordHeaderBytes(Format format);
    /**
     * Write every packet \p device's "PromiscSniffer" trace source gives into \p file (an
     * open pcap of GetLinkType(format) whose snapshot length is GetRecordHeaderBytes
     * plus the packet bytes a record keeps) at the simulation's time: in ERF records
     * (WriteErfRecord) or raw.
     */
    static void Attach(Ptr<NetDevice> device, Ptr<PcapFileWrapper> file, Format format);
    /**
     * One ERF record of \p packet (an InfiniBand packet, LRH to VCRC) in \p file, now:
     * the ErfHeader (timestamp ErfHeader::ToFixedPoint of now, type InfiniBand, flags
     * varying length, rlen 16 plus the packet bytes the file's snapshot length keeps,
     * lctr 0, wlen the packet's bytes), then the packet, cut at the snapshot length; the
     * pcap record's original length is 16 plus the packet's bytes.
     */
    static void WriteErfRecord(Ptr<PcapFileWrapper> file, Ptr<const Packet> packet);
};

} // namespace ns3

#endif // IB_PCAP_WRITER_H
