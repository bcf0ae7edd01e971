"""Compiled values of the built-in models (``mindgames.kernels.ModelKernels``): one njit
``value(meta, params, x, progress)`` for every kind, chosen by the integer code ``meta[0]``.

The layouts of ``meta`` (int64) and ``params`` (float64) are what each model's ``kernels()``
writes (evaluators/linear.py, mlp.py, material.py):

* material ``[MATERIAL, n]``, params the scaled weights: ``s / (1 + |s|)``, s the weighted sum;
* linear ``[LINEAR, n, output, bias, k, index...]`` (k columns picked when k > 0), params
  ``[w..., b]``: squash(w . x + b), output 0 clip, 1 tanh, 2 soft;
* mlp ``[MLP, inputs, layers, sigmoid, direct, input_sum, h1, ..., hk]``, params the flat vector
  of evaluators/mlp.py (masked-out weights are stored as zeros, so a dense product is exact);
* phased ``[PHASED, output, components, weights]`` then per component ``[columns, conditions,
  and, negate, column..., condition column...]``, params ``[w..., scale, (lo, hi)...]`` (the
  conditions' bounds, infinite when open): the first component that holds gives
  squash(scale * w . x[columns]), none: 0.

Sums run left to right as the models' pure-Python paths do (material and linear: the same bits;
the mlp's numpy products sum in another order, so its values agree within 1e-12).
"""

from __future__ import annotations

import math

import numpy as np

from mindgames.compiled.hot import allocating, hot, stack_empty
from mindgames.evaluators.common import LINEAR_CODE, MATERIAL_CODE, MLP_CODE, PHASED_CODE

MATERIAL, LINEAR, MLP, PHASED = MATERIAL_CODE, LINEAR_CODE, MLP_CODE, PHASED_CODE

#: the widest layer (or input) whose activations live on the stack (wider ones on the heap)
STACK_UNITS = 512
#: linear's ``output`` codes
CLIP, TANH, SOFT = 0, 1, 2


@hot
def linear_pre(meta: np.ndarray, params: np.ndarray, x: np.ndarray) -> float:
    """linear's weighted sum (its bias included) before the output's squash."""
    n, bias, k = meta[1], meta[3], meta[4]
    a = 0.0
    if k > 0:
        for i in range(n):
            a += params[i] * x[meta[5 + i]]
    else:
        for i in range(n):
            a += params[i] * x[i]
    if bias:
        a += params[n]
    return a


@hot
def squash(output: int, a: float) -> float:
    """linear's output: tanh, soft (a / (1 + |a|)) or clipped to [-1, 1]."""
    if output == TANH:
        return math.tanh(a)
    if output == SOFT:
        return a / (1.0 + abs(a))
    return -1.0 if a < -1.0 else (1.0 if a > 1.0 else a)


@hot
def _linear(meta: np.ndarray, params: np.ndarray, x: np.ndarray) -> float:
    return squash(meta[2], linear_pre(meta, params, x))


@hot
def _mlp_into(
    meta: np.ndarray, params: np.ndarray, x: np.ndarray, h: np.ndarray, z: np.ndarray
) -> float:
    """The mlp's value, its layers' activations in ``h`` and ``z`` (each as wide as the widest
    layer or the input)."""
    inputs, layers, sigmoid, direct, input_sum = meta[1], meta[2], meta[3], meta[4], meta[5]
    for j in range(inputs):  # loops, not slices: a slice copy may allocate
        h[j] = x[j]
    fan_in = inputs
    at = 0
    for layer in range(layers):
        units = meta[6 + layer]
        bias_at = at + units * fan_in
        for u in range(units):
            s = 0.0
            row = at + u * fan_in
            for j in range(fan_in):
                s += params[row + j] * h[j]
            s += params[bias_at + u]
            z[u] = 0.5 * math.tanh(0.5 * s) + 0.5 if sigmoid else math.tanh(s)
        for u in range(units):
            h[u] = z[u]
        at = bias_at + units
        fan_in = units
    a = 0.0
    for j in range(fan_in):
        a += params[at + j] * h[j]
    a += params[at + fan_in]
    at += fan_in + 1
    if direct:
        d = 0.0
        for j in range(inputs):
            d += params[at + j] * x[j]
        a += d
    if input_sum:
        t = 0.0
        for j in range(inputs):
            t += x[j]
        a += t
    return math.tanh(a)


@allocating
def _mlp_heap(meta: np.ndarray, params: np.ndarray, x: np.ndarray, widest: int) -> float:
    """The mlp's value with its activations on the heap (layers wider than ``STACK_UNITS``)."""
    return _mlp_into(meta, params, x, np.empty(widest), np.empty(widest))


@hot
def _mlp(meta: np.ndarray, params: np.ndarray, x: np.ndarray) -> float:
    """The mlp's value, its activations on the stack (or the heap for wide layers)."""
    widest = meta[1]
    for i in range(meta[2]):
        widest = max(widest, meta[6 + i])
    if widest > STACK_UNITS:
        return _mlp_heap(meta, params, x, widest)
    h = stack_empty(STACK_UNITS, np.float64)
    z = stack_empty(STACK_UNITS, np.float64)
    return _mlp_into(meta, params, x, h, z)


@hot
def _phased(meta: np.ndarray, params: np.ndarray, x: np.ndarray) -> float:
    """phased's value: the first component whose condition holds (evaluators/phased.py)."""
    output, components, weights = meta[1], meta[2], meta[3]
    at = 4  # the component's header in ``meta``
    w = 0  # its first weight in ``params``
    bound = weights + 1  # its first condition's bounds in ``params``
    for _ in range(components):
        cols, conds, conj, negate = meta[at], meta[at + 1], meta[at + 2], meta[at + 3]
        holds = True
        if conds > 0:
            holds = conj == 1
            for k in range(conds):
                v = x[meta[at + 4 + cols + k]]
                inside = params[bound + 2 * k] <= v <= params[bound + 2 * k + 1]
                if conj == 1 and not inside:
                    holds = False
                    break
                if conj == 0 and inside:
                    holds = True
                    break
            holds = holds != (negate == 1)
        if holds:
            a = 0.0
            for j in range(cols):
                a += params[w + j] * x[meta[at + 4 + j]]
            return squash(output, params[weights] * a)
        at += 4 + cols + conds
        w += cols
        bound += 2 * conds
    return 0.0


@hot(inline="always")
def value(meta: np.ndarray, params: np.ndarray, x: np.ndarray, progress: int) -> float:
    """The model's value of the encoded position ``x`` (``progress``: plies, for staged kinds).

    Inlined where it is called (numba's ``inline``): a call of a compiled function passes each
    array as seven words, which cost more than material's whole sum; the linear and mlp bodies
    stay calls of their own."""
    kind = meta[0]
    if kind == MATERIAL:
        s = 0.0
        for i in range(meta[1]):
            s += params[i] * x[i]
        return s / (1.0 + abs(s))
    if kind == LINEAR:
        return _linear(meta, params, x)
    if kind == PHASED:
        return _phased(meta, params, x)
    return _mlp(meta, params, x)
