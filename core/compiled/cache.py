"""Where numba's JIT cache and the generated search modules live: always somewhere writable.

numba caches a compiled function beside its source file when that directory is writable, else
in a user cache directory; but a ``NUMBA_CACHE_DIR`` that cannot be written makes importing a
cached function fail. So before numba is imported, ``configure`` keeps a writable
``NUMBA_CACHE_DIR``, replaces an unwritable one with mindgames' own cache directory, and leaves
numba's choice alone when none is set. The generated search modules (``specialise``) go to
``generated/`` of ``$NUMBA_CACHE_DIR/mindgames`` when that is set and writable, else of
``$XDG_CACHE_HOME/mindgames`` (``~/.cache/mindgames``), else of a directory in the temporary one
(an unwritable ``NUMBA_CACHE_DIR`` is then replaced by ``numba/`` beside it). Worker
processes and Dask workers on the same machine find the same directories, so a function is
compiled once per machine, not once per process.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_generated: Path | None = None


def writable(path: Path) -> bool:
    """Whether ``path`` is (or can be made) a directory this process may write in."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".probe-"):
            pass
    except OSError:
        return False
    return True


def _user_cache() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "mindgames"


def _fallbacks() -> list[Path]:
    return [_user_cache(), Path(tempfile.gettempdir()) / f"mindgames-{os.getuid()}"]


def configure() -> Path:
    """Settle the directories (once per process) and return the generated modules' one."""
    global _generated
    if _generated is not None:
        return _generated
    given = os.environ.get("NUMBA_CACHE_DIR")
    places = [Path(given) / "mindgames"] if given and writable(Path(given)) else []
    for home in [*places, *_fallbacks()]:
        if writable(home / "generated"):
            _generated = (home / "generated").resolve()
            if given and not places:  # numba's own directory cannot be written: ours instead
                os.environ["NUMBA_CACHE_DIR"] = str(home / "numba")
            break
    else:  # pragma: no cover - nothing writable at all: numba then caches nothing
        _generated = Path(tempfile.mkdtemp(prefix="mindgames-generated-"))
        if given and not places:
            os.environ["NUMBA_CACHE_DIR"] = str(_generated)
    return _generated
