# SPDX-License-Identifier: GPL-2.0-only
"""The folders' layering: which part of the module may include which.

Headers are included as "ns3/<name>.h" whatever their folder, so the folder of an
included header is looked up in ai-fabric-files.txt. The rules, bottom up:

- model/util (generic utilities) and model/engine (event list, frame pools) name no
  other part of the module (the engine may use model/util);
- model/topology (graph, route tables, routing engines) is pure graph: nothing of
  the RDMA transport, the fabrics, the collectives or the traffic;
- model/rdma and its subfolders (queue pairs, congestion control, IBTA transport
  headers) are shared by both fabrics and name neither (nor the applications);
- model/rocev2 and model/infiniband do not name each other;
- nothing in model/ includes helper/ (helpers install models, never the reverse);
- helper/ (outside helper/scenario/) never includes helper/scenario/: the scenario
  layer maps its configuration onto the helpers' options, never the reverse.
"""

import os
import re

import pytest

RULES = [
    ("model/engine/", ["model/", "helper/"], ["model/engine/", "model/util/"]),
    ("model/util/", ["model/", "helper/"], ["model/util/"]),
    (
        "model/topology/",
        [
            "model/rdma/",
            "model/rocev2/",
            "model/infiniband/",
            "model/collective/",
            "model/traffic/",
            "model/applications/",
            "helper/",
        ],
        [],
    ),
    (
        "model/rdma/",
        ["model/rocev2/", "model/infiniband/", "model/collective/", "model/traffic/", "model/applications/", "helper/"],
        [],
    ),
    ("model/rocev2/", ["model/infiniband/", "helper/"], []),
    ("model/infiniband/", ["model/rocev2/", "helper/"], []),
    ("model/", ["helper/"], []),
    ("helper/", ["helper/scenario/"], []),
]

# Subfolders of a rule's folder whose files the rule does not cover.
EXEMPT = {"helper/": ["helper/scenario/"]}

INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?([^"/]+\.h)"', re.M)


def listed_files(source_dir):
    files = []
    for line in (source_dir / "ai-fabric-files.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith(("model/", "helper/")):
            files.append(line)
    return files


def includes(source_dir):
    """(file, included module file) for every module header a listed file includes."""
    files = listed_files(source_dir)
    where = {os.path.basename(f): f for f in files if f.endswith(".h")}
    for f in files:
        for name in INCLUDE.findall((source_dir / f).read_text()):
            if name in where:
                yield f, where[name]


def violations(pairs):
    found = []
    for src, dst in pairs:
        for folder, forbidden, allowed in RULES:
            if not src.startswith(folder) or any(src.startswith(e) for e in EXEMPT.get(folder, [])):
                continue
            if any(dst.startswith(a) for a in allowed):
                continue
            # (the own folder is fine, unless the forbidden folder is a subfolder of it)
            if any(dst.startswith(f) and (not dst.startswith(folder) or f.startswith(folder)) for f in forbidden):
                found.append(f"{src} includes {os.path.basename(dst)} ({dst})")
    return sorted(set(found))


def test_every_include_respects_the_layers(source_dir):
    pairs = list(includes(source_dir))
    assert len(pairs) > 200, "too few includes found: the file list or the pattern is wrong"
    assert violations(pairs) == []


@pytest.mark.parametrize(
    "src,dst",
    [
        ("model/rocev2/roce-switch.cc", "helper/roce-fabric-helper.h"),
        ("model/engine/fabric-simulator-impl.cc", "model/rocev2/roce-nic.h"),
        ("model/topology/route-table.cc", "model/rdma/rdma-queue-pair.h"),
        ("model/rdma/rdma-queue-pair.cc", "model/rocev2/roce-nic.h"),
        ("model/infiniband/ib-hca.cc", "model/rocev2/wire/roce-frame.h"),
        ("helper/collective-workload.h", "helper/scenario/scenario-config.h"),
        ("helper/flow-workload.cc", "helper/scenario/workload-options.h"),
    ],
)
def test_a_backward_include_is_found(src, dst):
    assert violations([(src, dst)]) != []


def test_allowed_includes_pass():
    assert violations(
        [
            ("model/rocev2/roce-nic.cc", "model/rdma/wire/bth-header.h"),
            ("model/infiniband/ib-hca.cc", "model/rdma/rdma-queue-pair.h"),
            ("model/rdma/rdma-queue-pair.cc", "model/engine/fabric-simulator-impl.h"),
            ("model/engine/timing-wheel-scheduler.cc", "model/engine/fabric-event.h"),
            ("helper/roce-fabric-helper.cc", "model/rocev2/roce-switch.h"),
            ("helper/scenario/scenario-runner.cc", "helper/collective-workload.h"),
            ("helper/scenario/scenario-runner.cc", "helper/scenario/output-writer.h"),
        ]
    ) == []
