# SPDX-License-Identifier: GPL-2.0-only
"""IP over the RoCEv2 fabric: ns-3's TCP on the hosts' ports (doc/tcp-over-fabric.md).

- examples/tcp-over-rocev2 (InternetStackHelper, Ipv4AddressHelper, BulkSend,
  PacketSink, FlowMonitor): every flow delivers every byte, FlowMonitor reports each;
- ai-fabric-sim --transport=tcp: a DCTCP permutation plus web-search background on a
  k=4 fat-tree finishes every flow with ECN marks; the host-stack latency model adds
  exactly its delays to a small flow's FCT; a lossless class never drops where a lossy
  one does; the frames' bytes as tshark decodes them; bad values of the flags.
"""
import csv
import json
import os
import re
import shutil
import subprocess

import pytest

# ns3::RoceNic::IpSendDelay and IpReceiveDelay defaults (ns): Linux 5.4.80's measured
# short-message send and receive paths (doc/tcp-over-fabric.md).
SEND_NS = 1600
RECEIVE_NS = 3150


def _sim(ai_fabric_sim, out, *flags, check=True):
    cmd = [str(ai_fabric_sim), "--topology=fattree", "--k=4", f"--out={out}", *flags]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def _fct(out):
    with open(out / "fct.csv", newline="") as f:
        return list(csv.DictReader(f))


def _rows(out, name):
    with open(out / name, newline="") as f:
        return list(csv.DictReader(f))


def test_example_reports_every_flow_through_flow_monitor(build_dir):
    example = build_dir / "examples" / "tcp-over-rocev2"
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
        # What FlowMonitor counts at the IP layer in the data direction: 2 MB in 2000
        # segments of 1000 bytes, each with 20 bytes of IPv4 and 32 of TCP header
        # (timestamps option), the SYN (56: 20 + 36 with its options), the handshake's
        # ACK and the FIN (52 each).
        assert int(tx) == int(rx) == 2_000_000 + 2000 * 52 + 56 + 52 + 52
        assert int(lost) == 0
        assert 1 < float(gbps) < 100  # 100 Gb/s links
        assert float(delay) > 0
        s = int(src.split(".")[-1])
        d = int(dst.split(".")[-1])
        assert (d - 1) == ((s - 1) + 8) % 16  # host i -> i + 8: another pod
        pairs.add((src, dst))
    assert len(pairs) == 16
    summary = re.search(
        r"^summary flows (\d+) complete (\d+) ecn_marks (\d+) switch_drops (\d+) "
        r"nic_ip_drops (\d+)$",
        result.stdout,
        re.M,
    )
    assert summary, result.stdout
    flows_n, complete, marks, drops, ip_drops = map(int, summary.groups())
    assert flows_n == complete == 16
    # DCTCP over ECMP collisions: the switches mark, DCTCP keeps queues short.
    assert marks > 0
    assert drops == 0 and ip_drops == 0


def test_dctcp_permutation_and_websearch_finish_every_flow(ai_fabric_sim, tmp_path):
    out = tmp_path / "tcp"
    _sim(ai_fabric_sim, out, "--workload=permutation", "--bytes=1MB",
         "--background=websearch", "--load=0.3", "--transport=tcp", "--tcp-variant=dctcp")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True
    rows = _fct(out)
    kinds = [r["kind"] for r in rows]
    assert kinds.count("tcp-permutation") == 16
    background = summary["flow_workload"]["background_flows"]
    assert background > 0 and kinds.count("tcp-background") == background
    assert set(kinds) == {"tcp-permutation", "tcp-background"}
    tcp = summary["tcp"]
    assert tcp["variant"] == "dctcp" and tcp["flows"] == len(rows)
    assert tcp["unfinished_flows"] == 0 and tcp["nic_ip_drops"] == 0
    # No switch drops in this run: what the NICs sent reached NICs, but for the few
    # closing segments (FIN, last ACKs) still in flight when the last flow's last byte
    # is read and the run stops.
    sent, received = tcp["nic_ip_packets_sent"], tcp["nic_ip_packets_received"]
    assert 0 <= sent - received <= 3 * tcp["flows"] and received > 0
    assert summary["drops"]["lossless"] == summary["drops"]["lossy"] == 0
    for r in rows:
        assert int(r["fct_ns"]) >= int(r["ideal_fct_ns"]) > 0
    # ECN is on for TCP (echoed), and DCTCP's flows were marked somewhere.
    assert summary["config"]["ecn"] in (True, "1", 1)
    # The same seed gives the same rows.
    again = tmp_path / "again"
    _sim(ai_fabric_sim, again, "--workload=permutation", "--bytes=1MB",
         "--background=websearch", "--load=0.3", "--transport=tcp", "--tcp-variant=dctcp")
    assert (out / "fct.csv").read_bytes() == (again / "fct.csv").read_bytes()


