# SPDX-License-Identifier: GPL-2.0-only
"""Hardware presets (--cluster), the host limits (--nic-injection-cap,
--scaleup-efficiency) and the rows of doc/validation.md "Against measured clusters".

Every preset is a JSON file of helper/scenario/clusters/ whose values are runner flags,
each with its public source (doc/hardware.md lists them all; the doc test below reads
the tables back). A preset is applied as if its flags were given; a flag the user gives
wins, whatever its place on the command line or in --config, and summary.json's
"cluster" block says which. Every bad value is exit 2 with one message naming it, and
--out untouched.
"""

import json
import pathlib
import re
import subprocess

import pytest

CLUSTERS = ["dgx-b300-xdr", "dgx-h100-ndr", "dgx-h100-roce", "legacy-100g"]

# A RoCEv2 incast small enough to finish in well under a second (as test_cli.py's).
SMALL = ["--topology=leafspine", "--leaves=2", "--spines=1", "--hosts-per-switch=2",
         "--workload=incast", "--fanin=2", "--bytes=10KB"]
# The same on two servers (of the preset's GPUs: 2 to 16 hosts).
SERVERS = ["--topology=rail", "--servers=2", "--workload=incast", "--fanin=2", "--bytes=10KB"]


@pytest.fixture
def run(ai_fabric_sim):
    def _run(*args, timeout=600):
        return subprocess.run([str(ai_fabric_sim), *args], capture_output=True, text=True,
                              timeout=timeout, check=False)

    return _run


@pytest.fixture(scope="module")
def clusters_dir(source_dir):
    return source_dir / "helper" / "scenario" / "clusters"


def preset(clusters_dir, name):
    return json.loads((clusters_dir / f"{name}.json").read_text())


def summary(out):
    return json.loads((pathlib.Path(out) / "summary.json").read_text())


def runner_has_flag(run, flag):
    return f"--{flag}:" in run("--help").stdout or f"--{flag}=" in run("--help").stdout


def test_shipped_presets_are_the_registry(run, clusters_dir):
    assert sorted(p.stem for p in clusters_dir.glob("*.json")) == CLUSTERS
    r = run("--cluster=dgx-h100-nrd")
    assert r.returncode == 2
    assert "--cluster: 'dgx-h100-nrd' is not a cluster preset; allowed: " + ", ".join(
        CLUSTERS) + ", or a JSON file" in r.stderr
    for name in CLUSTERS:
        p = preset(clusters_dir, name)
        assert p["name"] == name
        assert set(p["values"]) == set(p["sources"]), name
        assert all(len(s) > 20 for s in p["sources"].values()), name


def doc_tables(source_dir):
    """{preset: {field: value}} from doc/hardware.md's tables under '## `NAME`'."""
    tables, current = {}, None
    for line in (source_dir / "doc" / "hardware.md").read_text().split("\n"):
        m = re.match(r"## `([a-z0-9-]+)`", line)
        if m:
            current = tables.setdefault(m.group(1), {})
            continue
        m = re.match(r"\| `([^`]+)` \| `([^`]*)` \| (.+) \|$", line)
        if m and current is not None:
            current[m.group(1)] = m.group(2)
    return tables


def test_every_value_is_sourced_in_the_doc(source_dir, clusters_dir):
    tables = doc_tables(source_dir)
    for name in CLUSTERS:
        values = {k: str(v) for k, v in preset(clusters_dir, name)["values"].items()}
        assert tables.get(name) == values, name


