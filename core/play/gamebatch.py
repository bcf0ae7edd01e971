"""A learner's games in batches: each work item plays a chunk of game tasks and returns their
outcomes (score and plies), a whole game in one compiled call when both agents' searcher can
(``whole_game``: alpha-beta without random choices, game and models with kernels), else move by
move as ``task.play_game`` (the Python path, the oracle: ``MINDGAMES_PYTHON_PATH=1``).

Co-evolution and SHG rank their individuals by these outcomes only, so a chunk returns no
moves: a chunk of games costs one task on the executor and one message back, and a worker
compiles nothing after its first chunk (the bound kernels are cached on disk). A game's outcome
depends on its task alone, never on the chunking or the executor.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from mindgames.agent import Agent
from mindgames.executors import ordered
from mindgames.game import Game
from mindgames.play.task import GameTask, Player, cached, play_game, task_agent
from mindgames.registry import Registry, get_registry

#: games of one work item (enough to hide the executor's cost of a task, few enough that two
#: workers share a generation's 600 evenly)
CHUNK = 16


def outcome(task: GameTask, score: float, plies: int, path: str) -> dict[str, Any]:
    """What a learner reads of a finished game (``path``: "compiled" or "python")."""
    return {"index": task.index, "score": score, "plies": plies, "path": path}


def play_chunk(
    tasks: Sequence[Mapping[str, Any]], registry: Registry | None = None
) -> list[dict[str, Any]]:
    """Worker entry point: the outcome of each task, in order."""
    reg = registry or get_registry()
    out = []
    built: dict[int, Agent] = {}  # the chunk's individuals, each built once (``_agent``)
    for data in tasks:
        t = GameTask.from_dict(data)
        game = cached(reg, ("game", t.game), lambda t=t: reg.game(t.game))
        first = _agent(reg, game, t, t.first, t.first_spec, built)
        second = _agent(reg, game, t, t.second, t.second_spec, built)
        whole = getattr(first.searcher, "whole_game", None)
        made = None
        if whole is not None and first.searcher == second.searcher:
            state = t.opening.state(game)
            made = whole(game, state, (first.evaluator, second.evaluator), t.max_plies)
        if made is not None:
            out.append(outcome(t, made[0], made[1], "compiled"))
        else:
            record = play_game(game, first, second, t)
            out.append(outcome(t, record["score"], record["plies"], "python"))
    return out


def _agent(
    registry: Registry, game: Game, task: GameTask, name: str, spec: Any, built: dict[int, Agent]
) -> Agent:
    """``task_agent``, a ``Player`` built once per chunk: an individual plays several games of
    a chunk (both of a pair), and its net costs a millisecond to rebuild. Keyed by the Player
    object, which the chunk's tasks hold for as long as ``built`` lives."""
    if not isinstance(spec, Player):
        return task_agent(registry, game, task, name, spec)
    made = built.get(id(spec))
    if made is None:
        made = built[id(spec)] = spec.agent(registry, game, name)
    return made if made.name == name else Agent(name, made.searcher, made.evaluator)


def play_outcomes(
    tasks: Iterable[GameTask],
    executor: Executor,
    *,
    registry: Registry | None = None,
    chunk: int = CHUNK,
) -> Generator[dict[str, Any], None, None]:
    """The outcome of each task in the tasks' order, ``chunk`` games a work item
    (``executors.ordered``; a SerialExecutor plays with ``registry``)."""
    items = list(tasks)
    jobs = (([t.as_dict() for t in items[k : k + chunk]],) for k in range(0, len(items), chunk))
    for results in ordered(executor, play_chunk, jobs, local=(registry,)):
        yield from results
