# SPDX-License-Identifier: GPL-2.0-only
"""Under an interpreter other than the build's, aifabric's import failures say why.

The extension is built for CMake's Python3_EXECUTABLE (by default Debian's
/usr/bin/python3); the build writes aifabric/_build_info.py naming it. Another
python3 first on PATH (here: pyenv's) either cannot load the extension (another
Python version looks for another file name) or loads it but lacks Debian's
python3-numpy / python3-distributed. Either failure must be one ImportError naming
the interpreter the package was built for, the running one and the command to use.

* every other Python 3 interpreter found on this machine (python3 on PATH, pyenv's
  versions, /usr/local/bin) imports the build's package: it works, or it fails with
  that message; where it works, a missing dependency (aifabric.require) says the same;
* a simulated mismatch (a copy of the package whose extension and _build_info claim
  another Python) fails with that message under the build's own interpreter, so this
  test checks the message even on a machine with one interpreter;
* under the build's interpreter nothing is reported as a mismatch.
"""

import glob
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

BUILD = pathlib.Path(os.environ.get("AI_FABRIC_BUILD_DIR") or
                     pathlib.Path(__file__).resolve().parents[2] / "build")
PACKAGE = BUILD / "python" / "aifabric"


def build_info():
    text = (PACKAGE / "_build_info.py").read_text()
    return dict(re.findall(r'^(\w+) = "([^"]*)"$', text, re.M))


@pytest.fixture(scope="module")
def built():
    if not list(PACKAGE.glob("_aifabric*.so")):
        pytest.skip(f"the aifabric extension is not built in {PACKAGE}")
    info = build_info()
    assert set(info) == {"PYTHON_EXECUTABLE", "PYTHON_VERSION", "EXTENSION_FILE"}, info
    assert (PACKAGE / info["EXTENSION_FILE"]).is_file(), info
    return info


def run(interpreter, code, pythonpath):
    env = dict(os.environ, PYTHONPATH=str(pythonpath), PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONHOME", None)
    return subprocess.run([str(interpreter), "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def identity(interpreter):
    """(realpath of sys.executable, version) of an interpreter, or None if it is not a Python 3."""
    r = subprocess.run([str(interpreter), "-c",
                        "import os, platform, sys; print(os.path.realpath(sys.executable)); "
                        "print(sys.executable); print(platform.python_version())"],
                       capture_output=True, text=True, timeout=60, check=False)
    lines = r.stdout.split("\n")
    if r.returncode != 0 or len(lines) < 3 or not lines[2].startswith("3."):
        return None
    return lines[0], lines[1], lines[2]


def other_interpreters(built_executable):
    """Every other Python 3 on the machine: {realpath: (path to run, sys.executable, version)}."""
    candidates = [shutil.which("python3")]
    roots = [os.environ.get("PYENV_ROOT"), os.path.expanduser("~/.pyenv")]
    for root in filter(None, roots):
        candidates += sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python3")))
    candidates += sorted(glob.glob("/usr/local/bin/python3*"))
    own = os.path.realpath(built_executable)
    found = {}
    for c in filter(None, candidates):
        ident = identity(c)
        if ident and ident[0] != own and ident[0] not in found:
            found[ident[0]] = (c, ident[1], ident[2])
    return found


def assert_names_both(message, built, running_executable):
    assert built["PYTHON_EXECUTABLE"] in message, message
    assert running_executable in message, message
    assert f"Run it with {built['PYTHON_EXECUTABLE']}" in message, message
    assert f"-DPython3_EXECUTABLE={running_executable}" in message, message


def last_error(stderr):
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def test_other_interpreters_name_the_mismatch(built):
    others = other_interpreters(built["PYTHON_EXECUTABLE"])
    if not others:
        pytest.skip("no other Python 3 interpreter on this machine (the simulated case runs)")
    code = ("import aifabric\n"
            "try:\n"
            "    aifabric.require('numpy'); aifabric.require('distributed'); print('DEPS OK')\n"
            "except ImportError as e:\n"
            "    print('DEPS ERROR', e)\n")
    report = []
    for real, (path, executable, version) in sorted(others.items()):
        r = run(path, code, BUILD / "python")
        if r.returncode != 0:
            # the extension did not load: one ImportError, naming both interpreters
            error = last_error(r.stderr)
            assert error.startswith("ImportError: aifabric's extension module (_aifabric) "
                                    f"cannot be imported by {executable} (Python {version})"), \
                (path, r.stderr[-3000:])
            assert_names_both(error, built, executable)
            report.append(f"{version} {path}: extension refused, named")
        else:
            # the same ABI: the extension loads; a missing dependency names both
            out = r.stdout.strip()
            if out.startswith("DEPS ERROR"):
                assert_names_both(out, built, executable)
                report.append(f"{version} {path}: loads; missing dependency named")
            else:
                assert out == "DEPS OK", (path, out, r.stderr[-3000:])
                report.append(f"{version} {path}: loads, dependencies present")
    print("\n".join(report))


def test_simulated_mismatch(built, tmp_path):
    # A copy of the package as another Python's build would leave it: its extension
    # named for CPython 3.99 and _build_info naming that interpreter.
    copy = tmp_path / "python" / "aifabric"
    copy.mkdir(parents=True)
    for f in PACKAGE.iterdir():
        if f.suffix == ".py" and f.name != "_build_info.py":
            shutil.copy(f.resolve(), copy / f.name)
    shutil.copy(PACKAGE / built["EXTENSION_FILE"],
                copy / "_aifabric.cpython-399-x86_64-linux-gnu.so")
    other = "/opt/python3.99/bin/python3"
    (copy / "_build_info.py").write_text(
        f'PYTHON_EXECUTABLE = "{other}"\nPYTHON_VERSION = "3.99.0"\n'
        f'EXTENSION_FILE = "_aifabric.cpython-399-x86_64-linux-gnu.so"\n')
    r = run(sys.executable, "import aifabric", tmp_path / "python")
    assert r.returncode != 0
    error = last_error(r.stderr)
    assert error.startswith("ImportError: aifabric's extension module (_aifabric) cannot be "
                            f"imported by {sys.executable}"), r.stderr[-3000:]
    fake = {"PYTHON_EXECUTABLE": other}
    assert_names_both(error, fake, sys.executable)
    assert "(Python 3.99.0, extension _aifabric.cpython-399-x86_64-linux-gnu.so)" in error
    # one error, not a chain of tracebacks the user has to read through
    assert r.stderr.count("Traceback") == 1 and r.stderr.count("ImportError:") == 1, r.stderr
    assert "No module named 'aifabric._aifabric'" in error  # the original error's text


def test_build_interpreter_is_no_mismatch(built):
    code = ("import aifabric, aifabric._interpreter as i\n"
            "print(i.is_mismatch())\n"
            "try:\n"
            "    aifabric.require('no_such_module_of_ai_fabric')\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    r = run(built["PYTHON_EXECUTABLE"], code, BUILD / "python")
    assert r.returncode == 0, r.stderr
    first, message = r.stdout.strip().split("\n", 1)
    assert first == "False"
    assert "no_such_module_of_ai_fabric cannot be imported by" in message
    assert f"aifabric was built for this interpreter ({built['PYTHON_EXECUTABLE']})" in message
    assert "Run it with" not in message
