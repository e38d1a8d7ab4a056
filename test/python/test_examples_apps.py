# SPDX-License-Identifier: GPL-2.0-only
"""examples/rocev2-fattree-apps.cc and examples/infiniband-fattree-apps.cc, run as
built, checked against closed forms and against the runner; and doc/tutorial.md,
whose program is exactly examples/rocev2-fattree-apps.cc.

Both examples: a ring allreduce on hosts 0..7 of a k=4 fat-tree (4 MiB per rank, two
iterations), host 8 sending four 1 MiB messages back to back to host 12 on links
nothing else uses, and a 3-to-1 incast of 2 MiB messages to host 11, at 100 Gb/s,
1 us cables, 4096-byte MTU.
"""

import csv
import math
import re
import subprocess

import pytest

MIB = 1 << 20
RATE = 100e9  # bit/s of every cable
DELAY = 1e-6  # s, every cable
MTU = 4096
# Frame bytes beyond the payload (doc/rocev2-wire-format.md, doc/infiniband.md):
# RoCEv2: preamble + SFD 8, Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4, gap 12;
# InfiniBand: LRH 8, BTH 12, ICRC 4, VCRC 2. The first packet of a WRITE adds RETH 16.
FABRICS = {
    "rocev2": {"overhead": 82, "ack": 62 + 24, "latency": 300e-9},
    "infiniband": {"overhead": 26, "ack": 8 + 12 + 4 + 4 + 2, "latency": 150e-9},
}


def closed_form_fct(fabric, size, hops_links=6):
    """Cut-through, unloaded: every wire byte once at the rate, then the last byte's
    path (cables and switch latencies), then the ACK's way back."""
    f = FABRICS[fabric]
    packets = math.ceil(size / MTU)
    wire = size + packets * f["overhead"] + 16
    path = hops_links * DELAY + (hops_links - 1) * f["latency"]
    return wire * 8 / RATE + path + f["ack"] * 8 / RATE + path