def test_flow_file_over_tcp_writes_both_fct_logs(ai_fabric_sim, source_dir, tmp_path):
    out = tmp_path / "flows"
    subprocess.run([str(ai_fabric_sim), "--topology=leafspine", "--workload=none",
                    f"--flows={source_dir / 'examples' / 'flows-hpcc-example.txt'}",
                    "--stop-time=3s", "--transport=tcp", f"--out={out}"],
                   check=True, capture_output=True, timeout=600)
    rows = _fct(out)
    assert [r["kind"] for r in rows] == ["tcp-flow"] * 8
    lines = (out / "fct.txt").read_text().splitlines()
    assert len(lines) == 8
    # src dst (the HPCC simulators' 0b00NN01 addresses) sport dport size start fct
    # standalone: the same flows with the same FCTs.
    fct = {(int(r["src"]), int(r["dst"]), int(r["size_bytes"]), int(r["start_ns"])): int(r["fct_ns"])
           for r in rows}
    for line in lines:
        f = line.split()
        key = ((int(f[0], 16) >> 8) & 0xFFFF, (int(f[1], 16) >> 8) & 0xFFFF, int(f[4]), int(f[5]))
        assert fct[key] == int(f[6])


def test_small_flow_pays_the_host_stack_latency(ai_fabric_sim, tmp_path):
    """One 1000-byte flow host 15 -> host 0 (incast of one) on an idle fabric.

    TCP's FCT (first byte posted to last byte read) spans three one-way trips, SYN,
    SYN-ACK, then the data, each through both hosts' stacks: 3 x (send + receive).
    RDMA's spans the data and its ACK, no host stack. So
      TCP - TCP without stack latency = 3 x (IpSendDelay + IpReceiveDelay) exactly, and
      TCP - RDMA = 3 x (send + receive) + one more one-way trip (half RDMA's FCT).
    """
    flags = ["--workload=incast", "--fanin=1", "--bytes=1000"]
    fct = {}
    for name, extra in {
        "rdma": ["--transport=rdma"],
        "tcp": ["--transport=tcp"],
        "tcp0": ["--transport=tcp", "--ns3::RoceNic::IpSendDelay=0ns",
                 "--ns3::RoceNic::IpReceiveDelay=0ns"],
    }.items():
        out = tmp_path / name
        _sim(ai_fabric_sim, out, *flags, *extra)
        (row,) = _fct(out)
        fct[name] = int(row["fct_ns"])
    stack = 3 * (SEND_NS + RECEIVE_NS)
    assert fct["tcp"] - fct["tcp0"] == stack
    one_way = fct["rdma"] / 2
    extra = fct["tcp"] - fct["rdma"] - stack
    # The extra trip differs from half the RDMA round trip only by frame sizes
    # (a 70-byte SYN vs a 62-byte ACK): within 5 %.
    assert abs(extra - one_way) < 0.05 * one_way, fct


def test_lossless_class_never_drops_where_lossy_does(ai_fabric_sim, tmp_path):
    """A 15-to-1 TCP incast through a 500 KB switch buffer."""
    flags = ["--workload=incast", "--fanin=15", "--bytes=1MB", "--buffer=500KB",
             "--transport=tcp", "--tcp-variant=cubic"]
    lossy = tmp_path / "lossy"
    _sim(ai_fabric_sim, lossy, *flags, "--tcp-priority=0")
    lossless = tmp_path / "lossless"
    _sim(ai_fabric_sim, lossless, *flags, "--tcp-priority=3")  # --priority's class, PFC on
    for out in (lossy, lossless):
        assert json.loads((out / "summary.json").read_text())["complete"] is True
        assert len(_fct(out)) == 15
    assert len(_rows(lossy, "drops.csv")) > 0
    assert _rows(lossy, "pfc.csv") == []
    assert _rows(lossless, "drops.csv") == []
    assert len(_rows(lossless, "pfc.csv")) > 0


