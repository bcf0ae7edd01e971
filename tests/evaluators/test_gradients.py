"""Analytic gradients of linear and mlp against central finite differences (1e-6 relative)."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.evaluators import linear, mlp


def finite_difference(model, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    p = model.get_params()
    grad = np.empty_like(p)
    for i in range(p.size):
        up, down = p.copy(), p.copy()
        up[i] += h
        down[i] -= h
        model.set_params(up)
        vu = model.value(x)
        model.set_params(down)
        vd = model.value(x)
        grad[i] = (vu - vd) / (2 * h)
    model.set_params(p)
    return grad


def relative_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(a), np.linalg.norm(b), 1e-300))


def check(model, xs: np.ndarray) -> None:
    values, grads = model.value_and_grad_batch(xs)
    for x, v, g in zip(xs, values, grads, strict=True):
        single_v, single_g = model.value_and_grad(x)
        assert single_v == pytest.approx(model.value(x), abs=1e-12)
        assert v == pytest.approx(single_v, abs=1e-12)
        np.testing.assert_allclose(g, single_g, atol=1e-12)
        assert relative_error(single_g, finite_difference(model, x)) < 1e-6


def mlp_model(inputs, hidden, activation, direct, seed, init=(-0.5, 0.5)):
    columns = [f"c{i}" for i in range(inputs)]
    config = mlp.MLPConfig(hidden=hidden, activation=activation, direct=direct, init=init)
    return mlp.create(config, columns, np.random.default_rng(seed))


@pytest.mark.parametrize("activation", ["tanh", "sigmoid"])
@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("hidden", [[5], [4, 3]])
def test_mlp_gradient_matches_finite_differences(activation, direct, hidden):
    model = mlp_model(7, hidden, activation, direct, seed=len(hidden) + direct)
    xs = np.random.default_rng(3).normal(size=(4, 7))
    check(model, xs)


@pytest.mark.parametrize("output", ["none", "tanh", "soft"])
@pytest.mark.parametrize("subset", [None, ["c1", "c4", "c5"]])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_gradient_matches_finite_differences(output, subset, bias):
    columns = [f"c{i}" for i in range(6)]
    config = linear.LinearConfig(columns=subset, output=output, bias=bias, init=(-0.1, 0.1))
    model = linear.create(config, columns, np.random.default_rng(5))
    xs = np.random.default_rng(4).uniform(-1, 1, size=(4, 6))
    check(model, xs)


def test_mlp_gradient_is_not_trivially_zero_in_any_group():
    model = mlp_model(5, [4, 3], "tanh", True, seed=9)
    _, g = model.value_and_grad(np.random.default_rng(1).normal(size=5))
    start = 0
    for name, size, _ in model.param_groups():
        assert np.abs(g[start : start + size]).max() > 0, name
        start += size
    assert start == g.size


def test_mlp_param_groups_give_fan_in_per_layer():
    model = mlp_model(32, [10], "tanh", True, seed=0)
    assert model.param_groups() == [
        ("layer1", 330, 32),
        ("output", 11, 10),
        ("direct", 32, 32),
    ]
    assert len(model.get_params()) == 330 + 11 + 32


@pytest.mark.parametrize("input_sum", [False, True])
def test_masked_mlp_gradient_matches_finite_differences(input_sum):
    columns = [f"c{i}" for i in range(6)]
    groups = [["c0", "c1"], ["c2", "c3", "c4"], ["c5"], ["c0", "c5"]]
    config = mlp.MLPConfig(hidden=[4, 3], groups=groups, input_sum=input_sum, init=(-0.5, 0.5))
    model = mlp.create(config, columns, np.random.default_rng(5))
    assert model.get_params().size == 8 + 4 + 4 * 3 + 3 + 3 + 1
    xs = np.random.default_rng(4).normal(size=(4, 6)) * 0.3
    check(model, xs)


@pytest.mark.parametrize("activation", ["tanh", "sigmoid"])
@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("hidden", [[5], [4, 3]])
@pytest.mark.parametrize("groups", [None, [["c0", "c1"], ["c2", "c3", "c4"], ["c5", "c0"]]])
def test_row_gradients_are_the_batch_rows_exactly(activation, direct, hidden, groups):
    """TD's 1-ply choice asks one row's gradient: the same bits as the batch's row."""
    columns = [f"c{i}" for i in range(6)]
    if groups is not None:
        hidden = [len(groups), *hidden[1:]]
    config = mlp.MLPConfig(
        hidden=hidden, activation=activation, direct=direct, groups=groups, init=(-0.5, 0.5)
    )
    model = mlp.create(config, columns, np.random.default_rng(6))
    xs = np.random.default_rng(7).normal(size=(5, 6))
    values, grads = model.value_and_grad_batch(xs)
    row_values, row = model.values_and_row_grad(xs)
    assert np.array_equal(values, row_values)
    for k in range(len(xs)):
        assert np.array_equal(row(k), grads[k])
    # lockstep's: the gradients of some rows of a valued batch, as a batch of those rows
    batch_values, rows = model.values_and_rows_grads(xs)
    assert np.array_equal(batch_values, model.value_batch(xs))
    index = np.array([3, 0, 4])
    assert np.array_equal(rows(index), grads[index])
    assert np.array_equal(rows(index), model.value_and_grad_batch(xs[index])[1])
    assert rows(index[:0]).shape == (0, grads.shape[1])  # no rows: no gradients, no error


@pytest.mark.parametrize("activation", ["tanh", "sigmoid"])
@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("input_sum", [False, True])
@pytest.mark.parametrize("groups", [None, [["c0", "c1"], ["c2", "c3", "c4"], ["c5", "c0"]]])
def test_weighted_gradient_is_the_weighted_sum_of_the_batch_rows(
    activation, direct, input_sum, groups
):
    """The fitters' one back-propagation of a batch's errors gives ``c @`` the batch's rows
    (within rounding: the sum runs over patterns inside each product, not after them)."""
    columns = [f"c{i}" for i in range(6)]
    config = mlp.MLPConfig(
        hidden=[3 if groups else 5, 4],
        activation=activation,
        direct=direct,
        groups=groups,
        input_sum=input_sum,
        init=(-0.5, 0.5),
    )
    model = mlp.create(config, columns, np.random.default_rng(8))
    xs = np.random.default_rng(9).normal(size=(7, 6))
    weights = np.random.default_rng(10).normal(size=7)
    values, grads = model.value_and_grad_batch(xs)
    batch_values, weighted = model.values_and_weighted_grad(xs)
    assert np.array_equal(batch_values, values)
    expected = weights @ grads
    assert weighted(weights).shape == expected.shape
    assert np.allclose(weighted(weights), expected, rtol=1e-12, atol=1e-14)
    assert not np.allclose(weighted(weights), weights[::-1] @ grads)  # the weights matter
