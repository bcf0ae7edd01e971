"""The compiled values and gradients (evaluators/kernels_grad.py) equal the models' own
``value_and_grad`` (within 1e-12: the sums run in another order) for every linear and mlp shape
the compiled TD self-play takes, and ``value`` gives the same bits as ``value_grad``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.evaluators import kernels_grad
from mindgames.kernels import model_kernels_of
from mindgames.registry import get_registry

COLUMNS = ["my_pit1", "my_pit2", "my_pit3", "my_store", "their_pit1", "their_store"]
SPECS: list[dict[str, Any]] = [
    {"model": "linear", "output": "tanh"},
    {"model": "linear", "output": "soft", "bias": False},
    {"model": "linear", "output": "none", "columns": COLUMNS[:4], "init": [-0.5, 0.5]},
    {"model": "mlp", "hidden": [5]},
    {"model": "mlp", "hidden": [5], "activation": "sigmoid", "direct": True},
    {"model": "mlp", "hidden": [4, 3], "activation": "sigmoid"},
    {"model": "mlp", "hidden": [3, 6, 2], "direct": True, "input_sum": True},
    {"model": "mlp", "hidden": [2, 4], "groups": [COLUMNS[:3], COLUMNS[2:]], "direct": True},
]


def _live(params: np.ndarray, full: np.ndarray) -> np.ndarray:
    """Where the model's ``get_params`` entries sit in its whole vector (a mask leaves some
    out): the full vector's entries equal to them, in order."""
    index = []
    j = 0
    for i, value in enumerate(full):
        if j < len(params) and value == params[j]:
            index.append(i)
            j += 1
    assert j == len(params)
    return np.array(index)


@pytest.mark.parametrize("spec", SPECS, ids=[str(s) for s in SPECS])
def test_compiled_values_and_gradients_equal_the_models(spec):
    registry = get_registry()
    game = registry.game("kalah:pits=4,seeds=3")
    evaluator = build_evaluator(registry, game, {"encoding": "kalah14", **spec}, seed=3)
    model = evaluator.model
    mk = model_kernels_of(model)
    assert mk is not None and kernels_grad.supported(mk.meta)
    live = _live(model.get_params(), mk.params)
    rng = np.random.default_rng(5)
    work = np.zeros(kernels_grad.work_size(mk.meta))
    grad = np.zeros(mk.params.size)
    for _ in range(50):
        x = rng.uniform(-2.0, 2.0, evaluator.encoding.width)
        v = kernels_grad.value_grad(mk.meta, mk.params, x, grad, work)
        expected_v, expected_g = model.value_and_grad(x)
        assert v == pytest.approx(expected_v, abs=1e-12)
        np.testing.assert_allclose(grad[live], expected_g, rtol=0, atol=1e-12)
        assert kernels_grad.value(mk.meta, mk.params, x, work) == v  # the same bits


def test_models_without_gradient_kernels_are_not_supported():
    registry = get_registry()
    game = registry.game("kalah:pits=4,seeds=3")
    evaluator = build_evaluator(registry, game, {"encoding": "kalah14", "model": "material"})
    mk = model_kernels_of(evaluator.model)
    assert mk is not None and not kernels_grad.supported(mk.meta)
