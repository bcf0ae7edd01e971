"""Lockstep on rows (``td/lockrows.py``, Kalah) plays the games of the generic lockstep driver
and learns its weights up to rounding, whatever the options that change its bookkeeping."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from mindgames.model import Evaluator
from mindgames.plugins.learners.td import TDLearner

KALAH_MLP = {"model": "mlp", "encoding": "kalah14", "hidden": [8], "activation": "sigmoid"}


def trained(registry, spec, options, rows, tmp_path):
    """The weights and game lengths of a lockstep run, with or without the rows driver."""
    from mindgames.agent import build_evaluator

    game = registry.game(spec)
    evaluator = build_evaluator(registry, game, KALAH_MLP, seed=2)
    if not rows:  # the same encoding without ``encode_rows``: the generic driver
        encoding = attrs.evolve(evaluator.encoding, encode_rows=None)
        evaluator = Evaluator(encoding, evaluator.model)
    learner = TDLearner(**{"alpha": 0.05, "lockstep": 6, **options})
    workdir = tmp_path / ("rows" if rows else "generic")
    result = learner.train(game, evaluator, np.random.default_rng(9), workdir=workdir)
    return evaluator.model.get_params(), [row["mean_plies"] for row in result.history]


@pytest.mark.parametrize(
    "spec,options",
    [
        ("kalah:pits=4,seeds=3", {"games": 24, "batch": 8}),
        ("kalah:pits=4,seeds=3", {"games": 20, "batch": 20, "explore": "softmax"}),
        ("kalah:pits=3,seeds=4,empty_capture=true", {"games": 20, "batch": 10, "gamma": 0.9}),
        ("kalah:pits=4,seeds=3", {"games": 20, "batch": 20, "outcome": "margin"}),
        ("kalah:pits=4,seeds=3", {"games": 12, "batch": 12, "max_plies": 9}),
        ("kalah:pits=4,seeds=3", {"games": 12, "batch": 12, "max_plies": 9, "cutoff": "none"}),
        ("kalah:pits=4,seeds=3", {"games": 16, "batch": 16, "random_plies": 3, "momentum": 0.4}),
    ],
)
def test_rows_lockstep_equals_the_generic_lockstep(registry, tmp_path, spec, options):
    rows_params, rows_plies = trained(registry, spec, options, True, tmp_path)
    generic_params, generic_plies = trained(registry, spec, options, False, tmp_path)
    assert rows_plies == generic_plies
    np.testing.assert_allclose(rows_params, generic_params, rtol=0, atol=1e-9)
