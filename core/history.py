"""A run's ``history.jsonl`` (``core/training.py``): one row per batch, generation or phase of
a learner, appended and flushed as the learner reports it, never holding a row twice, and read
back as typed rows (``recordtypes.HistoryRow``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mindgames.errors import Interrupted
from mindgames.files import append_jsonl, atomic_write, read_jsonl
from mindgames.interrupts import acknowledged, pending, signal_name
from mindgames.learner import Progress
from mindgames.recordtypes import HistoryRow

HISTORY_FILE = "history.jsonl"


class HistoryFile:
    """``history.jsonl`` while a run goes: each row appended and flushed as the learner reports it.

    The first field of a row counts the work done (games, generation, phase) and grows row by
    row. A resumed learner starts again from its last checkpoint, so its first row replaces the
    rows of the file from that count on: the file never holds a row twice, even after a kill.
    A learner that reports through ``reporting`` stops there after its checkpoint; one that
    never asks ``stop_requested`` is stopped one row after a signal (``Interrupted``).
    """

    def __init__(self, path: Path, resume: bool, progress: Progress | None) -> None:
        self.path = path
        self.progress = progress
        self.rows = 0
        self._cut = resume
        self._stopping = False
        if not resume:
            path.unlink(missing_ok=True)
        self._fh: Any = None

    def add(self, row: dict[str, Any]) -> None:
        if self._cut:
            self._cut = False
            key, count = next(iter(row.items()), ("", None))
            kept = [r for r in read_jsonl(self.path) if not _at_or_after(r.get(key), count)]
            self.rewrite(kept)
        if self._fh is None:
            self._fh = self.path.open("a", encoding="utf-8")
        append_jsonl(self._fh, HistoryRow.from_json(row, where="the learner's history row").json())
        self.rows += 1
        if self.progress is not None:
            self.progress(row)
        if self._stopping and not acknowledged():  # the learner never asks: stop it here
            raise Interrupted(f"interrupted by {signal_name()}")
        self._stopping = pending()

    def state(self, planned: tuple[str, int] | None) -> str:
        """Where the run stands by its file, rows from before a resume included, with the last
        row's count of the learner's ``planned`` unit: ``after 22 history rows (games 550)``.
        Every row is on disk already (``append_jsonl`` writes past the buffer), so the file
        stays open for the caller to close."""
        rows = read_jsonl(self.path)
        key = planned[0] if planned else None
        count = f" ({key} {rows[-1][key]})" if rows and key in rows[-1] else ""
        return f"after {len(rows)} history rows{count}"

    def rewrite(self, rows: Sequence[dict[str, Any]]) -> None:
        with atomic_write(self.path, "w") as fh:
            for row in rows:
                fh.write(json.dumps(HistoryRow.from_json(row).json(), sort_keys=True) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _at_or_after(value: Any, count: Any) -> bool:
    numbers = (int, float)
    return isinstance(value, numbers) and isinstance(count, numbers) and value >= count


def read_history(directory: str | Path) -> list[HistoryRow]:
    """The history rows of a run directory (``HistoryRow``: typed common columns, the
    learner's own as they are); a row whose common columns have the wrong type is one error."""
    path = Path(directory) / HISTORY_FILE
    return [HistoryRow.from_json(r, where=f"{path}:{n}") for n, r in enumerate(read_jsonl(path), 1)]
