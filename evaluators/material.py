"""``material``: the baseline every study compares against -- the game's ``material`` encoding,
summed and squashed into (-1, 1).

value = s / (1 + |s|) with s = scale * sum_i weight_i * x_i (weights 1 unless given by column
name). The squash is strictly monotone and strictly inside (-1, 1) for every finite s, and unlike
tanh it never rounds to +-1 in floating point, so a bigger lead always scores higher and never ties
a won game. The model does not know the game, so its scale is a fixed constant of the units of the
vector (default 0.25: a lead of 4 units -- four men, four seeds -- is worth 0.5).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.errors import ConfigError
from mindgames.evaluators.common import KERNELS, MATERIAL_CODE, column_indices
from mindgames.kernels import ModelKernels
from mindgames.model import Model


@attrs.frozen
class MaterialConfig:
    """``scale`` multiplies the weighted sum; ``weights`` maps column names to weights (else 1)."""

    scale: float = attrs.field(default=0.25, converter=float)
    weights: dict[str, float] = attrs.Factory(dict)


class Material(Model):
    """Weighted sum of the material columns, squashed by s / (1 + |s|)."""

    name = "material"
    capabilities = frozenset()

    def __init__(self, weights: np.ndarray, scale: float, named: Mapping[str, float]) -> None:
        self.w = np.asarray(weights, dtype=float) * scale
        self.scale = float(scale)
        self.named = {str(k): float(v) for k, v in named.items()}
        self.value_py = _value_py(tuple(self.w.tolist()))

    def kernels(self) -> ModelKernels:
        """The compiled path's description (evaluators/kernels.py): the scaled weights."""
        meta = np.array([MATERIAL_CODE, self.w.size], dtype=np.int64)
        return ModelKernels(KERNELS, meta, self.w)

    def value(self, x: np.ndarray) -> float:
        s = float(self.w @ x)
        return s / (1.0 + abs(s))

    def value_batch(self, xs: np.ndarray) -> np.ndarray:
        s = np.asarray(xs, dtype=float) @ self.w
        return s / (1.0 + np.abs(s))

    def config(self) -> dict[str, Any]:
        return {"scale": self.scale, "weights": dict(self.named)}

    def arrays(self) -> dict[str, np.ndarray]:
        return {}

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> Material:
        return build(float(config["scale"]), dict(config["weights"]), columns, ValueError)


def _value_py(w: tuple[float, ...]) -> Callable[[Sequence[float]], float]:
    """``Material.value`` on a tuple of Python numbers (the evaluator's fast path, no numpy)."""
    if len(w) == 1:
        (w0,) = w

        def value1(x: Sequence[float]) -> float:
            s = w0 * x[0]
            return s / (1.0 + abs(s))

        return value1
    if len(w) == 2:
        w0, w1 = w

        def value2(x: Sequence[float]) -> float:
            s = w0 * x[0] + w1 * x[1]
            return s / (1.0 + abs(s))

        return value2

    def value(x: Sequence[float]) -> float:
        s = sum(map(operator.mul, w, x))
        return s / (1.0 + abs(s))

    return value


def build(
    scale: float, named: Mapping[str, float], columns: Sequence[str], error: type[Exception]
) -> Material:
    """A material model over ``columns``."""
    if not scale > 0:
        raise error(f"model 'material': scale must be > 0, got {scale!r}")
    w = np.ones(len(columns))
    if named:
        idx = column_indices(list(named), columns, "model 'material' weights", error)
        w[idx] = [float(v) for v in named.values()]
    return Material(w, scale, named)


def create(config: MaterialConfig, columns: Sequence[str], rng: np.random.Generator) -> Material:
    """A material model (no randomness: ``rng`` is unused)."""
    return build(config.scale, config.weights, columns, ConfigError)
