"""The compiled models' ``tanh`` (evaluators/kernels.py): within 2 ulp of libm's over the whole
line, odd, exact at the ends; numpy's own ``tanh`` (the Python path's) is within 3 ulp of libm's."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from mindgames.evaluators.kernels import tanh


@njit(cache=False)
def _tanh_all(xs: np.ndarray) -> np.ndarray:
    out = np.empty(xs.shape[0])
    for i in range(xs.shape[0]):
        out[i] = tanh(xs[i])
    return out


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    return np.abs(got - want) / np.spacing(np.abs(want))


@pytest.mark.parametrize(
    "lo, hi", [(-1e-6, 1e-6), (-0.7, 0.7), (0.6, 0.65), (-4.0, 4.0), (-25.0, 25.0), (18.0, 21.0)]
)
def test_tanh_is_within_two_ulp_of_libm(lo, hi):
    xs = np.random.default_rng(11).uniform(lo, hi, 200_000)
    want = np.array([math.tanh(x) for x in xs])
    got = _tanh_all(xs)
    assert _ulps(got, want).max() <= 2.0
    assert np.array_equal(_tanh_all(-xs), -got)  # odd


def test_tanh_at_the_ends_and_zero():
    xs = np.array([0.0, -0.0, 1e-300, 5e-324, 20.0, 40.0, 1e300, np.inf, -np.inf, 0.625])
    got = _tanh_all(xs)
    assert got[:4].tolist() == [0.0, 0.0, 1e-300, 5e-324]
    assert got[4:8].tolist() == [1.0, 1.0, 1.0, 1.0] and got[8] == -1.0
    assert abs(got[9] - math.tanh(0.625)) <= 2 * np.spacing(math.tanh(0.625))
