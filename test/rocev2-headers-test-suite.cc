/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 wire formats: byte-exact headers, frame sizes, PFC timing, the hot-path
 * parser, ECMP hash, ECN marking and the ICRC (checked against a frame captured from
 * real RoCE hardware).
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/aeth-header.h"
#include "ns3/bth-header.h"
#include "ns3/cnp-payload-header.h"
#include "ns3/icrc-trailer.h"
#include "ns3/imm-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/reth-header.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/test.h"

#include <boost/crc.hpp>
#include <iomanip>
#include <iostream>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

template <class H>
std::vector<uint8_t>
HeaderBytes(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return Bytes(p);
}

std::string
Hex(const std::vector<uint8_t>& b)
{
    std::ostringstream os;
    for (uint8_t x : b)
    {
        os << std::hex << std::setw(2) << std::setfill('0') << +x;
    }
    return os.str();
}

/// Ones'-complement sum over an IPv4 header: 0xFFFF when its checksum is right.
uint16_t
IpSum(const uint8_t* ip)
{
    uint32_t s = 0;
    for (int i = 0; i < 20; i += 2)
    {
        s += (uint32_t(ip[i]) << 8) | ip[i + 1];
    }
    while (s >> 16)
    {
        s = (s & 0xFFFF) + (s >> 16);
    }
    return s;
}

RoceFrameFields
DataFields(uint8_t opcode, uint32_t payload)
{
    RoceFrameFields f;
    f.srcMac = Mac48Address("02:00:00:00:00:01");
    f.dstMac = Mac48Address("02:00:00:00:00:02");
    f.srcIp = Ipv4Address("10.0.0.1");
    f.dstIp = Ipv4Address("10.0.1.2");
    f.udpSrcPort = 50000;
    f.opcode = opcode;
    f.SetExtHeadersForOpcode();
    f.destQp = 0x00ABCD;
    f.psn = 0x123456;
    f.payloadBytes = payload;
    return f;
}

} // namespace

/// Each header's size and serialized bytes against hand-written IBTA / IEEE layouts.
class RoceHeaderBytesTestCase : public TestCase
{
  public:
    RoceHeaderBytesTestCase()
        : TestCase("Header sizes, byte-exact serialization and round trips")
    {
    }

  private:
    void DoRun() override
    {
        // Ethernet, untagged: dst, src, EtherType.
        RoceEthernetHeader eth;
        eth.SetDestination(Mac48Address("00:11:22:33:44:55"));
        eth.SetSource(Mac48Address("66:77:88:99:aa:bb"));
        eth.SetEtherType(0x0800);
        NS_TEST_ASSERT_MSG_EQ(eth.GetSerializedSize(), 14u, "untagged Ethernet header");
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(eth)),
                              "00112233445566778899aabb0800",
                              "untagged Ethernet bytes");
        // 802.1Q: TPID 0x8100, TCI = PCP 3 | DEI 1 | VID 100 = 0x7064.
        eth.SetVlan(3, true, 100);
        NS_TEST_ASSERT_MSG_EQ(eth.GetSerializedSize(), 18u, "tagged Ethernet header");
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(eth)),
                              "00112233445566778899aabb810070640800",
                              "tagged Ethernet bytes");
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(eth);
        RoceEthernetHeader eth2;
        p->RemoveHeader(eth2);
        NS_TEST_ASSERT_MSG_EQ(eth2.HasVlan(), true, "VLAN round trip");
        NS_TEST_ASSERT_MSG_EQ(+eth2.GetPcp(), 3, "PCP round trip");
        NS_TEST_ASSERT_MSG_EQ(eth2.GetDei(), true, "DEI round trip");
        NS_TEST_ASSERT_MSG_EQ(eth2.GetVid(), 100, "VID round trip");
        NS_TEST_ASSERT_MSG_EQ(eth2.GetEtherType(), 0x0800, "EtherType round trip");
        NS_TEST_ASSERT_MSG_EQ(RoceEthernetHeader::WIRE_OVERHEAD_BYTES, 24u, "FCS+preamble+IFG");

        // BTH: op 0x0A | SE=1 M=1 Pad=2 TVer=0 -> 0xE0 | P_Key FFFF | FECN=1 -> 0x80,
        // QP 0x123456 | AckReq=1 -> 0x80, PSN 0xABCDEF.
        BthHeader bth;
        NS_TEST_ASSERT_MSG_EQ(bth.GetPKey(), 0xFFFF, "default P_Key");
        bth.SetOpcode(BthHeader::WRITE_ONLY);
        bth.SetSolicitedEvent(true);
        bth.SetMigReq(true);
        bth.SetPadCount(2);
        bth.SetFecn(true);
        bth.SetDestQp(0x123456);
        bth.SetAckReq(true);
        bth.SetPsn(0xABCDEF);
        NS_TEST_ASSERT_MSG_EQ(bth.GetSerializedSize(), 12u, "BTH size");
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(bth)), "0ae0ffff8012345680abcdef", "BTH bytes");
        BthHeader cnpBth;
        cnpBth.SetOpcode(BthHeader::CNP);
        cnpBth.SetBecn(true);
        cnpBth.SetDestQp(0x118);
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(cnpBth)), "8100ffff4000011800000000", "CNP BTH");
        p = Create<Packet>();
        p->AddHeader(bth);
        BthHeader bth2;
        p->RemoveHeader(bth2);
        NS_TEST_ASSERT_MSG_EQ(+bth2.GetOpcode(), 0x0A, "opcode");
        NS_TEST_ASSERT_MSG_EQ((bth2.GetSolicitedEvent() && bth2.GetMigReq()), true, "SE, M");
        NS_TEST_ASSERT_MSG_EQ(+bth2.GetPadCount(), 2, "PadCnt");
        NS_TEST_ASSERT_MSG_EQ((bth2.GetFecn() && !bth2.GetBecn()), true, "FECN/BECN");
        NS_TEST_ASSERT_MSG_EQ(bth2.GetDestQp(), 0x123456u, "DestQP");
        NS_TEST_ASSERT_MSG_EQ(bth2.GetAckReq(), true, "AckReq");
        NS_TEST_ASSERT_MSG_EQ(bth2.GetPsn(), 0xABCDEFu, "PSN");

        RethHeader reth;
        reth.SetVirtualAddress(0x0102030405060708ULL);
        reth.SetRKey(0x11223344);
        reth.SetDmaLength(4096);
        NS_TEST_ASSERT_MSG_EQ(reth.GetSerializedSize(), 16u, "RETH size");
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(reth)),
                              "01020304050607081122334400001000",
                              "RETH bytes");

        AethHeader aeth;
        NS_TEST_ASSERT_MSG_EQ(aeth.GetSerializedSize(), 4u, "AETH size");
        aeth.SetAck();
        aeth.SetMsn(0x000102);
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(aeth)), "1f000102", "ACK, credits invalid");
        NS_TEST_ASSERT_MSG_EQ((aeth.IsAck() && !aeth.IsNak()), true, "IsAck");
        aeth.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(aeth)), "60000102", "NAK PSN sequence error");
        NS_TEST_ASSERT_MSG_EQ((aeth.IsNak() && !aeth.IsAck() && aeth.GetValue() == 0),
                              true,
                              "IsNak");
        aeth.SetRnrNak(5);
        NS_TEST_ASSERT_MSG_EQ(+aeth.GetSyndrome(), 0x25, "RNR NAK syndrome 001xxxxx");
        NS_TEST_ASSERT_MSG_EQ(aeth.IsRnrNak(), true, "IsRnrNak");

        ImmHeader imm;
        imm.SetImmediate(0xDEADBEEF);
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(imm)), "deadbeef", "ImmDt bytes");
        NS_TEST_ASSERT_MSG_EQ(Hex(HeaderBytes(CnpPayloadHeader())),
                              std::string(32, '0'),
                              "CNP 16 reserved bytes");

        // ICRC trailer is sent least significant byte first.
        IcrcTrailer icrc;
        icrc.SetIcrc(0x2a00fd82);
        p = Create<Packet>();
        p->AddTrailer(icrc);
        NS_TEST_ASSERT_MSG_EQ(Hex(Bytes(p)), "82fd002a", "ICRC byte order");
    }
};

