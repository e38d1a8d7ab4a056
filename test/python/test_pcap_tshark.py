# SPDX-License-Identifier: GPL-2.0-only
"""tshark must decode the frames the model writes into pcaps.

RoCEv2 and PFC frames: the pcap comes from examples/rocev2-pcap-sample.cc: set
AI_FABRIC_PCAP_WRITER to that binary (the test runs it into a temporary directory), or
AI_FABRIC_PCAP to a pcap it already wrote. tshark (>= 3.x) decodes UDP port 4791 as
RRoCE (InfiniBand BTH onwards) without any -d option, and EtherType 0x8808 opcode
0x0101 as MAC control "Class Based Flow Control".

The runner's pcaps (ai-fabric-sim --pcap=1, the ai_fabric_sim fixture): InfiniBand
files (LINKTYPE_ERF, 197, by default; LINKTYPE_INFINIBAND, 247, with
--ib-pcap-format=raw) decoded field by field by plain tshark, their ERF headers, ICRC/VCRC
recomputed, their timestamps and determinism, QPNs as an HCA gives them (never the
management QPs 0 and 1); --pcap-snaplen on both fabrics and both InfiniBand formats
(file sizes, original lengths kept, headers still decoded) and bad values.
"""
import json
import os
import pathlib
import shutil
import struct
import subprocess
import zlib

import pytest

FIELDS = [
    "frame.len",
    "ip.checksum.status",
    "infiniband.bth.opcode",
    "infiniband.bth.psn",
    "infiniband.bth.destqp",
    "infiniband.reth.dmalen",
    "infiniband.aeth.msn",
    "macc.cbfc.enbv",
    "macc.cbfc.pause_time.c3",
]

# What examples/rocev2-pcap-sample.cc writes, one dict per frame.
EXPECTED = [
    # RDMA WRITE first: 1024 B payload + 58 B framing + 16 B RETH
    {"frame.len": "1098", "infiniband.bth.opcode": "6", "infiniband.bth.psn": "100",
     "infiniband.bth.destqp": "0x000012", "infiniband.reth.dmalen": "4096"},
    # RDMA WRITE middle: 1024 + 58
    {"frame.len": "1082", "infiniband.bth.opcode": "7", "infiniband.bth.psn": "101",
     "infiniband.bth.destqp": "0x000012", "infiniband.reth.dmalen": ""},
    # ACK: 14 + 20 + 8 + 12 + AETH 4 + ICRC 4
    {"frame.len": "62", "infiniband.bth.opcode": "17", "infiniband.bth.psn": "101",
     "infiniband.bth.destqp": "0x000034", "infiniband.aeth.msn": "5"},
    # CNP: BTH + 16 reserved bytes
    {"frame.len": "74", "infiniband.bth.opcode": "129", "infiniband.bth.psn": "0",
     "infiniband.bth.destqp": "0x000034"},
    # PFC: priority 3 paused for 65535 quanta, 60 bytes before FCS
    {"frame.len": "60", "macc.cbfc.enbv": "0x0008", "macc.cbfc.pause_time.c3": "65535"},
]


def _pcap_path(tmp_path):
    pcap = os.environ.get("AI_FABRIC_PCAP")
    if pcap:
        if not os.path.exists(pcap):
            pytest.fail(f"AI_FABRIC_PCAP={pcap} does not exist")
        return pcap
    writer = os.environ.get("AI_FABRIC_PCAP_WRITER")
    if not writer:
        pytest.skip("set AI_FABRIC_PCAP_WRITER (rocev2-pcap-sample binary) or AI_FABRIC_PCAP")
    out = str(tmp_path / "rocev2-sample.pcap")
    subprocess.run([writer, f"--out={out}"], check=True, timeout=60)
    return out


def _decode(pcap):
    cmd = ["tshark", "-o", "ip.check_checksum:TRUE", "-r", pcap, "-T", "fields",
           "-E", "separator=;"]
    for f in FIELDS:
        cmd += ["-e", f]
    res = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=60)
    rows = [line.split(";") for line in res.stdout.splitlines() if line.strip()]
    return [dict(zip(FIELDS, row)) for row in rows]


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")
def test_tshark_decodes_rocev2_and_pfc(tmp_path):
    rows = _decode(_pcap_path(tmp_path))
    assert len(rows) == len(EXPECTED), rows
    for i, (row, want) in enumerate(zip(rows, EXPECTED)):
        for field, value in want.items():
            assert row[field] == value, f"frame {i + 1}: {field} = {row[field]!r}, want {value!r}"
    # Every IPv4 header checksum verifies (1 = good in tshark's checksum status).
    for i, row in enumerate(rows[:4]):
        assert row["ip.checksum.status"] == "1", f"frame {i + 1}: bad IPv4 checksum"


# --- pcaps the runner writes: InfiniBand (ERF, raw) and --pcap-snaplen ------------------
#
# The runner writes one pcap per port, PREFIX ai-fabric-NODE-PORT.pcap, with ns-3's
# nanosecond-resolution pcap format (magic 0xa1b23c4d). InfiniBand files are by default
# LINKTYPE_ERF (197): each record a 16-byte ERF header (type 21, InfiniBand) before the
# packet from its LRH, as NVIDIA's ibdump writes them; tshark opens them as they are.
# --ib-pcap-format=raw writes LINKTYPE_INFINIBAND (247), tcpdump.org's link type for raw
# InfiniBand packets from the LRH on, which Wireshark 4.0's wiretap does not open
# ("network type 247 unknown or unsupported"): for those alone _tshark relabels a copy
# as LINKTYPE_USER0 (147) mapped to the "infiniband" dissector.

LINKTYPE_ETHERNET = 1
LINKTYPE_ERF = 197
LINKTYPE_INFINIBAND = 247
LINKTYPE_USER0 = 147
USER0_IS_INFINIBAND = 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""'
ERF_TYPE_INFINIBAND = 21
ERF_FLAG_VARYING_LENGTH = 4

# Two leaves of two hosts under one spine: host 3 -> host 0 crosses leaf, spine, leaf.
IB_SCENARIO = [
    "--fabric=infiniband", "--topology=leafspine", "--leaves=2", "--spines=1",
    "--hosts-per-switch=2", "--workload=incast", "--fanin=1", "--bytes=4KB",
    "--mtu=1024",
]
IB_FIELDS = [
    "frame.len", "frame.cap_len", "infiniband.lrh.vl", "infiniband.lrh.sl",
    "infiniband.lrh.lnh", "infiniband.lrh.dlid", "infiniband.lrh.slid",
    "infiniband.lrh.pktlen", "infiniband.bth.opcode", "infiniband.bth.destqp",
    "infiniband.bth.psn", "infiniband.reth.dmalen", "infiniband.aeth.syndrome.opcode",
    "infiniband.aeth.syndrome.credit_count", "infiniband.aeth.msn",
]


