"""Labelling the positions of a data set: by an agent's search, or by a game's exact solver.

Labels are values in [-1, 1] for the side to move (docs/learners.md, "Data sets"):

* **search** (``data label --agent SPEC``): the agent's search value. A heuristic value is the
  label as it is; a proven result (``|value| > 1.5`` on the searchers' scale, ``2 - plies/4096``
  for a win) becomes ``value - sign(value)``: 1 for a win on the move, slightly less for a later
  win, so a quicker win is more extreme. With ``endgame:depth=N`` (the null evaluator) an
  unresolved position is 0. A finished position is its exact result.
* **solve** (``data solve``): the exact value of a game that declares ``solvable`` (Kalah: the
  final store margin m for the side to move), mapped as ``tanh(m / scale)`` or, with ``linear``,
  ``clip(m / scale, -1, 1)``.

Work is split into pure chunk tasks (plain data in, labels out) run on any executor through the
pump (``executors.ordered``); a chunk's searches are one compiled call when the searcher can
(``search_values``: alpha-beta without random choices or a clock, kernels for the game and the
evaluator), with the values of the searches one by one; a chunk's solves share one table when the
game can (``SolvesMany``: Kalah), with the values of the solves one by one. Each finished chunk,
in order, is appended to a journal beside the output (``OUT.journal.jsonl``) and flushed, so a
killed run resumes with ``resume=True`` and labels each position exactly once; the labelled data
set is written atomically at the end and the journal removed.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.capabilities import require
from mindgames.data.sets import DataSet, write_dataset
from mindgames.errors import CapabilityError, ConfigError, DataSetError
from mindgames.executors import ordered
from mindgames.files import drop_torn_tail, make_directory, read_jsonl
from mindgames.game import Solvable, SolvesMany
from mindgames.registry import Registry, get_registry

#: the searchers' threshold of a proven value and its winning value (plugins/searchers/stats.py)
PROVEN = 1.5
WIN = 2.0
SQUASHES = ("tanh", "linear")


@attrs.frozen
class Labeller:
    """What labels positions, as plain data: ``kind`` "search" (with ``agent``) or "solve"."""

    kind: str = attrs.field(validator=attrs.validators.in_(("search", "solve")))
    game: str
    agent: str | None = None
    seed: int = 0
    scale: float = 8.0
    squash: str = attrs.field(default="tanh", validator=attrs.validators.in_(SQUASHES))

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


def search_label(value: float) -> float:
    """A search value (searchers' scale) as a label in [-1, 1] (module docstring)."""
    if value > PROVEN:
        return min(1.0, value - 1.0)
    if value < -PROVEN:
        return max(-1.0, value + 1.0)
    return max(-1.0, min(1.0, value))


def margin_label(margin: float, scale: float, squash: str = "tanh") -> float:
    """An exact game value (in the game's own unit) as a label in [-1, 1]."""
    if squash == "linear":
        return max(-1.0, min(1.0, margin / scale))
    return math.tanh(margin / scale)


_cache: dict[str, Any] = {}


def _built(registry: Registry, labeller: Labeller) -> tuple[Any, Any]:
    """The game and agent of a labeller, built once per worker process."""
    key = json.dumps([id(registry), labeller.as_dict()], sort_keys=True)
    if key not in _cache:
        from mindgames.agent import build_agent

        game = registry.game(labeller.game)
        agent = None if labeller.agent is None else build_agent(registry, game, labeller.agent)
        _cache[key] = (game, agent)
    return _cache[key]


def label_chunk(
    labeller: Mapping[str, Any],
    items: Sequence[tuple[int, str]],
    registry: Registry | None = None,
) -> list[dict[str, Any]]:
    """Worker entry point: label ``(index, position text)`` pairs; one record per position.

    Position ``index`` searches with a generator seeded ``[seed, index]``, so a label never
    depends on how the positions were split into chunks or workers.
    """
    spec = Labeller(**labeller)
    game, agent = _built(registry or get_registry(), spec)
    states = [game.parse_position(text) for _, text in items]
    searched = _searched(game, agent, states) if spec.kind == "search" else {}
    solved = _solved(game, states) if spec.kind == "solve" else []
    out = []
    for k, ((index, _), state) in enumerate(zip(items, states, strict=True)):
        if spec.kind == "solve":
            value = solved[k]
            label = margin_label(value, spec.scale, spec.squash)
        elif game.is_terminal(state):
            value = label = float(game.returns(state)[game.to_move(state)])
        elif searched:
            value = searched[id(state)]
            label = search_label(value)
        else:
            rng = np.random.default_rng([spec.seed, index])
            value = float(agent.choose(game, state, rng).value)
            label = search_label(value)
        out.append({"index": int(index), "label": label, "value": value})
    return out


def _solved(game: Any, states: list[Any]) -> list[float]:
    """The exact values of ``states``: in one batch when the game solves batches for less
    (``SolvesMany``: a chunk holds a position with its successors), else one by one."""
    if isinstance(game, SolvesMany):
        return [float(v) for v in game.solve_many(states)]
    solver = require(game, Solvable, what="labeller 'solve'")
    return [float(solver.solve(state)) for state in states]


def _searched(game: Any, agent: Any, states: list[Any]) -> dict[int, float]:
    """The agent's search values of the unfinished ``states`` (by ``id``) in one call, when its
    searcher can give them so (``search_values``: compiled, no random choice); else empty. Such
    a search draws nothing from its generator, so the values are the ones search by search."""
    batch = getattr(agent.searcher, "search_values", None)
    todo = [state for state in states if not game.is_terminal(state)]
    if batch is None or not todo:
        return {}
    got = batch(game, todo, agent.evaluator)
    if got is None:
        return {}
    return {id(state): float(v) for state, v in zip(todo, got, strict=True)}


def journal_path(out: str | Path) -> Path:
    """The journal of finished labels kept beside ``out`` while a labelling run goes on."""
    p = Path(out)
    return p.with_name(p.name + ".journal.jsonl")


def _identity(data: DataSet, labeller: Labeller, source: str) -> dict[str, Any]:
    import hashlib

    digest = hashlib.sha256("\n".join(data.positions.tolist()).encode("utf-8")).hexdigest()
    return {"labeller": labeller.as_dict(), "source": source, "positions": digest[:32]}


def _done(journal: Path, identity: dict[str, Any], resume: bool, n: int) -> dict[int, float]:
    """Labels already in the journal; refuses a journal of another run or without ``resume``."""
    if not journal.exists():
        return {}
    if not resume:
        raise ConfigError(
            f"{journal}: an interrupted labelling run; use --resume to continue it "
            "(or delete the file to start again)"
        )
    records = read_jsonl(journal)
    if not records or records[0].get("header") != json.loads(json.dumps(identity)):
        raise ConfigError(
            f"{journal}: written by a labelling run with another input or labeller; "
            "resume with the same ones or delete the file"
        )
    done: dict[int, float] = {}
    for record in records[1:]:
        index = int(record["index"])
        if index in done or not 0 <= index < n:
            raise DataSetError(f"{journal}: position {index} twice or out of range")
        done[index] = float(record["label"])
    return done


def run_labelling(
    data: DataSet,
    labeller: Labeller,
    out: str | Path,
    executor: Executor,
    *,
    source: str = "",
    resume: bool = False,
    registry: Registry | None = None,
    on_labels: Callable[[int], None] | None = None,
    chunk: int | None = None,
    workers: int = 1,
    on_start: Callable[[int, int], None] | None = None,
) -> DataSet:
    """Label every position of ``data`` not yet in the journal; write the result to ``out``.

    ``on_start(done, todo)`` hears how many labels the journal holds and how many are left;
    ``on_labels(n)`` hears each finished chunk (progress bars).
    """
    registry = registry or get_registry()
    game, _ = _built(registry, labeller)
    if labeller.kind == "solve" and not isinstance(game, Solvable):
        raise CapabilityError(f"game {labeller.game!r} cannot solve positions exactly")
    journal = journal_path(out)
    make_directory(journal.parent)  # as data generate and merge do, once the labeller is good
    identity = _identity(data, labeller, source)
    done = _done(journal, identity, resume, len(data))
    todo = [i for i in range(len(data)) if i not in done]
    if on_start is not None:
        on_start(len(done), len(todo))
    size = chunk or max(1, min(32, math.ceil(len(todo) / (4 * max(workers, 1)))))
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    jobs = (
        (labeller.as_dict(), [(i, str(data.positions[i])) for i in chunk_]) for chunk_ in chunks
    )
    drop_torn_tail(journal)
    with journal.open("a" if done else "w", encoding="utf-8") as fh:
        if not done:
            _append(fh, [{"header": identity}])
        window = max(4, 2 * workers)
        labelled_ = ordered(executor, label_chunk, jobs, window=window, local=(registry,))
        with contextlib.closing(labelled_):  # cancels what is in flight on an error
            for records in labelled_:
                _append(fh, records)
                done.update((r["index"], r["label"]) for r in records)
                if on_labels is not None:
                    on_labels(len(records))
    labels = np.array([done[i] for i in range(len(data))], dtype=np.float64)
    labelled = data.with_labels(labels, labeller.as_dict())
    write_dataset(out, labelled)
    journal.unlink()
    return labelled


def _append(fh: Any, records: Sequence[dict[str, Any]]) -> None:
    """Append records as JSON lines and make them durable (one flush and fsync per chunk)."""
    fh.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
    fh.flush()
    os.fsync(fh.fileno())
