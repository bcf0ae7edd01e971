"""Finished games of many tasks: played into a JSON Lines results file, exported in the game's
own record format (checkers: PDN), and what a run of them did (``Outcome``).

Tournaments (``core/play/tournament.py``) and matches (``core/play/match.py``) share these; the
tasks and the record of one game are ``core/play/task.py``'s, the pump ``core/executors.py``'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.executors import default_workers, open_executor
from mindgames.files import append_jsonl, atomic_write, drop_torn_tail
from mindgames.game import Game, export_games_of
from mindgames.limits import at_most, max_workers
from mindgames.play.task import GameTask, play_tasks
from mindgames.recordtypes import GameRecord, Report
from mindgames.registry import Registry, get_registry

Record = GameRecord


@attrs.frozen
class Outcome:
    """What a tournament or match run did: the report, the run directory, games played now."""

    report: Report
    directory: Path
    played: int
    records: tuple[Record, ...]


def window(workers: int) -> int:
    """Games in flight for ``workers`` workers: enough to keep each busy between results."""
    return max(16, 4 * workers)


def play_into(
    todo: Sequence[GameTask],
    results: Path | None,
    *,
    workers: int | None,
    scheduler: str | None,
    registry: Registry | None,
    on_record: Callable[[Record], None] | None,
    stop: Callable[[list[Record]], bool] | None = None,
) -> list[Record]:
    """Play ``todo`` on a fresh executor; append each record, in index order, to ``results``
    when given (after cutting a torn last line that a killed run left).

    ``stop`` is asked after each record with the records so far; when it says so the remaining
    tasks are cancelled (so the games kept never depend on the executor).
    """
    if workers is not None:
        at_most("workers", workers, max_workers(), "eight per core of this machine, at least 64")
    if not todo:
        return []
    n = min(workers or default_workers(), len(todo))
    kept: list[Record] = []
    with contextlib.ExitStack() as stack:
        fh = None
        if results is not None:
            drop_torn_tail(results)
            fh = stack.enter_context(results.open("a", encoding="utf-8"))
        executor = stack.enter_context(open_executor(n, scheduler))
        tasks = sorted(todo, key=lambda t: t.index)
        records = play_tasks(tasks, executor, registry=registry or get_registry(), window=window(n))
        with contextlib.closing(records):
            for record in records:
                if fh is not None:
                    append_jsonl(fh, record.json())
                kept.append(record)
                if on_record is not None:
                    on_record(record)
                if stop is not None and stop(kept):
                    break
    return kept


def typed_records(records: Sequence[Mapping[str, Any]], path: Path) -> list[GameRecord]:
    """The records of a results file as GameRecords (after ``match.foreign_record`` found them
    to be this run's games); a record of another shape is one error naming its number."""
    return [GameRecord.from_json(r, where=f"{path}: record {n}") for n, r in enumerate(records, 1)]


def export_records(game: Game, records: Sequence[Record], stem: Path) -> Path | None:
    """Write the games in the game's own record format (checkers: PDN) as ``stem + suffix``."""
    games = []
    for r in records:
        tags = {
            "Event": f"mindgames {r.game}",
            "Round": str(r.index + 1),
            game.player_names[0]: r.first,
            game.player_names[1]: r.second,
            "Opening": r.opening,
        }
        games.append(
            {
                "tags": tags,
                "position": r.opening_position,
                "moves": [*r.opening_moves, *r.moves],
                "result": r.result,
            }
        )
    exported = export_games_of(game, games)
    if exported is None:
        return None
    suffix, text = exported
    path = stem.with_name(stem.name + suffix)
    with atomic_write(path, "w") as fh:
        fh.write(text)
    return path