def _erf_ns(ts):
    """An ERF timestamp (seconds . 2^-32 s fraction) in ns, rounded as Wireshark does."""
    return (ts >> 32) * 10**9 + (((ts & 0xFFFFFFFF) * 10**9 + 2**31) >> 32)


def _read_pcap(path):
    """(link type, snaplen, [(time_ns, orig_len, bytes)]) of a little-endian ns pcap.

    LINKTYPE_ERF records are checked and unwrapped: each is a 16-byte ERF InfiniBand
    header (type 21, flags 'varying length', rlen the record's captured bytes, lctr 0,
    wlen the packet's bytes = the pcap original length - 16, a timestamp within a
    nanosecond of the record's) and the packet; the tuple holds the packet's original
    length and bytes, as a raw file's record would."""
    data = pathlib.Path(path).read_bytes()
    magic, major, minor, _, _, snaplen, linktype = struct.unpack_from("<IHHiIII", data, 0)
    assert (magic, major, minor) == (0xA1B23C4D, 2, 4), f"{path}: not a ns pcap 2.4"
    records, off = [], 24
    while off < len(data):
        sec, nsec, incl, orig = struct.unpack_from("<IIII", data, off)
        off += 16
        assert incl <= orig and off + incl <= len(data), f"{path}: bad record at {off}"
        t, body = sec * 10**9 + nsec, data[off:off + incl]
        if linktype == LINKTYPE_ERF:
            ts, rtype, flags, rlen, lctr, wlen = struct.unpack_from("<QBB", body) + \
                struct.unpack_from(">HHH", body, 10)
            where = f"{path}: ERF record at {t} ns"
            assert (rtype, flags, lctr) == (ERF_TYPE_INFINIBAND, ERF_FLAG_VARYING_LENGTH, 0), where
            assert (rlen, wlen + 16) == (incl, orig), where
            # The ERF time rounds the model's ps to 2^-32 s; the record's is truncated to ns.
            assert _erf_ns(ts) - t in (0, 1), where
            records.append((t, wlen, body[16:]))
        else:
            records.append((t, orig, body))
        off += incl
    return linktype, snaplen, records


def _tshark(pcap, fields, tmp_path, display_filter=None):
    """tshark's decode of pcap, one dict of fields per frame."""
    linktype = _read_pcap(pcap)[0]
    cmd = ["tshark"]
    if linktype == LINKTYPE_INFINIBAND:
        data = bytearray(pathlib.Path(pcap).read_bytes())
        struct.pack_into("<I", data, 20, LINKTYPE_USER0)
        relabelled = tmp_path / ("user0-" + pathlib.Path(pcap).name)
        relabelled.write_bytes(bytes(data))
        pcap = relabelled
        cmd += ["-o", USER0_IS_INFINIBAND]
    cmd += ["-r", str(pcap), "-T", "fields", "-E", "separator=;"]
    if display_filter:
        cmd += ["-Y", display_filter]
    for f in fields:
        cmd += ["-e", f]
    res = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120)
    return [dict(zip(fields, line.split(";"))) for line in res.stdout.splitlines() if line]


def _crc16_vcrc(data):
    """IBTA VCRC: CRC-16, polynomial 0x100B, reflected, initial and final XOR 0xFFFF."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xD008 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def _ib_crcs_ok(frame):
    """ICRC (CRC-32 over LRH..pad with the LRH VL and the BTH's byte 4 as ones, IBTA
    Vol. 1 7.8.1, local packet) and VCRC (7.8.2, over LRH..ICRC) both hold."""
    masked = bytearray(frame[:-6])
    masked[0] |= 0xF0
    masked[8 + 4] = 0xFF
    icrc = struct.unpack_from("<I", frame, len(frame) - 6)[0]
    vcrc = struct.unpack_from("<H", frame, len(frame) - 2)[0]
    return icrc == zlib.crc32(bytes(masked)) and vcrc == _crc16_vcrc(frame[:-2])


def _sim(ai_fabric_sim, *flags):
    r = subprocess.run([str(ai_fabric_sim), *flags], capture_output=True, text=True,
                       timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    return r


needs_tshark = pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")


@needs_tshark
def test_infiniband_pcap_has_the_lrh_bth_aeth_bytes(ai_fabric_sim, tmp_path):
    out = tmp_path / "ib"
    _sim(ai_fabric_sim, *IB_SCENARIO, "--checksums=1", "--pcap=1", f"--out={out}")
    # One file per port: 4 hosts x 1, 2 leaves x 3, the spine x 2.
    names = sorted(p.name for p in out.glob("*.pcap"))
    assert names == sorted(f"ai-fabric-{n}-{p}.pcap" for n, ports in
                           [(0, 1), (1, 1), (2, 1), (3, 1), (4, 3), (5, 3), (6, 2)]
                           for p in range(ports))
    for name in names:
        linktype, snaplen, records = _read_pcap(out / name)
        assert (linktype, snaplen) == (LINKTYPE_ERF, 65535), name
        times = [t for t, _, _ in records]
        assert times == sorted(times), f"{name}: records out of time order"
        for t, orig, frame in records:
            assert len(frame) == orig, f"{name}: a whole-frame record was cut"
            # LRH PktLen counts LRH..ICRC in 4-byte words; the VCRC's 2 bytes follow.
            assert struct.unpack_from(">H", frame, 4)[0] & 0x7FF == (orig - 2) // 4
            assert _ib_crcs_ok(frame), f"{name}: ICRC/VCRC of the record at {t} ns"

    # The sender, host 3 (LID 4), to host 0 (LID 1): 4000 bytes as RDMA WRITE first,
    # middle, middle, last with immediate (1024 + 1024 + 1024 + 928 payload bytes), and
    # the ACK of PSN 3 coming back. Sizes: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26, RETH
    # 16, ImmDt 4, AETH 4. Each host's one queue pair has QPN 16 (0x10, RdmaNic's
    # QpnBase): the data go to host 0's QP 16, the ACK to host 3's.
    rows = _tshark(out / "ai-fabric-3-0.pcap", IB_FIELDS, tmp_path)
    data = {"infiniband.lrh.vl": "0x00", "infiniband.lrh.sl": "0", "infiniband.lrh.lnh": "0x02",
            "infiniband.lrh.dlid": "1", "infiniband.lrh.slid": "4",
            "infiniband.bth.destqp": "0x000010"}
    expected = [
        dict(data, **{"frame.len": "1066", "infiniband.lrh.pktlen": "266",
                      "infiniband.bth.opcode": "6", "infiniband.bth.psn": "0",
                      "infiniband.reth.dmalen": "4000"}),
        dict(data, **{"frame.len": "1050", "infiniband.lrh.pktlen": "262",
                      "infiniband.bth.opcode": "7", "infiniband.bth.psn": "1",
                      "infiniband.reth.dmalen": ""}),
        dict(data, **{"frame.len": "1050", "infiniband.bth.opcode": "7",
                      "infiniband.bth.psn": "2"}),
        dict(data, **{"frame.len": "958", "infiniband.lrh.pktlen": "239",
                      "infiniband.bth.opcode": "9", "infiniband.bth.psn": "3"}),
        # ACK (opcode 17): AETH syndrome opcode 0 (ACK), credit count 31 (none
        # advertised), MSN 1 (the first message completed).
        {"frame.len": "30", "infiniband.lrh.vl": "0x00", "infiniband.lrh.dlid": "4",
         "infiniband.lrh.slid": "1", "infiniband.lrh.pktlen": "7",
         "infiniband.bth.opcode": "17", "infiniband.bth.destqp": "0x000010",
         "infiniband.bth.psn": "3", "infiniband.aeth.syndrome.opcode": "0",
         "infiniband.aeth.syndrome.credit_count": "31", "infiniband.aeth.msn": "1"},
    ]
    assert len(rows) == len(expected), rows
    for i, (row, want) in enumerate(zip(rows, expected)):
        for field, value in want.items():
            assert row[field] == value, f"frame {i + 1}: {field} = {row[field]!r}, want {value!r}"
        assert row["frame.cap_len"] == row["frame.len"]

    # Timestamps: a port records a packet it sends when the first bit leaves and one it
    # receives when the head arrives. Host 0 sees each data packet's head 4 links x
    # 1 us + 3 cut-through switches x 150 ns = 4450 ns after host 3 sent it, and host 3
    # the ACK 4450 ns after host 0 sent it.
    sent = _read_pcap(out / "ai-fabric-3-0.pcap")[2]
    received = _read_pcap(out / "ai-fabric-0-0.pcap")[2]
    assert [r[2] for r in received] == [r[2] for r in sent]
    assert [rx[0] - tx[0] for tx, rx in zip(sent[:4], received[:4])] == [4450] * 4
    assert sent[4][0] - received[4][0] == 4450
    # 1066 bytes at 100 Gb/s: the second packet starts 85 ns after the first.
    assert sent[1][0] - sent[0][0] == 85

    # Same seed, same pcaps, byte for byte.
    again = tmp_path / "ib2"
    _sim(ai_fabric_sim, *IB_SCENARIO, "--checksums=1", "--pcap=1", f"--out={again}")
    for name in names:
        assert (out / name).read_bytes() == (again / name).read_bytes(), name


def _erf_timestamps(path):
    """The ERF timestamps of a LINKTYPE_ERF pcap's records, in order."""
    data = pathlib.Path(path).read_bytes()
    out, off = [], 24
    while off < len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        out.append(struct.unpack_from("<Q", data, off + 16)[0])
        off += 16 + incl
    return out


