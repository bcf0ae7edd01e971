"""Compiled values of the built-in models (``mindgames.kernels.ModelKernels``): one njit
``value(meta, params, x, progress)`` for every kind, chosen by the integer code ``meta[0]``.

The layouts of ``meta`` (int64) and ``params`` (float64) are what each model's ``kernels()``
writes (evaluators/linear.py, mlp.py, material.py):

* material ``[MATERIAL, n]``, params the scaled weights: ``s / (1 + |s|)``, s the weighted sum;
* linear ``[LINEAR, n, output, bias, k, index...]`` (k columns picked when k > 0), params
  ``[w..., b]``: squash(w . x + b), output 0 clip, 1 tanh, 2 soft;
* mlp ``[MLP, inputs, layers, sigmoid, direct, input_sum, h1, ..., hk, n]``, then, when the
  first layer is masked (``n`` > 0 connections listed), ``inputs + 1`` offsets and the ``n``
  first-layer units that see each input (input j's: the units at offsets ``j`` to ``j + 1``);
  params the flat vector of evaluators/mlp.py (masked-out weights stored as zeros, so the dense
  and the listed products give the same sums);
* phased ``[PHASED, output, components, weights]`` then per component ``[columns, conditions,
  and, negate, column..., condition column...]``, params ``[w..., scale, (lo, hi)...]`` (the
  conditions' bounds, infinite when open): the first component that holds gives
  squash(scale * w . x[columns]), none: 0.

Sums run left to right as the models' pure-Python paths do (material and linear: the same bits;
the mlp's numpy products sum in another order, and its ``tanh`` is ``tanh`` below, within 2 ulp
of libm's, where numpy's is within 3: its values agree within 1e-12). The mlp's sums skip the
products that are zeros (masked-out weights, zero inputs), which change no sum's bits.
"""

from __future__ import annotations

import math

import numpy as np

from mindgames.compiled.hot import allocating, bits_float, float_bits, hot, stack_empty
from mindgames.evaluators.common import LINEAR_CODE, MATERIAL_CODE, MLP_CODE, PHASED_CODE

MATERIAL, LINEAR, MLP, PHASED = MATERIAL_CODE, LINEAR_CODE, MLP_CODE, PHASED_CODE

#: the widest layer (or input) whose activations live on the stack (wider ones on the heap)
STACK_UNITS = 512
#: linear's ``output`` codes
CLIP, TANH, SOFT = 0, 1, 2


# tanh's constants: Cephes' rational approximation below 0.625 (its P and Q), and exp(2|x|)
# as 2^k exp(r) above it (ln 2 in two parts, fdlibm's, so k ln 2 is exact; exp(r)'s Taylor
# terms to r^13 / 13!: |r| <= ln 2 / 2 leaves under 1e-17)
_P0, _P1, _P2 = -9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3
_Q0, _Q1, _Q2 = 1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3
_INV_LN2 = 1.44269504088896338700e00
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_E13, _E12, _E11, _E10, _E9, _E8, _E7, _E6, _E5, _E4, _E3, _E2 = (
    1.0 / math.factorial(n) for n in range(13, 1, -1)
)
#: |x| beyond which tanh(x) rounds to +-1 (2 exp(-2x) is under half an ulp of 1)
_TANH_ONE = 20.0
#: 2^52 and its bits: for an integer 0 <= k < 2^52, the bits of k + 2^52 are these plus k
_TWO_52 = 4503599627370496.0
_TWO_52_BITS = 0x4330000000000000


@hot(inline="always")
def tanh(x: float) -> float:
    """tanh without a libm call, within 2 ulp of libm's (and numpy's, which is within 3 of it;
    tests/evaluators/test_kernel_tanh.py): the masked net's 141 units a leaf spent half its time
    in libm's tanh. Both branches are computed and one kept (no branch to mispredict), and 2^k
    is made from k's bits (no conversion to int64), so a loop of it vectorises (``tanh_into``)."""
    z = min(abs(x), _TANH_ONE)
    s = x * x
    y = 2.0 * z
    kf = math.floor(y * _INV_LN2 + 0.5)  # k = round(y / ln 2), 0 <= k <= 58, as a float
    r = (y - kf * _LN2_HI) - kf * _LN2_LO
    p = _E13 * r + _E12
    p = p * r + _E11
    p = p * r + _E10
    p = p * r + _E9
    p = p * r + _E8
    p = p * r + _E7
    p = p * r + _E6
    p = p * r + _E5
    p = p * r + _E4
    p = p * r + _E3
    p = p * r + _E2
    p = p * r + 1.0
    p = p * r + 1.0
    k = float_bits(kf + _TWO_52) - _TWO_52_BITS  # kf's integer from the low bits of kf + 2^52
    e = p * bits_float((k + 1023) << 52)  # exp(2z) = 2^k exp(r)
    small = z < 0.625
    num = x * s * ((_P0 * s + _P1) * s + _P2) if small else 2.0
    den = (((s + _Q0) * s + _Q1) * s + _Q2) if small else e + 1.0
    q = num / den
    big = 1.0 - q  # 1 - 2 / (exp(2z) + 1)
    return x + q if small else (big if x >= 0.0 else -big)


