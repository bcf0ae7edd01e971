"""The compiled path (numba): whole searches run in one compiled call over int64 state rows.

Importing this package imports numba, so only code that is about to search imports it; the
rest of mindgames never does (``mindgames plugins`` and ``describe`` stay fast). ``enabled()``
says whether the compiled path may be used at all: numba imports, and the environment variable
``MINDGAMES_PYTHON_PATH`` (any value but empty or ``0``) does not force the Python path.

Where the JIT cache lives: ``cache.configure`` picks a writable directory before numba is
imported (module docstring there).
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

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
        _import_numba()
    except ImportError:  # pragma: no cover - numba is a dependency; a broken install falls back
        return False
    return True


#: what ``_import_numba`` hides from numba's import (top-level package names)
HIDDEN = ("scipy", "yaml")


class _Hidden(importlib.abc.MetaPathFinder):
    """An import finder that makes the packages of ``HIDDEN`` look absent (``_import_numba``)."""

    def find_spec(
        self, name: str, path: object = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def _import_numba() -> None:
    """Import numba and its numpy implementations without the scipy and yaml imports they make.

    ``import numba`` imports scipy only to check its version, and loading numba's numpy
    registry (``numba.np.arraymath``, on a process's first compiled call) imports
    ``scipy.linalg`` only to learn whether BLAS exists: together about a second of every
    process's start when scipy is installed. Kernels use no BLAS, and ``np.dot`` and friends
    still import scipy themselves when a plugin's kernel uses them, so both are done with scipy
    hidden. PyYAML (which the dask extra installs) is imported by numba's configuration only to
    read a ``.numba_config.yaml`` in the working directory: 30 ms of every compiled process, so
    it is hidden too, and such a file is not read (numba's environment variables still are).
    A process that imported scipy or numba before pays as before.
    """
    if "scipy" in sys.modules or "numba.np.arraymath" in sys.modules:
        import numba

        return
    blocker = _Hidden()
    sys.meta_path.insert(0, blocker)
    try:
        import numba
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.meta_path.remove(blocker)
