"""The fitters: RPROP by hand, Adam, closed form, early stopping, capability checks."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.errors import CapabilityError
from mindgames.evaluators.linear import Linear
from mindgames.evaluators.mlp import MLP
from mindgames.plugins.learners.fitters import (
    Fit,
    FitOptions,
    Patterns,
    Rprop,
    fit_patterns,
    mse,
    mse_and_grad,
    trainer_for,
)


def line(w: float, b: float) -> Linear:
    """value = clip(w * x + b, -1, 1): gradients are easy to work out by hand."""
    return Linear(np.array([w, b]), output="none", bias=True, names=None, index=None)


PATTERNS = Patterns.of([[1.0], [2.0]], [1.0, 0.0])


def test_mean_squared_error_and_gradient_by_hand():
    # values 0.25 and 0.5, errors -0.75 and 0.5
    loss, grad = mse_and_grad(line(0.25, 0.0), PATTERNS)
    assert loss == pytest.approx((0.75**2 + 0.5**2) / 2)
    # d/dw = mean(2 * err * x) = (-1.5 + 2) / 2; d/db = mean(2 * err) = (-1.5 + 1) / 2
    np.testing.assert_allclose(grad, [0.25, -0.25])


def test_one_rprop_step_equals_a_hand_computation():
    model = line(0.25, 0.0)
    rprop = Rprop(PATTERNS, 2, FitOptions(step=0.1))
    rng = np.random.default_rng(0)
    assert rprop.epoch(model, rng) == pytest.approx(0.40625)
    # first step: no previous gradient, steps stay 0.1; w -= 0.1 * sign(0.25), b += 0.1
    np.testing.assert_allclose(model.get_params(), [0.15, 0.1])
    # second: values 0.25, 0.4; gradient (0.05, -0.35) keeps both signs: steps 0.12
    rprop.epoch(model, rng)
    np.testing.assert_allclose(model.get_params(), [0.03, 0.22])
    np.testing.assert_allclose(rprop.steps, [0.12, 0.12])


def test_a_sign_change_halves_the_step_and_rests_the_weight():
    rprop = Rprop(PATTERNS, 3, FitOptions(step=0.1, step_min=0.06, step_max=0.11))
    rprop.previous = np.array([1.0, 1.0, 0.0])
    new = rprop.update(np.zeros(3), np.array([-1.0, 2.0, -3.0]))
    # flipped: 0.1 * 0.5 bounded below by 0.06, no move; kept: 0.1 * 1.2 bounded by 0.11
    np.testing.assert_allclose(rprop.steps, [0.06, 0.11, 0.1])
    np.testing.assert_allclose(new, [0.0, -0.11, 0.1])
    np.testing.assert_allclose(rprop.previous, [0.0, 2.0, -3.0])


def problem(seed: int = 0, n: int = 200) -> tuple[Patterns, Patterns]:
    rng = np.random.default_rng(seed)
    xs = rng.uniform(-1, 1, (n, 3))
    ys = np.tanh(xs @ np.array([0.8, -0.5, 0.3]) + 0.1)
    return Patterns.of(xs[: n // 2], ys[: n // 2]), Patterns.of(xs[n // 2 :], ys[n // 2 :])


@pytest.mark.parametrize("fitter", ["rprop", "adam"])
def test_rprop_and_adam_fit_a_small_net(fitter):
    train, valid = problem()
    rng = np.random.default_rng(1)
    net = MLP(rng.uniform(-0.1, 0.1, 3 * 4 + 4 + 5), 3, [4], "tanh", False)
    before = mse(net, valid)
    rows = fit_patterns(net, train, valid, FitOptions(fitter=fitter, epochs=60, lr=0.01), rng)
    assert mse(net, valid) < before / 10
    assert [r["epoch"] for r in rows] == list(range(1, len(rows) + 1))
    assert mse(net, valid) == pytest.approx(min(r["valid_mse"] for r in rows), abs=1e-8)


def test_closed_form_fit_needs_a_fittable_model_and_takes_one_epoch():
    train, valid = problem()
    model = Linear(np.zeros(4), output="tanh", bias=True, names=None, index=None)
    rows = fit_patterns(model, train, valid, FitOptions(fitter="fit"), np.random.default_rng(0))
    assert len(rows) == 1 and rows[0]["valid_mse"] < 1e-8
    net = MLP(np.zeros(3 * 2 + 2 + 3), 3, [2], "tanh", False)
    with pytest.raises(CapabilityError, match="'fit'.*fittable.*'mlp'"):
        trainer_for(net, train, FitOptions(fitter="fit"), "learner 'supervised'")


class Scripted:
    """A trainer whose validation errors follow a script (early stopping without a model)."""

    def __init__(self, errors: list[float], model: Linear) -> None:
        self.errors = iter(errors)
        self.model = model

    def epoch(self, model, rng):
        # put the scripted error into the weights so that mse() on one pattern reads it back
        model.set_params(np.array([0.0, next(self.errors) ** 0.5]))
        return 0.0

    def arrays(self):
        return {}

    def load(self, arrays):
        pass


def test_early_stopping_tolerates_rises_and_waits_for_min_epochs():
    errors = [0.5, 0.4, 0.45, 0.3, 0.35, 0.36, 0.37, 0.38, 0.2, 0.9, 0.9, 0.9, 0.9, 0.9]
    model = line(0.0, 0.0)
    valid = Patterns.of([[0.0]], [0.0])
    fit = Fit(model, Scripted(errors, model), valid, FitOptions(patience=4, min_epochs=10))
    while not fit.done:
        fit.step(np.random.default_rng(0))
    # rises after epochs 2 and 4 are tolerated; after the best at 9, four worse epochs stop it
    assert fit.best_epoch == 9 and fit.epoch == 13
    fit.finish()
    assert mse(model, valid) == pytest.approx(0.2)


def averaged_fit(options: FitOptions, stop_at: int | None = None) -> tuple[Fit, list[np.ndarray]]:
    """A small net fitted by RPROP with ``options``; the weights after each epoch beside it.
    ``stop_at``: checkpoint there (``state``) and go on in a new ``Fit`` (``restore``)."""
    train, valid = problem()
    rng = np.random.default_rng(1)
    net = MLP(rng.uniform(-0.1, 0.1, 3 * 4 + 4 + 5), 3, [4], "tanh", False)
    fit = Fit(net, trainer_for(net, train, options, "test"), valid, options)
    seen = []
    while not fit.done:
        fit.step(rng)
        seen.append(net.get_params().copy())
        if fit.epoch == stop_at:
            meta, arrays = fit.state()
            fit = Fit(net, trainer_for(net, train, options, "test"), valid, options)
            fit.restore(meta, arrays)
    fit.finish()
    return fit, seen


def test_averaging_keeps_the_mean_of_the_last_epochs_and_runs_every_epoch():
    # patience 1 would stop this fit early; averaging runs all 30 epochs and keeps the mean
    options = FitOptions(epochs=30, min_epochs=0, patience=1, average_from=21)
    fit, seen = averaged_fit(options)
    assert fit.epoch == 30 and fit.averaged == 10
    np.testing.assert_allclose(fit.model.get_params(), np.mean(seen[20:], axis=0))
    assert not np.allclose(fit.model.get_params(), seen[fit.best_epoch - 1])
    # the same run checkpointed in the middle of the averaging: the same weights
    resumed, _ = averaged_fit(options, stop_at=25)
    np.testing.assert_array_equal(resumed.model.get_params(), fit.model.get_params())


def test_averaging_from_beyond_the_last_epoch_is_refused():
    with pytest.raises(ValueError, match="'average_from' must be at most 'epochs' \\(10\\)"):
        FitOptions(epochs=10, average_from=11)