/// Frame sizes: the 1058-byte WRITE middle and the per-opcode extras.
class RoceFrameSizeTestCase : public TestCase
{
  public:
    RoceFrameSizeTestCase()
        : TestCase("Frame sizes: WRITE middle 1058 B, RETH +16, ACK, CNP, VLAN")
    {
    }

  private:
    uint32_t Build(const RoceFrameFields& f)
    {
        Ptr<Packet> p = Create<Packet>(f.payloadBytes);
        RoceFrame::Encapsulate(p, f);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(),
                              f.payloadBytes + RoceFrame::HeaderBytes(f),
                              "HeaderBytes agrees with the built frame, opcode " << +f.opcode);
        return p->GetSize();
    }

    void DoRun() override
    {
        RoceFrameFields f = DataFields(BthHeader::WRITE_MIDDLE, 1000);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::HeaderBytes(f), 58u, "14+20+8+12+4");
        NS_TEST_ASSERT_MSG_EQ(Build(f), 1058u, "WRITE middle of 1000 B");
        // Length fields: IPv4 total = 1058 - 14, UDP = that - 20 (ICRC inside UDP).
        Ptr<Packet> p = Create<Packet>(1000);
        RoceFrame::Encapsulate(p, f);
        std::vector<uint8_t> b = Bytes(p);
        NS_TEST_ASSERT_MSG_EQ(((b[16] << 8) | b[17]), 1044, "IPv4 total length");
        NS_TEST_ASSERT_MSG_EQ(((b[38] << 8) | b[39]), 1024, "UDP length");
        NS_TEST_ASSERT_MSG_EQ(((b[36] << 8) | b[37]), 4791, "UDP dst port");
        NS_TEST_ASSERT_MSG_EQ(((b[40] << 8) | b[41]), 0, "UDP checksum 0");
        NS_TEST_ASSERT_MSG_EQ(+b[23], 17, "IPv4 protocol UDP");
        NS_TEST_ASSERT_MSG_EQ(+b[15], ((26 << 2) | 2), "TOS = DSCP 26, ECT(0)");
        NS_TEST_ASSERT_MSG_EQ(IpSum(b.data() + 14), 0xFFFF, "IPv4 header checksum");

        NS_TEST_ASSERT_MSG_EQ(Build(DataFields(BthHeader::WRITE_FIRST, 1000)), 1074u, "+RETH");
        NS_TEST_ASSERT_MSG_EQ(Build(DataFields(BthHeader::WRITE_ONLY_IMM, 1000)),
                              1078u,
                              "+RETH +ImmDt");
        NS_TEST_ASSERT_MSG_EQ(Build(DataFields(BthHeader::ACKNOWLEDGE, 0)),
                              62u,
                              "ACK = 14+20+8+BTH 12+AETH 4+ICRC 4");
        RoceFrameFields c = DataFields(BthHeader::CNP, 0);
        c.becn = true;
        NS_TEST_ASSERT_MSG_EQ(Build(c), 74u, "CNP = 14+20+8+12+16+4");
        f.useVlan = true;
        NS_TEST_ASSERT_MSG_EQ(Build(f), 1062u, "802.1Q adds 4");
    }
};

