"""The pure-Python single-position path: ``Encoding.encode_py`` with a model's ``value_py``.

Wherever both exist, ``Evaluator.evaluate`` takes them instead of numpy; it must give the
values of the numpy path (``model.value(encoding.encode(state))``) on every position.
"""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.agent import build_evaluator
from mindgames.model import Evaluator
from mindgames.registry import get_registry

GAMES = ["checkers", "giveaway", "kalah", "kalah:pits=4,seeds=3", "kalah:pits=6,seeds=6"]
MODELS = [
    "material",
    {"model": "material", "scale": 0.1, "weights": {"kings_diff": 1.5}},
    {"model": "linear", "init": [-1.0, 1.0]},
    {"model": "linear", "output": "soft", "init": [-2.0, 2.0]},
    {"model": "linear", "output": "none", "bias": False, "init": [-0.3, 0.3]},
]


def playout(game, seed: int, plies: int = 400) -> list:
    """Every state of one seeded random game (kings, captures and endings included)."""
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.play(state, moves[int(rng.integers(len(moves)))])
        states.append(state)
    return states


def _fits(spec, game_name: str) -> bool:
    """Material weights name draughts columns: skip that model on Kalah."""
    return not (isinstance(spec, dict) and "weights" in spec and game_name.startswith("kalah"))


@pytest.mark.parametrize("game_name", GAMES)
def test_every_encode_py_equals_encode(game_name):
    registry = get_registry()
    game = registry.game(game_name)
    base = game_name.split(":")[0]
    found = 0
    for info in registry.encodings_for(base):
        enc = registry.encoding(game, info.name)
        if enc.encode_py is None:
            continue
        found += 1
        for seed in range(3):
            for state in playout(game, seed):
                fast = enc.encode_py(state)
                assert isinstance(fast, tuple) and len(fast) == enc.width
                assert list(map(float, fast)) == enc.encode(state).tolist(), (info.name, state)
    assert found >= 1  # material has the fast path in every game


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("spec", MODELS, ids=lambda s: s if isinstance(s, str) else str(s)[:40])
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_evaluate_equals_the_numpy_path(game_name, spec, seed):
    if not _fits(spec, game_name):
        return
    registry = get_registry()
    game = registry.game(game_name)
    table = {"model": spec} if isinstance(spec, str) else dict(spec)
    evaluator = build_evaluator(registry, game, {**table, "encoding": "material"}, seed=seed)
    assert evaluator.fast
    enc, model = evaluator.encoding, evaluator.model
    states = playout(game, seed, plies=200)
    fast = [evaluator.evaluate(s) for s in states]
    slow = [model.value(enc.encode(s)) for s in states]
    assert all(isinstance(v, float) for v in fast)
    assert np.allclose(fast, slow, rtol=0, atol=1e-12)
    assert np.allclose(fast, evaluator.evaluate_batch(states), rtol=0, atol=1e-12)


def test_numpy_path_without_encode_py_gives_the_same_values():
    registry = get_registry()
    game = registry.game("checkers")
    fast = build_evaluator(registry, game, "material")
    slow = Evaluator(attrs.evolve(fast.encoding, encode_py=None), fast.model)
    assert fast.fast and not slow.fast
    states = playout(game, 7)
    assert [fast.evaluate(s) for s in states] == pytest.approx(
        [slow.evaluate(s) for s in states], abs=1e-12
    )


@pytest.mark.parametrize("spec", ["raw32", "raw32:king=1.7,piece_sum=true"])
def test_raw32_encode_py_equals_encode(spec):
    registry = get_registry()
    for game_name in ("checkers", "giveaway"):
        game = registry.game(game_name)
        enc = registry.encoding(game, spec)
        states = [s for seed in range(3) for s in playout(game, seed)]
        fast = np.array([enc.encode_py(s) for s in states], dtype=float)
        assert np.allclose(fast, enc.encode_batch(states), rtol=0, atol=1e-12)
        assert np.abs(fast[:, :32]).max() == (1.7 if "king" in spec else 2.0)  # kings seen


