# SPDX-License-Identifier: GPL-2.0-only
"""Generating and running gnuplot scripts.

Every plot is a self-contained .gp script (data inline as gnuplot datablocks)
written beside its image, so it can be edited and re-run by hand:
  gnuplot tails-slowdown-cdf.gp
"""

import os
import shutil
import subprocess

from . import AnalysisError

_TERMINAL_CACHE = {}


def find_gnuplot(explicit=None):
    """Path of gnuplot, or AnalysisError naming the Debian package."""
    exe = explicit or os.environ.get("AIFABRIC_GNUPLOT") or "gnuplot"
    path = shutil.which(exe)
    if path is None:
        raise AnalysisError(
            "gnuplot not found (looked for %r on PATH); install it with "
            "'apt-get install gnuplot-nox' (Debian/Ubuntu package gnuplot-nox), "
            "or pass --no-plots for the tables only" % exe)
    return path


def terminal(gnuplot, fmt):
    """The 'set terminal' line: pngcairo if this gnuplot has it, else png; or svg."""
    if fmt == "svg":
        return "set terminal svg size 900,600 dynamic enhanced font 'sans,11'"
    if gnuplot not in _TERMINAL_CACHE:
        probe = subprocess.run([gnuplot], input="set terminal pngcairo\n", text=True,
                               capture_output=True)
        _TERMINAL_CACHE[gnuplot] = probe.returncode == 0 and not probe.stderr.strip()
    if _TERMINAL_CACHE[gnuplot]:
        return "set terminal pngcairo size 900,600 enhanced font 'sans,10'"
    return "set terminal png size 900,600"


def quote(text):
    """A gnuplot string literal (single quotes, doubled inside)."""
    return "'" + str(text).replace("'", "''") + "'"


def datablock(name, rows):
    """A gnuplot datablock $name holding rows (sequences of numbers or words)."""
    lines = ["$%s << EOD" % name]
    for r in rows:
        lines.append(" ".join(format(v, ".10g") if isinstance(v, float) else str(v)
                              for v in r))
    lines.append("EOD")
    return "\n".join(lines)


def render(gnuplot, fmt, image_path, body):
    """Write image_path's .gp script (terminal, output, body) and run gnuplot on it."""
    script_path = os.path.splitext(image_path)[0] + ".gp"
    script = "\n".join([
        terminal(gnuplot, fmt),
        "set output %s" % quote(os.path.basename(image_path)),
        body,
        "unset output",
        "",
    ])
    with open(script_path, "w") as f:
        f.write(script)
    # Run in the image's directory so the script's relative output name works by hand too.
    result = subprocess.run([gnuplot, os.path.basename(script_path)],
                            cwd=os.path.dirname(os.path.abspath(image_path)),
                            capture_output=True, text=True)
    if result.returncode != 0 or not os.path.exists(image_path) \
            or os.path.getsize(image_path) == 0:
        raise AnalysisError("gnuplot failed on %s (exit %d): %s" % (
            script_path, result.returncode, result.stderr.strip()))
    return image_path
