"""The td learner trains the built-in differentiable models (mlp, linear, staged)."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.plugins.learners.td import alpha_vector
from mindgames.registry import get_registry

EVALS = {
    "mlp": {"model": "mlp", "encoding": "kalah14", "hidden": [6], "activation": "sigmoid"},
    "mlp-direct": {"model": "mlp", "encoding": "kalah14", "hidden": [4, 3], "direct": True},
    "linear": {"model": "linear", "encoding": "kalah14"},
    "staged": {
        "model": "staged",
        "encoding": "kalah14",
        "bounds": [0.3],
        "member": {"model": "mlp", "hidden": [4]},
    },
}


@pytest.mark.parametrize("lockstep", [1, 4])
@pytest.mark.parametrize("name", sorted(EVALS))
def test_td_changes_the_weights_and_keeps_values_in_range(tmp_path, name, lockstep):
    registry = get_registry()
    game = registry.game("kalah:pits=3,seeds=2")
    evaluator = build_evaluator(registry, game, EVALS[name], seed=1)
    before = evaluator.model.get_params()
    learner = registry.learner(
        "td", {"games": 6, "batch": 6, "checkpoint_every": 0, "lockstep": lockstep}, where="t"
    )
    result = learner.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path)
    after = result.evaluator.model.get_params()
    assert after.shape == before.shape and not np.array_equal(after, before)
    assert np.all(np.isfinite(after))
    value = result.evaluator.evaluate(game.initial_state())
    assert -1.0 <= value <= 1.0


def test_td_step_sizes_follow_the_mlp_layers():
    registry = get_registry()
    game = registry.game("kalah")
    model = build_evaluator(registry, game, {**EVALS["mlp"], "direct": True}).model
    alpha = alpha_vector(model, 14, None)
    sizes = [g[1] for g in model.param_groups()]
    assert sizes == [14 * 6 + 6, 7, 14]
    np.testing.assert_allclose(alpha[: sizes[0]], 1 / 14)
    np.testing.assert_allclose(alpha[sizes[0] : sizes[0] + 7], 1 / 6)
    np.testing.assert_allclose(alpha[-14:], 1 / 14)
    assert list(alpha_vector(model, 14, [0.1, 0.2, 0.3])[[0, -15, -1]]) == [0.1, 0.2, 0.3]
