# SPDX-License-Identifier: GPL-2.0-only
"""--workload=training --chakra: MLCommons Chakra execution traces (doc/training.md, "Chakra
execution traces").

The traces are written here with python3-protobuf from the module's own schema
(model/training/chakra-et.proto, compiled by protoc into a temporary folder): one file
per rank, PREFIX.RANK.et, each a GlobalMetadata then Node messages, every message
preceded by its length as a varint, as Chakra's tools write them. Each trace is the
graph the training engine runs for a JSON model (doc/training.md, "A GPU's program"), so
the two must give the same iteration times, to the nanosecond.
"""

import importlib
import json
import shutil
import subprocess
import sys

import pytest

TOPOLOGY = ["--topology=leafspine", "--leaves=2", "--spines=1", "--hosts-per-switch=2"]


@pytest.fixture(scope="session")
def et(tmp_path_factory, source_dir, build_dir):
    """The Python classes of model/training/chakra-et.proto (skips when the build has no
    Chakra support or python3-protobuf is missing)."""
    if not (build_dir / "proto" / "chakra-et.pb.cc").is_file():
        pytest.skip("this build has no Chakra support (protobuf not found at configure time)")
    protoc = shutil.which("protoc")
    if protoc is None:
        pytest.skip("protoc (protobuf-compiler) is not installed")
    pytest.importorskip("google.protobuf")
    out = tmp_path_factory.mktemp("chakra_proto")
    proto = source_dir / "model" / "training" / "chakra-et.proto"
    subprocess.run(
        [protoc, f"-I{proto.parent}", f"--python_out={out}", str(proto)], check=True
    )
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("chakra_et_pb2")
    finally:
        sys.path.remove(str(out))


def varint(n):
    b = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            b.append(low | 0x80)
        else:
            b.append(low)
            return bytes(b)


class Rank:
    """One rank's graph, built as the training engine runs a GPU's program: a compute
    step depends on everything the GPU finished before it; an issue on the same; a wait
    adds the communication to what the next step depends on."""

    def __init__(self, et):
        self.et = et
        self.nodes = []
        self.front = []

    def _node(self, name, kind, deps, **attrs):
        n = self.et.Node(id=len(self.nodes) + 1, name=name, type=kind)
        n.data_deps.extend(deps)
        for key, value in attrs.items():
            if key == "duration_micros":
                n.duration_micros = value
            elif isinstance(value, str):
                n.attr.add(name=key, string_val=value)
            elif isinstance(value, bool):
                n.attr.add(name=key, bool_val=value)
            else:
                n.attr.add(name=key, int64_val=value)
        self.nodes.append(n)
        return n.id

    def compute(self, name, us):
        if us > 0:
            self.front = [self._node(name, self.et.COMP_NODE, self.front, duration_micros=us)]

    def collective(self, name, size, group="", comm_type=None):
        """Issue a collective (all-reduce unless comm_type); returns its node."""
        attrs = {"comm_type": self.et.ALL_REDUCE if comm_type is None else comm_type,
                 "comm_size": size}
        if group:
            attrs["pg_name"] = group
        return self._node(name, self.et.COMM_COLL_NODE, self.front, **attrs)

    def wait(self, node):
        self.front = self.front + [node]

    def send(self, name, dst, size):
        return self._node(name, self.et.COMM_SEND_NODE, self.front, comm_dst=dst, comm_size=size)

    def recv(self, name, src, size):
        self.front = [
            self._node(name, self.et.COMM_RECV_NODE, self.front, comm_src=src, comm_size=size)
        ]


def write_trace(et, prefix, ranks):
    for r, rank in enumerate(ranks):
        with open(f"{prefix}.{r}.et", "wb") as f:
            meta = et.GlobalMetadata(version="0.0.4").SerializeToString()
            f.write(varint(len(meta)) + meta)
            for n in rank.nodes:
                b = n.SerializeToString()
                f.write(varint(len(b)) + b)


def run(sim, out, *args):
    p = subprocess.run(
        [str(sim), *TOPOLOGY, f"--out={out}", *args], capture_output=True, text=True
    )
    return p


def iteration_times(out, key):
    s = json.loads((out / "summary.json").read_text())
    if key == "training":
        return [it["iteration_ns"] for it in s["training"]["iterations"]], s
    return [it["iteration_ns"] for it in s["chakra"]["iterations"]], s


