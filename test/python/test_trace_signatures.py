# SPDX-License-Identifier: GPL-2.0-only
"""Every TraceSource of the module names a callback signature that exists and fits.

ns-3's AddTraceSource takes the callback signature as a string ("ns3::Class::Name"),
which only documentation reads: nothing checks that the typedef exists or that its
parameters are those of the TracedCallback it documents. A user who writes a sink
from a wrong signature gets an abort at Connect time. This test reads the sources:
for each AddTraceSource it finds the member the accessor names, its TracedCallback
or TracedValue type, and the typedef the signature string names, and compares them.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = [p for d in ("model", "helper") for p in (ROOT / d).rglob("*") if p.suffix in (".h", ".cc")]

# ns-3's own signatures (core/network), with the parameters they take
NS3_SIGNATURES = {
    "ns3::Packet::TracedCallback": ["Ptr<const Packet>"],
    "ns3::TracedValueCallback::Uint64": "uint64_t",
    "ns3::TracedValueCallback::Uint32": "uint32_t",
    "ns3::TracedValueCallback::Double": "double",
    "ns3::TracedValueCallback::Time": "Time",
    "ns3::TracedValueCallback::Bool": "bool",
}

TRACE_SOURCE = re.compile(
    r'AddTraceSource\(\s*"(?P<name>[^"]+)"\s*,(?P<help>(?:\s*"(?:[^"\\]|\\.)*")+)\s*,\s*'
    r"MakeTraceSourceAccessor\(\s*&(?P<cls>\w+)::(?P<member>\w+)\s*\)\s*,\s*"
    r'"(?P<sig>[^"]+)"', re.S)


def split_params(text):
    """'a<b, c> x, int y' -> ['a<b, c> x', 'int y'] (commas inside <> kept)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [" ".join(p.split()) for p in out]


def strip_name(param):
    """'const Foo& foo' -> 'const Foo&', 'uint32_t link' -> 'uint32_t' (a trailing
    identifier after a type is the parameter's name)."""
    tokens = param.replace("&", "& ").replace("*", "* ").split()
    if len(tokens) >= 2 and re.fullmatch(r"[A-Za-z_]\w*", tokens[-1]) and \
            tokens[-2] not in ("const", "unsigned", "signed", "long", "short"):
        tokens = tokens[:-1]
    return " ".join(tokens)


def normalize(types):
    return ["".join(t.split()) for t in types]


def headers_of(cls):
    """Texts of the module's headers that declare class cls."""
    for path in SOURCES:
        if path.suffix == ".h":
            text = path.read_text()
            if re.search(r"class\s+" + cls + r"\b", text):
                yield text


def member_type(cls, member):
    """The declared type of cls::member in the module's headers: ('callback', [types])
    for TracedCallback<...>, ('value', type) for TracedValue<...>."""
    for text in headers_of(cls):
        # the member's declaration (greedy up to the member name on one statement)
        for m in re.finditer(r"(TracedCallback|TracedValue)<", text):
            end = text.find(";", m.start())
            decl = text[m.start():end]
            if re.search(r"\b" + member + r"\s*(\{[^}]*\})?\s*$", decl):
                inner = decl[decl.index("<") + 1:decl.rindex(">")]
                if m.group(1) == "TracedValue":
                    return "value", "".join(inner.split())
                return "callback", normalize(split_params(inner)) if inner.strip() else []
    return None


def typedef_params(signature):
    """Parameters of the typedef a signature string names, from the module's headers."""
    *scope, name = signature.split("::")
    cls = scope[-1]
    for text in headers_of(cls):
        m = re.search(r"typedef\s+void\s*\(\s*\*\s*" + name + r"\s*\)\s*\((.*?)\)\s*;", text, re.S)
        if m:
            return normalize(strip_name(p) for p in split_params(m.group(1)))
    return None


def trace_sources():
    found = []
    for path in SOURCES:
        if path.suffix != ".cc":
            continue
        for m in TRACE_SOURCE.finditer(path.read_text()):
            found.append((path.relative_to(ROOT), m.group("name"), m.group("cls"),
                          m.group("member"), m.group("sig")))
    return found


def test_every_trace_source_is_parsed():
    # every AddTraceSource call matched the pattern (no silent skip)
    calls = sum(p.read_text().count(".AddTraceSource(") for p in SOURCES if p.suffix == ".cc")
    assert len(trace_sources()) == calls > 20


def test_every_trace_signature_exists_and_matches_its_member():
    problems = []
    for path, name, cls, member, sig in trace_sources():
        where = f"{path}: {cls}::{name} ({sig})"
        declared = member_type(cls, member)
        if declared is None:
            problems.append(f"{where}: member {member} not found")
            continue
        kind, types = declared
        if sig in NS3_SIGNATURES:
            expected = NS3_SIGNATURES[sig]
            if kind == "value":
                ok = isinstance(expected, str) and "".join(expected.split()) == types
            else:
                ok = isinstance(expected, list) and normalize(expected) == types
            if not ok:
                problems.append(f"{where}: {kind} {types} does not fit ns-3's {sig}")
            continue
        params = typedef_params(sig)
        if params is None:
            problems.append(f"{where}: no typedef {sig}")
        elif kind != "callback" or params != types:
            problems.append(f"{where}: typedef takes {params}, the member passes {types}")
    assert not problems, "\n".join(problems)
