"""Small file helpers shared by every writer: atomic replace, ``.npz`` with a JSON record, and
JSON Lines."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from mindgames.errors import MindgamesError

#: the array of an ``.npz`` file that holds its JSON metadata record (UTF-8 bytes as uint8)
META = "__meta__"


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and rename it over ``path`` when done.

    On any error the temporary file is removed and ``path`` is left as it was, so a reader
    never sees a half-written file.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_npz(
    path: str | Path,
    meta: Mapping[str, Any],
    arrays: Mapping[str, np.ndarray],
    error: type[MindgamesError] = MindgamesError,
) -> None:
    """Write numeric ``arrays`` plus the JSON record ``meta`` as one ``.npz``, atomically.

    Never pickle: an array of Python objects is refused with ``error`` before anything is written.
    """
    for name, array in arrays.items():
        if np.asarray(array).dtype == object:
            raise error(f"{path}: array {name!r} is not numeric; refusing to save it")
    payload = {name: np.asarray(a) for name, a in arrays.items()}
    payload[META] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **payload)
    with atomic_write(path) as fh:
        fh.write(buffer.getvalue())


def read_npz(
    path: str | Path, what: str, error: type[MindgamesError] = MindgamesError
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The JSON record and the arrays of an ``.npz`` written by ``write_npz``.

    Every way the file can be bad -- missing, not a zip, truncated, no or corrupt record -- is
    one ``error`` naming the file and ``what`` it should have been.
    """
    p = Path(path)
    if p.is_file() and not zipfile.is_zipfile(p):
        raise error(f"{p}: not a readable {what} (not an .npz archive)")
    try:
        with np.load(p, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise error(f"{p}: no such {what}") from None
    except (zipfile.BadZipFile, EOFError, ValueError, OSError, KeyError) as exc:
        raise error(f"{p}: not a readable {what} ({exc})") from None
    if META not in arrays:
        raise error(f"{p}: not a mindgames {what} (no metadata record)")
    try:
        meta = json.loads(arrays.pop(META).tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise error(f"{p}: corrupt metadata record ({exc})") from None
    if not isinstance(meta, dict):
        raise error(f"{p}: corrupt metadata record (not a JSON object)")
    return meta, arrays


def append_jsonl(fh: IO[str], record: dict[str, Any]) -> None:
    """Append one JSON record as a line and flush it, so a killed run loses nothing written."""
    fh.write(json.dumps(record, sort_keys=True) + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Every complete record of a JSON Lines file; a torn last line (a killed writer) is dropped.

    A malformed line anywhere else is an error naming the file and line.
    """
    p = Path(path)
    if not p.exists():
        return []
    lines = p.read_text(encoding="utf-8").split("\n")
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            if number >= len(lines) - 1 and not p.read_text(encoding="utf-8").endswith("\n"):
                break  # the last line was cut by a kill: drop it
            raise MindgamesError(f"{p}:{number}: not a JSON record: {exc}") from None
    return out
