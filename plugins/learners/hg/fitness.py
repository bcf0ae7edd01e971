"""HG's fitness: how closely a specimen's values match the labels of the test positions,

    f = n / sum_i (h_i - a_i)^2

over the n test positions, h_i the specimen's value and a_i the label (both for the side to
move, in [-1, 1]). A perfect fit is capped at ``PERFECT`` (no division by zero).

A model with kernels is scored compiled (fitness_kernel.py: one call a specimen), unless
``MINDGAMES_PYTHON_PATH`` forces numpy's ``value_batch``: the sums run in another order there, so
the two paths' fitness agree within 1e-12 relative (tests/plugins/test_hg_scoring.py: the same
populations on the example's shortened run).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import attrs
import numpy as np

from mindgames.data.sets import DataSet
from mindgames.game import Game
from mindgames.kernels import model_kernels_of
from mindgames.model import Evaluator, Model, as_parametric

#: the fitness of a specimen whose squared error is zero
PERFECT = 1e12


def fitness(values: np.ndarray, labels: np.ndarray) -> float:
    """n / sum (h - a)^2 (module docstring)."""
    values, labels = np.asarray(values, dtype=float), np.asarray(labels, dtype=float)
    if values.shape != labels.shape or values.ndim != 1 or len(values) == 0:
        raise ValueError(f"fitness needs two equal 1-D arrays, got {values.shape}, {labels.shape}")
    return of_error(float(np.sum((values - labels) ** 2)), len(values))


def of_error(error: float, n: int) -> float:
    """The fitness of a summed squared error ``error`` over ``n`` positions."""
    return PERFECT if error <= n / PERFECT else n / error


@attrs.frozen(eq=False)
class TestSet:
    """The test positions of a phase, encoded once, their labels and their plies (``progress``:
    what a staged value kernel reads)."""

    inputs: np.ndarray
    labels: np.ndarray
    plies: np.ndarray

    @classmethod
    def of(cls, game: Game, evaluator: Evaluator, data: DataSet) -> TestSet:
        """Encode ``data``'s positions with ``evaluator``'s encoding."""
        if data.labels is None:
            raise ValueError("HG's test positions need labels")
        states = [game.parse_position(str(text)) for text in data.positions]
        inputs = np.ascontiguousarray(evaluator.encoding.encode_batch(states), dtype=float)
        plies = np.array([game.progress(s) for s in states], dtype=np.int64)
        return cls(inputs, np.asarray(data.labels, dtype=float), plies)

    def __len__(self) -> int:
        return len(self.labels)


def score(evaluator: Evaluator, genes: np.ndarray, tests: TestSet) -> float:
    """The fitness of genotype ``genes`` (set into ``evaluator``'s model) on ``tests``."""
    model = evaluator.model
    as_parametric(model).set_params(genes)
    error = _compiled_error(model, tests)
    if error is None:
        return fitness(model.value_batch(tests.inputs), tests.labels)
    return of_error(error, len(tests))


def scores(evaluator: Evaluator, population: np.ndarray, tests: TestSet) -> np.ndarray:
    """The fitness of every row of ``population``."""
    return np.array([score(evaluator, genes, tests) for genes in population])


#: the bound squared-error kernel of each value-kernel module (one bind a process)
_bound: dict[str, ModuleType] = {}


def _compiled_error(model: Model, tests: TestSet) -> float | None:
    """The summed squared error of ``model`` on ``tests`` compiled, or None (no kernels, or the
    Python path forced)."""
    mk = model_kernels_of(model)
    if mk is None or len(tests) == 0:
        return None
    from mindgames.compiled import enabled

    if not enabled():
        return None
    module = _bound.get(mk.module)
    if module is None:
        from mindgames.compiled.specialise import bind

        template = Path(__file__).with_name("fitness_kernel.py")
        module = _bound[mk.module] = bind(template, {"m_value": (mk.module, "value")})
    return float(module.squared_error(mk.meta, mk.params, tests.inputs, tests.plies, tests.labels))