@pytest.mark.parametrize("name", CLUSTERS)
def test_summary_echoes_every_value(run, tmp_path, clusters_dir, name):
    p = preset(clusters_dir, name)
    fabric = p["values"]["fabric"]
    gpus = p["values"]["gpus-per-server"]
    out = tmp_path / "out"
    r = run(f"--cluster={name}", "--topology=rail", f"--servers=2", "--workload=allreduce",
            "--bytes=1MB", f"--out={out}")
    assert r.returncode == 0, r.stderr
    s = summary(out)
    c = s["cluster"]
    assert c["name"] == name and c["file"].endswith(f"{name}.json")
    assert c["values"] == {k: str(v) for k, v in p["values"].items()}
    assert c["sources"] == p["sources"]
    assert c["overridden"] == {}
    assert s["config"]["cluster"] == name
    assert s["config"]["fabric"] == fabric and s["config"]["gpus-per-server"] == gpus
    assert s["config"]["host-rate"] == p["values"]["host-rate"]
    assert s["topology"]["hosts"] == 2 * gpus
    for field, value in p["values"].items():
        if field.startswith("ns3::"):
            assert s["config"][field] == str(value), field
        elif field in c["not_applied"]:
            assert not runner_has_flag(run, field), field
            assert field not in s["config"], field
    if not runner_has_flag(run, "cable-lengths"):
        expected = {k: p["values"][k] for k in ("cable-lengths",) if k in p["values"]}
        assert c["not_applied"] == expected


@pytest.mark.parametrize("where", ["after", "before", "config"])
def test_a_given_flag_wins_and_is_echoed(run, tmp_path, where):
    out = tmp_path / "out"
    flags = ["--cluster=dgx-h100-roce", *SERVERS, f"--out={out}"]
    if where == "after":
        flags += ["--mtu=1024", "--buffer=64MB"]
    elif where == "before":
        flags = ["--mtu=1024", "--buffer=64MB"] + flags
    else:
        cfg = tmp_path / "c.json"
        cfg.write_text(json.dumps({"mtu": 1024, "buffer": "64MB"}))
        flags.append(f"--config={cfg}")
    r = run(*flags)
    assert r.returncode == 0, r.stderr
    s = summary(out)
    assert s["config"]["mtu"] == 1024 and s["config"]["buffer"] == 64000000
    assert s["config"]["host-rate"] == "400Gbps"  # the preset's, not given
    assert s["cluster"]["overridden"] == {"mtu": "1024", "buffer": "64MB"}
    # The preset's value given again is no override.
    out2 = tmp_path / "out2"
    r = run("--cluster=dgx-h100-roce", "--mtu=4096", *SERVERS, f"--out={out2}")
    assert r.returncode == 0, r.stderr
    assert summary(out2)["cluster"]["overridden"] == {}


@pytest.mark.parametrize("before", [False, True])
def test_a_given_link_delay_withdraws_the_presets_cable_lengths(run, tmp_path, before):
    # --link-delay and --cable-lengths set the same delays two ways: the user's
    # --link-delay wins over the preset's cable lengths, whichever comes first.
    out = tmp_path / "out"
    flags = ["--cluster=dgx-h100-ndr", *SERVERS, f"--out={out}"]
    flags = (["--link-delay=2us"] + flags) if before else (flags + ["--link-delay=2us"])
    r = run(*flags)
    assert r.returncode == 0, r.stderr
    s = summary(out)
    assert s["config"]["link-delay"] == "2us" and s["config"]["cable-lengths"] == ""
    assert s["cluster"]["overridden"] == {"cable-lengths": ""}
    # The other way round: given cable lengths keep the preset's (default) link delay.
    out2 = tmp_path / "out2"
    r = run("--cluster=dgx-h100-ndr", "--cable-lengths=3,30", *SERVERS, f"--out={out2}")
    assert r.returncode == 0, r.stderr
    s = summary(out2)
    assert s["config"]["cable-lengths"] == "3,30"
    assert s["cluster"]["overridden"] == {"cable-lengths": "3,30"}


def test_summary_json_reloads_to_the_same_run(run, tmp_path):
    out = tmp_path / "out"
    r = run("--cluster=dgx-h100-ndr", "--mtu=2048", "--topology=rail", "--servers=2",
            "--workload=allreduce", "--bytes=1MB", f"--out={out}")
    assert r.returncode == 0, r.stderr
    out2 = tmp_path / "out2"
    r = run(f"--config={out / 'summary.json'}", f"--out={out2}")
    assert r.returncode == 0, r.stderr
    a, b = summary(out), summary(out2)
    a["config"].pop("out"), b["config"].pop("out")
    assert a["config"] == b["config"]
    assert a["cluster"]["overridden"] == b["cluster"]["overridden"] == {"mtu": "2048"}
    assert (out / "collective.csv").read_bytes() == (out2 / "collective.csv").read_bytes()