LAYERS = [
    # name, forward us, input-gradient us, weight-gradient us, update us, gradient bytes
    ("embed", 12, 9, 7, 2, 400000),
    ("block", 20, 15, 15, 3, 1000000),
    ("head", 8, 6, 5, 1, 250000),
]


def dp_model(path, dp):
    path.write_text(json.dumps({
        "name": "dp-only",
        "parallelism": {"dp": dp},
        "gradient_bucket_bytes": 0,
        "overlap": True,
        "iterations": 2,
        "layers": [
            {"name": n, "forward_ns": f * 1000, "input_grad_ns": i * 1000,
             "weight_grad_ns": w * 1000, "update_ns": u * 1000, "parameter_bytes": b}
            for n, f, i, w, u, b in LAYERS
        ],
    }))


def dp_trace(et, prefix, dp):
    """The data-parallel model's iteration (one bucket per layer, overlapped)."""
    ranks = []
    for _ in range(dp):
        g = Rank(et)
        for n, f, *_ in LAYERS:
            g.compute(n + ".fwd", f)
        colls = []
        for n, _f, i, w, _u, b in reversed(LAYERS):
            g.compute(n + ".ig", i)
            g.compute(n + ".wg", w)
            colls.append((g.collective(n + ".grad_allreduce", b), n))
        for c, n in colls:
            g.wait(c)
            u = [x for x in LAYERS if x[0] == n][0][4]
            g.compute(n + ".update", u)
        ranks.append(g)
    write_trace(et, prefix, ranks)


def test_chakra_trace_runs_as_its_json_model(et, ai_fabric_sim, tmp_path):
    """Done-when: a trace written here (compute + an allreduce per layer on 4 GPUs) gives
    the JSON model's iteration times exactly."""
    dp_model(tmp_path / "model.json", 4)
    dp_trace(et, tmp_path / "dp", 4)
    a = run(ai_fabric_sim, tmp_path / "json", "--workload=training",
            f"--training={tmp_path / 'model.json'}")
    assert a.returncode == 0, a.stderr
    b = run(ai_fabric_sim, tmp_path / "et", "--workload=training", f"--chakra={tmp_path / 'dp'}",
            "--iterations=2")
    assert b.returncode == 0, b.stderr
    ta, _ = iteration_times(tmp_path / "json", "training")
    tb, s = iteration_times(tmp_path / "et", "chakra")
    assert len(ta) == 2 and ta == tb, (ta, tb)
    # the network made a difference: more than the compute alone
    compute = sum(f + i + w + u for _n, f, i, w, u, _b in LAYERS) * 1000
    assert tb[0] > compute
    c = s["chakra"]
    assert c["ranks"] == 4 and c["nodes"]["collective"] == 12 and c["complete"]
    assert (tmp_path / "et" / "chakra.csv").read_text().splitlines()[0] == (
        "iteration,start_ns,end_ns,duration_ns,critical_rank,gpu_compute_ns")


def test_chakra_process_groups_and_sends(et, ai_fabric_sim, tmp_path):
    """Process groups (pg_name) and point-to-point nodes: TP 2 x PP 2 on 4 GPUs, one
    microbatch, against the same JSON model (TP allreduces after each forward and input
    gradient, pipeline sends between the stages)."""
    act = 300000
    layers = [("a", 10, 8, 6, 0, 0), ("b", 14, 9, 7, 0, 0)]
    (tmp_path / "m.json").write_text(json.dumps({
        "parallelism": {"tp": 2, "pp": 2, "dp": 1},
        "layers": [
            {"name": n, "forward_ns": f * 1000, "input_grad_ns": i * 1000,
             "weight_grad_ns": w * 1000, "activation_bytes": act}
            for n, f, i, w, _u, _b in layers
        ],
    }))
    ranks = [Rank(et) for _ in range(4)]
    # rank = t + 2 s; TP groups {0,1} (stage 0) and {2,3} (stage 1)
    for r, g in enumerate(ranks):
        s, pg = r // 2, f"tp{r // 2}"
        n, f, i, w, _u, _b = layers[s]
        if s == 1:
            g.recv("act.recv", r - 2, act)
        g.compute(n + ".fwd", f)
        g.wait(g.collective(n + ".fwd_allreduce", act, pg))
        if s == 0:
            g.send("act.send", r + 2, act)
            g.recv("grad.recv", r + 2, act)
        g.compute(n + ".ig", i)
        c = g.collective(n + ".ig_allreduce", act, pg)
        g.compute(n + ".wg", w)
        g.wait(c)
        if s == 1:
            g.send("grad.send", r - 2, act)
    write_trace(et, tmp_path / "pp", ranks)
    a = run(ai_fabric_sim, tmp_path / "json", "--workload=training",
            f"--training={tmp_path / 'm.json'}")
    assert a.returncode == 0, a.stderr
    b = run(ai_fabric_sim, tmp_path / "et", "--workload=training", f"--chakra={tmp_path / 'pp'}")
    assert b.returncode == 0, b.stderr
    ta, _ = iteration_times(tmp_path / "json", "training")
    tb, s = iteration_times(tmp_path / "et", "chakra")
    assert ta == tb, (ta, tb)
    assert s["chakra"]["nodes"]["send"] == 4 and s["chakra"]["nodes"]["recv"] == 4


