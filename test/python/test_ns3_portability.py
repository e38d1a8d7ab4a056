# SPDX-License-Identifier: GPL-2.0-only
"""The C++ sources stay buildable in waf-era ns-3 trees (ns-3.35 and older).

1. No ns-3.36-only lambda forms.

ns-3.36 added Callback's constructor from a lambda and Simulator::Schedule /
ScheduleNow / ScheduleWithContext / ScheduleDestroy with a lambda. Code using
them compiles on the ns-3.37 of CI but not on ns-3.35 and older, which
wscript-compat/ supports; helper/lambda-callback.h (MakeLambdaCallback,
ScheduleLambda, ScheduleLambdaNow) does the same on every release. This test
catches the literal forms, `Simulator::Schedule(t, [&]() {...})` and
`...Callback...([...](...) {...})`; a lambda first stored in a variable and
then passed is not seen here (only a waf-era build finds that, see
doc/building-waf.md).

2. No unguarded `__has_include("ns3/version-defines.h")`: ns-3.35 and older
have no such header, so __has_include finds an installed ns-3's (Debian's 3.37
in /usr/include) and the code takes 3.37's API. Every such test must be
`!defined(AI_FABRIC_NS3_WAF_TREE) && __has_include(...)` (the wscript defines it).
"""

import re

import pytest

SCANNED_DIRS = ("model", "helper", "test", "examples", "utils", "bench", "scratch")

SCHEDULE = re.compile(r"\bSimulator::Schedule(?:Now|Destroy|WithContext)?\s*\(")
# Callback<...>(lambda), a typedef such as RowCallback(lambda), MakeCallback(lambda),
# and a lambda handed to a function taking a Callback (SetRowCallback(lambda)).
CALLBACK_FROM_LAMBDA = re.compile(r"\b(\w*Callback\w*)\s*(<(?:[^<>;]|<[^<>;]*>)*>)?\s*\(\s*\[")


def strip_comments_and_strings(text):
    """The C++ text with comments and string/char literals blanked, newlines kept."""

    def blank(match):
        return re.sub(r"[^\n]", " ", match.group(0))

    pattern = re.compile(
        r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL
    )
    return pattern.sub(blank, text)


def top_level_arguments(text, open_paren):
    """The argument texts of the call whose '(' is at open_paren."""
    depth = 0
    arguments = []
    start = open_paren + 1
    for i in range(open_paren, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                arguments.append(text[start:i])
                return arguments
        elif c == "," and depth == 1:
            arguments.append(text[start:i])
            start = i + 1
    return arguments


def non_portable_calls(text):
    """(line, call) for every ns-3.36-only lambda form in the C++ text."""
    code = strip_comments_and_strings(text)
    found = []
    for match in SCHEDULE.finditer(code):
        arguments = top_level_arguments(code, match.end() - 1)
        if any(argument.lstrip().startswith("[") for argument in arguments):
            found.append((code.count("\n", 0, match.start()) + 1, match.group(0).rstrip("( ")))
    for match in CALLBACK_FROM_LAMBDA.finditer(code):
        if match.group(1) == "MakeLambdaCallback":
            continue
        found.append((code.count("\n", 0, match.start()) + 1, match.group(1)))
    return sorted(found)


def cxx_files(source_dir):
    for folder in SCANNED_DIRS:
        root = source_dir / folder
        if root.is_dir():
            yield from sorted(p for p in root.rglob("*") if p.suffix in (".cc", ".h"))


def test_sources_use_portable_lambda_forms(source_dir):
    offenders = []
    for path in cxx_files(source_dir):
        for line, call in non_portable_calls(path.read_text(encoding="utf-8")):
            offenders.append("%s:%d: %s" % (path.relative_to(source_dir), line, call))
    assert not offenders, (
        "ns-3.36-only lambda forms (they do not compile on ns-3.35 and older); use "
        "MakeLambdaCallback<R, Args...>(lambda), ScheduleLambda(delay, lambda) or "
        "ScheduleLambdaNow(lambda) from helper/lambda-callback.h:\n  " + "\n  ".join(offenders)
    )


@pytest.mark.parametrize(
    "snippet",
    [
        "Simulator::Schedule(MicroSeconds(1), [&]() { x++; });",
        "Simulator::Schedule(f(a, b),\n    [this, i]() { Run(i); });",
        "Simulator::ScheduleNow([]() {});",
        "Simulator::ScheduleWithContext(n, t, [=]() {});",
        "fabric->AddMessageCallback(Callback<void, const Rec&>(\n  [&done](const Rec&) {}));",
        "t->SetCallbacks(CollectiveTransport::MessageCallback([&](uint32_t) {}));",
        "dev->SetReceiveCallback(MakeCallback([](Ptr<Packet>) {}));",
        "w->SetRowCallback([&rows](const Row& r) { rows.push_back(r); });",
        "Callback<void, Ptr<const X>, uint8_t>([w](Ptr<const X>, uint8_t) {});",
    ],
)
def test_detector_flags_native_lambda_forms(snippet):
    assert non_portable_calls(snippet), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        "ScheduleLambda(MicroSeconds(1), [&]() { x++; });",
        "ScheduleLambdaNow([]() {});",
        "MakeLambdaCallback<void, const Rec&>([&done](const Rec&) {});",
        "Simulator::Schedule(t, &Foo::Bar, this, v[i]);",
        "Simulator::ScheduleNow(&Foo::Bar, this);",
        "m_cb = Callback<void, uint64_t>();",
        "// Simulator::Schedule(t, [&]() {}); in a comment",
        'Print("Simulator::Schedule(t, [&]() {})");',
    ],
)
def test_detector_accepts_portable_forms(snippet):
    assert not non_portable_calls(snippet), snippet


VERSION_HEADER_TEST = re.compile(r'^\s*#\s*(?:el)?if\b.*__has_include\s*\(\s*[<"]ns3/version-defines\.h[>"]')


def unguarded_version_header_tests(text):
    """Line numbers of #if __has_include(ns3/version-defines.h) without the waf guard."""
    return [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if VERSION_HEADER_TEST.search(line) and "!defined(AI_FABRIC_NS3_WAF_TREE)" not in line
    ]


def test_version_header_tests_are_guarded_for_waf_trees(source_dir):
    offenders = []
    for path in cxx_files(source_dir):
        for line in unguarded_version_header_tests(path.read_text(encoding="utf-8")):
            offenders.append("%s:%d" % (path.relative_to(source_dir), line))
    assert not offenders, (
        "__has_include(\"ns3/version-defines.h\") finds an installed ns-3's header in a "
        "waf-era tree; write #if !defined(AI_FABRIC_NS3_WAF_TREE) && __has_include(...):\n  "
        + "\n  ".join(offenders)
    )


def test_version_header_detector():
    assert unguarded_version_header_tests('#if __has_include("ns3/version-defines.h")\n') == [1]
    assert unguarded_version_header_tests(
        'x\n#if !defined(AI_FABRIC_NS3_WAF_TREE) && __has_include("ns3/version-defines.h")\n'
    ) == []