@pytest.mark.parametrize("encoding", ["raw32", "material", "samuel"])
def test_models_without_value_py_get_the_same_values(encoding):
    """An MLP has no value_py: with encode_py it gets one array from it, else numpy encodes."""
    registry = get_registry()
    game = registry.game("checkers")
    spec = {"model": "mlp", "encoding": encoding, "hidden": [10], "init": [-0.5, 0.5]}
    evaluator = build_evaluator(registry, game, spec, seed=2)
    assert not evaluator.fast
    states = playout(game, 4)
    slow = [evaluator.model.value(evaluator.encoding.encode(s)) for s in states]
    assert [evaluator.evaluate(s) for s in states] == slow
    assert len(set(slow)) > 10


def test_linear_value_py_follows_set_params_and_fit():
    registry = get_registry()
    game = registry.game("checkers")
    evaluator = build_evaluator(registry, game, {"model": "linear", "encoding": "material"})
    model, enc = evaluator.model, evaluator.encoding
    states = playout(game, 3)
    model.set_params(np.array([0.4, 0.9, -0.2]))
    after_set = [evaluator.evaluate(s) for s in states]
    assert after_set == pytest.approx([model.value(enc.encode(s)) for s in states], abs=1e-12)
    assert evaluator.evaluate(states[0]) == pytest.approx(np.tanh(-0.2), abs=1e-12)
    xs = enc.encode_batch(states)
    model.fit(xs, np.tanh(xs @ np.array([0.05, 0.1]) + 0.02))
    after_fit = [evaluator.evaluate(s) for s in states]
    assert after_fit != after_set
    assert after_fit == pytest.approx([model.value(enc.encode(s)) for s in states], abs=1e-12)


def test_linear_value_py_on_a_column_subset():
    registry = get_registry()
    game = registry.game("checkers")
    spec = {"model": "linear", "encoding": "material", "columns": ["kings_diff"], "init": [1, 2]}
    evaluator = build_evaluator(registry, game, spec, seed=5)
    states = playout(game, 11)
    fast = [evaluator.evaluate(s) for s in states]
    slow = [evaluator.model.value(evaluator.encoding.encode(s)) for s in states]
    assert fast == pytest.approx(slow, abs=1e-12)
    assert len(set(fast)) > 1  # kings appear in the playout, so the value moves


@pytest.mark.parametrize("output", ["tanh", "soft", "none"])
def test_linear_on_raw32_takes_the_pure_path_with_the_same_values(output):
    registry = get_registry()
    game = registry.game("giveaway")
    spec = {"model": "linear", "encoding": "raw32:piece_sum=true", "output": output}
    evaluator = build_evaluator(registry, game, {**spec, "init": [-0.3, 0.3]}, seed=9)
    assert evaluator.fast
    states = [s for seed in range(2) for s in playout(game, seed)]
    fast = [evaluator.evaluate(s) for s in states]
    slow = [evaluator.model.value(evaluator.encoding.encode(s)) for s in states]
    assert np.allclose(fast, slow, rtol=0, atol=1e-12)
    assert len(set(fast)) > 10


@pytest.mark.parametrize(
    ("spec", "fast", "has_encode_py"),
    [
        ("material", True, True),  # encode_py and value_py
        ({"model": "mlp", "encoding": "raw32", "hidden": [10]}, False, True),  # encode_py only
        ({"model": "mlp", "encoding": "samuel", "hidden": [10]}, False, False),  # numpy only
    ],
    ids=["fast", "encode_py", "numpy"],
)
def test_steps_compose_to_evaluate_on_every_path(spec, fast, has_encode_py):
    """Search leaves call ``Evaluator.steps`` themselves: the two calls are ``evaluate``."""
    registry = get_registry()
    game = registry.game("checkers")
    evaluator = build_evaluator(registry, game, spec, seed=3)
    # each case takes the path it is named after (else a path would go untested)
    assert (evaluator.fast, evaluator.encoding.encode_py is not None) == (fast, has_encode_py)
    encode, value = evaluator.steps
    states = playout(game, 5)
    assert [value(encode(s)) for s in states] == [evaluator.evaluate(s) for s in states]
    assert len({evaluator.evaluate(s) for s in states}) > 3
