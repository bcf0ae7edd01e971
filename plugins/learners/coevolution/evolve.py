"""The evolutionary operators of co-evolution (Chellapilla and Fogel): self-adaptive Gaussian
mutation of the weights, the king value's uniform step, opponents (and openings) drawn at
random, scoring by play and the choice of survivors. Pure functions of arrays and one random
generator.

Self-adaptive mutation of an individual with n weights w_i and step sizes sigma_i::

    tau       = 1 / sqrt(2 sqrt(n))
    sigma'_i  = sigma_i exp(tau N_i(0, 1))
    w'_i      = w_i + sigma'_i N'_i(0, 1)          (the new sigma moves the weight)

and its king value K' = K + delta, delta uniform in [-step, step], K' kept in [lo, hi].
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np


def ordered_pair(inst: Any, attr: attrs.Attribute, value: Any) -> None:
    """attrs validator of a ``[lo, hi]`` option with lo <= hi (ranges of weights and rates)."""
    if len(value) != 2 or not value[0] <= value[1]:
        raise ValueError(f"{attr.name} must be [lo, hi] with lo <= hi, got {list(value)!r}")


def tau(n: int) -> float:
    """The learning rate of the step sizes for ``n`` weights: 1 / sqrt(2 sqrt(n))."""
    if n < 1:
        raise ValueError(f"tau needs at least one weight, got {n}")
    return 1.0 / math.sqrt(2.0 * math.sqrt(n))


def mutate(
    weights: np.ndarray, sigmas: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """One offspring: step sizes first (log-normal), then the weights with the new steps."""
    new_sigmas = sigmas * np.exp(tau(weights.size) * rng.standard_normal(weights.size))
    new_weights = weights + new_sigmas * rng.standard_normal(weights.size)
    return new_weights, new_sigmas


def mutate_king(
    king: float, step: float, bounds: tuple[float, float], rng: np.random.Generator
) -> float:
    """K + uniform[-step, step], clipped to ``bounds``."""
    lo, hi = bounds
    return float(min(hi, max(lo, king + rng.uniform(-step, step))))


def draw_opponents(size: int, games: int, rng: np.random.Generator) -> np.ndarray:
    """(size, games) opponents: for each individual, ``games`` others drawn uniformly (with
    replacement, never itself)."""
    if size < 2:
        raise ValueError("co-evolution needs a population of at least two")
    draws = rng.integers(0, size - 1, size=(size, games))
    return draws + (draws >= np.arange(size)[:, None])  # skip the individual itself


@attrs.frozen
class Pairing:
    """One game of a generation: individuals ``first`` and ``second`` (first moves first) from
    opening number ``opening``."""

    first: int
    second: int
    opening: int = 0


def schedule(
    size: int, games: int, openings: int, paired: bool, rng: np.random.Generator
) -> list[Pairing]:
    """A generation's games: each individual meets ``games`` opponents drawn at random
    (``draw_opponents``) as first player; with ``openings`` > 1 each meeting starts from one
    drawn uniformly; ``paired``: each meeting is two games, the colours swapped. With one
    opening and no pairing this draws exactly what ``draw_opponents`` draws (the published
    scheme's stream)."""
    opponents = draw_opponents(size, games, rng)
    meetings = [(i, int(j)) for i in range(size) for j in opponents[i]]
    starts = rng.integers(0, openings, len(meetings)) if openings > 1 else [0] * len(meetings)
    out = []
    for (i, j), start in zip(meetings, starts, strict=True):
        out.append(Pairing(i, j, int(start)))
        if paired:
            out.append(Pairing(j, i, int(start)))
    return out


@attrs.frozen
class Points:
    """What a win, a draw and a loss are worth (the published +1 / 0 / -2)."""

    win: float = 1.0
    draw: float = 0.0
    loss: float = -2.0

    def of(self, result: float) -> float:
        """Points for a side's result (1 a win, 0.5 a draw, 0 a loss)."""
        return self.win if result == 1.0 else self.loss if result == 0.0 else self.draw


def tally(size: int, pairings: list[Pairing], results: list[float], points: Points) -> np.ndarray:
    """Scores of the population: each game's first and second player both earn their points."""
    scores = np.zeros(size)
    for pairing, result in zip(pairings, results, strict=True):
        scores[pairing.first] += points.of(result)
        scores[pairing.second] += points.of(1.0 - result)
    return scores


def survivors(scores: np.ndarray, count: int) -> np.ndarray:
    """Indices of the ``count`` best scores, best first; ties go to the lower index (a parent
    before its offspring), so the choice never depends on sort details."""
    order = np.argsort(-np.asarray(scores, dtype=float), kind="stable")
    return order[:count]


def best_parent(scores: np.ndarray, parents: int) -> int:
    """Index of the best-scoring parent (the first ``parents`` rows; ties to the lower index):
    the best of the generation before, as this generation's games ranked it."""
    return int(survivors(np.asarray(scores)[:parents], 1)[0])