/// PFC frame bytes and pause-quanta arithmetic (1 quantum = 512 bit times).
class PfcFrameTestCase : public TestCase
{
  public:
    PfcFrameTestCase()
        : TestCase("PFC frame is 60 B with the 802.1Qbb fields; quanta <-> time")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc;
        pfc.SetPauseTime(3, 0xFFFF);
        pfc.SetPauseTime(5, 0x0102);
        Ptr<Packet> p = Create<Packet>();
        RoceFrame::EncapsulatePfc(p, Mac48Address("02:00:00:00:00:07"), pfc);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 60u, "PFC frame 60 B before FCS");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize() + RoceEthernetHeader::FCS_BYTES, 64u, "64 with FCS");
        std::string expect = "0180c2000001" // DA
                             "020000000007" // SA
                             "8808"         // MAC control
                             "0101"         // PFC opcode
                             "0028"         // class-enable: priorities 3 and 5
                             "000000000000" // priorities 0-2
                             "ffff"         // priority 3
                             "0000"         // priority 4
                             "0102"         // priority 5
                             "00000000";
        expect += std::string(2 * 26, '0'); // padding to 60
        NS_TEST_ASSERT_MSG_EQ(Hex(Bytes(p)), expect, "PFC bytes");
        RoceEthernetHeader eth;
        p->RemoveHeader(eth);
        PfcHeader back;
        p->RemoveHeader(back);
        NS_TEST_ASSERT_MSG_EQ((back.IsClassEnabled(3) && back.IsClassEnabled(5)), true, "enabled");
        NS_TEST_ASSERT_MSG_EQ(back.IsClassEnabled(0), false, "not enabled");
        NS_TEST_ASSERT_MSG_EQ(back.GetPauseTime(3), 0xFFFF, "time p3");
        NS_TEST_ASSERT_MSG_EQ(back.GetPauseTime(5), 0x0102, "time p5");

        // Exact durations: 512 bits per quantum.
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToPicoSeconds(65535, DataRate("100Gbps")),
                              335539200ULL,
                              "65535 quanta at 100G = 335.5392 us");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToPicoSeconds(1, DataRate("25Gbps")),
                              20480ULL,
                              "1 quantum at 25G = 20.48 ns");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToPicoSeconds(1, DataRate("400Gbps")),
                              1280ULL,
                              "1 quantum at 400G = 1.28 ns");
        // As Time: exact when the resolution allows, else rounded up by < 1 unit.
        const int64_t unitPs = Time::FromInteger(1, Time::GetResolution()).GetPicoSeconds();

        struct
        {
            uint16_t q;
            const char* rate;
            int64_t ps;
        } cases[] = {{65535, "100Gbps", 335539200}, {1, "25Gbps", 20480}, {1, "400Gbps", 1280}};

        for (const auto& c : cases)
        {
            int64_t got = PfcHeader::QuantaToTime(c.q, DataRate(c.rate)).GetPicoSeconds();
            NS_TEST_ASSERT_MSG_EQ((got >= c.ps && got < c.ps + std::max<int64_t>(unitPs, 1)),
                                  true,
                                  c.q << " quanta at " << c.rate << ": " << got << " ps");
        }
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToTime(100, DataRate("400Gbps")),
                              NanoSeconds(128),
                              "100 quanta at 400G = 128 ns");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(0), DataRate("100Gbps")),
                              0,
                              "0 s = 0 quanta (XON)");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(10), DataRate("100Gbps")),
                              2,
                              "10 ns at 100G = 1.95 quanta -> 2 (round up)");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(512), DataRate("100Gbps")),
                              100,
                              "512 ns at 100G = 100 quanta");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(400), DataRate("100Gbps")),
                              65535,
                              "400 us at 100G saturates at 65535");
    }
};