@needs_tshark
def test_plain_tshark_dissects_the_infiniband_pcaps(ai_fabric_sim, tmp_path):
    """`tshark -r FILE`, with no decode-as or preference option, reads the default (ERF)
    InfiniBand pcaps: every record is an InfiniBand packet (no malformed one), the RC
    RDMA WRITE opcodes 6-9 and the ACKs (17) with their PSNs, every destination QPN at
    least 2 (QPs 0 and 1 are the SMI and GSI: data to them would be read as management
    datagrams), and frame.time_epoch the ERF timestamp rounded to the nanosecond."""
    out = tmp_path / "ib"
    _sim(ai_fabric_sim, *IB_SCENARIO, "--pcap=1", f"--out={out}")
    pcap = out / "ai-fabric-3-0.pcap"
    summary = subprocess.run(["tshark", "-r", str(pcap)], check=True, capture_output=True,
                             text=True, timeout=120).stdout.splitlines()
    assert len(summary) == 5, summary
    assert all(" InfiniBand " in line for line in summary), summary
    assert [("RC RDMA Write" in line, "RC Acknowledge" in line) for line in summary] == \
        [(True, False)] * 4 + [(False, True)], summary
    fields = ["frame.time_epoch", "frame.protocols", "infiniband.bth.opcode",
              "infiniband.bth.psn", "infiniband.bth.destqp", "_ws.malformed"]
    rows = []
    for p in sorted(out.glob("*.pcap")):
        got = _tshark(p, fields, tmp_path)
        stamps = _erf_timestamps(p)
        assert len(got) == len(stamps), p.name  # (hosts 1 and 2 send and receive none)
        for row, ts in zip(got, stamps):
            sec, frac = row["frame.time_epoch"].split(".")
            assert int(sec) * 10**9 + int(frac.ljust(9, "0")[:9]) == _erf_ns(ts), p.name
        rows += got
    # 5 packets, each in 8 files: host 3's port, both ports of leaf 1, spine and leaf 0
    # on the path, host 0's port
    assert len(rows) == 5 * 8
    # data packets' payload shows as "data" after the InfiniBand headers
    assert {r["frame.protocols"] for r in rows} == {"erf:infiniband", "erf:infiniband:data"}
    assert all(r["_ws.malformed"] == "" for r in rows)
    opcodes = sorted({int(r["infiniband.bth.opcode"]) for r in rows})
    assert opcodes == [6, 7, 9, 17], opcodes  # WRITE first, middle, last+imm; ACK
    assert sorted({int(r["infiniband.bth.psn"]) for r in rows}) == [0, 1, 2, 3]
    qpns = {int(r["infiniband.bth.destqp"], 16) for r in rows}
    assert qpns == {16}, qpns  # one queue pair per host, QpnBase 16


