"""Layered Learning's mutation: each weight, with probability ``rate``, undergoes one of four
operators chosen with equal chance -- doubled, halved, its sign changed, or replaced by a new
random value drawn uniformly from the range of the initial weights. Pure functions of arrays and
one random generator."""

from __future__ import annotations

import numpy as np

#: the four operators, in the order of the integer that picks one
OPERATORS = ("double", "halve", "negate", "replace")


def mutate(
    params: np.ndarray, rate: float, init: tuple[float, float], rng: np.random.Generator
) -> np.ndarray:
    """A mutated copy of ``params`` (module docstring); ``params`` is left unchanged."""
    params = np.asarray(params, dtype=float)
    n = params.size
    hit = rng.random(n) < rate
    which = rng.integers(len(OPERATORS), size=n)
    fresh = rng.uniform(init[0], init[1], n)
    changed = np.choose(which, [params * 2.0, params * 0.5, -params, fresh])
    return np.where(hit, changed, params)


def low_rate(bounds: tuple[float, float], rng: np.random.Generator) -> float:
    """A low mutation rate drawn uniformly from ``bounds`` (the study's 0.01-0.03)."""
    return float(rng.uniform(bounds[0], bounds[1]))


def random_params(size: int, init: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """A new random network: every weight uniform in ``init``."""
    return rng.uniform(init[0], init[1], size)