/// Peek decodes fixed offsets of data, ACK, CNP and PFC frames.
class RoceFramePeekTestCase : public TestCase
{
  public:
    RoceFramePeekTestCase()
        : TestCase("Peek returns the fields of data, ACK, CNP and PFC frames")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrameFields f = DataFields(BthHeader::WRITE_FIRST, 1000);
        f.useVlan = true;
        f.pcp = 5;
        f.vid = 42;
        f.dscp = 46;
        f.ecn = 1;
        f.ackReq = true;
        Ptr<Packet> p = Create<Packet>(1000);
        RoceFrame::Encapsulate(p, f);
        RoceFrameView v;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(p, v), true, "data frame decodes");
        NS_TEST_ASSERT_MSG_EQ((v.isPfc || !v.isIpv4 || !v.isRoce), false, "RoCE over IPv4");
        NS_TEST_ASSERT_MSG_EQ(v.frameBytes, 1078u, "frame size incl. VLAN and RETH");
        NS_TEST_ASSERT_MSG_EQ(v.hasVlan, true, "VLAN");
        NS_TEST_ASSERT_MSG_EQ(+v.pcp, 5, "PCP");
        NS_TEST_ASSERT_MSG_EQ(v.vid, 42, "VID");
        NS_TEST_ASSERT_MSG_EQ(+v.l3Offset, 18, "IPv4 after the tag");
        NS_TEST_ASSERT_MSG_EQ(+v.dscp, 46, "DSCP");
        NS_TEST_ASSERT_MSG_EQ(+v.ecn, 1, "ECN");
        NS_TEST_ASSERT_MSG_EQ(v.GetSrcAddress(), Ipv4Address("10.0.0.1"), "src IP");
        NS_TEST_ASSERT_MSG_EQ(v.GetDstAddress(), Ipv4Address("10.0.1.2"), "dst IP");
        NS_TEST_ASSERT_MSG_EQ(v.udpSrc, 50000, "UDP src");
        NS_TEST_ASSERT_MSG_EQ(v.udpDst, 4791, "UDP dst");
        NS_TEST_ASSERT_MSG_EQ(+v.bthOpcode, 0x06, "opcode");
        NS_TEST_ASSERT_MSG_EQ(v.destQp, 0xABCDu, "DestQP");
        NS_TEST_ASSERT_MSG_EQ(v.psn, 0x123456u, "PSN");
        NS_TEST_ASSERT_MSG_EQ(v.ackReq, true, "AckReq");
        NS_TEST_ASSERT_MSG_EQ(v.pKey, 0xFFFF, "P_Key");

        RoceFrameFields a = DataFields(BthHeader::ACKNOWLEDGE, 0);
        a.useVlan = true; // the AETH must still fit in the peeked 64 bytes
        a.psn = 77;
        a.aethMsn = 9;
        AethHeader nak;
        nak.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
        a.aethSyndrome = nak.GetSyndrome();
        p = Create<Packet>();
        RoceFrame::Encapsulate(p, a);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(p, v), true, "ACK decodes");
        NS_TEST_ASSERT_MSG_EQ(+v.bthOpcode, 0x11, "ACK opcode");
        NS_TEST_ASSERT_MSG_EQ(v.psn, 77u, "ACK PSN");
        NS_TEST_ASSERT_MSG_EQ(v.hasAeth, true, "AETH seen");
        NS_TEST_ASSERT_MSG_EQ(+v.aethSyndrome, 0x60, "NAK syndrome");
        NS_TEST_ASSERT_MSG_EQ(v.aethMsn, 9u, "MSN");

        RoceFrameFields c = DataFields(BthHeader::CNP, 0);
        c.becn = true;
        c.destQp = 0x77;
        c.psn = 0;
        p = Create<Packet>();
        RoceFrame::Encapsulate(p, c);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(p, v), true, "CNP decodes");
        NS_TEST_ASSERT_MSG_EQ(+v.bthOpcode, 0x81, "CNP opcode");
        NS_TEST_ASSERT_MSG_EQ((v.becn && !v.fecn), true, "BECN set");
        NS_TEST_ASSERT_MSG_EQ(v.destQp, 0x77u, "CNP QP");
        NS_TEST_ASSERT_MSG_EQ(v.hasVlan, false, "untagged");

        PfcHeader pfc;
        pfc.SetPauseTime(3, 1000);
        p = Create<Packet>();
        RoceFrame::EncapsulatePfc(p, Mac48Address("02:00:00:00:00:09"), pfc);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(p, v), true, "PFC decodes");
        NS_TEST_ASSERT_MSG_EQ((v.isPfc && !v.isIpv4), true, "is PFC");
        NS_TEST_ASSERT_MSG_EQ(v.pfcEnableVector, 0x08, "class 3 enabled");
        NS_TEST_ASSERT_MSG_EQ(v.pfcPauseTime[3], 1000, "pause time");

        // A frame that is neither IPv4 nor PFC is refused.
        RoceEthernetHeader arp;
        arp.SetEtherType(0x0806);
        p = Create<Packet>(46);
        p->AddHeader(arp);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(p, v), false, "ARP refused");
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(Create<Packet>(10), v), false, "runt refused");
    }
};

