/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Writes one pcap (Ethernet, nanosecond timestamps) with the RoCEv2 frames this module
 * builds: RDMA WRITE first (with RETH) and middle, an ACK, a CNP and a PFC pause frame,
 * with real ICRCs. Open it in Wireshark, or let test/python/test_pcap_tshark.py check
 * what tshark decodes.
 *
 *   rocev2-pcap-sample [--out=]FILE
 */
#include "ns3/boolean.h"
#include "ns3/bth-header.h"
#include "ns3/command-line.h"
#include "ns3/icrc-trailer.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-frame.h"
#include "ns3/trace-helper.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string out = "rocev2-sample.pcap";
    CommandLine cmd(__FILE__);
    cmd.AddValue("out", "pcap file to write", out);
    cmd.AddNonOption("file", "pcap file to write (same as --out)", out);
    cmd.Parse(argc, argv);

    IcrcTrailer::SetComputeEnabled(true);
    Ptr<PcapFileWrapper> pcap = CreateObject<PcapFileWrapper>();
    pcap->SetAttribute("NanosecMode", BooleanValue(true));
    pcap->Open(out, std::ios::out | std::ios::binary);
    if (pcap->Fail())
    {
        NS_FATAL_ERROR("cannot open pcap file " << out << " for writing");
    }
    pcap->Init(PcapHelper::DLT_EN10MB);

    RoceFrameFields f;
    f.srcMac = Mac48Address("02:00:00:00:00:01");
    f.dstMac = Mac48Address("02:00:00:00:00:02");
    f.srcIp = Ipv4Address("10.0.0.1");
    f.dstIp = Ipv4Address("10.0.0.2");
    f.udpSrcPort = 49153;
    f.destQp = 0x12;

    // RDMA WRITE first: BTH + RETH announcing a 4096-byte message.
    f.opcode = BthHeader::WRITE_FIRST;
    f.SetExtHeadersForOpcode();
    f.psn = 100;
    f.rethVa = 0x10000;
    f.rethRKey = 0xabcd;
    f.rethDmaLen = 4096;
    f.payloadBytes = 1024;
    Ptr<Packet> p = Create<Packet>(f.payloadBytes);
    RoceFrame::Encapsulate(p, f);
    pcap->Write(NanoSeconds(1000), p);

    // RDMA WRITE middle, next PSN.
    f.opcode = BthHeader::WRITE_MIDDLE;
    f.SetExtHeadersForOpcode();
    f.psn = 101;
    p = Create<Packet>(f.payloadBytes);
    RoceFrame::Encapsulate(p, f);
    pcap->Write(NanoSeconds(2000), p);

    // ACK back to the requester's QP for PSN 101, MSN 5.
    RoceFrameFields a;
    a.srcMac = f.dstMac;
    a.dstMac = f.srcMac;
    a.srcIp = f.dstIp;
    a.dstIp = f.srcIp;
    a.udpSrcPort = 49154;
    a.opcode = BthHeader::ACKNOWLEDGE;
    a.SetExtHeadersForOpcode();
    a.destQp = 0x34;
    a.psn = 101;
    a.aethMsn = 5;
    p = Create<Packet>();
    RoceFrame::Encapsulate(p, a);
    pcap->Write(NanoSeconds(3000), p);

    // CNP to the sender's QP, BECN set.
    RoceFrameFields c = a;
    c.opcode = BthHeader::CNP;
    c.SetExtHeadersForOpcode();
    c.becn = true;
    c.destQp = 0x34;
    c.psn = 0;
    p = Create<Packet>();
    RoceFrame::Encapsulate(p, c);
    pcap->Write(NanoSeconds(4000), p);

    // PFC: pause priority 3 for the longest time.
    PfcHeader pfc;
    pfc.SetPauseTime(3, 0xFFFF);
    p = Create<Packet>();
    RoceFrame::EncapsulatePfc(p, Mac48Address("02:00:00:00:00:02"), pfc);
    pcap->Write(NanoSeconds(5000), p);

    pcap->Close();
    return 0;
}
