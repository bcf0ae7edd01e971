"""The encodings the core offers every game, and encodings joined with ``+``."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.errors import ConfigError
from mindgames.modelfile import load_evaluator, save_evaluator
from mindgames.registry import get_registry
from mindgames.spec import split_plus


@pytest.mark.parametrize("game_name", ["checkers", "giveaway", "kalah"])
def test_every_game_has_a_progress_encoding(game_name):
    registry = get_registry()
    game = registry.game(game_name)
    assert "progress" in [e.name for e in registry.encodings_for(game_name)]
    enc = registry.encoding(game, "progress")
    state = game.initial_state()
    for _ in range(3):
        state = game.play(state, game.legal_moves(state)[0])
    assert enc.columns == ("plies",)
    assert enc.encode(state).tolist() == [float(game.progress(state))] == [3.0]


def test_joined_encodings_keep_every_column_in_order():
    registry = get_registry()
    game = registry.game("checkers")
    joined = registry.encoding(game, "material+progress")
    material = registry.encoding(game, "material")
    assert joined.name == "material+progress"
    assert joined.columns == (*material.columns, "plies")
    states = [
        game.initial_state(),
        game.play(game.initial_state(), game.legal_moves(game.initial_state())[0]),
    ]
    batch = joined.encode_batch(states)
    assert batch.shape == (2, material.width + 1)
    assert np.array_equal(batch[1], joined.encode(states[1]))


def test_a_column_in_two_parts_is_refused():
    registry = get_registry()
    game = registry.game("kalah")
    with pytest.raises(ConfigError, match="appears in more than one part"):
        registry.encoding(game, "material+material")


@pytest.mark.parametrize(
    "spec,parts",
    [
        ("raw32+progress", ["raw32", "progress"]),
        ("raw32:king=3+progress", ["raw32:king=3", "progress"]),
        ("raw32:sum=true+gac11", ["raw32:sum=true", "gac11"]),
        ("linear:x=1e+3", ["linear:x=1e+3"]),
        ("x:k=+1", ["x:k=+1"]),
    ],
)
def test_plus_splits_names_not_values(spec, parts):
    assert split_plus(spec) == parts


def test_staged_model_routes_on_plies_played(tmp_path):
    """Layered Learning's per-stage evaluators: one sub-model per range of plies played."""
    registry = get_registry()
    game = registry.game("kalah")
    table = {
        "model": "staged",
        "encoding": "kalah14+progress",
        "by": ["plies"],
        "measure": "sum",
        "bounds": [2],
        "member": {"model": "linear", "init": [-1.0, 1.0]},
    }
    evaluator = build_evaluator(registry, game, table, seed=3)
    model = evaluator.model
    early = game.initial_state()
    late = early
    while game.progress(late) < 2:
        late = game.play(late, game.legal_moves(late)[-1])
    enc = evaluator.encoding
    assert model.stage(enc.encode(early)) == 0 and model.stage(enc.encode(late)) == 1
    assert evaluator.evaluate(early) == model.members[0].value(enc.encode(early))
    assert evaluator.evaluate(late) == model.members[1].value(enc.encode(late))
    path = tmp_path / "staged.npz"
    save_evaluator(path, game, evaluator)
    _, loaded, _ = load_evaluator(path, registry, game)
    assert loaded.encoding.name == "kalah14+progress"
    assert loaded.evaluate(late) == evaluator.evaluate(late)


def test_joined_encodings_keep_the_pure_python_path_when_every_part_has_one():
    registry = get_registry()
    game = registry.game("checkers")
    joined = registry.encoding(game, "material+progress")
    state = game.play(game.initial_state(), game.legal_moves(game.initial_state())[0])
    assert joined.encode_py is not None
    assert list(joined.encode_py(state)) == joined.encode(state).tolist()
    without = registry.encoding(game, "gac11+progress")
    assert (without.encode_py is None) == (registry.encoding(game, "gac11").encode_py is None)


def test_joined_encodings_keep_the_column_groups_of_their_parts():
    """``raw32+progress`` still offers raw32's ``subsquares`` for a masked model's ``groups``."""
    registry = get_registry()
    game = registry.game("checkers")
    raw = registry.encoding(game, "raw32")
    joined = registry.encoding(game, "raw32+progress")
    assert joined.groups["subsquares"] == raw.groups["subsquares"]
    assert len(joined.groups["subsquares"]) == 91
    evaluator = build_evaluator(
        registry,
        game,
        {"model": "mlp", "encoding": "raw32+progress", "hidden": [91], "groups": "subsquares"},
    )
    assert np.isfinite(evaluator.evaluate(game.initial_state()))