/// ECMP hash: seeded, stable, sensitive to the UDP source port and well spread.
class RoceFlowHashTestCase : public TestCase
{
  public:
    RoceFlowHashTestCase()
        : TestCase("FlowHash is stable per tuple, differs across ports, spreads evenly")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrameView v{};
        v.srcIp = Ipv4Address("10.0.0.1").Get();
        v.dstIp = Ipv4Address("10.0.1.2").Get();
        v.ipProtocol = 17;
        v.udpDst = 4791;
        v.udpSrc = 49152;
        const uint32_t h0 = RoceFrame::FlowHash(v, 1);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::FlowHash(v, 1), h0, "stable for the same tuple");
        NS_TEST_ASSERT_MSG_NE(RoceFrame::FlowHash(v, 2), h0, "seed changes the hash");
        const uint32_t N = 8000;
        const uint32_t buckets = 8;
        std::set<uint32_t> seen;
        std::vector<uint32_t> count(buckets, 0);
        for (uint32_t i = 0; i < N; ++i)
        {
            v.udpSrc = 49152 + i;
            uint32_t h = RoceFrame::FlowHash(v, 1);
            seen.insert(h);
            count[h % buckets]++;
        }
        NS_TEST_ASSERT_MSG_EQ(seen.size(), N, "every source port hashes differently");
        for (uint32_t b = 0; b < buckets; ++b)
        {
            // Expected 1000 per bucket, binomial sd ~30; 10% is > 3 sd.
            NS_TEST_ASSERT_MSG_EQ_TOL(count[b], 1000u, 100u, "bucket " << b << " of 8");
        }
        // The frame path hashes the same as a hand-filled view.
        RoceFrameFields f = DataFields(BthHeader::WRITE_MIDDLE, 100);
        Ptr<Packet> p = Create<Packet>(100);
        RoceFrame::Encapsulate(p, f);
        RoceFrameView pv;
        RoceFrame::Peek(p, pv);
        v.udpSrc = 50000;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::FlowHash(pv, 7), RoceFrame::FlowHash(v, 7), "Peek->hash");
        // The port index ECMP takes is hash % n, also where it masks (n a power of two).
        for (uint32_t n = 1; n <= 17; ++n)
        {
            for (uint32_t h : {0U, 1U, 7U, 8U, 0x80000000U, 0xdeadbeefU, 0xffffffffU, h0})
            {
                NS_TEST_ASSERT_MSG_EQ(RoceFrame::HashIndex(h, n),
                                      h % n,
                                      "hash " << h << " % " << n);
            }
        }
    }
};

/// SetEcnCe marks CE, keeps everything else, and the IPv4 checksum still verifies.
class RoceEcnMarkTestCase : public TestCase
{
  public:
    RoceEcnMarkTestCase()
        : TestCase("SetEcnCe sets ECN 11 with a valid IPv4 checksum")
    {
    }

  private:
    void DoRun() override
    {
        for (bool vlan : {false, true})
        {
            RoceFrameFields f = DataFields(BthHeader::WRITE_MIDDLE, 1000);
            f.useVlan = vlan;
            Ptr<Packet> p = Create<Packet>(1000);
            RoceFrame::Encapsulate(p, f);
            const uint32_t before = p->GetSize();
            RoceFrame::SetEcnCe(p);
            RoceFrameView v;
            NS_TEST_ASSERT_MSG_EQ(RoceFrame::Peek(p, v), true, "decodes after marking");
            NS_TEST_ASSERT_MSG_EQ(+v.ecn, 3, "ECN CE");
            NS_TEST_ASSERT_MSG_EQ(+v.dscp, 26, "DSCP kept");
            NS_TEST_ASSERT_MSG_EQ(v.psn, 0x123456u, "BTH kept");
            NS_TEST_ASSERT_MSG_EQ(p->GetSize(), before, "size kept");
            std::vector<uint8_t> b = Bytes(p);
            NS_TEST_ASSERT_MSG_EQ(IpSum(b.data() + v.l3Offset), 0xFFFF, "checksum sums to FFFF");
            // And ns-3's own verifier agrees.
            RoceEthernetHeader eth;
            p->RemoveHeader(eth);
            Ipv4Header ip;
            ip.EnableChecksum();
            p->PeekHeader(ip);
            NS_TEST_ASSERT_MSG_EQ(ip.IsChecksumOk(), true, "Ipv4Header::IsChecksumOk");
        }
    }
};

