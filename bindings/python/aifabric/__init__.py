# SPDX-License-Identifier: GPL-2.0-only
"""aifabric: Python front end of the ai-fabric ns-3 module.

    import aifabric
    s = aifabric.Scenario(topology="fattree", k=4, workload="permutation", bytes="1MB")
    r = aifabric.run(s, out="out/perm")          # the same C++ runner as ai-fabric-sim
    print(r.slowdown["p99"], len(r.fct))
    t = aifabric.sweep(s, {"kmin": ["20KB", "100KB"], "kmax": ["400KB"]}, workers=2)
    print(t)

Scenario knobs are ai-fabric-sim's flags with '-' turned into '_'
(``Scenario.knobs()`` lists them); bad values raise ConfigError, a ValueError
carrying the CLI's message. See doc/python.md.

The extension is built for one interpreter (CMake's Python3_EXECUTABLE, by default
Debian's /usr/bin/python3); under another one a failed import says so, naming both
(``require("distributed")`` does the same for a dependency).
"""

import os
import tempfile

from . import _interpreter
from ._interpreter import require

try:
    from ._aifabric import ConfigError, Scenario
    from ._aifabric import run_native as _run_native
except ImportError as _e:
    # Built for another interpreter (another Python version finds no extension file of
    # its own suffix), or the extension's libraries are missing: say which and what to run.
    # (from None: one traceback; the message carries the original error's text)
    raise _interpreter.import_error("aifabric's extension module (_aifabric)", _e) from None
from .result import Result, read_csv
from .sweep import SweepTable, expand_grid, run_point, sweep

__all__ = [
    "ConfigError", "Scenario", "Result", "SweepTable", "run", "sweep", "expand_grid",
    "run_point", "read_csv", "available", "available_fabrics", "available_workloads",
    "require",
]


def _scenario(scenario, knobs):
    if scenario is None:
        s = Scenario()
    elif isinstance(scenario, dict):
        s = Scenario.from_dict(scenario)
    else:
        s = scenario.copy()
    s.update(knobs)
    return s


def run(scenario=None, **knobs):
    """Run one scenario in this process and return its Result.

    ``scenario`` is a Scenario, a dict of knobs or None (the defaults); keyword
    arguments override knobs (``run(s, out="out/x", seed=2)``). The run is the one
    ai-fabric-sim does with the same settings and writes the same files. Runs in
    one process are sequential (ns-3's simulator is process-global); use sweep()
    for many. Raises ConfigError (a ValueError) with the CLI's message.
    """
    s = _scenario(scenario, knobs)
    summary = _run_native(s)
    return Result(s.out, summary)


# A scenario that builds in milliseconds; used to ask the runner what it accepts.
_PROBE = {"topology": "leafspine", "leaves": 2, "spines": 1, "hosts_per_switch": 2,
          "workload": "none", "bytes": 1000, "fanin": 1, "stop_time": "1us",
          "qlen_interval": "0s"}


def available(knob, value):
    """(True, "") if the runner of this build runs ``knob=value``, else (False, its message).

    Asks the runner in a child process with a tiny scenario, so nothing of the
    probe stays in this process. Only an error about ``knob`` itself counts as
    "not available".
    """
    with tempfile.TemporaryDirectory(prefix="aifabric-probe-") as tmp:
        config = dict(_PROBE, out=os.path.join(tmp, "out"))
        config[knob.replace("-", "_")] = value
        if knob == "workload" and value == "training":
            # The training workload runs the model of its file (doc/training.md).
            model = os.path.join(tmp, "model.json")
            with open(model, "w", encoding="utf-8") as f:
                f.write('{"parallelism": {"dp": 2}, "layers": [{"forward_ns": 1}]}')
            config["training"] = model
            del config["bytes"]
        if knob == "workload" and value == "jobs":
            # The jobs of its file (doc/jobs.md): one small allreduce, without its baseline.
            jobs = os.path.join(tmp, "jobs.json")
            with open(jobs, "w", encoding="utf-8") as f:
                f.write('[{"name": "probe", "workload": "allreduce", "bytes": 1000, "gpus": 2}]')
            config["jobs"] = jobs
            config["jobs_baseline"] = 0
            del config["bytes"]
        try:
            Scenario.from_dict(config)
        except ConfigError as e:
            return False, str(e)
        res = run_point(Scenario.from_dict(config).to_dict(), timeout=120)
    if res["status"] != "error":
        return True, ""
    flag = "--" + knob.replace("_", "-")
    if res["error"].startswith(flag + ":") or res["error"].startswith(flag + "="):
        return False, res["error"]
    return True, ""


def _registered(knob):
    """The names a knob's registry allows, as the runner's help lists them."""
    allowed = next(k["allowed"] for k in Scenario.knobs() if k["name"] == knob)
    return [name.strip() for name in allowed.split(",")]


def available_fabrics():
    """{fabric: None if this build simulates it, else the runner's message}."""
    return {f: (available("fabric", f)[1] or None) for f in _registered("fabric")}


def available_workloads():
    """{workload: None if the runner runs it, else the runner's message}."""
    return {w: (available("workload", w)[1] or None) for w in _registered("workload")}