def test_dctcp_reacts_to_the_switches_ecn_marks(ai_fabric_sim, tmp_path):
    """A 15-to-1 DCTCP incast, lossy class, 500 KB buffer, DCTCP's step marking at
    K = 30 KB (--kmin = --kmax, --pmax=1; Alizadeh et al. 2010): the CE marks reach
    TCP through the IPv4 header and it backs off; without ECN the same incast
    overflows the buffer and waits for retransmission timeouts (200 ms)."""
    flags = ["--workload=incast", "--fanin=15", "--bytes=1MB", "--buffer=500KB",
             "--transport=tcp", "--tcp-variant=dctcp"]
    marking = ["--kmin=30KB", "--kmax=30KB", "--pmax=1"]  # refused with --ecn=0
    result = {}
    for ecn in ("1", "0"):
        out = tmp_path / f"ecn{ecn}"
        _sim(ai_fabric_sim, out, *flags, *(marking if ecn == "1" else []), f"--ecn={ecn}")
        summary = json.loads((out / "summary.json").read_text())
        assert summary["complete"] is True
        fcts = sorted(int(r["fct_ns"]) for r in _fct(out))
        result[ecn] = (summary["ecn_marks"], summary["drops"]["lossy"], fcts[len(fcts) // 2])
    marks, drops, median = result["1"]
    marks0, drops0, median0 = result["0"]
    assert marks > 1000 and marks0 == 0
    assert drops < drops0 / 4
    assert median < 10_000_000 < 200_000_000 < median0  # no RTO with ECN; RTOs without


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")
def test_tcp_frames_decode_in_tshark(ai_fabric_sim, tmp_path):
    out = tmp_path / "pcap"
    _sim(ai_fabric_sim, out, "--workload=incast", "--fanin=1", "--bytes=3000",
         "--transport=tcp", "--tcp-variant=dctcp", "--tcp-priority=2", "--pcap=1",
         "--pcap-nodes=host15,host0")
    fields = ["frame.len", "eth.src", "eth.dst", "eth.type", "ip.src", "ip.dst",
              "ip.dsfield.dscp", "ip.dsfield.ecn", "ip.ttl", "ip.checksum.status",
              "ip.proto", "tcp.flags.syn", "tcp.len"]

    def decode(pcap):
        cmd = ["tshark", "-o", "ip.check_checksum:TRUE", "-r", str(pcap), "-T", "fields"]
        for f in fields:
            cmd += ["-e", f]
        text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return [dict(zip(fields, line.split("\t"))) for line in text.splitlines()]

    sent = [r for r in decode(out / "ai-fabric-15-0.pcap") if r["ip.src"] == "10.0.0.16"]
    received = [r for r in decode(out / "ai-fabric-0-0.pcap") if r["ip.src"] == "10.0.0.16"]
    assert sent and len(sent) == len(received)
    for r in sent + received:
        assert r["eth.type"] == "0x0800"
        assert r["eth.src"] == "02:00:00:00:00:0f" and r["eth.dst"] == "02:00:00:00:00:00"
        assert r["ip.dst"] == "10.0.0.1" and r["ip.proto"] == "6"
        assert r["ip.dsfield.dscp"] == "16"  # 8 x --tcp-priority
        assert r["ip.checksum.status"] == "1"  # 1 = good
    assert sent[0]["tcp.flags.syn"] in ("1", "True") and sent[0]["frame.len"] == "70"
    data = [r for r in sent if r["tcp.len"] not in ("", "0")]
    # 3000 bytes in three segments: 14 Ethernet + 20 IPv4 + 32 TCP + 1000.
    assert [int(r["frame.len"]) for r in data] == [1066] * 3
    assert all(r["ip.dsfield.ecn"] == "2" for r in data)  # DCTCP sends ECT(0)
    assert {r["ip.ttl"] for r in sent} == {"64"}
    assert {r["ip.ttl"] for r in received} == {"59"}  # five switches between pods


def test_bad_tcp_flags_name_the_value(ai_fabric_sim, tmp_path):
    r = _sim(ai_fabric_sim, tmp_path / "a", "--transport=tcp", "--tcp-variant=reno",
             check=False)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "ai-fabric-sim: error: --tcp-variant: 'reno' is not one of bic, cubic, dctcp, "
        "highspeed, htcp, newreno, vegas"
    ]
    r = _sim(ai_fabric_sim, tmp_path / "b", "--transport=udp", check=False)
    assert r.returncode == 2
    assert "'udp' is not one of rdma, tcp" in r.stderr
    r = _sim(ai_fabric_sim, tmp_path / "c", "--tcp-variant=dctcp", check=False)
    assert r.returncode == 2
    assert "--tcp-variant=dctcp needs --transport=tcp" in r.stderr
    # InfiniBand carries TCP through IPoIB (test_ipoib.py), but only on its path MTUs.
    r = _sim(ai_fabric_sim, tmp_path / "d", "--transport=tcp", "--fabric=infiniband",
             check=False)
    assert r.returncode == 2
    assert "--mtu=1000 is not an InfiniBand path MTU" in r.stderr
