"""Co-evolution's games as pure tasks: plain data in (game spec, searcher spec, both players'
model arrays and encodings, a seed), a result out, so any executor (in-process, a process pool,
Dask) plays them and the same task always gives the same result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mindgames.agent import Agent
from mindgames.match import GameTask, cached, play_game
from mindgames.model import Evaluator
from mindgames.openings import Opening
from mindgames.registry import Registry, get_registry
from mindgames.spec import parse_spec

#: the game's initial position, where the published games start
START = Opening("start")


def player(kind: str, config: Mapping[str, Any], encoding: str, arrays: Mapping[str, Any]) -> dict:
    """One side of a task: the model kind, config and arrays, and the encoding spec."""
    return {"kind": kind, "config": dict(config), "encoding": encoding, "arrays": dict(arrays)}


def task(
    game: str,
    searcher: str,
    first: dict,
    second: dict,
    seed: int,
    max_plies: int,
    opening: Opening = START,
) -> dict[str, Any]:
    """A game between two players (``player``) from ``opening``, as plain data."""
    return {
        "game": game,
        "searcher": searcher,
        "first": first,
        "second": second,
        "seed": int(seed),
        "max_plies": int(max_plies),
        "opening": opening.as_dict(),
    }


def _evaluator(reg: Registry, game: Any, side: Mapping[str, Any]) -> Evaluator:
    encoding = cached(
        reg,
        ("encoding", game.spec(), side["encoding"]),
        lambda: reg.encoding(game, side["encoding"]),
    )
    cls = reg.model_info(side["kind"]).cls
    arrays = {name: np.asarray(a, dtype=float) for name, a in side["arrays"].items()}
    return Evaluator(encoding, cls.from_saved(side["config"], arrays, encoding.columns))


def play(task: Mapping[str, Any], registry: Registry | None = None) -> dict[str, Any]:
    """Worker entry point: play a task; the first player's score (1, 0.5, 0) and the plies."""
    reg = registry or get_registry()
    game = cached(reg, ("game", task["game"]), lambda: reg.game(task["game"]))
    name, options = parse_spec(task["searcher"])
    searcher = cached(
        reg,
        ("searcher", task["searcher"]),
        lambda: reg.searcher(name, options, where=f"searcher {task['searcher']!r}"),
    )
    first = Agent("first", searcher, _evaluator(reg, game, task["first"]))
    second = Agent("second", searcher, _evaluator(reg, game, task["second"]))
    spec = GameTask(
        0, task["game"], "first", "second", None, None, Opening.from_dict(task["opening"]), 0, 0,
        task["seed"], task["max_plies"],
    )  # fmt: skip
    record = play_game(game, first, second, spec)
    return {"score": record["score"], "plies": record["plies"]}
