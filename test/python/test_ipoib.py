# SPDX-License-Identifier: GPL-2.0-only
"""IP over InfiniBand (RFC 4391 datagram mode; doc/infiniband.md, IP over InfiniBand).

- examples/ipoib-bulk-send (IbFabricHelper, IpoibHelper, InternetStackHelper,
  Ipv4AddressHelper, BulkSend, PacketSink, FlowMonitor): every flow delivers every
  byte in 4040-byte segments (IPoIB MTU 4092), nothing is lost, no credit overflows;
- ai-fabric-sim --fabric=infiniband --transport=tcp: a DCTCP permutation plus
  web-search background finishes every flow, with no drop and no ECN mark (IB switches
  do not mark IP), deterministically; the host-stack latency model applies;
- the IPoIB packets in the pcaps as tshark decodes them.
"""
import csv
import json
import re
import shutil
import struct
import subprocess

import pytest

SEND_NS = 1600  # ns3::IpoibInterface::IpSendDelay default
RECEIVE_NS = 3150  # ns3::IpoibInterface::IpReceiveDelay default
IB = ["--fabric=infiniband", "--mtu=4096", "--topology=fattree", "--k=4"]


def _sim(ai_fabric_sim, out, *flags, check=True):
    cmd = [str(ai_fabric_sim), *IB, f"--out={out}", *flags]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def _fct(out):
    with open(out / "fct.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_example_reports_every_flow_through_flow_monitor(build_dir):
    example = build_dir / "examples" / "ipoib-bulk-send"
    if not example.is_file():
        pytest.skip(f"{example} is not built")
    result = subprocess.run([str(example)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    flows = re.findall(
        r"^flow (\d+) (\S+) -> (\S+) tx_bytes (\d+) rx_bytes (\d+) lost (\d+) "
        r"throughput_gbps (\S+) mean_delay_us (\S+)$",
        result.stdout,
        re.M,
    )
    assert len(flows) == 16
    pairs = set()
    for _, src, dst, tx, rx, lost, gbps, delay in flows:
        # At the IP layer, data direction: 2 MB in 496 segments of at most 4040 bytes
        # (the 4092-byte IPoIB MTU less 20 IPv4, 20 TCP, 12 timestamps), each with 52
        # bytes of headers, the SYN (56), the handshake's ACK and the FIN (52 each).
        assert int(tx) == int(rx) == 2_000_000 + 496 * 52 + 56 + 52 + 52
        assert int(lost) == 0
        assert 1 < float(gbps) < 100  # 100 Gb/s links
        assert float(delay) > 0
        s = int(src.split(".")[-1])
        d = int(dst.split(".")[-1])
        assert (d - 1) == ((s - 1) + 8) % 16  # host i -> i + 8: another pod
        pairs.add((src, dst))
    assert len(pairs) == 16
    summary = re.search(
        r"^summary flows (\d+) complete (\d+) credit_overflows (\d+) ipoib_packets_sent (\d+) "
        r"ipoib_drops (\d+)$",
        result.stdout,
        re.M,
    )
    assert summary, result.stdout
    flows_n, complete, overflows, sent, drops = map(int, summary.groups())
    assert flows_n == complete == 16
    assert overflows == 0 and drops == 0
    assert sent >= 16 * 496  # data segments, plus the ACKs the other way


def test_dctcp_permutation_and_websearch_finish_every_flow(ai_fabric_sim, tmp_path):
    flags = ["--workload=permutation", "--bytes=1MB", "--background=websearch",
             "--load=0.3", "--transport=tcp", "--tcp-variant=dctcp"]
    out = tmp_path / "ipoib"
    _sim(ai_fabric_sim, out, *flags)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True
    rows = _fct(out)
    kinds = [r["kind"] for r in rows]
    assert kinds.count("tcp-permutation") == 16
    background = summary["flow_workload"]["background_flows"]
    assert background > 0 and kinds.count("tcp-background") == background
    tcp = summary["tcp"]
    assert tcp["variant"] == "dctcp" and tcp["flows"] == len(rows)
    assert tcp["unfinished_flows"] == 0 and tcp["nic_ip_drops"] == 0
    sent, received = tcp["nic_ip_packets_sent"], tcp["nic_ip_packets_received"]
    assert 0 <= sent - received <= 3 * tcp["flows"] and received > 0
    # Credits: lossless, nothing dropped anywhere; IB switches mark no IP ECN.
    assert summary["drops"]["lossless"] == summary["drops"]["lossy"] == 0
    assert summary["ecn_marks"] == 0
    for r in rows:
        assert int(r["fct_ns"]) >= int(r["ideal_fct_ns"]) > 0
    again = tmp_path / "again"
    _sim(ai_fabric_sim, again, *flags)
    assert (out / "fct.csv").read_bytes() == (again / "fct.csv").read_bytes()


def test_small_flow_pays_the_host_stack_latency(ai_fabric_sim, tmp_path):
    """One 1000-byte flow host 15 -> host 0: TCP's FCT spans SYN, SYN-ACK and the
    data, each through both hosts' stacks, so removing the two delays takes exactly
    3 x (IpSendDelay + IpReceiveDelay) off it."""
    flags = ["--workload=incast", "--fanin=1", "--bytes=1000", "--transport=tcp"]
    fct = {}
    for name, extra in {
        "tcp": [],
        "tcp0": ["--ns3::IpoibInterface::IpSendDelay=0ns",
                 "--ns3::IpoibInterface::IpReceiveDelay=0ns"],
    }.items():
        out = tmp_path / name
        _sim(ai_fabric_sim, out, *flags, *extra)
        (row,) = _fct(out)
        fct[name] = int(row["fct_ns"])
    # (fct.csv is in whole ns: the two runs' sub-ns remainders differ by under 1 ns)
    assert abs(fct["tcp"] - fct["tcp0"] - 3 * (SEND_NS + RECEIVE_NS)) <= 1


def _readable_by_tshark(pcap, tmp_path):
    """tshark 4.0 (Debian 12) reads no LINKTYPE_INFINIBAND (247) pcap: such a file's
    packets are wrapped here, as they are, in ERF records of type 21 (InfiniBand) in a
    LINKTYPE_ERF (197) pcap, which it decodes with the same infiniband dissector. A
    pcap of another link type is returned as it is."""
    data = pcap.read_bytes()
    magic, major, minor, _, _, snap, linktype = struct.unpack("<IHHiIII", data[:24])
    if linktype != 247:
        return pcap
    out = bytearray(struct.pack("<IHHiIII", magic, major, minor, 0, 0, snap + 16, 197))
    off = 24
    while off < len(data):
        sec, frac, incl, _ = struct.unpack("<IIII", data[off:off + 16])
        packet = data[off + 16:off + 16 + incl]
        off += 16 + incl
        erf = (struct.pack("<Q", sec << 32) + bytes([21, 0x04])
               + struct.pack(">HHH", 16 + len(packet), 0, len(packet)) + packet)
        out += struct.pack("<IIII", sec, frac, len(erf), len(erf)) + erf
    wrapped = tmp_path / "erf.pcap"
    wrapped.write_bytes(bytes(out))
    return wrapped


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")
def test_ipoib_packets_decode_in_tshark(ai_fabric_sim, tmp_path):
    out = tmp_path / "pcap"
    _sim(ai_fabric_sim, out, "--workload=incast", "--fanin=1", "--bytes=9000",
         "--transport=tcp", "--tcp-priority=1", "--pcap=1", "--pcap-nodes=host15")
    (pcap,) = sorted(out.glob("*-15-0.*"))
    pcap = _readable_by_tshark(pcap, tmp_path)
    fields = ["infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.deth.q_key",
              "ip.src", "ip.dst", "tcp.len"]
    cmd = ["tshark", "-r", str(pcap), "-T", "fields"]
    for f in fields:
        cmd += ["-e", f]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rows = [dict(zip(fields, line.split("\t"))) for line in text.splitlines()]
    sent = [r for r in rows if r["ip.src"] == "10.0.0.16"]
    assert sent, text
    for r in sent:
        assert int(r["infiniband.bth.opcode"], 0) == 0x64  # UD SEND only
        assert int(r["infiniband.bth.destqp"], 0) == 0x800000
        assert int(r["infiniband.deth.q_key"], 0) == 0x0B1B
        assert r["ip.dst"] == "10.0.0.1"
    data = [int(r["tcp.len"]) for r in sent if r["tcp.len"] not in ("", "0")]
    assert data == [4040, 4040, 920]  # 9000 bytes in IPoIB-MTU segments


def test_per_path_sl_routing_is_refused(ai_fabric_sim, tmp_path):
    """dfsssp gives every path the SL of its virtual layer; IPoIB's one SL would leave
    the layers (and their freedom from credit deadlocks): refused, naming the routing."""
    cmd = [str(ai_fabric_sim), "--fabric=infiniband", "--mtu=4096", "--topology=torus",
           "--dims=4x4", "--routing=dfsssp", "--workload=permutation", "--transport=tcp",
           f"--out={tmp_path / 'd'}"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert "--transport=tcp: IP over InfiniBand sends every packet on one service level, " \
           "but routing 'dfsssp' assigns the SL of every path" in r.stderr
