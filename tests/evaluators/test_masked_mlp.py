"""The masked first layer of ``mlp`` (``groups``) and the unweighted input sum (``input_sum``):
Chellapilla and Fogel's checkers net as a generic option."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from numba import njit

from mindgames import ConfigError
from mindgames.agent import build_evaluator
from mindgames.evaluators import kernels, mlp
from mindgames.games.draughts.encodings import subsquares
from mindgames.registry import get_registry

FOGEL = {
    "model": "mlp",
    "encoding": "raw32",
    "hidden": [91, 40, 10],
    "groups": "subsquares",
    "input_sum": True,
}


def test_the_subsquares_are_91_groups_of_the_published_sizes():
    groups = subsquares()
    assert len(groups) == 91
    # 3x3 ... 8x8 sub-squares: 36, 25, 16, 9, 4 and 1 of them, holding half their squares
    by_size = Counter({9: 0})
    for group in groups:
        side = next(s for s in range(3, 9) if len(group) in (s * s // 2, s * s // 2 + 1))
        by_size[side] += 1
    assert [by_size[s] for s in range(3, 9)] == [36, 25, 16, 9, 4, 1]
    assert sorted(groups[-1], key=lambda c: int(c[2:])) == [f"sq{s}" for s in range(1, 33)]
    assert all(len(set(g)) == len(g) for g in groups)


def test_the_fogel_net_has_one_unit_per_subsquare_and_only_its_weights():
    game = get_registry().game("checkers")
    evaluator = build_evaluator(get_registry(), game, FOGEL, seed=2)
    model = evaluator.model
    live = sum(len(g) for g in subsquares())
    assert live == 36 * 4.5 + 25 * 8 + 16 * 12.5 + 9 * 18 + 4 * 24.5 + 32
    expected = live + 91 + 91 * 40 + 40 + 40 * 10 + 10 + 10 + 1
    assert model.get_params().size == expected
    assert dict((n, s) for n, s, _ in model.param_groups())["layer1"] == live + 91
    # a first-layer unit does not move when a square outside its sub-square changes
    x = evaluator.encoding.encode(game.initial_state())
    w1 = model._layers[0][0]
    assert np.count_nonzero(w1) == live
    unit = 0  # the first 3x3 sub-square: squares 1, 5, 6, 9
    outside = [i for i, c in enumerate(evaluator.encoding.columns) if c not in subsquares()[0]]
    assert not np.any(w1[unit, outside])
    # the input sum enters the output unweighted: zero output weights leave tanh(sum + bias)
    params = model.get_params()
    params[-11:] = 0.0
    model.set_params(params)
    x = x.copy()
    x[0] = 2.0  # a king of the side to move on square 1
    assert model.value(x) == pytest.approx(math.tanh(float(x.sum())))


def test_set_params_keeps_the_masked_weights_at_zero_and_files_round_trip(tmp_path):
    from mindgames.modelfile import load_evaluator, save_evaluator

    registry = get_registry()
    game = registry.game("checkers")
    evaluator = build_evaluator(registry, game, {**FOGEL, "hidden": [91, 4]}, seed=1)
    model = evaluator.model
    model.set_params(np.random.default_rng(0).normal(size=model.get_params().size))
    assert np.count_nonzero(model._layers[0][0]) == sum(len(g) for g in subsquares())
    save_evaluator(tmp_path / "m.npz", game, evaluator)
    again = load_evaluator(tmp_path / "m.npz", registry, game)[1]
    state = game.initial_state()
    assert again.evaluate(state) == evaluator.evaluate(state)
    np.testing.assert_array_equal(again.model.get_params(), model.get_params())


def test_bad_groups_are_refused_naming_the_problem():
    registry = get_registry()
    game = registry.game("checkers")
    with pytest.raises(ConfigError, match="91 groups for a first hidden layer of 10"):
        build_evaluator(registry, game, {**FOGEL, "hidden": [10]})
    with pytest.raises(ConfigError, match="offers no column groups 'rings'"):
        build_evaluator(registry, game, {**FOGEL, "groups": "rings"})
    with pytest.raises(ConfigError, match="no column 'sq99'"):
        mlp.create(mlp.MLPConfig(hidden=[1], groups=[["sq99"]]), ["sq1"], np.random.default_rng())


@pytest.mark.parametrize("spec", [FOGEL, {"model": "mlp", "encoding": "raw32", "hidden": [10]}])
def test_add_params_is_set_params_of_the_sum(spec):
    """TD's in-place update: the same parameters and values as get, add and set."""
    game = get_registry().game("checkers")
    one = build_evaluator(get_registry(), game, spec, seed=3)
    two = build_evaluator(get_registry(), game, spec, seed=3)
    change = np.random.default_rng(4).normal(size=one.model.get_params().size) * 0.1
    state = game.initial_state()
    one.evaluate(state)  # the scalar path's prepared weights must be dropped too
    one.model.add_params(change)
    two.model.set_params(two.model.get_params() + change)
    assert np.array_equal(one.model.get_params(), two.model.get_params())
    assert np.array_equal(one.model.arrays()["params"], two.model.arrays()["params"])
    assert one.evaluate(state) == two.evaluate(state)


@njit(cache=False)
def _values(meta: np.ndarray, params: np.ndarray, xs: np.ndarray) -> np.ndarray:
    out = np.empty(xs.shape[0])
    for i in range(xs.shape[0]):
        out[i] = kernels.value(meta, params, xs[i], 0)
    return out


@njit(cache=False)
def _plain(params: np.ndarray, hidden: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The tanh net with its input sum as written: every product of every unit, left to right."""
    out = np.empty(xs.shape[0])
    for i in range(xs.shape[0]):
        h = xs[i].copy()
        at = 0
        for units in hidden:
            z = np.empty(units)
            for u in range(units):
                s = 0.0
                for j in range(h.shape[0]):
                    s += params[at + u * h.shape[0] + j] * h[j]
                z[u] = kernels.tanh(s + params[at + units * h.shape[0] + u])
            at += units * h.shape[0] + units
            h = z
        a = 0.0
        for j in range(h.shape[0]):
            a += params[at + j] * h[j]
        a += params[at + h.shape[0]]
        t = 0.0
        for j in range(xs.shape[1]):
            t += xs[i, j]
        out[i] = kernels.tanh(a + t)
    return out


def test_the_compiled_net_multiplies_only_the_listed_weights_to_the_dense_sums_bits():
    """The kernel of a masked net lists the units that see each input and skips zero inputs: the
    values are the bits of every product summed left to right, within 1e-12 of numpy's."""
    game = get_registry().game("checkers")
    evaluator = build_evaluator(get_registry(), game, {**FOGEL, "init": [-0.5, 0.5]}, seed=4)
    mk = evaluator.model.kernels()
    layers = int(mk.meta[2])
    assert int(mk.meta[6 + layers]) == sum(len(g) for g in subsquares())  # the listed weights
    rng = np.random.default_rng(4)
    xs = rng.choice([0.0, 0.0, 1.0, -1.0, 1.4, -1.4], size=(300, 32))
    got = _values(mk.meta, mk.params, xs)
    assert np.array_equal(got, _plain(mk.params, mk.meta[6 : 6 + layers].copy(), xs))
    unlisted = np.append(mk.meta[: 6 + layers], 0)  # the same net read as a dense one
    assert np.array_equal(got, _values(unlisted, mk.params, xs))
    python = np.array([evaluator.model.value(x) for x in xs])
    np.testing.assert_allclose(got, python, rtol=0, atol=1e-12)