def refused(sim, tmp_path, prefix, *args):
    out = tmp_path / "refused"
    p = run(sim, out, "--workload=training", f"--chakra={prefix}", *args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert not out.exists()
    return p.stderr


def small(et, prefix, n=4, edit=None):
    ranks = []
    for r in range(n):
        g = Rank(et)
        g.compute("fwd", 5)
        g.wait(g.collective("ar", 100000))
        g.compute("upd", 1)
        if edit:
            edit(r, g)
        ranks.append(g)
    write_trace(et, prefix, ranks)


def test_chakra_bad_traces_are_refused(et, ai_fabric_sim, tmp_path):
    """Bad input: one error naming the file, the node and the field; exit 2; --out
    untouched."""
    # --training and --chakra together
    small(et, tmp_path / "both")
    (tmp_path / "m.json").write_text(json.dumps({"layers": [{"forward_ns": 1}]}))
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "both", f"--training={tmp_path / 'm.json'}")
    assert "both give the training step" in err
    # a missing file
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "none")
    assert "none.0.et" in err
    # a rank count that does not match the hosts
    small(et, tmp_path / "three", n=3)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "three")
    assert "3 ranks" in err and "4 hosts" in err
    # a truncated stream
    small(et, tmp_path / "cut")
    f = tmp_path / "cut.2.et"
    f.write_bytes(f.read_bytes()[:-3])
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "cut")
    assert "cut.2.et" in err and "truncated" in err

    # an unknown node type
    def mem(r, g):
        if r == 1:
            g.nodes[0].type = 2  # MEM_LOAD_NODE
    small(et, tmp_path / "type", edit=mem)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "type")
    assert "type.1.et: node 1 'fwd'" in err and '"type": 2' in err

    # an unknown comm_type
    def gather(r, g):
        if r == 3:
            g.nodes[1].attr[0].int64_val = 9  # BARRIER
    small(et, tmp_path / "comm", edit=gather)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "comm")
    assert "comm.3.et: node 2 'ar'" in err and '"comm_type": 9' in err

    # a dependency on a missing node
    def dangling(r, g):
        if r == 0:
            g.nodes[2].data_deps.append(77)
    small(et, tmp_path / "dep", edit=dangling)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "dep")
    assert "dep.0.et: node 3 'upd': \"data_deps\": node 77" in err

    def caller(r, g):
        if r == 1:
            g.nodes[0].ctrl_deps.append(55)
    small(et, tmp_path / "ctrl", edit=caller)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "ctrl")
    assert "ctrl.1.et: node 1 'fwd': \"ctrl_deps\": node 55" in err

    # collectives that do not match across ranks
    def size(r, g):
        if r == 2:
            g.nodes[1].attr[1].int64_val = 5
    small(et, tmp_path / "size", edit=size)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "size")
    assert "size.2.et: node 2 'ar'" in err and "comm_size" in err

    # a send without its receive
    def lonely(r, g):
        if r == 0:
            g.send("s", 1, 1000)
    small(et, tmp_path / "p2p", edit=lonely)
    err = refused(ai_fabric_sim, tmp_path, tmp_path / "p2p")
    assert "p2p.0.et: node 4 's'" in err and "comm_dst" in err


