"""Compiled values with gradients of the differentiable built-in models (linear and mlp), for the
compiled TD(lambda) self-play (plugins/learners/td/kernel.py).

``value_grad(meta, params, x, grad, work) -> float`` reads the layouts of evaluators/kernels.py
and writes d value / d params into ``grad`` over the model's whole flat vector (``ModelKernels.
params``): for an mlp with a first-layer mask that vector holds the masked-out weights too (their
gradient is written but never used: their step size is zero, as ``get_params`` leaves them out).
``work`` is scratch of at least ``work_size(meta)`` floats (every layer's activations and the
back-propagated errors). ``value`` is the forward pass alone (a value of it and of ``value_grad``
are the same bits), and ``backward`` the gradient from what a ``value`` left in ``work``: a
self-play step values every successor and later wants the chosen one's gradient.

The arithmetic is the models' numpy path (evaluators/linear.py ``value_and_grad_batch``, mlp.py
``value_and_grad`` / ``values_and_row_grad``) step by step; only the sums of the products run
left to right here, where numpy's BLAS blocks them, and ``tanh`` is evaluators/kernels.py's here
(as the compiled searchers' values: the same bits) and numpy's there: values and gradients agree
within about 1e-15, not bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mindgames.evaluators.common import LINEAR_CODE, MLP_CODE
from mindgames.evaluators.kernels import SOFT, TANH, linear_pre, squash, tanh

LINEAR, MLP = LINEAR_CODE, MLP_CODE


def supported(meta: np.ndarray) -> bool:
    """Whether ``value_grad`` covers the model that ``meta`` describes."""
    return int(meta[0]) in (LINEAR, MLP)


def work_size(meta: np.ndarray) -> int:
    """The scratch ``value_grad`` needs for the model ``meta`` describes."""
    if int(meta[0]) != MLP:
        return 1
    inputs, layers = int(meta[1]), int(meta[2])
    hidden = [int(h) for h in meta[6 : 6 + layers]]
    return inputs + sum(hidden) + 2 * max([inputs, *hidden])


@njit(cache=True)
def _squash_grad(output: int, a: float, v: float) -> float:
    if output == TANH:
        return 1.0 - v * v
    if output == SOFT:
        d = 1.0 + abs(a)
        return 1.0 / (d * d)
    return 1.0 if -1.0 < a < 1.0 else 0.0


@njit(cache=True)
def _mlp_forward(meta: np.ndarray, params: np.ndarray, x: np.ndarray, work: np.ndarray) -> float:
    """The output's pre-activation; every hidden layer's activations into ``work`` (the
    inputs' copy first, then each layer's units)."""
    inputs, layers, sigmoid, direct, input_sum = meta[1], meta[2], meta[3], meta[4], meta[5]
    work[:inputs] = x[:inputs]
    fan_in = inputs
    below = 0  # where the layer's inputs start in ``work``
    at = 0  # where the layer's weights start in ``params``
    for layer in range(layers):
        units = meta[6 + layer]
        bias_at = at + units * fan_in
        out = below + fan_in
        # each unit's sum left to right, four units side by side (four independent chains of
        # adds: the same bits as one unit after the other, without waiting on each add)
        u = 0
        while u + 4 <= units:
            r0 = at + u * fan_in
            r1, r2, r3 = r0 + fan_in, r0 + 2 * fan_in, r0 + 3 * fan_in
            s0 = s1 = s2 = s3 = 0.0
            for j in range(fan_in):
                h = work[below + j]
                s0 += params[r0 + j] * h
                s1 += params[r1 + j] * h
                s2 += params[r2 + j] * h
                s3 += params[r3 + j] * h
            work[out + u] = s0
            work[out + u + 1] = s1
            work[out + u + 2] = s2
            work[out + u + 3] = s3
            u += 4
        while u < units:
            s0 = 0.0
            r0 = at + u * fan_in
            for j in range(fan_in):
                s0 += params[r0 + j] * work[below + j]
            work[out + u] = s0
            u += 1
        for u in range(units):
            s = work[out + u] + params[bias_at + u]
            work[out + u] = 0.5 * tanh(0.5 * s) + 0.5 if sigmoid else tanh(s)
        below = out
        at = bias_at + units
        fan_in = units
    a = 0.0
    for j in range(fan_in):
        a += params[at + j] * work[below + j]
    a = a + params[at + fan_in]
    at += fan_in + 1
    if direct:
        d = 0.0
        for j in range(inputs):
            d += params[at + j] * x[j]
        a = a + d
    if input_sum:
        t = 0.0
        for j in range(inputs):
            t += x[j]
        a = a + t
    return a


@njit(cache=True)
def value(meta: np.ndarray, params: np.ndarray, x: np.ndarray, work: np.ndarray) -> float:
    """The model's value of ``x`` (``value_grad``'s, the same bits); what ``backward`` needs
    is left in ``work``."""
    if meta[0] == LINEAR:
        a = linear_pre(meta, params, x)
        work[0] = a
        return squash(meta[2], a)
    return tanh(_mlp_forward(meta, params, x, work))


@njit(cache=True)
def value_grad(
    meta: np.ndarray, params: np.ndarray, x: np.ndarray, grad: np.ndarray, work: np.ndarray
) -> float:
    """The model's value of ``x``; its gradient over the whole flat vector into ``grad``."""
    v = value(meta, params, x, work)
    backward(meta, params, x, v, grad, work)
    return v