@needs_tshark
def test_raw_infiniband_pcaps_are_link_type_247(ai_fabric_sim, tmp_path):
    """--ib-pcap-format=raw (or --ns3::IbFabric::PcapFormat=Raw) writes LINKTYPE_INFINIBAND
    (247): the same packets at the same times as the ERF files, without the 16-byte ERF
    headers; a relabelled copy decodes to the same fields."""
    erf, raw, attr = tmp_path / "erf", tmp_path / "raw", tmp_path / "attr"
    _sim(ai_fabric_sim, *IB_SCENARIO, "--pcap=1", f"--out={erf}")
    _sim(ai_fabric_sim, *IB_SCENARIO, "--pcap=1", "--ib-pcap-format=raw", f"--out={raw}")
    _sim(ai_fabric_sim, *IB_SCENARIO, "--pcap=1", "--ns3::IbFabric::PcapFormat=Raw",
         f"--out={attr}")
    names = sorted(p.name for p in erf.glob("*.pcap"))
    assert names and names == sorted(p.name for p in raw.glob("*.pcap"))
    for name in names:
        assert (attr / name).read_bytes() == (raw / name).read_bytes(), name
        linktype, snaplen, packets = _read_pcap(raw / name)
        assert (linktype, snaplen) == (LINKTYPE_INFINIBAND, 65535), name
        assert _read_pcap(erf / name)[2] == packets, name
        size = (erf / name).stat().st_size - 16 * len(packets)
        assert (raw / name).stat().st_size == size, name
    fields = ["infiniband.bth.opcode", "infiniband.bth.psn", "infiniband.bth.destqp"]
    assert _tshark(raw / "ai-fabric-0-0.pcap", fields, tmp_path) == \
        _tshark(erf / "ai-fabric-0-0.pcap", fields, tmp_path)


ROCE_MTU_1000 = [
    "--topology=leafspine", "--leaves=2", "--spines=1", "--hosts-per-switch=2",
    "--workload=incast", "--fanin=2", "--bytes=100KB", "--mtu=1000", "--pcap=1",
]


def _pcap_bytes(directory):
    return sum(p.stat().st_size for p in directory.glob("*.pcap"))


@needs_tshark
def test_pcap_snaplen_cuts_rocev2_records_and_keeps_their_length(ai_fabric_sim, tmp_path):
    full, cut, zero = tmp_path / "full", tmp_path / "cut", tmp_path / "zero"
    _sim(ai_fabric_sim, *ROCE_MTU_1000, f"--out={full}")
    _sim(ai_fabric_sim, *ROCE_MTU_1000, "--pcap-snaplen=128", f"--out={cut}")
    _sim(ai_fabric_sim, *ROCE_MTU_1000, "--pcap-snaplen=0", f"--out={zero}")
    full_bytes, cut_bytes = _pcap_bytes(full), _pcap_bytes(cut)
    # 1000-byte payloads in 1074/1058-byte frames, kept as 128: at most a fifth
    # (measured 1,731,488 -> 243,168 bytes, 14 %).
    assert cut_bytes * 5 <= full_bytes, (cut_bytes, full_bytes)
    names = sorted(p.name for p in full.glob("*.pcap"))
    assert names == sorted(p.name for p in cut.glob("*.pcap"))
    for name in names:
        assert (zero / name).read_bytes() == (full / name).read_bytes(), "0 = whole frames"
        linktype, snaplen, whole = _read_pcap(full / name)
        assert (linktype, snaplen) == (LINKTYPE_ETHERNET, 65535)
        linktype, snaplen, kept = _read_pcap(cut / name)
        assert (linktype, snaplen) == (LINKTYPE_ETHERNET, 128)
        assert len(kept) == len(whole), name
        for (t1, orig1, f1), (t2, orig2, f2) in zip(whole, kept):
            # Same frame, same time, original length kept, first 128 bytes kept.
            assert (t2, orig2) == (t1, orig1) and f2 == f1[:128], name
    # tshark still decodes Ethernet, IPv4, UDP and the BTH of the cut data frames.
    fields = ["frame.len", "frame.cap_len", "ip.src", "udp.dstport", "infiniband.bth.opcode",
              "infiniband.bth.psn", "infiniband.reth.dmalen"]
    rows = _tshark(cut / "ai-fabric-0-0.pcap", fields, tmp_path,
                   "infiniband.bth.opcode == 6")
    assert sorted(r["ip.src"] for r in rows) == ["10.0.0.3", "10.0.0.4"]
    for r in rows:
        assert (r["frame.len"], r["frame.cap_len"], r["udp.dstport"]) == ("1074", "128", "4791")
        assert (r["infiniband.bth.psn"], r["infiniband.reth.dmalen"]) == ("0", "100000")


@needs_tshark
@pytest.mark.parametrize("fmt", ["erf", "raw"])
def test_pcap_snaplen_cuts_infiniband_records(ai_fabric_sim, tmp_path, fmt):
    """--pcap-snaplen=40 keeps 40 bytes of each packet in both formats: raw records hold
    40 bytes (file snaplen 40); ERF records 16 + 40 (file snaplen 56, ERF rlen 56, wlen
    and the pcap original length the whole packet's, as _read_pcap checks)."""
    full, cut = tmp_path / "full", tmp_path / "cut"
    _sim(ai_fabric_sim, *IB_SCENARIO, "--pcap=1", f"--ib-pcap-format={fmt}", f"--out={full}")
    _sim(ai_fabric_sim, *IB_SCENARIO, "--pcap=1", f"--ib-pcap-format={fmt}",
         "--pcap-snaplen=40", f"--out={cut}")
    _, _, whole = _read_pcap(full / "ai-fabric-3-0.pcap")
    linktype, snaplen, kept = _read_pcap(cut / "ai-fabric-3-0.pcap")
    assert (linktype, snaplen) == ((LINKTYPE_ERF, 56) if fmt == "erf" else
                                   (LINKTYPE_INFINIBAND, 40))
    assert [(t, orig, f[:40]) for t, orig, f in whole] == kept
    # 40 bytes hold LRH, BTH and RETH (36): tshark decodes them from the cut records.
    rows = _tshark(cut / "ai-fabric-3-0.pcap", ["frame.len", "frame.cap_len",
                   "infiniband.lrh.dlid", "infiniband.bth.psn", "infiniband.reth.dmalen"],
                   tmp_path)
    assert [(r["frame.len"], r["frame.cap_len"], r["infiniband.lrh.dlid"],
             r["infiniband.bth.psn"]) for r in rows] == [
        ("1066", "40", "1", "0"), ("1050", "40", "1", "1"), ("1050", "40", "1", "2"),
        ("958", "40", "1", "3"), ("30", "30", "4", "3")]
    assert rows[0]["infiniband.reth.dmalen"] == "4000"