@hot(error_model="numpy")  # no branch out at the division: the loop vectorises (AVX2: 1.8x)
def tanh_into(z: np.ndarray, h: np.ndarray, units: int, sigmoid: bool) -> None:
    """A layer's activations: ``h[u] = tanh(z[u])``, or the logistic ``0.5 tanh(z / 2) + 0.5``
    when ``sigmoid``, for ``u < units`` (``h`` and ``z`` distinct)."""
    if sigmoid:
        for u in range(units):
            h[u] = 0.5 * tanh(0.5 * z[u]) + 0.5
    else:
        for u in range(units):
            h[u] = tanh(z[u])


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
def _dense_layer(
    params: np.ndarray, at: int, units: int, fan_in: int, h: np.ndarray, z: np.ndarray
) -> None:
    """A layer's pre-activations ``z[u]`` (bias included): each unit's products summed left to
    right, eight units at a time in independent sums (within one sum each addition waits on the
    one before; eight sums keep the adders busy, and each sum's order, so its bits, are kept).
    Each unit's weights are a slice indexed from 0: an index numba cannot prove non-negative
    costs four integer instructions a load (the wrap-around of negative indices)."""
    bias = params[at + units * fan_in : at + units * fan_in + units]
    u = 0
    while u + 8 <= units:
        r0 = at + u * fan_in
        w0 = params[r0 : r0 + fan_in]
        w1 = params[r0 + fan_in : r0 + 2 * fan_in]
        w2 = params[r0 + 2 * fan_in : r0 + 3 * fan_in]
        w3 = params[r0 + 3 * fan_in : r0 + 4 * fan_in]
        w4 = params[r0 + 4 * fan_in : r0 + 5 * fan_in]
        w5 = params[r0 + 5 * fan_in : r0 + 6 * fan_in]
        w6 = params[r0 + 6 * fan_in : r0 + 7 * fan_in]
        w7 = params[r0 + 7 * fan_in : r0 + 8 * fan_in]
        s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
        for j in range(fan_in):
            hj = h[j]
            if hj == 0.0:  # its products are zeros, which add nothing (raw and one-hot inputs)
                continue
            s0 += w0[j] * hj
            s1 += w1[j] * hj
            s2 += w2[j] * hj
            s3 += w3[j] * hj
            s4 += w4[j] * hj
            s5 += w5[j] * hj
            s6 += w6[j] * hj
            s7 += w7[j] * hj
        z[u] = s0 + bias[u]
        z[u + 1] = s1 + bias[u + 1]
        z[u + 2] = s2 + bias[u + 2]
        z[u + 3] = s3 + bias[u + 3]
        z[u + 4] = s4 + bias[u + 4]
        z[u + 5] = s5 + bias[u + 5]
        z[u + 6] = s6 + bias[u + 6]
        z[u + 7] = s7 + bias[u + 7]
        u += 8
    while u < units:
        w = params[at + u * fan_in : at + (u + 1) * fan_in]
        s = 0.0
        for j in range(fan_in):
            s += w[j] * h[j]
        z[u] = s + bias[u]
        u += 1


@hot
def _sparse_layer(
    meta: np.ndarray, params: np.ndarray, units: int, fan_in: int, h: np.ndarray, z: np.ndarray
) -> None:
    """The masked first layer's pre-activations, input by input: each nonzero input adds its
    products to the units that see it. Every unit still sums its products in column order, and
    the products left out (masked-out weights, stored as zeros, and zero inputs) are zeros, which
    add nothing: the dense sum's bits. The indices read from ``meta`` are taken as unsigned (no
    test for a negative index's wrap-around at every product)."""
    base = 7 + meta[2]  # the inputs' offsets into the unit list that follows them
    offsets = meta[base : base + fan_in + 1]
    listed = meta[base + fan_in + 1 :]
    bias = params[units * fan_in : units * fan_in + units]
    stride = np.uint64(fan_in)
    for u in range(units):
        z[u] = 0.0
    for j in range(fan_in):
        hj = h[j]
        if hj != 0.0:
            column = params[j:]  # unit u's weight of input j: column[u * fan_in]
            for k in range(offsets[j], offsets[j + 1]):
                unit = np.uint64(listed[np.uint64(k)])
                z[unit] += column[unit * stride] * hj
    for u in range(units):
        z[u] += bias[u]


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
        if layer == 0 and meta[6 + layers] > 0:
            _sparse_layer(meta, params, units, fan_in, h, z)
        else:
            _dense_layer(params, at, units, fan_in, h, z)
        tanh_into(z, h, units, sigmoid)
        at += units * fan_in + units
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
    return tanh(a)


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