@njit(cache=True)
def backward(
    meta: np.ndarray,
    params: np.ndarray,
    x: np.ndarray,
    v: float,
    grad: np.ndarray,
    work: np.ndarray,
) -> None:
    """The gradient of the value ``v`` that ``value(meta, params, x, work)`` gave (``work`` as
    it left it) into ``grad``."""
    if meta[0] == LINEAR:
        n, output, bias, k = meta[1], meta[2], meta[3], meta[4]
        a = work[0]
        d = _squash_grad(output, a, v)
        for i in range(n):
            grad[i] = (x[meta[5 + i]] if k > 0 else x[i]) * d
        if bias:
            grad[n] = d
        return
    inputs, layers, sigmoid, direct = meta[1], meta[2], meta[3], meta[4]
    dv = 1.0 - v * v
    # where each layer's weights and activations start (``work`` as ``_mlp_forward`` left it)
    total = inputs
    widest = inputs
    for layer in range(layers):
        total += meta[6 + layer]
        widest = max(widest, meta[6 + layer])
    at_w = 0
    fan_in = inputs
    for layer in range(layers):
        at_w += meta[6 + layer] * fan_in + meta[6 + layer]
        fan_in = meta[6 + layer]
    last = total - fan_in  # the last hidden layer's activations in ``work``
    for j in range(fan_in):
        grad[at_w + j] = work[last + j] * dv
    grad[at_w + fan_in] = dv
    if direct:
        at_d = at_w + fan_in + 1
        for j in range(inputs):
            grad[at_d + j] = x[j] * dv
    delta = work[total : total + widest]
    spare = work[total + widest : total + 2 * widest]
    for j in range(fan_in):
        h = work[last + j]
        delta[j] = (dv * params[at_w + j]) * (h * (1.0 - h) if sigmoid else 1.0 - h * h)
    top = last
    for layer in range(layers - 1, -1, -1):
        units = meta[6 + layer]
        below_units = inputs if layer == 0 else meta[6 + layer - 1]
        below = top - below_units
        at_w -= units * below_units + units
        for u in range(units):
            row = at_w + u * below_units
            for j in range(below_units):
                grad[row + j] = delta[u] * work[below + j]
            grad[at_w + units * below_units + u] = delta[u]
        if layer:
            nxt = spare[:below_units]
            for j in range(below_units):
                s = 0.0
                for u in range(units):
                    s += delta[u] * params[at_w + u * below_units + j]
                h = work[below + j]
                nxt[j] = s * (h * (1.0 - h) if sigmoid else 1.0 - h * h)
            delta[:below_units] = nxt
        top = below