def test_legacy_100g_is_byte_identical_to_no_preset(run, tmp_path):
    plain, legacy = tmp_path / "plain", tmp_path / "legacy"
    base = [*SMALL, "--pcap=1", "--workload=allreduce", "--ranks=4"]
    assert run(*base, f"--out={plain}").returncode == 0
    r = run("--cluster=legacy-100g", *base, f"--out={legacy}")
    assert r.returncode == 0, r.stderr
    files = sorted(p.name for p in plain.iterdir() if p.name != "summary.json")
    assert files == sorted(p.name for p in legacy.iterdir() if p.name != "summary.json")
    assert any(f.endswith(".pcap") for f in files)
    for f in files:
        assert (plain / f).read_bytes() == (legacy / f).read_bytes(), f
    a, b = summary(plain), summary(legacy)
    assert b["config"].pop("cluster") == "legacy-100g" and a["config"].pop("cluster") == ""
    a["config"].pop("out"), b["config"].pop("out")
    assert a["config"] == b["config"]
    for key in ("events", "packet_hops", "sim_time_s", "collectives", "topology"):
        assert a[key] == b[key], key


# One bad value per field a preset may set (ClusterPreset::AllowedFields), and what the
# message must name.
BAD_FIELDS = [
    ("fabric", "ethernet", "'ethernet' is not one of infiniband, rocev2"),
    ("gpus-per-server", 0, "'0' is out of range"),
    ("scaleup-rate", "0Gbps", "'0Gbps' is not a positive data rate"),
    ("scaleup-latency", "1parsec", "1parsec"),
    ("scaleup-efficiency", 1.5, "'1.5' is out of range; allowed a number in (0, 1]"),
    ("host-rate", "fast", "'fast' is not a data rate"),
    ("fabric-rate", "0bps", "'0bps' is not a positive data rate"),
    ("nic-injection-cap", "0Gbps", "'0Gbps' is not a positive data rate"),
    ("switch-latency", "soon", "soon"),
    ("cut-through", 2, "'2' is not '', 0 or 1"),
    ("buffer", 10, "'10' (10 bytes) is out of range"),
    ("pfc", 2, "'2' is not 0 or 1"),
    ("ecn", 3, "'3' is not '', 0 or 1"),
    ("kmin", "12XB", "'12XB' has unknown size suffix 'XB'"),
    ("kmax", "-1KB", "-1KB"),
    ("pmax", 2, "'2' is out of range; allowed a number in [0, 1]"),
    ("mtu", 100, "'100' is out of range; allowed an integer in 256..9000"),
    ("link-delay", "long", "long"),
    ("cable-lengths", "3,x", "'3,x' is not L0[,L1[,L2]]"),
    ("propagation-delay", "slow", "slow"),
    ("ns3::IbNetDevice::VlBufferBytes", 1000000, "'1000000' is not allowed"),
    ("ns3::SharedBufferMmu::LosslessAlpha", -1, "'-1' is not allowed"),
    ("ns3::SharedBufferMmu::XonOffsetBytes", "x", "'x' is not allowed"),
    ("ns3::SharedBufferMmu::ReservedBytesPerPg", -5, "'-5' is not allowed"),
]


def untouched_out(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("mine")
    return out


def assert_refused(r, out, *parts):
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    for part in parts:
        assert part in r.stderr, (part, r.stderr)
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


@pytest.mark.parametrize("field,value,part", BAD_FIELDS, ids=[f[0] for f in BAD_FIELDS])
def test_a_bad_value_of_every_field_is_exit_2(run, tmp_path, clusters_dir, field, value, part):
    p = preset(clusters_dir, "dgx-h100-roce")
    p["name"] = "mine"
    p["values"][field] = value
    p["sources"][field] = "a source long enough to count as one"
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(p))
    out = untouched_out(tmp_path)
    r = run(f"--cluster={f}", *SERVERS, f"--out={out}")
    assert_refused(r, out, "--cluster: ", str(f), field, part)