/// Decapsulate inverts Encapsulate.
class RoceDecapsulateTestCase : public TestCase
{
  public:
    RoceDecapsulateTestCase()
        : TestCase("Decapsulate recovers every field and leaves the payload")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrameFields f = DataFields(BthHeader::WRITE_ONLY_IMM, 512);
        f.useVlan = true;
        f.pcp = 6;
        f.vid = 7;
        f.ttl = 33;
        f.ecn = 3;
        f.se = true;
        f.fecn = true;
        f.pKey = 0x8001;
        f.rethVa = 0xFEDCBA9876543210ULL;
        f.rethRKey = 0x55AA;
        f.rethDmaLen = 512;
        f.imm = 0xC0FFEE;
        Ptr<Packet> p = Create<Packet>(512);
        RoceFrame::Encapsulate(p, f);
        RoceFrameFields g;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Decapsulate(p, g), true, "decapsulates");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 512u, "payload left");
        NS_TEST_ASSERT_MSG_EQ(g.payloadBytes, 512u, "payloadBytes");
        NS_TEST_ASSERT_MSG_EQ(g.srcMac, f.srcMac, "src MAC");
        NS_TEST_ASSERT_MSG_EQ(g.dstMac, f.dstMac, "dst MAC");
        NS_TEST_ASSERT_MSG_EQ((g.useVlan && g.pcp == 6 && g.vid == 7), true, "VLAN");
        NS_TEST_ASSERT_MSG_EQ(g.srcIp, f.srcIp, "src IP");
        NS_TEST_ASSERT_MSG_EQ(g.dstIp, f.dstIp, "dst IP");
        NS_TEST_ASSERT_MSG_EQ(+g.dscp, 26, "DSCP");
        NS_TEST_ASSERT_MSG_EQ(+g.ecn, 3, "ECN");
        NS_TEST_ASSERT_MSG_EQ(+g.ttl, 33, "TTL");
        NS_TEST_ASSERT_MSG_EQ(g.udpSrcPort, 50000, "UDP src");
        NS_TEST_ASSERT_MSG_EQ(+g.opcode, 0x0B, "opcode");
        NS_TEST_ASSERT_MSG_EQ((g.se && g.fecn && !g.becn), true, "flags");
        NS_TEST_ASSERT_MSG_EQ(g.pKey, 0x8001, "P_Key");
        NS_TEST_ASSERT_MSG_EQ(g.destQp, 0xABCDu, "QP");
        NS_TEST_ASSERT_MSG_EQ(g.psn, 0x123456u, "PSN");
        NS_TEST_ASSERT_MSG_EQ((g.hasReth && g.hasImm && !g.hasAeth), true, "ext headers");
        NS_TEST_ASSERT_MSG_EQ(g.rethVa, 0xFEDCBA9876543210ULL, "VA");
        NS_TEST_ASSERT_MSG_EQ(g.rethRKey, 0x55AAu, "R_Key");
        NS_TEST_ASSERT_MSG_EQ(g.rethDmaLen, 512u, "DMA length");
        NS_TEST_ASSERT_MSG_EQ(g.imm, 0xC0FFEEu, "ImmDt");

        RoceFrameFields a = DataFields(BthHeader::ACKNOWLEDGE, 0);
        a.aethMsn = 0xFFFFFF;
        p = Create<Packet>();
        RoceFrame::Encapsulate(p, a);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Decapsulate(p, g), true, "ACK decapsulates");
        NS_TEST_ASSERT_MSG_EQ((g.hasAeth && g.aethMsn == 0xFFFFFF && g.aethSyndrome == 0x1F),
                              true,
                              "AETH");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 0u, "nothing left");

        RoceFrameFields c = DataFields(BthHeader::CNP, 0);
        p = Create<Packet>();
        RoceFrame::Encapsulate(p, c);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Decapsulate(p, g), true, "CNP decapsulates");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 0u, "reserved bytes removed");

        PfcHeader pfc;
        p = Create<Packet>();
        RoceFrame::EncapsulatePfc(p, Mac48Address("02:00:00:00:00:01"), pfc);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::Decapsulate(p, g), false, "PFC is not RoCE");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 60u, "refused frame untouched");
    }
};

/**
 * Encapsulate writes all headers in one block: the header classes must read back
 * every field, for every opcode the NIC sends, tagged and untagged, with field
 * values spread over their ranges (a wrong offset, shift or mask breaks a field),
 * and the IPv4 checksum, IP total length and UDP length must be right.
 */
namespace
{
/// \return true if every field of two views is equal
bool
SameView(const RoceFrameView& a, const RoceFrameView& b)
{
    bool same = a.frameBytes == b.frameBytes && a.etherType == b.etherType && a.isPfc == b.isPfc &&
                a.isIpv4 == b.isIpv4 && a.isRoce == b.isRoce && a.hasVlan == b.hasVlan &&
                a.pcp == b.pcp && a.vid == b.vid && a.l3Offset == b.l3Offset && a.dscp == b.dscp &&
                a.ecn == b.ecn && a.ttl == b.ttl && a.ipProtocol == b.ipProtocol &&
                a.srcIp == b.srcIp && a.dstIp == b.dstIp && a.udpSrc == b.udpSrc &&
                a.udpDst == b.udpDst && a.bthOpcode == b.bthOpcode && a.fecn == b.fecn &&
                a.becn == b.becn && a.ackReq == b.ackReq && a.pKey == b.pKey &&
                a.destQp == b.destQp && a.psn == b.psn && a.hasAeth == b.hasAeth &&
                a.aethSyndrome == b.aethSyndrome && a.aethMsn == b.aethMsn &&
                a.pfcEnableVector == b.pfcEnableVector;
    for (int i = 0; i < 8; ++i)
    {
        same = same && a.pfcPauseTime[i] == b.pfcPauseTime[i];
    }
    return same;
}
} // namespace

class RoceEncapsulateRoundTripTestCase : public TestCase
{
  public:
    RoceEncapsulateRoundTripTestCase()
        : TestCase("Encapsulate and Build: header classes read back every field of every "
                   "opcode; Describe gives the view Peek decodes, and its bytes are Build's")
    {
    }

