"""Shared pieces of the built-in models: output squashes, column lookup, saved-array checks."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mindgames.errors import ConfigError

#: output squashes that map a pre-activation ``a`` into [-1, 1]:
#: ``none`` clips to [-1, 1]; ``tanh``; ``soft`` is a / (1 + |a|) (strictly inside, never flat)
SQUASHES = ("none", "tanh", "soft")

#: the module of the built-in models' compiled values, and each kind's code in it (``meta[0]``;
#: evaluators/kernels.py; imported only by a compiled search, so numba stays out of the rest)
KERNELS = "mindgames.evaluators.kernels"
MATERIAL_CODE, LINEAR_CODE, MLP_CODE, PHASED_CODE = 1, 2, 3, 4


def squash(kind: str, a: float) -> float:
    """The squashed value of one pre-activation."""
    if kind == "tanh":
        return math.tanh(a)
    if kind == "soft":
        return a / (1.0 + abs(a))
    return -1.0 if a < -1.0 else 1.0 if a > 1.0 else a


def squash_grad(kind: str, a: float, v: float) -> float:
    """d value / d a at pre-activation ``a`` with value ``v`` (0 where ``none`` clips)."""
    if kind == "tanh":
        return 1.0 - v * v
    if kind == "soft":
        d = 1.0 + abs(a)
        return 1.0 / (d * d)
    return 1.0 if -1.0 < a < 1.0 else 0.0


def squash_batch(kind: str, a: np.ndarray) -> np.ndarray:
    """Squash an array of pre-activations."""
    if kind == "tanh":
        return np.tanh(a)
    if kind == "soft":
        return a / (1.0 + np.abs(a))
    return np.clip(a, -1.0, 1.0)


def squash_grad_batch(kind: str, a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """d value / d a for an array."""
    if kind == "tanh":
        return 1.0 - v * v
    if kind == "soft":
        return 1.0 / (1.0 + np.abs(a)) ** 2
    return ((a > -1.0) & (a < 1.0)).astype(float)


def unsquash(kind: str, y: np.ndarray) -> np.ndarray:
    """Pre-activations whose squash is ``y`` (targets clipped just inside (-1, 1))."""
    y = np.clip(np.asarray(y, dtype=float), -1.0 + 1e-6, 1.0 - 1e-6)
    if kind == "tanh":
        return np.arctanh(y)
    if kind == "soft":
        return y / (1.0 - np.abs(y))
    return y


def check_squash(kind: str, where: str) -> None:
    if kind not in SQUASHES:
        raise ConfigError(f"{where}: output must be one of {', '.join(SQUASHES)}, got {kind!r}")


def column_indices(
    names: Sequence[str], columns: Sequence[str], where: str, error: type[Exception] = ConfigError
) -> np.ndarray:
    """Indices of ``names`` among the encoding's ``columns``; unknown names are an error."""
    position = {c: i for i, c in enumerate(columns)}
    missing = [n for n in names if n not in position]
    if missing:
        shown = ", ".join(list(columns)[:12]) + (", ..." if len(columns) > 12 else "")
        raise error(
            f"{where}: no column {', '.join(map(repr, missing))} in this encoding "
            f"(columns: {shown})"
        )
    return np.array([position[n] for n in names], dtype=np.intp)


def float_array(arrays: Mapping[str, Any], name: str, shape: tuple[int, ...]) -> np.ndarray:
    """A saved array as float64 of the expected shape (ValueError otherwise: a bad file)."""
    a = np.asarray(arrays[name], dtype=float)
    if a.shape != shape:
        raise ValueError(f"array {name!r} has shape {list(a.shape)}, expected {list(shape)}")
    return a.copy()


def uniform_range(init: Sequence[float], where: str) -> tuple[float, float]:
    """A checked ``[lo, hi]`` range for uniform initial weights."""
    if len(init) != 2 or not init[0] <= init[1]:
        raise ConfigError(f"{where}: init must be [lo, hi] with lo <= hi, got {list(init)!r}")
    return float(init[0]), float(init[1])


def construct(cls: type, args: tuple[Any, ...], options: dict[str, Any]) -> Any:
    """``cls(*args, **options)``: the constructor call a model's ``__reduce__`` names, since
    ``__reduce__`` passes no keyword arguments. A model whose arrays are views into one
    parameter vector rebuilds them this way when copied or pickled."""
    return cls(*args, **options)
