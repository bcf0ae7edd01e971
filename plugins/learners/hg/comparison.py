"""SHG's comparison of two specimens: two games with the colours swapped, played as pure game
tasks (``mindgames.play.task``: each specimen a ``Player``) on any executor. Specimen a scores
s_1 + (1 - s_2), s_1 its score moving first in game 1 and s_2 b's score moving first in game 2;
above 1 a wins the comparison, below 1 b does, exactly 1 is a tie (decided by a coin).
A round robin of comparisons among a tournament's candidates ranks them by comparisons won."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from mindgames.model import Evaluator, as_parametric
from mindgames.play.gamebatch import play_outcomes
from mindgames.play.task import GameTask, Player, game_between, game_seed


def side(evaluator: Evaluator, genes: np.ndarray, search: str) -> Player:
    """A player of a task: ``search`` with ``evaluator``'s model set to ``genes``."""
    model = evaluator.model
    as_parametric(model).set_params(genes)
    arrays = {name: np.array(a, copy=True) for name, a in model.arrays().items()}
    return Player(search, model.name, model.config(), evaluator.encoding.name, arrays)


def comparison_tasks(
    game: str, a: Any, b: Any, master: int, index: int, max_plies: int
) -> list[GameTask]:
    """The two games of comparison ``index``: a moves first, then b moves first."""
    return [
        game_between(2 * index, game, a, b, game_seed(master, 2 * index), max_plies),
        game_between(2 * index + 1, game, b, a, game_seed(master, 2 * index + 1), max_plies),
    ]


def points(first: float, second: float) -> float:
    """a's points from its score moving first and b's score moving first."""
    return first + (1.0 - second)


def compare(
    executor: Executor,
    game: str,
    sides: Sequence[Player],
    pairs: Sequence[tuple[int, int]],
    master: int,
    max_plies: int,
) -> list[dict[str, Any]]:
    """Play every pair's two games at once; per pair a's points and the plies of both games."""
    tasks = [
        task
        for n, (i, j) in enumerate(pairs)
        for task in comparison_tasks(game, sides[i], sides[j], master, n, max_plies)
    ]
    results = list(play_outcomes(tasks, executor))
    return [
        {
            "points": points(results[2 * n]["score"], results[2 * n + 1]["score"]),
            "plies": results[2 * n]["plies"] + results[2 * n + 1]["plies"],
        }
        for n in range(len(pairs))
    ]


def round_robin(candidates: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair of a tournament's candidates once."""
    return list(itertools.combinations(candidates, 2))


def winner_of(pair: tuple[int, int], points_a: float, rng: np.random.Generator) -> int:
    """The specimen that won a comparison (a tie by a coin)."""
    if points_a > 1.0:
        return pair[0]
    if points_a < 1.0:
        return pair[1]
    return pair[int(rng.integers(2))]


def rank(candidates: Sequence[int], wins: dict[int, int]) -> tuple[int, int]:
    """The tournament's winner (most comparisons won; the earlier candidate on a tie) and its
    loser (fewest won; the later candidate on a tie)."""
    order = list(candidates)
    best = max(order, key=lambda i: (wins.get(i, 0), -order.index(i)))
    worst = min(order, key=lambda i: (wins.get(i, 0), -order.index(i)))
    return best, worst