@pytest.mark.parametrize("edit,part", [
    (lambda p: p["values"].update({"topology": "torus"}),
     "field 'topology' is not a hardware flag a preset may set; allowed: fabric,"),
    (lambda p: p["values"].update({"mtuu": 4096}), "field 'mtuu' is not a hardware flag"),
    (lambda p: p["sources"].pop("mtu"), "field 'mtu' has no source"),
    (lambda p: p["sources"].update({"k": "a source of nothing at all"}),
     "\"sources\" names 'k', which \"values\" does not set"),
    (lambda p: p.update({"vendor": "x"}),
     "unknown key 'vendor'; allowed: name, description, values, sources"),
    (lambda p: p["values"].update({"mtu": [4096]}), "field 'mtu' has the wrong type (array)"),
    (lambda p: p.pop("description"), "\"description\" must be a non-empty string"),
], ids=["not-hardware", "unknown", "no-source", "stray-source", "top-key", "type", "missing"])
def test_a_malformed_preset_is_exit_2(run, tmp_path, clusters_dir, edit, part):
    p = preset(clusters_dir, "dgx-h100-roce")
    edit(p)
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(p))
    out = untouched_out(tmp_path)
    assert_refused(run(f"--cluster={f}", *SERVERS, f"--out={out}"), out, str(f), part)


def test_malformed_json_and_duplicates_are_exit_2(run, tmp_path):
    out = untouched_out(tmp_path)
    f = tmp_path / "bad.json"
    f.write_text('{"name": "bad", "values": {"mtu": 4096,}}')
    assert_refused(run(f"--cluster={f}", f"--out={out}"), out, str(f), "malformed JSON",
                   "line 1")
    f.write_text('{"name": "bad", "values": {"mtu": 4096, "mtu": 1024}}')
    assert_refused(run(f"--cluster={f}", f"--out={out}"), out,
                   "the key \"mtu\" appears twice")
    assert_refused(run(f"--cluster={tmp_path}/none.json", f"--out={out}"), out,
                   "no such file")


@pytest.mark.parametrize("flag,part", [
    ("--scaleup-efficiency=0", "--scaleup-efficiency: '0' is out of range; allowed a number "
     "in (0, 1]"),
    ("--scaleup-efficiency=1.01", "'1.01' is out of range"),
    ("--scaleup-efficiency=most", "'most' is not a number"),
    ("--nic-injection-cap=0Gbps", "--nic-injection-cap: '0Gbps' is not a positive data rate"),
    ("--nic-injection-cap=fast", "--nic-injection-cap: 'fast' is not a data rate"),
    ("--cluster=", None),
])
def test_bad_values_of_the_new_flags_are_exit_2(run, tmp_path, flag, part):
    out = untouched_out(tmp_path)
    r = run(flag, *SMALL, f"--out={out}")
    if part is None:  # '' is no preset: the plain run
        assert r.returncode == 0, r.stderr
        return
    assert_refused(r, out, part)


def test_a_preset_value_that_does_not_apply_names_the_preset(run, tmp_path):
    out = untouched_out(tmp_path)
    r = run("--cluster=dgx-h100-roce", "--fabric=infiniband", *SERVERS, f"--out={out}")
    assert_refused(r, out, "does not apply to --fabric=infiniband",
                   "(--cluster=dgx-h100-roce sets it; give --")
    r = run("--cluster=dgx-h100-ndr", "--topology=torus", "--dims=4", f"--out={out}")
    assert_refused(r, out, "--gpus-per-server=8 does not apply to --topology=torus",
                   "--cluster=dgx-h100-ndr sets it; give --gpus-per-server=1")


def busbw_gbytes(out):
    rows = (pathlib.Path(out) / "collective.csv").read_text().strip().split("\n")
    header = rows[0].split(",")
    last = dict(zip(header, rows[-1].split(",")))
    return float(last["busbw_gbps"]) / 8