def run_example(build_dir, tmp_path, name, *args):
    program = build_dir / "examples" / name
    if not program.is_file():
        pytest.skip(f"{program} is not built")
    out = subprocess.run(
        [str(program), f"--csv={tmp_path / (name + '.csv')}", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout, list(csv.DictReader(open(tmp_path / (name + ".csv"))))


def figure(pattern, text):
    match = re.search(pattern, text, re.M)
    assert match, f"'{pattern}' not in the output:\n{text}"
    return match.groups()


@pytest.mark.parametrize("fabric", ["rocev2", "infiniband"])
def test_example_figures(fabric, build_dir, tmp_path, ai_fabric_sim):
    stdout, rows = run_example(build_dir, tmp_path, f"{fabric}-fattree-apps")
    print(stdout)

    # 16 hosts (one port each) and 48 cables of a k=4 fat-tree: 96 devices.
    assert figure(r"^devices: (\d+) \(hosts (\d+), switches (\d+)\)", stdout) == ("96", "16", "80")

    # Every byte posted was delivered: 8 ranks x 2 (N-1)/N x 4 MiB x 2 iterations of
    # ring allreduce, 4 x 1 MiB of the flow, 3 x 2 MiB of the incast.
    _, delivered = figure(r"^messages delivered: (\d+) \((\d+) bytes\)", stdout)
    assert int(delivered) == 8 * 2 * 7 * (4 * MIB) // 8 * 2 + 4 * MIB + 3 * 2 * MIB

    # The flow's four messages, back to back, each the unloaded closed form (1%).
    flow = [r for r in rows if r["kind"] == "message" and r["src"] == "8"]
    assert len(flow) == 4
    expected = closed_form_fct(fabric, MIB) * 1e6
    for i, r in enumerate(flow):
        assert float(r["duration_us"]) == pytest.approx(expected, rel=0.01), (i, expected)
        assert float(r["ideal_us"]) == pytest.approx(expected, rel=0.001)
        if i:
            assert float(r["start_us"]) == pytest.approx(float(flow[i - 1]["end_us"]), abs=1e-3)
    assert float(flow[0]["start_us"]) == 20.0

    # The incast shares one 100 Gb/s port: its last message ends no earlier than
    # 6 MiB of payload after 30 us.
    incast = [r for r in rows if r["kind"] == "message" and r["dst"] == "11"]
    assert len(incast) == 3
    assert max(float(r["end_us"]) for r in incast) > 30 + 6 * MIB * 8 / RATE * 1e6

    # The allreduce's step times equal the runner's for the same configuration: its
    # ranks' links carry nothing else. The example runs ns-3's default engine and event
    # list, which take equal-time events in insertion order; so does the runner with
    # ns-3's map (its own lists: EventOrigin's order, which differs here by 3 ns on
    # InfiniBand, doc/distributed.md "Lookahead and ties").
    steps = [float(r["duration_us"]) for r in rows if r["kind"] == "collective"]
    assert len(steps) == 2
    runner_args = [
        f"--fabric={fabric}",
        "--topology=fattree",
        "--k=4",
        "--workload=allreduce",
        "--algorithm=ring",
        "--ranks=8",
        "--bytes=4MiB",
        "--iterations=2",
        "--mtu=4096",
        "--scheduler=map",
        f"--out={tmp_path / 'runner'}",
    ]
    if fabric == "rocev2":
        runner_args.append("--buffer=4MiB")
    subprocess.run([str(ai_fabric_sim), *runner_args], check=True, capture_output=True, timeout=300)
    runner = list(csv.DictReader(open(tmp_path / "runner" / "collective.csv")))
    assert [round(int(r["duration_ns"]) / 1e3, 3) for r in runner] == steps
    assert float(rows[-1]["start_us"]) >= 5.0  # the ranks start at 5 us

    # Every queue pair had its Rate trace connected by the QpCreated sink: as many as
    # the NICs hold at the end, 2 per connection: the allreduce's 8 ring neighbours on
    # each of 2 channels (CollectiveAlgorithm's Channels default), the flow's one and
    # the incast's three.
    qps, watched, changes, lowest = figure(
        r"^queue pairs: (\d+), Rate connected through QpCreated: (\d+), rate changes: (\d+), "
        r"lowest rate: ([\d.]+) Gb/s",
        stdout,
    )
    assert int(qps) == int(watched) == 2 * (8 * 2 + 1 + 3)

    if fabric == "rocev2":
        pauses, resumes = map(int, figure(r"^PFC pauses sent: (\d+), resumes sent: (\d+)", stdout))
        assert pauses > 0 and pauses == resumes  # every pause was lifted by the end
        xoff = int(figure(r"^lowest XOFF threshold of a pausing switch: (\d+) bytes", stdout)[0])
        shared = int(figure(r"^max switch shared buffer used: (\d+) bytes", stdout)[0])
        assert 0 < xoff < shared < 4 * MIB
        queue, node, _, priority = map(
            int,
            figure(r"^max switch egress queue: (\d+) bytes \(node (\d+), port (\d+), priority (\d+)\)", stdout),
        )
        # A switch paused a priority group whose shared bytes passed its XOFF
        # threshold: those bytes wait in its egress queues, so the longest one is at
        # least that threshold, within the 4 MiB buffer, on the RDMA class (3) of a
        # switch (nodes 16..35).
        assert xoff <= queue < 4 * MIB
        assert priority == 3 and 16 <= node < 36
        # DCQCN: every CNP a notification point sent reached its reaction point, and
        # the senders' rates came down.
        sent, received = map(int, figure(r"^CNPs sent: (\d+), received: (\d+)", stdout))
        assert sent == received > 0
        assert int(changes) > 0 and float(lowest) < 100
    else:
        reports, fewest, _ = map(
            int, figure(r"^credit reports: (\d+), fewest credits left: (\d+), sends leaving none: (\d+)", stdout)
        )
        # A report per data packet a port sends: at least every packet's first hop.
        assert reports >= int(delivered) // MTU
        assert fewest < 4096 // 64  # some VL went below one full packet's blocks
        # The incast's upstream ports waited for credits, and the packets they held
        # back queued in switches: more than one MTU packet on one VL.
        assert int(figure(r"^credit stalls: (\d+)", stdout)[0]) > 0
        queue, node, _, vl = map(
            int, figure(r"^max switch VL queue: (\d+) bytes \(node (\d+), port (\d+), VL (\d+)\)", stdout)
        )
        assert queue > MTU and vl == 0 and 16 <= node < 36
        # No congestion control: no controller changes a rate.
        assert int(changes) == 0


def test_tutorial_code_is_the_example(source_dir):
    """doc/tutorial.md's program is examples/rocev2-fattree-apps.cc, byte for byte."""
    text = (source_dir / "doc" / "tutorial.md").read_text()
    blocks = re.findall(r"```cpp\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "one C++ block: the whole program"
    assert blocks[0] == (source_dir / "examples" / "rocev2-fattree-apps.cc").read_text()


def test_readme_links_tutorial(source_dir):
    assert "(doc/tutorial.md)" in (source_dir / "README.md").read_text()


def test_tutorial_steps_as_written(source_dir, build_dir, tmp_path):
    """The tutorial's compile command builds its program from scratch/my-fabric.cc; the
    program prints exactly the output and CSV the page shows; the page's gnuplot script
    draws the PNG from that CSV."""
    import shutil

    text = (source_dir / "doc" / "tutorial.md").read_text()
    if not (build_dir / "include" / "ns3").is_dir() or not shutil.which("g++"):
        pytest.skip("needs the standalone build's include/ folder and g++")
    cache = build_dir / "CMakeCache.txt"
    if cache.is_file() and "AI_FABRIC_SANITIZE:BOOL=ON" in cache.read_text():
        pytest.skip("sanitizer build: the library needs -fsanitize programs")
    shell = re.findall(r"```sh\n(.*?)```", text, re.S)
    compile_cmd = next(block for block in shell if block.startswith("g++"))
    (tmp_path / "scratch").mkdir()
    shutil.copy(source_dir / "examples" / "rocev2-fattree-apps.cc", tmp_path / "scratch" / "my-fabric.cc")
    (tmp_path / "build").symlink_to(build_dir)
    subprocess.run(["sh", "-c", compile_cmd.split("\n./my-fabric")[0]], cwd=tmp_path, check=True, timeout=600)
    out = subprocess.run(["./my-fabric"], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=300)
    shown = re.findall(r"```text\n(.*?)```", text, re.S)
    assert shown[0] == out.stdout
    assert shown[1] == (tmp_path / "rocev2-fattree-apps.csv").read_text()
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot is not installed")
    plot_cmd = next(block for block in shell if block.startswith("cat > plot.gp"))
    subprocess.run(["sh", "-c", plot_cmd], cwd=tmp_path, check=True, timeout=60)
    png = (tmp_path / "rocev2-fattree-apps.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000
