"""A copied or pickled model is a whole, independent model: ``set_params`` on the copy changes the
copy's values (as it would those of a model rebuilt from the same saved form) and leaves the
original's alone. The MLP's layers are views into its parameter vector; ``copy.deepcopy`` and
``pickle`` used to detach them, so a copy ignored every later ``set_params``. A deep-copied
``Evaluator`` evaluates with its own model (its ``evaluate`` used to keep the original's)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.registry import get_registry

KALAH = "kalah:pits=6,seeds=4"
COLUMNS = ["my_pit1", "my_pit2", "my_store", "their_pit1", "their_store"]
MODELS = [
    (KALAH, {"model": "linear", "encoding": "kalah14"}),
    (KALAH, {"model": "mlp", "encoding": "kalah14", "hidden": [5]}),
    (KALAH, {"model": "mlp", "encoding": "kalah14", "hidden": [5, 3], "direct": True}),
    (KALAH, {"model": "mlp", "encoding": "kalah14", "hidden": [4], "activation": "sigmoid"}),
    (
        "checkers",
        {
            "model": "mlp",
            "encoding": "raw32",
            "hidden": [91, 4],
            "groups": "subsquares",
            "input_sum": True,
        },
    ),
    (
        KALAH,
        {
            "model": "staged",
            "encoding": "kalah14+progress",
            "by": ["plies"],
            "bounds": [8],
            "member": {"model": "mlp", "hidden": [3]},
        },
    ),
    (
        KALAH,
        {
            "model": "phased",
            "encoding": "kalah14",
            "output": "tanh",
            "components": [{"name": "all", "columns": COLUMNS}],
        },
    ),
]
COPIES = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda model: pickle.loads(pickle.dumps(model)),
}


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize(("game_spec", "spec"), MODELS, ids=lambda v: str(v)[:40])
def test_a_copy_takes_new_parameters_and_the_original_keeps_its_own(game_spec, spec, how):
    registry = get_registry()
    game = registry.game(game_spec)
    evaluator = build_evaluator(registry, game, spec, seed=3)
    model, columns = evaluator.model, evaluator.encoding.columns
    states = [game.initial_state()]
    for _ in range(6):
        states.append(game.children(states[-1])[0][1])
    xs = [np.asarray(evaluator.encoding.encode(s), dtype=float) for s in states]
    before = [model.value(x) for x in xs]  # the scalar path prepares its caches here
    changed = model.get_params() + np.random.default_rng(0).normal(
        0.0, 0.5, model.get_params().size
    )

    twin = COPIES[how](model)
    twin.set_params(changed)
    rebuilt = type(model).from_saved(model.config(), model.arrays(), columns)
    rebuilt.set_params(changed)

    assert [twin.value(x) for x in xs] == [rebuilt.value(x) for x in xs]
    assert [twin.value(x) for x in xs] != before
    assert [model.value(x) for x in xs] == before


@pytest.mark.parametrize(("game_spec", "spec"), MODELS, ids=lambda v: str(v)[:40])
def test_a_copied_evaluator_evaluates_with_its_own_model(game_spec, spec):
    registry = get_registry()
    game = registry.game(game_spec)
    evaluator = build_evaluator(registry, game, spec, seed=3)
    state = game.children(game.initial_state())[0][1]
    before = evaluator.evaluate(state)
    twin = copy.deepcopy(evaluator)
    twin.model.set_params(twin.model.get_params() + 0.5)
    x = np.asarray(twin.encoding.encode(state), dtype=float)
    assert twin.evaluate(state) == pytest.approx(twin.model.value(x)) != before
    assert twin.evaluate_batch([state])[0] == pytest.approx(twin.evaluate(state))
    assert evaluator.evaluate(state) == before
