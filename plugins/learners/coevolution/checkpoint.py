"""Co-evolution's part of its checkpoints (the format and the rules are
``mindgames.checkpoint``'s): the parents as rows -- weights, step sizes and option values -- and
the counters ``generation``, ``elapsed`` and ``openings_seed``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames import checkpoint
from mindgames.learner import Learner

CHECKPOINT = checkpoint.CHECKPOINT


@attrs.frozen
class Population:
    """Individuals as rows: weights and step sizes (individuals x weights), option values."""

    weights: np.ndarray
    sigmas: np.ndarray
    kings: np.ndarray

    def take(self, rows: np.ndarray) -> Population:
        return Population(self.weights[rows], self.sigmas[rows], self.kings[rows])


def save_checkpoint(
    path: Path,
    options: Learner,
    population: Population,
    rng: np.random.Generator,
    counters: dict[str, Any],
    history: list[dict[str, Any]],
) -> None:
    """Write the checkpoint of a run of the learner ``options``."""
    arrays = {"weights": population.weights, "sigmas": population.sigmas, "kings": population.kings}
    checkpoint.save(path, options, counters=counters, history=history, arrays=arrays, rng=rng)


def load_checkpoint(
    path: Path, options: Learner, rng: np.random.Generator
) -> tuple[Population, dict[str, Any]]:
    """The parents and counters (with the ``history``) of a checkpoint; restores the random
    state."""
    saved = checkpoint.load(path, options, rng=rng)
    arrays = saved.arrays
    population = Population(
        arrays["weights"].astype(float),
        arrays["sigmas"].astype(float),
        arrays["kings"].astype(float),
    )
    return population, saved.counters | {"history": saved.history}