  private:
    void DoRun() override
    {
        const uint8_t opcodes[] = {BthHeader::SEND_FIRST,
                                   BthHeader::SEND_ONLY_IMM,
                                   BthHeader::WRITE_FIRST,
                                   BthHeader::WRITE_MIDDLE,
                                   BthHeader::WRITE_LAST,
                                   BthHeader::WRITE_LAST_IMM,
                                   BthHeader::WRITE_ONLY,
                                   BthHeader::WRITE_ONLY_IMM,
                                   BthHeader::ACKNOWLEDGE,
                                   BthHeader::CNP};
        uint32_t cases = 0;
        uint32_t bad = 0;
        uint32_t seed = 12345;
        auto next = [&seed]() {
            seed = seed * 1103515245U + 12345U; // any spread of values will do
            return seed >> 8;
        };
        for (uint8_t op : opcodes)
        {
            for (bool vlan : {false, true})
            {
                for (int rep = 0; rep < 20; ++rep)
                {
                    const bool noPayload = op == BthHeader::ACKNOWLEDGE || op == BthHeader::CNP;
                    RoceFrameFields f = DataFields(op, noPayload ? 0 : 1 + next() % 4096);
                    f.useVlan = vlan;
                    f.pcp = next() % 8;
                    f.dei = next() & 1;
                    f.vid = next() % 4096;
                    f.srcIp = Ipv4Address(next() * 7919U);
                    f.dstIp = Ipv4Address(next() * 104729U);
                    f.dscp = next() % 64;
                    f.ecn = next() % 4;
                    f.ttl = 1 + next() % 255;
                    f.ipId = next() & 0xFFFF;
                    f.udpSrcPort = next() & 0xFFFF;
                    f.se = next() & 1;
                    f.migReq = next() & 1;
                    f.padCnt = next() % 4;
                    DrawTransportFields(f, next);
                    Ptr<Packet> p = Create<Packet>(f.payloadBytes);
                    RoceFrame::Encapsulate(p, f);
                    ++cases;
                    bool ok = p->GetSize() == RoceFrame::HeaderBytes(f) + f.payloadBytes;
                    // Build (the NIC's one-step path) gives exactly the same bytes.
                    Ptr<Packet> built = RoceFrame::Build(f);
                    std::vector<uint8_t> a(p->GetSize());
                    std::vector<uint8_t> c(built->GetSize());
                    p->CopyData(a.data(), a.size());
                    built->CopyData(c.data(), c.size());
                    ok = ok && a == c;
                    // The view the NIC carries with a frame is what a switch would decode.
                    RoceFrameView peeked;
                    RoceFrameView described;
                    ok = ok && RoceFrame::Peek(*built, peeked);
                    RoceFrame::Describe(f, described);
                    ok = ok && SameView(peeked, described);
                    RoceParsedFrame parsed = RoceFrame::BuildParsed(f);
                    ok = ok && SameView(parsed.view, described) && !parsed.HasPacket();
                    // The bytes written later from the view alone are Build's bytes.
                    Ptr<Packet> lazy = parsed.GetPacket();
                    std::vector<uint8_t> l(lazy->GetSize());
                    lazy->CopyData(l.data(), l.size());
                    ok = ok && parsed.HasPacket() && l == c && parsed.GetPacket() == lazy;

                    Ptr<Packet> q = p->Copy();
                    RoceEthernetHeader eth;
                    q->RemoveHeader(eth);
                    Ipv4Header ip;
                    ip.EnableChecksum();
                    q->PeekHeader(ip);
                    ok = ok && ip.IsChecksumOk() && ip.IsDontFragment() &&
                         ip.GetIdentification() == f.ipId &&
                         ip.GetPayloadSize() + 20U == q->GetSize();
                    std::vector<uint8_t> bytes(q->GetSize());
                    q->CopyData(bytes.data(), bytes.size());
                    // UDP length (bytes 4-5 after the 20-byte IPv4 header) covers the ICRC.
                    ok = ok && (uint32_t(bytes[24]) << 8 | bytes[25]) == q->GetSize() - 20;
                    ok = ok && (eth.GetDei() == (vlan && f.dei));

                    RoceFrameFields g;
                    ok = ok && RoceFrame::Decapsulate(p, g) && p->GetSize() == f.payloadBytes;
                    ok = ok && g.srcMac == f.srcMac && g.dstMac == f.dstMac && g.useVlan == vlan &&
                         (!vlan || (g.pcp == f.pcp && g.vid == f.vid)) && g.srcIp == f.srcIp &&
                         g.dstIp == f.dstIp && g.dscp == f.dscp && g.ecn == f.ecn &&
                         g.ttl == f.ttl && g.udpSrcPort == f.udpSrcPort && g.opcode == f.opcode &&
                         g.se == f.se && g.migReq == f.migReq && g.padCnt == f.padCnt &&
                         g.pKey == f.pKey && g.fecn == f.fecn && g.becn == f.becn &&
                         g.destQp == f.destQp && g.ackReq == f.ackReq && g.psn == f.psn &&
                         g.hasReth == f.hasReth && g.hasAeth == f.hasAeth && g.hasImm == f.hasImm &&
                         g.payloadBytes == f.payloadBytes;
                    ok = ok && (!f.hasReth || (g.rethVa == f.rethVa && g.rethRKey == f.rethRKey &&
                                               g.rethDmaLen == f.rethDmaLen));
                    ok = ok && (!f.hasAeth ||
                                (g.aethSyndrome == f.aethSyndrome && g.aethMsn == f.aethMsn));
                    ok = ok && (!f.hasImm || g.imm == f.imm);
                    if (!ok)
                    {
                        ++bad;
                        std::cout << "  mismatch: opcode 0x" << std::hex << +op << std::dec
                                  << " vlan " << vlan << " rep " << rep << std::endl;
                    }
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(cases, 400u, "10 opcodes x 2 framings x 20 draws");
        NS_TEST_ASSERT_MSG_EQ(bad, 0u, "every field read back by the header classes");
    }
};

/// Restores the process-wide ICRC switch even when an assertion returns early.
struct IcrcComputeGuard
{
    ~IcrcComputeGuard()
    {
        IcrcTrailer::SetComputeEnabled(false);
    }
};

/**
 * ICRC against an independent reference. The expected value is not computed by the
 * code under test: it is the ICRC a ConnectX-4 Lx NIC put on a CNP it sent (the
 * 74-byte frame below, as published in scapy's RoCE regression tests). The frame is
 * rebuilt field by field with RoceFrame::Encapsulate; every byte, including the IPv4
 * checksum and the ICRC, must match the capture.
 */
class IcrcTestCase : public TestCase
{
  public:
    IcrcTestCase()
        : TestCase("ICRC matches a hardware-generated CNP; masked fields excluded")
    {
    }

  private:
    void DoRun() override
    {
        IcrcComputeGuard guard;
        // Boost's crc_32_type is the CRC-32 of Ethernet/zlib: check value of "123456789".
        boost::crc_32_type crc;
        crc.process_bytes("123456789", 9);
        NS_TEST_ASSERT_MSG_EQ(crc.checksum(), 0xCBF43926u, "CRC-32 check value");
        // The CRC register after the 8 masked-LRH bytes of 0xFF equals the seed
        // 0xdebb20e3 that Linux's soft-RoCE (rdma_rxe) starts from.
        boost::crc_32_type lrh;
        const uint8_t ff[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        lrh.process_bytes(ff, 8);
        NS_TEST_ASSERT_MSG_EQ((lrh.checksum() ^ 0xFFFFFFFFu), 0xdebb20e3u, "rxe seed");

        const std::string capture = "e41d2dab2bc27cfe90643b32080045c2"
                                    "003c718c400040119161"
                                    "0a0011010a001201"
                                    "000012b700280000"
                                    "8100ffff4000011800000000"
                                    "00000000000000000000000000000000"
                                    "82fd002a";
        RoceFrameFields f;
        f.dstMac = Mac48Address("e4:1d:2d:ab:2b:c2");
        f.srcMac = Mac48Address("7c:fe:90:64:3b:32");
        f.srcIp = Ipv4Address("10.0.17.1");
        f.dstIp = Ipv4Address("10.0.18.1");
        f.dscp = 0xc2 >> 2;
        f.ecn = 0xc2 & 3;
        f.ttl = 64;
        f.ipId = 0x718c;
        f.udpSrcPort = 0;
        f.opcode = BthHeader::CNP;
        f.SetExtHeadersForOpcode();
        f.becn = true;
        f.destQp = 0x118;
        f.psn = 0;
        IcrcTrailer::SetComputeEnabled(true);
        Ptr<Packet> p = Create<Packet>();
        RoceFrame::Encapsulate(p, f);
        NS_TEST_ASSERT_MSG_EQ(Hex(Bytes(p)), capture, "CNP rebuilt byte for byte");
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::VerifyIcrc(p), true, "VerifyIcrc on the capture");

        // The ICRC excludes TOS (ECN marking) and BTH FECN/BECN but covers the payload.
        RoceFrameFields d = DataFields(BthHeader::WRITE_FIRST, 256);
        d.rethDmaLen = 256;
        Ptr<Packet> q = Create<Packet>(256);
        RoceFrame::Encapsulate(q, d);
        IcrcTrailer::SetComputeEnabled(false);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::VerifyIcrc(q), true, "data frame ICRC");
        RoceFrame::SetEcnCe(q);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::VerifyIcrc(q), true, "still valid after CE mark");
        d.becn = true;
        d.fecn = true;
        d.dscp = 0;
        d.ttl = 1;
        Ptr<Packet> r = Create<Packet>(256);
        IcrcTrailer::SetComputeEnabled(true);
        RoceFrame::Encapsulate(r, d);
        IcrcTrailer::SetComputeEnabled(false);
        std::vector<uint8_t> bq = Bytes(q);
        std::vector<uint8_t> br = Bytes(r);
        NS_TEST_ASSERT_MSG_EQ(Hex({bq.end() - 4, bq.end()}),
                              Hex({br.end() - 4, br.end()}),
                              "variant fields do not change the ICRC");
        d.psn = 0x123457;
        Ptr<Packet> s = Create<Packet>(256);
        IcrcTrailer::SetComputeEnabled(true);
        RoceFrame::Encapsulate(s, d);
        IcrcTrailer::SetComputeEnabled(false);
        std::vector<uint8_t> bs = Bytes(s);
        NS_TEST_ASSERT_MSG_NE(Hex({bs.end() - 4, bs.end()}),
                              Hex({br.end() - 4, br.end()}),
                              "the PSN is covered");
        // Default: no computation, zeros on the wire, verification fails.
        Ptr<Packet> z = Create<Packet>(256);
        RoceFrame::Encapsulate(z, d);
        std::vector<uint8_t> bz = Bytes(z);
        NS_TEST_ASSERT_MSG_EQ(Hex({bz.end() - 4, bz.end()}), "00000000", "zeros by default");
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::VerifyIcrc(z), false, "zero ICRC does not verify");
    }
};

/// \brief The RoCEv2 wire-format test suite.
class Rocev2HeadersTestSuite : public TestSuite
{
  public:
    Rocev2HeadersTestSuite()
        : TestSuite("ai-fabric-rocev2-headers", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new RoceHeaderBytesTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceFrameSizeTestCase, AI_FABRIC_QUICK);
        AddTestCase(new PfcFrameTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceFramePeekTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceFlowHashTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceEcnMarkTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceDecapsulateTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceEncapsulateRoundTripTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IcrcTestCase, AI_FABRIC_QUICK);
    }
};

static Rocev2HeadersTestSuite g_rocev2HeadersTestSuite; //!< registers the suite
