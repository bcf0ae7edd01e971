"""The compiled path (numba): whole searches run in one compiled call over int64 state rows.

Importing this package imports numba, so only code that is about to search imports it; the
rest of mindgames never does (``mindgames plugins`` and ``describe`` stay fast). ``enabled()``
says whether the compiled path may be used at all: numba imports, and the environment variable
``MINDGAMES_PYTHON_PATH`` (any value but empty or ``0``) does not force the Python path.

Where the JIT cache lives: ``cache.configure`` picks a writable directory before numba is
imported (module docstring there).
"""

from __future__ import annotations

import os

from mindgames.compiled.cache import configure

#: the environment variable that forces the Python path (debugging, tests of the oracle)
FORCE_PYTHON = "MINDGAMES_PYTHON_PATH"


def python_forced() -> bool:
    """Whether the environment asks for the Python path everywhere."""
    return os.environ.get(FORCE_PYTHON, "") not in ("", "0")


def enabled() -> bool:
    """Whether compiled kernels may run here (numba importable, not forced off)."""
    if python_forced():
        return False
    configure()
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a dependency; a broken install falls back
        return False
    return True
