"""HG's fitness: how closely a specimen's values match the labels of the test positions,

    f = n / sum_i (h_i - a_i)^2

over the n test positions, h_i the specimen's value and a_i the label (both for the side to
move, in [-1, 1]). A perfect fit is capped at ``PERFECT`` (no division by zero).
"""

from __future__ import annotations

import attrs
import numpy as np

from mindgames.data.sets import DataSet
from mindgames.game import Game
from mindgames.model import Evaluator, as_parametric

#: the fitness of a specimen whose squared error is zero
PERFECT = 1e12


def fitness(values: np.ndarray, labels: np.ndarray) -> float:
    """n / sum (h - a)^2 (module docstring)."""
    values, labels = np.asarray(values, dtype=float), np.asarray(labels, dtype=float)
    if values.shape != labels.shape or values.ndim != 1 or len(values) == 0:
        raise ValueError(f"fitness needs two equal 1-D arrays, got {values.shape}, {labels.shape}")
    error = float(np.sum((values - labels) ** 2))
    return PERFECT if error <= len(values) / PERFECT else len(values) / error


@attrs.frozen(eq=False)
class TestSet:
    """The test positions of a phase, encoded once, and their labels."""

    inputs: np.ndarray
    labels: np.ndarray

    @classmethod
    def of(cls, game: Game, evaluator: Evaluator, data: DataSet) -> TestSet:
        """Encode ``data``'s positions with ``evaluator``'s encoding."""
        if data.labels is None:
            raise ValueError("HG's test positions need labels")
        states = [game.parse_position(str(text)) for text in data.positions]
        return cls(evaluator.encoding.encode_batch(states), np.asarray(data.labels, dtype=float))

    def __len__(self) -> int:
        return len(self.labels)


def score(evaluator: Evaluator, genes: np.ndarray, tests: TestSet) -> float:
    """The fitness of genotype ``genes`` (set into ``evaluator``'s model) on ``tests``."""
    model = evaluator.model
    as_parametric(model).set_params(genes)
    return fitness(model.value_batch(tests.inputs), tests.labels)


def scores(evaluator: Evaluator, population: np.ndarray, tests: TestSet) -> np.ndarray:
    """The fitness of every row of ``population``."""
    return np.array([score(evaluator, genes, tests) for genes in population])