def test_injection_cap_limits_a_nic_below_its_link(run, tmp_path):
    # One 8 MB WRITE between two hosts of one switch: 100 Gb/s links, the NIC capped at
    # 50 Gb/s of payload: the flow takes payload / cap (+ a few us of latency) instead of
    # wire bytes / link rate.
    base = ["--topology=leafspine", "--leaves=1", "--spines=1", "--hosts-per-switch=2",
            "--workload=permutation", "--bytes=8MB"]
    fcts = {}
    for cap in ("", "50Gbps", "200Gbps"):
        out = tmp_path / f"o{cap}"
        r = run(*base, f"--nic-injection-cap={cap}", f"--out={out}")
        assert r.returncode == 0, r.stderr
        rows = (out / "fct.csv").read_text().strip().split("\n")[1:]
        fcts[cap] = max(int(row.split(",")[5]) for row in rows)
    payload_ns = 8e6 * 8 / 50e9 * 1e9
    assert payload_ns <= fcts["50Gbps"] <= payload_ns * 1.01, fcts
    assert fcts[""] == fcts["200Gbps"], fcts  # a cap above the link rate changes nothing
    assert fcts[""] < payload_ns * 0.6, fcts


# doc/validation.md, "Against measured clusters": (published figure GB/s, flags, allowed
# ratio our/published). Each run takes seconds.
NVLINK_RING = ["--cluster=dgx-h100-roce", "--topology=rail", "--servers=1",
               "--workload=allreduce", "--algorithm=ring", "--bytes=64MB"]
NDR_ONE_NIC = ["--cluster=dgx-h100-ndr", "--gpus-per-server=1", "--topology=leafspine",
               "--leaves=1", "--hosts-per-switch=2", "--workload=allreduce",
               "--algorithm=ring", "--bytes=64MB"]
ROCE_ONE_NIC = ["--cluster=dgx-h100-roce", "--gpus-per-server=1", "--topology=leafspine",
                "--leaves=1", "--hosts-per-switch=2", "--workload=allreduce",
                "--algorithm=ring", "--bytes=64MB"]
# The same server on the InfiniBand preset: its crossbar is an InfiniBand switch whose
# scale-up ports have NVLink-class credits (ns3::IbNetDevice::ScaleUp)
NVLINK_RING_NDR = ["--cluster=dgx-h100-ndr", "--topology=rail", "--servers=1",
                   "--workload=allreduce", "--algorithm=ring", "--bytes=64MB"]
# NVLS: the crossbar reduces and multicasts (NvlsSwitchEngine)
NVLS_8GPU = ["--cluster=dgx-h100-roce", "--topology=rail", "--servers=1",
             "--workload=allreduce", "--algorithm=nvls", "--bytes=64MB"]
# 2 DGX H100-class servers, NCCL_ALGO=RING: 16 rings over the 8 NDR NICs of each server
RING_2X8_NDR = ["--cluster=dgx-h100-ndr", "--topology=rail", "--servers=2",
                "--workload=allreduce", "--algorithm=ring", "--bytes=256MB"]
# CollNet / SHARP on 16 DGX-A100-class servers: the NDR preset with NVLink 3's rate
# (2400 Gb/s per direction) and 8 x HDR 200 Gb/s NICs; the switches reduce between servers
COLLNET_A100 = ["--cluster=dgx-h100-ndr", "--scaleup-rate=2400Gbps", "--host-rate=200Gbps",
                "--topology=rail", "--servers=16", "--workload=allreduce",
                "--algorithm=collnet", "--bytes=64MB"]
# NCCL's all-to-all on 2 servers of 8 (PXN: every send leaves on the destination's rail):
# busbw = 2 x (N-1)/N x a NIC's goodput (doc/collectives.md)
ALLTOALL_2X8_ROCE = ["--cluster=dgx-h100-roce", "--topology=rail", "--servers=2",
                     "--workload=alltoall", "--bytes=64MB"]
ALLTOALL_2X8_NDR = ["--cluster=dgx-h100-ndr", "--topology=rail", "--servers=2",
                    "--workload=alltoall", "--bytes=64MB"]


