"""The staged ensemble: routing by stage, shared capabilities, parameters, gradients, fit."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames import CapabilityError, MindgamesError
from mindgames.agent import build_evaluator
from mindgames.model import DIFFERENTIABLE, FITTABLE, PARAMETRIC, check_declared
from mindgames.registry import get_registry


def staged(members, bounds=(8, 16), game="checkers", encoding="raw32", **extra):
    registry = get_registry()
    table = {"model": "staged", "encoding": encoding, "bounds": list(bounds), **extra}
    if isinstance(members, dict):
        table["member"] = members
    else:
        table["members"] = members
    return build_evaluator(registry, registry.game(game), table, seed=3)


@pytest.mark.parametrize(
    ("members", "caps"),
    [
        ({"model": "mlp", "hidden": [3]}, {PARAMETRIC, DIFFERENTIABLE}),
        ({"model": "linear"}, {PARAMETRIC, DIFFERENTIABLE, FITTABLE}),
        (
            [{"model": "linear"}, {"model": "mlp"}, {"model": "linear"}],
            {PARAMETRIC, DIFFERENTIABLE},
        ),
        ([{"model": "linear"}, {"model": "material"}, {"model": "mlp"}], set()),
    ],
)
def test_capabilities_are_those_all_members_share(members, caps):
    model = staged(members).model
    assert model.capabilities == frozenset(caps)
    check_declared(model)
    if PARAMETRIC not in caps:
        with pytest.raises(CapabilityError, match="not parametric: not all of its sub-models"):
            model.get_params()


def test_each_stage_uses_its_own_member():
    model = staged({"model": "linear", "output": "soft"}).model
    x_few = np.zeros(32)
    x_few[:5] = 1  # 5 pieces: stage 0
    x_mid = np.zeros(32)
    x_mid[:6] = 1
    x_mid[10:14] = -2  # 6 + 8 = 14: stage 1
    x_full = np.ones(32)  # 32: stage 2
    assert [model.stage(x) for x in (x_few, x_mid, x_full)] == [0, 1, 2]
    xs = np.stack([x_few, x_mid, x_full])
    np.testing.assert_array_equal(model.stages(xs), [0, 1, 2])
    for k, x in enumerate(xs):
        assert model.value(x) == model.members[k].value(x)
    np.testing.assert_allclose(model.value_batch(xs), [model.value(x) for x in xs], atol=1e-12)


def test_params_concatenate_and_gradients_fill_the_active_block():
    model = staged({"model": "mlp", "hidden": [3]}).model
    sizes = [len(m.get_params()) for m in model.members]
    p = model.get_params()
    assert p.size == sum(sizes)
    model.set_params(p * 2)
    np.testing.assert_array_equal(
        model.members[1].get_params(), p[sizes[0] : sizes[0] + sizes[1]] * 2
    )
    x = np.zeros(32)
    x[:10] = 1  # stage 1
    v, g = model.value_and_grad(x)
    assert v == model.value(x)
    assert not g[: sizes[0]].any() and not g[sizes[0] + sizes[1] :].any()
    np.testing.assert_allclose(
        g[sizes[0] : sizes[0] + sizes[1]], model.members[1].value_and_grad(x)[1]
    )
    xs = np.stack([x, np.ones(32), np.zeros(32)])
    values, grads = model.value_and_grad_batch(xs)
    for row, xr in enumerate(xs):
        sv, sg = model.value_and_grad(xr)
        assert values[row] == pytest.approx(sv, abs=1e-12)
        np.testing.assert_allclose(grads[row], sg, atol=1e-12)
    groups = model.param_groups()
    assert groups[0] == ("stage1/layer1", 32 * 3 + 3, 32)
    assert sum(g[1] for g in groups) == p.size


def test_fit_trains_each_stage_on_its_own_rows():
    model = staged(
        {"model": "linear", "output": "none"},
        bounds=[0.5],
        game="kalah",
        encoding="kalah14",
        by=["my_store"],
        measure="sum",
    ).model
    rng = np.random.default_rng(0)
    xs = rng.uniform(0, 1, size=(300, 14))
    ys = np.where(xs[:, 6] < 0.5, 0.3 * xs[:, 0], -0.2 * xs[:, 1])
    model.fit(xs, ys)
    np.testing.assert_allclose(model.value_batch(xs), ys, atol=1e-9)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"members": {"model": "mlp"}, "bounds": [16, 8]}, "strictly ascending"),
        ({"members": [{"model": "mlp"}]}, "2 bounds make 3 stages, but members lists 1"),
        ({"members": {"model": "mlp"}, "measure": "max"}, "measure must be sum or abssum"),
        ({"members": {"model": "mlp"}, "by": ["sq0"]}, "no column 'sq0'"),
        ({"members": {"model": "nope"}}, "unknown model 'nope'"),
        ({"members": {"model": "mlp", "depth": 3}}, "stage 1 \\(mlp\\).*depth"),
        ({"members": {"model": "staged", "bounds": [1]}}, "cannot nest"),
    ],
)
def test_bad_staged_configs(kwargs, message):
    with pytest.raises(MindgamesError, match=message):
        staged(**kwargs)
