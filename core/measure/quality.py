"""Solver-judged quality: how often an agent picks an optimal move in solved positions.

Each position of a solved set (``core/data/solved.py``) stores the exact value of every legal move;
the agent chooses a move in each (pure tasks on an executor, its random choices seeded per
position from the seed and the position's index, so the result never depends on the executor),
and the report gives the share of positions where it chose a move of the best value, with its
95% Wilson interval, and the mean margin lost (best value minus the chosen move's value, in
the game's own unit: Kalah's final store margin). A best-moves set (``judge = "best"``) does not
store the value of the other moves: there the margin lost is None whenever the agent missed a
best move. Core code: no concrete game or agent.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from mindgames.agent import build_agent
from mindgames.data.solvedfile import Solved
from mindgames.executors import ordered
from mindgames.game import Game
from mindgames.play.ratings import Z95
from mindgames.play.task import cached, game_seed
from mindgames.registry import Registry, get_registry

#: positions per judging task (amortises building the agent and sending the task)
CHUNK = 25


def choose_task(
    game_spec: str,
    agent_spec: str,
    positions: Sequence[tuple[int, str]],
    seed: int,
    registry: Registry | None = None,
) -> list[str]:
    """Worker entry point: the agent's move (as text) in each ``(index, position)``."""
    reg = registry or get_registry()
    game = cached(reg, ("game", game_spec), lambda: reg.game(game_spec))
    agent = cached(
        reg, ("agent", game_spec, agent_spec), lambda: build_agent(reg, game, agent_spec)
    )
    chosen = []
    for index, text in positions:
        state = game.parse_position(text)
        rng = np.random.default_rng(game_seed(seed, index))
        chosen.append(game.move_text(state, agent.choose(game, state, rng).move))
    return chosen


def choose(
    game: Game,
    agent_spec: str,
    solved: Sequence[Solved],
    executor: Executor,
    *,
    seed: int = 0,
    registry: Registry | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> list[str]:
    """The agent's move in every position, in order; ``on_chunk(n)`` as each n are done."""
    build_agent(registry or get_registry(), game, agent_spec)  # a bad spec fails here, once
    indexed = [(i, s.position) for i, s in enumerate(solved)]
    chunks = [indexed[i : i + CHUNK] for i in range(0, len(indexed), CHUNK)]
    jobs = [(game.spec(), agent_spec, chunk, seed) for chunk in chunks]
    chosen: list[str] = []
    for moves in ordered(executor, choose_task, jobs, local=(registry,)):
        chosen.extend(moves)
        if on_chunk is not None:
            on_chunk(len(moves))
    return chosen


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(
    agent_spec: str, solved: Sequence[Solved], chosen: Sequence[str], **extra: Any
) -> dict[str, Any]:
    """Optimal-move share (with its 95% interval) and margin lost of one agent's choices
    (``mean_loss`` and ``max_loss`` None when the set does not store a missed move's value)."""
    losses = [s.loss(move) for s, move in zip(solved, chosen, strict=True)]
    optimal = sum(1 for loss in losses if loss == 0)
    low, high = wilson(optimal, len(losses))
    known = [loss for loss in losses if loss is not None]
    complete = len(known) == len(losses)
    return {
        "agent": agent_spec,
        "positions": len(losses),
        "optimal": optimal,
        "optimal_share": optimal / len(losses) if losses else 0.0,
        "optimal_low": low,
        "optimal_high": high,
        "mean_loss": (float(np.mean(known)) if known else 0.0) if complete else None,
        "max_loss": max(known, default=0) if complete else None,
        **extra,
    }