@pytest.mark.parametrize("flags, message", [
    (["--pcap=1", "--pcap-snaplen=-1"],
     "--pcap-snaplen: '-1' is not an integer; allowed an integer in 0..65535"),
    (["--pcap=1", "--pcap-snaplen=65536"],
     "--pcap-snaplen: '65536' is out of range; allowed an integer in 0..65535"),
    (["--pcap=1", "--pcap-snaplen=128B"],
     "--pcap-snaplen: '128B' is not an integer; allowed an integer in 0..65535"),
    (["--pcap-snaplen=128"],
     "--pcap-snaplen=128 needs --pcap=1: without it no pcap is written"),
    (["--pcap-nodes=host0"],
     "--pcap-nodes=host0 needs --pcap=1: without it no pcap is written"),
    (["--pcap=1", "--pcap-nodes=tor9"],
     "--pcap-nodes=tor9: no node 'tor9' (allowed: a name of topology.csv, e.g. host0 or "
     "spine1, or a node id 0..21)"),
    (["--pcap=1", "--pcap-nodes=leaf0:9"],
     "--pcap-nodes=leaf0:9: leaf0 has no port 9 (allowed 0..5)"),
    (["--pcap=1", "--pcap-nodes=host0,"],
     "--pcap-nodes: 'host0,' has an empty entry; allowed NODE[:PORT][,...]"),
])
def test_bad_pcap_snaplen_is_exit_2(ai_fabric_sim, tmp_path, flags, message):
    r = subprocess.run([str(ai_fabric_sim), *flags, f"--out={tmp_path}/o"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2, r.stdout
    assert r.stderr == f"ai-fabric-sim: error: {message}\n"


@pytest.mark.parametrize("flags, message", [
    (["--fabric=infiniband", "--pcap=1", "--ib-pcap-format=pcapng"],
     "--ib-pcap-format: 'pcapng' is not one of erf, raw"),
    (["--fabric=infiniband", "--pcap=1", "--ib-pcap-format=ERF"],
     "--ib-pcap-format: 'ERF' is not one of erf, raw"),
    (["--fabric=infiniband", "--ib-pcap-format=raw"],
     "--ib-pcap-format=raw needs --fabric=infiniband --pcap=1: it chooses the records of "
     "the InfiniBand pcaps"),
    (["--pcap=1", "--ib-pcap-format=raw"],
     "--ib-pcap-format=raw needs --fabric=infiniband --pcap=1: it chooses the records of "
     "the InfiniBand pcaps"),
    (["--fabric=infiniband", "--pcap=1", "--ib-pcap-format=raw",
      "--ns3::IbFabric::PcapFormat=Erf"],
     "--ns3::IbFabric::PcapFormat=Erf: the runner sets ns3::IbFabric::PcapFormat from "
     "--ib-pcap-format; set it there (allowed: an attribute no flag sets)"),
])
def test_bad_ib_pcap_format_is_exit_2(ai_fabric_sim, tmp_path, flags, message):
    r = subprocess.run([str(ai_fabric_sim), *flags, f"--out={tmp_path}/o"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2, r.stdout
    assert r.stderr == f"ai-fabric-sim: error: {message}\n"
    assert not (tmp_path / "o").exists(), "--out untouched"


@pytest.mark.parametrize("fabric", ["rocev2", "infiniband"])
def test_pcap_nodes_traces_only_the_named_ports(ai_fabric_sim, tmp_path, fabric):
    """--pcap-nodes=host0,pod0-edge0:2,17: host0's port, one port of an edge switch by
    name and every port of node 17; each file is the one a full --pcap=1 run writes."""
    flags = ["--topology=fattree", "--k=4", "--workload=incast", "--fanin=4", "--bytes=100KB",
             "--qlen-interval=0", "--pcap=1"]
    if fabric == "infiniband":
        flags += ["--fabric=infiniband", "--mtu=4096"]
    full, some = tmp_path / "full", tmp_path / "some"
    _sim(ai_fabric_sim, *flags, f"--out={full}")
    _sim(ai_fabric_sim, *flags, "--pcap-nodes=host0,pod0-edge0:2,17", f"--out={some}")
    names = sorted(p.name for p in some.glob("*.pcap"))
    # node 16 is pod0-edge0, node 17 pod0-edge1 (4 ports) in topology.csv
    assert names == ["ai-fabric-0-0.pcap", "ai-fabric-16-2.pcap"] + \
        [f"ai-fabric-17-{p}.pcap" for p in range(4)]
    for name in names:
        assert (some / name).read_bytes() == (full / name).read_bytes(), name
    assert len(list(full.glob("*.pcap"))) == 96


def _roce_icrc_ok(frame):
    """Whether an untagged RoCEv2 frame's ICRC matches its bytes (IBTA annex A17.4.1:
    CRC-32 over 8 bytes of 0xFF, then IPv4 with TOS, TTL and checksum masked, UDP with
    its checksum masked, BTH with byte 4 masked, up to the ICRC); None if not RoCEv2."""
    if len(frame) < 14 + 20 + 8 + 12 + 4 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return None
    ip = bytearray(frame[14:])
    ihl = (ip[0] & 15) * 4
    if struct.unpack_from(">H", ip, ihl + 2)[0] != 4791:
        return None
    masked = bytearray(ip[:-4])
    for i in (1, 8, 10, 11, ihl + 6, ihl + 7, ihl + 8 + 4):
        masked[i] = 0xFF
    return zlib.crc32(b"\xff" * 8 + bytes(masked)) == struct.unpack_from("<I", ip, len(ip) - 4)[0]


def _int_rows(pcap, dissector, fields):
    cmd = ["tshark", "-o", "ip.check_checksum:TRUE", "-X", f"lua_script:{dissector}",
           "-r", str(pcap), "-T", "fields", "-E", "separator=;"]
    for f in fields:
        cmd += ["-e", f]
    res = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120)
    return [dict(zip(fields, line.split(";"))) for line in res.stdout.splitlines()
            if line.strip()]


@needs_tshark
def test_hpcc_int_block_decodes_with_the_lua_dissector(ai_fabric_sim, source_dir, tmp_path):
    """--cc=hpcc: RoCEv2 frames carry the INT block (doc/hpcc.md); tshark still decodes
    them (no malformed frame, IPv4 checksums good), and analysis/int-dissector.lua reads
    the block: data arriving at host 0 has one record per switch of its path (1, 3 or 5
    on a k=4 fat tree), every record names a 100 Gb/s link, ACKs echo records, a WRITE
    middle is 1102 bytes. Under DCQCN no frame has the DSCP bit or a block."""
    dissector = source_dir / "analysis" / "int-dissector.lua"
    fields = ["frame.len", "ip.dsfield.dscp", "ip.checksum.status", "ip.dst",
              "infiniband.bth.opcode", "aifint.hops", "aifint.echo", "aifint.rate_gbps",
              "_ws.malformed"]
    scenario = ["--topology=fattree", "--k=4", "--workload=permutation", "--bytes=20KB",
                "--checksums=1", "--pcap=1"]
    out = tmp_path / "hpcc"
    _sim(ai_fabric_sim, *scenario, "--cc=hpcc", f"--out={out}")
    rows = _int_rows(out / "ai-fabric-0-0.pcap", dissector, fields)
    assert rows
    assert all(r["_ws.malformed"] == "" for r in rows)
    assert all(r["ip.checksum.status"] == "1" for r in rows)  # 1: good
    data_in = [r for r in rows if r["ip.dst"] == "10.0.0.1" and r["infiniband.bth.opcode"]
               in ("6", "7", "8", "9", "10", "11")]
    data_out = [r for r in rows if r["ip.dst"] != "10.0.0.1" and r["infiniband.bth.opcode"]
                == "7"]
    acks_in = [r for r in rows if r["ip.dst"] == "10.0.0.1" and r["infiniband.bth.opcode"]
               == "17"]
    assert data_in and data_out and acks_in
    for r in data_in:
        hops = int(r["aifint.hops"])
        assert hops in (1, 3, 5), r
        assert int(r["ip.dsfield.dscp"]) % 2 == 1
        assert r["aifint.echo"] == "0"
        assert r["aifint.rate_gbps"].split(",") == ["100"] * hops
    for r in data_out:
        assert r["frame.len"] == "1102" and r["aifint.hops"] == "0", r
    for r in acks_in:
        assert r["aifint.echo"] == "1" and int(r["aifint.hops"]) in (1, 3, 5), r
    # The ICRC covers the block: every switch that wrote a record recomputed it.
    _, _, records = _read_pcap(out / "ai-fabric-0-0.pcap")
    roce = [frame for _, _, frame in records if _roce_icrc_ok(frame) is not None]
    assert roce and all(_roce_icrc_ok(frame) for frame in roce)
    out = tmp_path / "dcqcn"
    _sim(ai_fabric_sim, *scenario, "--cc=dcqcn", f"--out={out}")
    rows = _int_rows(out / "ai-fabric-0-0.pcap", dissector, fields)
    assert rows and all(r["aifint.hops"] == "" for r in rows)
    assert all(int(r["ip.dsfield.dscp"]) % 2 == 0 for r in rows if r["ip.dsfield.dscp"])


def _ack_bth_byte4(directory, tmp_path):
    """Byte 4 of the BTH (FECN 0x80, BECN 0x40) of every RoCEv2 ACK in the pcaps, and
    the number of CNPs, as tshark decodes them."""
    byte4, cnps = [], 0
    for pcap in sorted(directory.glob("*.pcap")):
        for row in _tshark(pcap, ["infiniband.bth.opcode", "infiniband.bth"], tmp_path):
            bth = row["infiniband.bth"].replace(":", "")
            if row["infiniband.bth.opcode"] == "17":
                byte4.append(int(bth[8:10], 16))
            elif row["infiniband.bth.opcode"] == "129":
                cnps += 1
    return byte4, cnps


@needs_tshark
def test_dctcp_acks_echo_ecn_ce_in_the_bth_becn_bit(ai_fabric_sim, tmp_path):
    """--cc=dctcp: the receivers echo ECN CE in their ACKs' BTH BECN bit (doc/dctcp.md),
    which tshark decodes as RoCEv2 ACKs; no CNP is sent. Under DCQCN the ACKs' BECN
    stays 0 and CE makes CNPs instead."""
    # host0 is the incast's receiver: its port carries every ACK and CNP
    flags = ["--workload=incast", "--fanin=7", "--bytes=1MB", "--pcap=1", "--pcap-nodes=host0"]
    runs = {}
    for cc in ("dctcp", "dcqcn"):
        out = tmp_path / cc
        _sim(ai_fabric_sim, f"--cc={cc}", *flags, f"--out={out}")
        summary = json.loads((out / "summary.json").read_text())
        runs[cc] = (summary, *_ack_bth_byte4(out, tmp_path))
    summary, byte4, cnps = runs["dctcp"]
    assert summary["ecn_marks"] > 0 and summary["cnps"] == 0 and cnps == 0
    echoing = sum(1 for b in byte4 if b & 0x40)
    assert 0 < echoing < len(byte4), (echoing, len(byte4))
    assert all(b & ~0x40 == 0 for b in byte4), "only BECN may be set in byte 4"
    summary, byte4, cnps = runs["dcqcn"]
    assert summary["ecn_marks"] > 0 and cnps > 0
    assert byte4 and all(b == 0 for b in byte4), "DCQCN ACKs carry no BECN"


READ_FIELDS = ["frame.len", "infiniband.bth.opcode", "infiniband.bth.psn",
               "infiniband.reth.dmalen", "infiniband.aeth.msn"]


@needs_tshark
@pytest.mark.parametrize("fabric", ["rocev2", "infiniband"])
def test_read_request_and_responses_decode(ai_fabric_sim, tmp_path, fabric):
    """--verb=read: host 0 reads from host 3 (--workload=incast --fanin=1: the bytes go
    host 3 -> host 0, through leaf, spine, leaf). tshark decodes the READ request (opcode 0x0c, its RETH DMA length
    the READ's size) and the responses at the request's PSN on: FIRST 0x0d, MIDDLE 0x0e,
    LAST 0x0f with an AETH on first and last (MSN 1), and a one-packet READ's ONLY 0x10.
    No ACK goes either way: the responses are the READ's acknowledgement."""
    mtu = 1024 if fabric == "infiniband" else 1000
    for size, ops in ((4 * mtu, [13, 14, 14, 15]), (mtu // 2, [16])):
        out = tmp_path / f"{fabric}-{size}"
        _sim(ai_fabric_sim, f"--fabric={fabric}", "--topology=leafspine", "--leaves=2",
             "--spines=1", "--hosts-per-switch=2", "--workload=incast", "--fanin=1",
             f"--bytes={size}B", f"--mtu={mtu}",
             "--verb=read", "--pcap=1", "--pcap-nodes=host0", f"--out={out}")
        summary = json.loads((out / "summary.json").read_text())
        assert summary["read_bytes"] == size
        rows = []
        for pcap in sorted(out.glob("*.pcap")):
            rows += [r for r in _tshark(pcap, READ_FIELDS, tmp_path)
                     if r["infiniband.bth.opcode"]]
        requests = [r for r in rows if r["infiniband.bth.opcode"] == "12"]
        responses = [r for r in rows if r["infiniband.bth.opcode"] in ("13", "14", "15", "16")]
        assert len(requests) == 1, rows
        assert requests[0]["infiniband.reth.dmalen"] == str(size)
        assert [int(r["infiniband.bth.opcode"]) for r in responses] == ops, rows
        first = int(requests[0]["infiniband.bth.psn"])
        assert [int(r["infiniband.bth.psn"]) for r in responses] == \
            list(range(first, first + len(ops)))
        for r in responses:
            has_aeth = r["infiniband.bth.opcode"] != "14"
            assert (r["infiniband.aeth.msn"] == "1") == has_aeth, r
        assert not [r for r in rows if r["infiniband.bth.opcode"] == "17"], "no ACK"


@needs_tshark
def test_send_opcodes_and_rnr_nak_decode(ai_fabric_sim, tmp_path):
    # Two SENDs host 0 -> host 1 on one queue pair (--qp-sharing=pair), one receive
    # posted (--rq-depth=1) and re-posted 100 us after each completion: the second
    # SEND's first packet finds none, host 1 answers an RNR NAK (opcode 17, AETH
    # syndrome 001xxxxx with min_rnr_timer 12), host 0 waits 0.64 ms and resends.
    flows = tmp_path / "two.txt"
    flows.write_text("2\n0 1 3 100 2000 0\n0 1 3 100 1000 0\n")
    out = tmp_path / "send"
    _sim(ai_fabric_sim, "--topology=leafspine", "--leaves=2", "--spines=1",
         "--hosts-per-switch=2", "--workload=none", f"--flows={flows}", "--qp-sharing=pair",
         "--verb=send", "--rq-depth=1", "--rq-repost-delay=100us", "--mtu=1024",
         "--pcap=1", f"--out={out}")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True
    assert summary["rnr_naks"] == 1 and summary["rnr_retries"] == 1
    assert summary["qp_errors"] == 0
    fields = ["frame.time_epoch", "infiniband.bth.opcode", "infiniband.bth.psn",
              "infiniband.reth.dmalen", "infiniband.aeth.syndrome",
              "infiniband.aeth.syndrome.opcode", "infiniband.aeth.syndrome.timer"]
    rows = _tshark(out / "ai-fabric-0-0.pcap", fields, tmp_path, display_filter="infiniband")
    sent = [r for r in rows if r["infiniband.bth.opcode"] in ("0", "1", "2", "3", "4", "5")]
    # 2000 bytes: SEND first (0) + SEND last with immediate (3); 1000 bytes: SEND only
    # with immediate (5), sent twice (the RNR NAKed try and the resend). No RETH.
    assert [(r["infiniband.bth.opcode"], r["infiniband.bth.psn"]) for r in sent] == [
        ("0", "0"), ("3", "1"), ("5", "2"), ("5", "2")]
    assert all(r["infiniband.reth.dmalen"] == "" for r in sent)
    naks = [r for r in rows if r["infiniband.aeth.syndrome.opcode"] == "1"]
    assert len(naks) == 1, rows
    nak = naks[0]
    assert nak["infiniband.bth.opcode"] == "17" and nak["infiniband.bth.psn"] == "2"
    # 001 01100: RNR NAK, timer code 12 (0.64 ms).
    assert int(nak["infiniband.aeth.syndrome"], 0) == 0x2C
    assert nak["infiniband.aeth.syndrome.timer"] == "12"
    # The resend leaves 0.64 ms after the RNR NAK reached host 0.
    wait = float(sent[3]["frame.time_epoch"]) - float(nak["frame.time_epoch"])
    assert 0.64e-3 <= wait < 0.64e-3 + 1e-6, wait


@needs_tshark
def test_infiniband_partitions_show_their_p_key_in_the_bth(ai_fabric_sim, tmp_path):
    """Two jobs in partitions 0x0001 and 0x0002 (doc/jobs.md): the Subnet Manager makes
    each host a full member of its job's partition and every packet a host sends
    carries that P_Key (bit 15 set) in its BTH, as tshark reads it."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([
        {"name": "a", "workload": "allreduce", "bytes": "64KB", "gpus": 2,
         "placement": [0, 2], "class": 0, "partition": "0x0001"},
        {"name": "b", "workload": "allreduce", "bytes": "64KB", "gpus": 2,
         "placement": [1, 3], "class": 1, "partition": "0x0002"}]))
    out = tmp_path / "ib"
    _sim(ai_fabric_sim, "--fabric=infiniband", "--mtu=4096", "--topology=leafspine",
         "--leaves=2", "--spines=1", "--hosts-per-switch=2", "--workload=jobs",
         f"--jobs={jobs}", "--jobs-baseline=0", "--pcap=1", f"--out={out}")
    fields = ["infiniband.lrh.sl", "infiniband.bth.p_key"]
    for host, (sl, key) in {0: ("0", 0x8001), 1: ("1", 0x8002), 2: ("0", 0x8001),
                            3: ("1", 0x8002)}.items():
        rows = _tshark(out / f"ai-fabric-{host}-0.pcap", fields, tmp_path,
                       display_filter=f"infiniband.lrh.slid == {host + 1}")
        assert rows, f"host {host} sent nothing"
        assert {(r["infiniband.lrh.sl"], int(r["infiniband.bth.p_key"], 0)) for r in rows} == \
            {(sl, key)}, f"host {host}"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partitions"]["pkey_violations"] == 0
    assert [j["partition"] for j in summary["jobs"]] == ["0x8001", "0x8002"]


def test_uet_frames_decode_with_the_lua_dissector(ai_fabric_sim, source_dir, tmp_path):
    """--fabric=uet (doc/uet.md): frames on UDP 4793 decode with analysis/uet-dissector.lua
    (tshark 4.0 has no UET dissector), none malformed, IPv4 checksums good. At the incast's
    receiver: full RUD requests (98 header bytes + 1000), trimmed ones (98 bytes, DSCP
    7 << 3 | 4, no payload), one NACK with code TRIMMED per trimmed request (same PSN),
    ACKs; at a sender: SYN on the first requests of its PDC only, then none."""
    dissector = source_dir / "analysis" / "uet-dissector.lua"
    out = tmp_path / "uet"
    _sim(ai_fabric_sim, "--fabric=uet", "--cc=nscc", "--topology=leafspine", "--leaves=2",
         "--spines=1", "--hosts-per-switch=4", "--workload=incast", "--fanin=7",
         "--bytes=200KB", "--ns3::UetTrimmer::TrimThreshold=20000", "--pcap=1",
         f"--out={out}")
    fields = ["frame.len", "ip.src", "ip.dst", "ip.dsfield.dscp", "ip.checksum.status",
              "udp.dstport", "aifuet.pds.type", "aifuet.pds.psn", "aifuet.pds.syn",
              "aifuet.pds.nack_code", "aifuet.ses.opcode", "aifuet.payload_bytes",
              "_ws.malformed"]
    rows = _int_rows(out / "ai-fabric-0-0.pcap", dissector, fields)
    assert rows and all(r["_ws.malformed"] == "" for r in rows)
    assert all(r["udp.dstport"] == "4793" and r["ip.checksum.status"] == "1" for r in rows)
    requests = [r for r in rows if r["aifuet.pds.type"] == "2" and r["ip.dst"] == "10.0.0.1"]
    full = [r for r in requests if r["frame.len"] == "1098"]
    trimmed = [r for r in requests if r["frame.len"] == "98"]
    assert full and trimmed and len(full) + len(trimmed) == len(requests)
    assert all(r["aifuet.ses.opcode"] == "1" and r["aifuet.payload_bytes"] == "1000"
               for r in full)
    assert all(r["ip.dsfield.dscp"] == "60" and r["aifuet.payload_bytes"] == "0"
               for r in trimmed)
    nacks = [r for r in rows if r["aifuet.pds.type"] == "10" and r["ip.src"] == "10.0.0.1"]
    trim_nacks = sorted((r["ip.dst"], r["aifuet.pds.psn"]) for r in nacks
                        if r["aifuet.pds.nack_code"] == "0x01")
    assert trim_nacks == sorted((r["ip.src"], r["aifuet.pds.psn"]) for r in trimmed)
    acks = [r for r in rows if r["aifuet.pds.type"] == "7" and r["ip.src"] == "10.0.0.1"]
    assert acks and all(r["frame.len"] == "60" for r in acks)
    sender = _int_rows(out / "ai-fabric-1-0.pcap", dissector, fields)
    syn = [r["aifuet.pds.syn"] for r in sender if r["aifuet.pds.type"] == "2"]
    assert syn[0] == "1" and "0" in syn
    assert syn == sorted(syn, reverse=True)  # SYN until the first ACK, then never


def test_uet_sack_bitmaps_decode_with_the_lua_dissector(ai_fabric_sim, source_dir, tmp_path):
    """--fabric=uet --ns3::UetNic::Sack=1 (doc/uet.md): with packets held out of order (the
    incast trims), the receiver's ACKs are ACK_CC (PDS type 8, 74-byte frames), none
    malformed, their SACK base above the cumulative ACK PSN, and every PSN a bitmap marks
    arrived was received in full from that sender before the ACK_CC left."""
    dissector = source_dir / "analysis" / "uet-dissector.lua"
    out = tmp_path / "uet-sack"
    _sim(ai_fabric_sim, "--fabric=uet", "--cc=nscc", "--topology=leafspine", "--leaves=2",
         "--spines=1", "--hosts-per-switch=4", "--workload=incast", "--fanin=7",
         "--bytes=200KB", "--ns3::UetTrimmer::TrimThreshold=20000",
         "--ns3::UetNic::Sack=1", "--pcap=1", f"--out={out}")
    fields = ["frame.len", "ip.src", "ip.dst", "aifuet.pds.type", "aifuet.pds.psn",
              "aifuet.pds.cack_psn", "aifuet.pds.ack.sack_base", "aifuet.pds.ack.sack_bitmap",
              "aifuet.pds.ack.sacked", "aifuet.payload_bytes", "_ws.malformed"]
    rows = _int_rows(out / "ai-fabric-0-0.pcap", dissector, fields)
    assert rows and all(r["_ws.malformed"] == "" for r in rows)
    received = {}
    sacks = 0
    for r in rows:
        if r["ip.dst"] == "10.0.0.1" and r["aifuet.pds.type"] == "2" and \
                r["aifuet.payload_bytes"] not in ("", "0"):
            received.setdefault(r["ip.src"], set()).add(int(r["aifuet.pds.psn"]))
        if r["ip.src"] == "10.0.0.1" and r["aifuet.pds.type"] == "8":
            sacks += 1
            assert r["frame.len"] == "74"
            base, cack = int(r["aifuet.pds.ack.sack_base"]), int(r["aifuet.pds.cack_psn"])
            assert base > cack
            bitmap = int(r["aifuet.pds.ack.sack_bitmap"], 16)
            assert bin(bitmap).count("1") == int(r["aifuet.pds.ack.sacked"])
            marked = {base + i for i in range(64) if bitmap >> i & 1}
            assert marked and marked <= received.get(r["ip.dst"], set())
    assert sacks > 0


def test_uet_rccc_frames_decode_with_the_lua_dissector(ai_fabric_sim, source_dir, tmp_path):
    """--fabric=uet with receiver credits (--ns3::UetNic::Rccc=1, doc/uet.md): the requests
    are RUD_CC_REQ (PDS type 13, 102 header bytes + 1000, a credit target), the receiver
    sends CREDIT control packets (type 11, control type 7) whose cumulative credit only
    grows, none malformed."""
    dissector = source_dir / "analysis" / "uet-dissector.lua"
    out = tmp_path / "uet-rccc"
    _sim(ai_fabric_sim, "--fabric=uet", "--cc=nscc", "--topology=leafspine", "--leaves=2",
         "--spines=1", "--hosts-per-switch=4", "--workload=incast", "--fanin=7",
         "--bytes=400KB", "--ns3::UetNic::Rccc=1", "--pcap=1", f"--out={out}")
    fields = ["frame.len", "ip.src", "ip.dst", "aifuet.pds.type", "aifuet.pds.credit_target",
              "aifuet.pds.ctl_type", "aifuet.pds.credit", "aifuet.payload_bytes",
              "_ws.malformed"]
    rows = _int_rows(out / "ai-fabric-0-0.pcap", dissector, fields)
    assert rows and all(r["_ws.malformed"] == "" for r in rows)
    requests = [r for r in rows if r["ip.dst"] == "10.0.0.1" and r["aifuet.pds.type"] != ""]
    assert requests and all(r["aifuet.pds.type"] == "13" for r in requests)
    full = [r for r in requests if r["frame.len"] == "1102"]
    assert full and all(r["aifuet.payload_bytes"] == "1000" for r in full)
    assert any(int(r["aifuet.pds.credit_target"]) > 0 for r in requests)
    credits = [r for r in rows if r["aifuet.pds.type"] == "11" and r["ip.src"] == "10.0.0.1"]
    assert credits and all(r["aifuet.pds.ctl_type"] == "7" for r in credits)
    by_peer = {}
    for r in credits:
        by_peer.setdefault(r["ip.dst"], []).append(int(r["aifuet.pds.credit"]))
    assert all(c == sorted(c) and c[-1] > 0 for c in by_peer.values())
