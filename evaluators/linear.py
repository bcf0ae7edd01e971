"""``linear``: weights over an encoding's columns (or a named subset) plus a bias, squashed.

value = squash(w . x[columns] + b) with ``output`` one of ``none`` (clipped to [-1, 1]),
``tanh`` or ``soft`` (a / (1 + |a|)). Parametric (the flat vector is ``[w..., b]``),
differentiable, and fittable by least squares on the unsquashed targets.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.errors import ConfigError
from mindgames.evaluators.common import (
    KERNELS,
    LINEAR_CODE,
    check_squash,
    column_indices,
    construct,
    float_array,
    squash_batch,
    squash_grad_batch,
    uniform_range,
    unsquash,
)
from mindgames.kernels import ModelKernels
from mindgames.model import DIFFERENTIABLE, FITTABLE, PARAMETRIC, Model


@attrs.frozen
class LinearConfig:
    """``columns``: the subset used (all when unset); ``output``: none, tanh or soft;
    ``init``: uniform range of the initial weights; ``ridge``: L2 penalty of ``fit``."""

    columns: list[str] | None = None
    output: str = "tanh"
    bias: bool = True
    init: tuple[float, float] = (-0.1, 0.1)
    ridge: float = attrs.field(default=0.0, converter=float)


class Linear(Model):
    """A squashed weighted sum of (some of) the encoding's columns."""

    name = "linear"
    capabilities = frozenset({PARAMETRIC, DIFFERENTIABLE, FITTABLE})

    def __init__(
        self,
        params: np.ndarray,
        *,
        output: str,
        bias: bool,
        names: Sequence[str] | None,
        index: np.ndarray | None,
        ridge: float = 0.0,
    ) -> None:
        self.output = output
        self.bias = bias
        self.names = None if names is None else list(names)
        self.index = index
        self.ridge = ridge
        self.n = len(params) - (1 if bias else 0)
        self._p = np.array(params, dtype=float)
        self._w = self._p[: self.n]
        self._tanh = output == "tanh"
        self._refresh_py()

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the model from its vector: ``_w`` is a view into it,
        which ``copy.deepcopy`` and ``pickle`` would otherwise detach from ``set_params``."""
        options = {
            "output": self.output,
            "bias": self.bias,
            "names": self.names,
            "index": self.index,
            "ridge": self.ridge,
        }
        return (construct, (type(self), (self._p,), options))

    # --- values ----------------------------------------------------------------------------
    def _pre(self, x: np.ndarray) -> float:
        if self.index is not None:
            x = x[self.index]
        a = float(self._w @ x)
        return a + float(self._p[-1]) if self.bias else a

    def kernels(self) -> ModelKernels:
        """The compiled path's description (evaluators/kernels.py): the vector and the layout."""
        index = [] if self.index is None else [int(i) for i in self.index]
        output = {"none": 0, "tanh": 1, "soft": 2}[self.output]
        meta = [LINEAR_CODE, self.n, output, int(self.bias), len(index), *index]
        return ModelKernels(KERNELS, np.array(meta, dtype=np.int64), self._p)

    def value(self, x: np.ndarray) -> float:
        return self._squash(self._pre(x))

    def _squash(self, a: float) -> float:
        if self._tanh:
            return math.tanh(a)
        if self.output == "soft":
            return a / (1.0 + abs(a))
        return -1.0 if a < -1.0 else 1.0 if a > 1.0 else a

    def _refresh_py(self) -> None:
        """Copy the parameters to Python floats for ``value_py`` (after every change of them)."""
        self._py_w = tuple(self._w.tolist())
        self._py_b = float(self._p[-1]) if self.bias else 0.0
        self._py_index = None if self.index is None else tuple(int(i) for i in self.index)

    def value_py(self, x: Sequence[float]) -> float:
        """``value`` on a tuple of Python numbers: the evaluator's fast path, no numpy."""
        if self._py_index is not None:
            x = [x[i] for i in self._py_index]
        return self._squash(sum(map(operator.mul, self._py_w, x)) + self._py_b)

    def _pre_batch(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        xs = np.asarray(xs, dtype=float)
        if self.index is not None:
            xs = xs[:, self.index]
        # the products summed column by column, left to right as ``value_py`` and the compiled
        # kernels sum them: BLAS's ``xs @ w`` rounds equal rows differently by their place in
        # the batch (OpenBLAS: the rows after the last block of four), which made equal
        # successors unequal and TD's choice among them rounding noise
        a = np.zeros(len(xs))
        for j, w in enumerate(self._w.tolist()):
            a += xs[:, j] * w
        if self.bias:
            a = a + self._p[-1]
        return xs, a

    def value_batch(self, xs: np.ndarray) -> np.ndarray:
        return squash_batch(self.output, self._pre_batch(xs)[1])

    # --- capabilities ----------------------------------------------------------------------
    def get_params(self) -> np.ndarray:
        return self._p.copy()

    def set_params(self, params: np.ndarray) -> None:
        params = np.asarray(params, dtype=float)
        if params.shape != self._p.shape:
            raise ConfigError(f"model 'linear' has {self._p.size} parameters, got {params.size}")
        self._p[:] = params
        self._refresh_py()

    def param_groups(self) -> list[tuple[str, int, int]]:
        """One parameter group (for per-group step sizes): all weights, fan-in = inputs."""
        return [("linear", self._p.size, self.n)]

    def value_and_grad(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        values, grads = self.value_and_grad_batch(np.asarray(x, dtype=float)[None, :])
        return float(values[0]), grads[0]

    def value_and_grad_batch(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values (n,) and gradients (n, parameters) of a batch."""
        inputs, a = self._pre_batch(xs)
        v = squash_batch(self.output, a)
        d = squash_grad_batch(self.output, a, v)
        grads = inputs * d[:, None]
        if self.bias:
            grads = np.hstack([grads, d[:, None]])
        return v, grads

    def fit(self, xs: np.ndarray, ys: np.ndarray) -> None:
        """Least squares of the unsquashed targets on the inputs (ridge-penalised if set)."""
        xs = np.asarray(xs, dtype=float)
        ys = np.asarray(ys, dtype=float).reshape(-1)
        if xs.ndim != 2 or len(xs) != len(ys):
            raise ConfigError(f"fit needs X (n, columns) and y (n,), got {xs.shape} and {ys.shape}")
        inputs = xs[:, self.index] if self.index is not None else xs
        if inputs.shape[1] != self.n:
            raise ConfigError(f"fit: X has {inputs.shape[1]} columns, the model uses {self.n}")
        design = np.hstack([inputs, np.ones((len(xs), 1))]) if self.bias else inputs
        target = unsquash(self.output, ys)
        if self.ridge > 0:
            k = design.shape[1]
            design = np.vstack([design, math.sqrt(self.ridge) * np.eye(k)])
            target = np.concatenate([target, np.zeros(k)])
        self._p[:] = np.linalg.lstsq(design, target, rcond=None)[0]
        self._refresh_py()

    # --- files -----------------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        return {
            "columns": self.names,
            "output": self.output,
            "bias": self.bias,
            "ridge": self.ridge,
        }

    def arrays(self) -> dict[str, np.ndarray]:
        return {"params": self._p.copy()}

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> Linear:
        names = config["columns"]
        output = str(config["output"])
        if output not in ("none", "tanh", "soft"):
            raise ValueError(f"unknown output {output!r}")
        index = None if names is None else column_indices(names, columns, "linear", ValueError)
        n = len(columns) if names is None else len(names)
        bias = bool(config["bias"])
        params = float_array(arrays, "params", (n + (1 if bias else 0),))
        return cls(
            params,
            output=output,
            bias=bias,
            names=names,
            index=index,
            ridge=float(config.get("ridge", 0.0)),
        )


def create(config: LinearConfig, columns: Sequence[str], rng: np.random.Generator) -> Linear:
    """A linear model with weights drawn uniformly from ``config.init``."""
    where = "model 'linear'"
    check_squash(config.output, where)
    lo, hi = uniform_range(config.init, where)
    if config.ridge < 0:
        raise ConfigError(f"{where}: ridge must be >= 0, got {config.ridge!r}")
    names = config.columns
    if names is not None and not names:
        raise ConfigError(f"{where}: columns is empty (leave it unset to use every column)")
    index = None if names is None else column_indices(names, columns, where)
    n = len(columns) if names is None else len(names)
    params = rng.uniform(lo, hi, n + (1 if config.bias else 0))
    return Linear(
        params, output=config.output, bias=config.bias, names=names, index=index, ridge=config.ridge
    )
