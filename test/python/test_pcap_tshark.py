# SPDX-License-Identifier: GPL-2.0-only
"""tshark must decode the RoCEv2 and PFC frames the model writes.

The pcap comes from examples/rocev2-pcap-sample.cc: set AI_FABRIC_PCAP_WRITER to that
binary (the test runs it into a temporary directory), or AI_FABRIC_PCAP to a pcap it
already wrote. tshark (>= 3.x) decodes UDP port 4791 as RRoCE (InfiniBand BTH onwards)
without any -d option, and EtherType 0x8808 opcode 0x0101 as MAC control "Class Based
Flow Control".
"""
import os
import shutil
import subprocess

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
