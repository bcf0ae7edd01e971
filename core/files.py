"""Small file helpers shared by every writer: atomic replace and JSON Lines."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from mindgames.errors import MindgamesError


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