@pytest.mark.parametrize("published,flags", [
    (370.0, NVLINK_RING),   # NVIDIA/nccl-tests#212: 8 x H100, NCCL_ALGO=RING
    (370.0, NVLINK_RING_NDR),  # the same on the NDR preset's InfiniBand crossbar
    (480.0, NVLS_8GPU),     # NVIDIA/nccl#1455: 8 x H100, NCCL_ALGO=NVLS, ~480 GB/s
    (47.0, NDR_ONE_NIC),    # NVIDIA/nccl-tests#290: NDR 400G, 46-48 GB/s per NIC
    (48.5, ROCE_ONE_NIC),   # NVIDIA/nccl-tests#267: ConnectX-7 400G RoCE, 48-49 GB/s
    # NVIDIA/nccl-tests#290: two NDR nodes with NCCL_ALGO=RING, 46-48 GB/s per NIC, x 8
    (376.0, RING_2X8_NDR),
    (220.0, COLLNET_A100),  # NVIDIA/nccl#320: CollNet, 8 NICs, NVLink-bound ~220 GB/s busbw
    # NVIDIA/nccl-tests#130 (NCCL maintainer: on 2 nodes all-to-all busbw = 2 x the network
    # bandwidth per GPU) with #267's 48.5 GB/s per 400G RoCE NIC and #290's 47 on NDR
    (97.0, ALLTOALL_2X8_ROCE),
    (94.0, ALLTOALL_2X8_NDR),
], ids=["nvlink4-ring-8gpu", "nvlink4-ring-8gpu-ndr", "nvls-8gpu", "ndr-400g-per-nic",
        "roce-400g-per-nic", "ndr-2x8-ring", "collnet-a100-16srv", "alltoall-2x8-roce",
        "alltoall-2x8-ndr"])
def test_measured_cluster_rows_within_10_percent(run, tmp_path, published, flags):
    out = tmp_path / "out"
    r = run(*flags, f"--out={out}")
    assert r.returncode == 0, r.stderr
    ours = busbw_gbytes(out)
    assert 0.9 <= ours / published <= 1.1, (ours, published)


# One DGX H100 (8 GPUs, NVSwitch), allreduce time at small sizes with NCCL's defaults:
# NVIDIA/dgxc-benchmarking nccl/README.md, all_reduce_perf -b 8 -e 16G on one DGX H100
# (out-of-place times, us). The simulator's defaults on GPU servers are NCCL's tuner,
# which picks ring/LL here as NCCL's model does; the time is NCCL's base latency (ring
# LL 6.6 us) and 14 NVLink steps of packets.
SMALL_1X8 = ["--cluster=dgx-h100-ndr", "--topology=rail", "--servers=1",
             "--workload=allreduce"]


# NVIDIA's all_reduce_perf sample on one DGX H100 (NVIDIA/dgxc-benchmarking nccl/README.md),
# out-of-place time in us; 4 KiB is the in-place figure of the same row (16.46): its
# out-of-place 23.59 is 37% above both neighbours (17.14, 17.40), a one-off of that run.
SWEEP_1X8 = [(128, 15.87), (256, 16.10), (512, 16.70), (1024, 16.94), (2048, 17.14),
             (4096, 16.46), (8192, 17.40), (16384, 17.93), (32768, 19.33), (65536, 19.54)]


@pytest.mark.parametrize("size,published,tolerance", [
    (8, 13.67, 0.10),   # the table's row (doc/validation.md): within 10%
    (16, 13.00, 0.15),  # the sweep: within 15% (issue #50)
    (64, 14.92, 0.15),
] + [(size, published, 0.15) for size, published in SWEEP_1X8],
    ids=["8B", "16B", "64B"] + [f"{size}B" for size, _ in SWEEP_1X8])
def test_small_message_times_of_one_dgx_h100(run, tmp_path, size, published, tolerance):
    out = tmp_path / "out"
    r = run(*SMALL_1X8, f"--bytes={size}", f"--out={out}")
    assert r.returncode == 0, r.stderr
    c = summary(out)["collectives"][0]
    assert (c["algorithm"], c["protocol"]) == ("ring", "ll"), c
    assert (c["tuner"]["nccl_algorithm"], c["tuner"]["nccl_protocol"]) == ("ring", "ll")
    ours = c["durations_ns"][0] / 1e3
    assert abs(ours / published - 1) <= tolerance, (ours, published)