def test_chakra_trace_as_a_job(et, ai_fabric_sim, tmp_path):
    """A training job of --jobs can be a Chakra trace ("trace": PREFIX): beside
    the training job of the same JSON model, each on its own leaf (packed), alone each
    takes the same iteration times, and both complete."""
    dp_model(tmp_path / "model.json", 4)
    dp_trace(et, tmp_path / "dp", 4)
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([
        {"name": "et", "workload": "training", "trace": str(tmp_path / "dp"), "gpus": 4,
         "iterations": 2},
        {"name": "model", "workload": "training", "model": str(tmp_path / "model.json"),
         "gpus": 4},
    ]))
    out = tmp_path / "out"
    p = subprocess.run(
        [str(ai_fabric_sim), "--topology=leafspine", "--leaves=2", "--spines=2",
         "--hosts-per-switch=4", "--workload=jobs", f"--jobs={jobs}", f"--out={out}"],
        capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    a, b = s["jobs"]
    assert a["hosts"] == [0, 1, 2, 3] and b["hosts"] == [4, 5, 6, 7]
    assert a["complete"] and b["complete"]
    assert a["alone_iteration_ns"] == b["alone_iteration_ns"] and len(a["iteration_ns"]) == 2
    # bad ones: "trace" beside "model", a trace that is not there, "trace" on a collective
    bad = tmp_path / "bad.json"
    for job, field in (
        ({"name": "x", "workload": "training", "model": str(tmp_path / "model.json"),
          "trace": str(tmp_path / "dp"), "gpus": 4}, 'both give the training step'),
        ({"name": "x", "workload": "training", "trace": str(tmp_path / "nope"), "gpus": 4},
         '"trace"'),
        ({"name": "x", "workload": "allreduce", "trace": str(tmp_path / "dp"), "gpus": 4},
         '"trace" is for a training job'),
    ):
        bad.write_text(json.dumps([job]))
        p = subprocess.run(
            [str(ai_fabric_sim), "--topology=leafspine", "--leaves=2", "--spines=2",
             "--hosts-per-switch=4", "--workload=jobs", f"--jobs={bad}",
             f"--out={tmp_path / 'bad'}"], capture_output=True, text=True)
        assert p.returncode == 2 and "job 'x'" in p.stderr and field in p.stderr, p.stderr
        assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("on_failure", ["stop", "restart"])
def test_chakra_job_hit_by_a_host_failure(et, ai_fabric_sim, tmp_path, on_failure):
    """A trace job whose host fails mid-iteration aborts as a model's job does: stopped
    (or restarted on a free host for its remaining iterations); the other job completes."""
    ranks = []
    for _ in range(2):
        g = Rank(et)
        g.compute("fwd", 5)
        g.wait(g.collective("grad", 4000000))
        g.compute("upd", 1)
        ranks.append(g)
    write_trace(et, tmp_path / "two", ranks)
    jobs = tmp_path / "jobs.json"
    a = {"name": "a", "workload": "training", "trace": str(tmp_path / "two"), "gpus": 2,
         "placement": [0, 3], "iterations": 6, "on_failure": on_failure}
    if on_failure == "restart":
        a["restart_delay"] = "100us"
    jobs.write_text(json.dumps([
        a,
        {"name": "b", "workload": "allreduce", "bytes": "4MB", "gpus": 2, "placement": [1, 4],
         "iterations": 6},
    ]))
    out = tmp_path / "o"
    r = subprocess.run([str(ai_fabric_sim), "--topology=leafspine", "--leaves=2", "--spines=2",
                        "--hosts-per-switch=3", "--workload=jobs", f"--jobs={jobs}",
                        "--host-failure=3@500us", "--jobs-baseline=0",
                        "--ns3::RdmaQueuePair::RetransmitTimeout=20us",
                        "--ns3::RdmaQueuePair::RetryTimeout=20us", "--stop-time=10ms",
                        f"--out={out}"], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    a, b = json.loads((out / "summary.json").read_text())["jobs"]
    assert b["complete"] and b["finished_iterations"] == 6
    assert a["failed_host"] == 3 and a["failed_ns"] > 500000
    if on_failure == "stop":
        assert a["state"] == "stopped" and a["finished_iterations"] < 6
    else:
        assert a["state"] == "restarted" and a["finished_iterations"] == 6
        assert a["replacement_host"] == 2
