# SPDX-License-Identifier: GPL-2.0-only
"""Which Python the package was built for, and ImportErrors that say so.

The extension ``aifabric._aifabric`` is compiled for one interpreter: the one the
CMake build pins (``-DPython3_EXECUTABLE``, default ``/usr/bin/python3``, Debian's,
which also has Debian's python3-numpy and python3-distributed). The build writes
``_build_info.py`` beside it naming that interpreter. Under another ``python3``
(a pyenv or virtualenv one first on PATH) the extension may not load (another
Python version: no file with this interpreter's extension suffix) or a dependency
may be missing (Debian's packages are not on its path); ``import_error`` turns
such an ImportError into one that names both interpreters and the command to use.
"""

import importlib
import os
import platform
import sys
import sysconfig

# Optional dependencies and the Debian package of each (utils/debian-packages.txt).
DEBIAN_PACKAGES = {
    "numpy": "python3-numpy",
    "distributed": "python3-distributed",
    "dask": "python3-dask",
    "pytest": "python3-pytest",
}


def built_for():
    """{"executable", "version", "extension"} of the build's interpreter, or None
    when the package has no _build_info (a copy of the sources, not a build)."""
    try:
        from . import _build_info  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return {
        "executable": _build_info.PYTHON_EXECUTABLE,
        "version": _build_info.PYTHON_VERSION,
        "extension": _build_info.EXTENSION_FILE,
    }


def running():
    """{"executable", "version", "suffix"} of the interpreter running this code."""
    return {
        "executable": sys.executable or "(unknown)",
        "version": platform.python_version(),
        "suffix": sysconfig.get_config_var("EXT_SUFFIX") or "",
    }


def _same_file(a, b):
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (TypeError, ValueError):
        return False


def is_mismatch(built=None, now=None):
    """True when the running interpreter is not the one the extension was built for."""
    built = built_for() if built is None else built
    now = running() if now is None else now
    if not built:
        return False
    return not (_same_file(built["executable"], now["executable"])
                and built["version"] == now["version"])


def _package_parent():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def import_error(what, error, built=None, now=None):
    """An ImportError for ``what`` (the extension, or a dependency) that failed with
    ``error``, naming the interpreter the package was built for and the running one."""
    built = built_for() if built is None else built
    now = running() if now is None else now
    text = (f"{what} cannot be imported by {now['executable']} (Python {now['version']}): "
            f"{error}.")
    if built and is_mismatch(built, now):
        text += (
            f" aifabric was built for {built['executable']} (Python {built['version']}, "
            f"extension {built['extension']}), not for this interpreter"
            f" (which loads extensions named *{now['suffix']})."
            f" Run it with {built['executable']} instead, e.g."
            f" PYTHONPATH={_package_parent()} {built['executable']} your-script.py;"
            f" or build for this interpreter: cmake -B build"
            f" -DPython3_EXECUTABLE={now['executable']} (it needs pybind11 and this"
            f" interpreter's development headers, and its own dependencies).")
    elif built:
        text += f" aifabric was built for this interpreter ({built['executable']})."
    else:
        text += (" This copy of aifabric has no _build_info.py: it is not a build "
                 "(build it with CMake; the package lands in build/python).")
    return ImportError(text)


def require(name):
    """Import module ``name`` (a dependency such as numpy or distributed) and return it,
    or raise an ImportError naming the interpreters (import_error) and the Debian
    package that provides it for the build's interpreter."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        top = name.split(".")[0]
        package = DEBIAN_PACKAGES.get(top)
        what = f"{name} (Debian: {package})" if package else name
        raise import_error(what, e) from None  # (its message carries e's text)