def test_the_small_message_row_needs_the_base_latency(run, tmp_path):
    # Without NCCL's per-call base latency the 8-byte allreduce is the packets' 14 NVLink
    # steps alone: about half the measured time (the row above could fail).
    out = tmp_path / "out"
    r = run(*SMALL_1X8, "--bytes=8", "--protocol-latency=0", f"--out={out}")
    assert r.returncode == 0, r.stderr
    ours = summary(out)["collectives"][0]["durations_ns"][0] / 1e3
    assert ours / 13.67 < 0.6, ours


def test_the_sweep_needs_the_channel_step_time(run, tmp_path):
    # Without the block's step time on each ring step with lines (LL's 0.6 us, NCCL's
    # per-hop figure) 128 B is the packets' 14 NVLink hops: about 13 us, 0.82 of the
    # published 15.87, outside 15% (the sweep rows above could fail).
    out = tmp_path / "out"
    r = run(*SMALL_1X8, "--bytes=128", "--ns3::NcclLlProtocol::ChannelStepTime=0ns",
            f"--out={out}")
    assert r.returncode == 0, r.stderr
    ours = summary(out)["collectives"][0]["durations_ns"][0] / 1e3
    assert ours / 15.87 < 0.85, ours


def test_the_sweep_needs_nccls_channel_count(run, tmp_path):
    # 32 KiB on NCCL's one channel: 14 steps of 8 KiB of lines through one block. Forced
    # onto the communicator's 16 channels (as before) each block carries 1/16 of it and
    # the time stays near 8 B's: outside 15% of the published 19.33 us.
    times = {}
    for flags in ([], ["--channels=16"]):
        out = tmp_path / f"out{len(flags)}"
        r = run(*SMALL_1X8, "--bytes=32768", *flags, f"--out={out}")
        assert r.returncode == 0, r.stderr
        c = summary(out)["collectives"][0]
        times[len(flags)] = (c["channels"], c["durations_ns"][0] / 1e3)
    assert times[0][0] == 1 and times[1][0] == 16, times
    assert abs(times[0][1] / 19.33 - 1) <= 0.15, times
    assert times[1][1] / 19.33 < 0.85, times


def test_the_nvlink_row_needs_the_scaleup_efficiency(run, tmp_path):
    # Without the payload share the same ring runs at the signalling rate less our own
    # headers: ~440 GB/s, 19% above the measured 370 (the row above could fail).
    out = tmp_path / "out"
    r = run(*NVLINK_RING, "--scaleup-efficiency=1", f"--out={out}")
    assert r.returncode == 0, r.stderr
    assert busbw_gbytes(out) / 370.0 > 1.1


# NVLS needs NVLink SHARP (RdmaFabric::HasNvlinkSharp): RoCEv2 crossbars whose cables carry
# PFC, which bounds the engine's buffer; UET and --pfc=0 have no pauses there.
@pytest.mark.parametrize("flags,part", [
    (["--cluster=dgx-h100-ndr", "--servers=1"], "fabric 'infiniband' is not allowed"),
    (["--cluster=dgx-h100-roce", "--servers=1", "--fabric=uet"], "fabric 'uet' is not allowed"),
    (["--cluster=dgx-h100-roce", "--servers=1", "--pfc=0"], "whose cables carry PFC"),
    (["--cluster=dgx-h100-roce", "--servers=2"], "NVLSTree, is not modelled"),
], ids=["infiniband", "uet", "rocev2-without-pfc", "two-servers"])
def test_nvls_refuses_what_it_does_not_model(run, tmp_path, flags, part):
    out = tmp_path / "out"
    r = run(*flags, "--topology=rail", "--workload=allreduce", "--algorithm=nvls",
            "--bytes=1MB", f"--out={out}")
    assert r.returncode == 2, r.stderr
    assert part in r.stderr, r.stderr
    assert not out.exists() or not any(out.iterdir())  # nothing written
