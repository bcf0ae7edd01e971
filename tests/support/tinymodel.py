"""A minimal linear model plugin for core tests (the real models live in evaluators/)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames import DIFFERENTIABLE, PARAMETRIC, Model, ModelInfo, hookimpl


@attrs.frozen
class TinyConfig:
    scale: float = 1.0


class TinyLinear(Model):
    name = "tiny"
    capabilities = frozenset({PARAMETRIC, DIFFERENTIABLE})

    def __init__(self, weights: np.ndarray, scale: float = 1.0) -> None:
        self.w = np.asarray(weights, dtype=float)
        self.scale = scale

    def value(self, x: np.ndarray) -> float:
        return float(np.tanh(self.scale * (self.w @ x)))

    def get_params(self) -> np.ndarray:
        return self.w.copy()

    def set_params(self, params: np.ndarray) -> None:
        self.w = np.asarray(params, dtype=float).copy()

    def value_and_grad(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        v = self.value(x)
        return v, (1 - v * v) * self.scale * x

    def config(self) -> dict[str, Any]:
        return {"scale": self.scale}

    def arrays(self) -> dict[str, np.ndarray]:
        return {"w": self.w}

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> TinyLinear:
        if arrays["w"].shape != (len(columns),):
            raise ValueError("weights do not match the columns")
        return cls(arrays["w"], float(config["scale"]))


def _create(config: TinyConfig, columns: Sequence[str], rng: np.random.Generator) -> TinyLinear:
    return TinyLinear(rng.uniform(-0.1, 0.1, len(columns)), config.scale)


class TinyModelPlugin:
    @hookimpl
    def mindgames_models(self) -> list[ModelInfo]:
        return [ModelInfo("tiny", TinyLinear, TinyConfig, _create, description="test model")]
