"""The phased model: hand-written components reproduce the 3Ph pseudo-code; presets route."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames import ConfigError
from mindgames.agent import build_evaluator
from mindgames.config import structure
from mindgames.evaluators.phased import F8, PhasedConfig
from mindgames.registry import get_registry

#: 3Ph written out by hand: one operator per condition, the last component is the ELSE
W_END = [1.0, 2.0, 0.5, 0.25, 0.1, 0.2, -0.05, 0.3]
W_BEGIN = [0.7, -1.0, 0.4, 0.0, 0.3, 0.0, 0.02, -0.1]
W_KINGS = [0.2, 0.9, 0.1, 0.6, 0.05, 0.4, -0.01, 0.0]
HAND = {
    "model": "phased",
    "encoding": "gac11",
    "output": "tanh",
    "scale": 0.1,
    "components": [
        {
            "name": "ending",
            "op": "or",
            "when": [{"column": "pieces_mine", "hi": 3}, {"column": "pieces_theirs", "hi": 3}],
            "columns": list(F8),
            "weights": W_END,
        },
        {
            "name": "beginning",
            "op": "and",
            "when": [
                {"column": "pieces_mine", "lo": 4},
                {"column": "pieces_theirs", "lo": 4},
                {"column": "kings_mine", "hi": 0},
                {"column": "kings_theirs", "hi": 0},
            ],
            "columns": list(F8),
            "weights": W_BEGIN,
        },
        {"name": "kings", "columns": list(F8), "weights": W_KINGS},  # ELSE
    ],
}


def pseudo_code(f: dict[str, float]) -> float:
    """The 3Ph heuristic as the papers write it, on the gac11 features of the side to move."""
    features = [f[c] for c in F8]
    if f["pieces_mine"] <= 3 or f["pieces_theirs"] <= 3:
        weights = W_END
    elif f["kings_mine"] == 0 and f["kings_theirs"] == 0:
        weights = W_BEGIN
    else:
        weights = W_KINGS
    return float(np.tanh(0.1 * sum(w * x for w, x in zip(weights, features, strict=True))))


#: a position for each branch (giveaway, Black to move)
BRANCHES = {
    "beginning": "B:W21,22,23,24,25,26,27:B1,2,3,4,9,10",
    "ending": "B:W21,22,23,24,25,26,27:B1,2,10",
    "ending-theirs": "B:W21,K22:B1,2,3,4,9,10",
    "kings-mine": "B:W21,22,23,24,25,26,27:B1,2,3,K4,9,10",
    "kings-both": "B:W21,22,K23,24,25,26,27:B1,2,3,K4,9,10",
    "kings-theirs": "B:WK21,22,23,24,25,26,27:B1,2,3,4,9,10",
}


@pytest.fixture(scope="module")
def setup():
    registry = get_registry()
    game = registry.game("giveaway")
    return game, registry.encoding(game, "gac11")


@pytest.mark.parametrize("branch", sorted(BRANCHES))
def test_hand_written_3ph_reproduces_the_pseudo_code(setup, branch):
    game, encoding = setup
    evaluator = build_evaluator(get_registry(), game, HAND)
    state = game.parse_position(BRANCHES[branch])
    x = encoding.encode(state)
    expected = pseudo_code(dict(zip(encoding.columns, x, strict=True)))
    assert evaluator.evaluate(state) == pytest.approx(expected, abs=1e-12)
    assert evaluator.evaluate_batch([state])[0] == pytest.approx(expected, abs=1e-12)
    phase = evaluator.model.phase(x)
    assert evaluator.model.components[phase].name == {
        "beginning": "beginning",
        "ending": "ending",
        "ending-theirs": "ending",
    }.get(branch, "kings")


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        (
            "3Ph",
            {
                "beginning": 1,
                "ending": 0,
                "ending-theirs": 0,
                "kings-mine": 2,
                "kings-both": 2,
                "kings-theirs": 2,
            },
        ),
        (
            "5Ph",
            {
                "beginning": 1,
                "ending": 0,
                "ending-theirs": 0,
                "kings-mine": 2,
                "kings-both": 4,
                "kings-theirs": 3,
            },
        ),
        ("8F", dict.fromkeys(BRANCHES, 0)),
    ],
)
def test_presets_route_each_branch_to_its_phase(setup, preset, expected):
    game, encoding = setup
    model = build_evaluator(
        get_registry(), game, {"model": "phased", "encoding": "gac11", "preset": preset}
    ).model
    for branch, text in BRANCHES.items():
        assert model.phase(encoding.encode(game.parse_position(text))) == expected[branch], branch


@settings(max_examples=25)
@given(st.integers(0, 2**31))
def test_hand_model_matches_pseudo_code_on_random_positions(seed):
    game = get_registry().game("giveaway")
    encoding = get_registry().encoding(game, "gac11")
    evaluator = build_evaluator(get_registry(), game, HAND)
    rng = np.random.default_rng(seed)
    states, state = [], game.initial_state()
    for _ in range(120):  # every position of one random game
        if game.is_terminal(state):
            break
        states.append(state)
        moves = game.legal_moves(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    got = evaluator.evaluate_batch(states)
    for state, value in zip(states, got, strict=True):
        x = encoding.encode(state)
        assert value == pytest.approx(pseudo_code(dict(zip(encoding.columns, x, strict=True))))


def test_params_are_the_weights_in_component_order(setup):
    game, _ = setup
    model = build_evaluator(get_registry(), game, HAND).model
    np.testing.assert_array_equal(model.get_params(), W_END + W_BEGIN + W_KINGS)
    assert [g[0] for g in model.param_groups()] == ["ending", "beginning", "kings"]
    model.set_params(np.zeros(24))
    assert model.value(np.ones(33)) == 0.0


def test_hand_config_is_writable_in_toml():
    import tomllib

    text = """
preset = "3Ph"
output = "soft"
scale = 0.5
"""
    config = structure(tomllib.loads(text), PhasedConfig, where="t")
    assert config.preset == "3Ph"
    text = """
[[components]]
name = "ending"
op = "or"
negate = false
when = [{column = "pieces_mine", hi = 3}, {column = "pieces_theirs", hi = 3}]
columns = ["men_diff", "kings_diff"]
weights = [1.0, 1.5]
"""
    config = structure(tomllib.loads(text), PhasedConfig, where="t")
    assert config.components[0].when[1].column == "pieces_theirs"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"encoding": "raw32", "preset": "3Ph"}, "preset '3Ph' needs the draughts gac11 columns"),
        ({"encoding": "gac11", "preset": "7Ph"}, "unknown preset '7Ph'"),
        ({"encoding": "gac11"}, "give a preset or at least one component"),
        (
            {"encoding": "gac11", "components": [{"columns": ["men_diff"], "op": "xor"}]},
            "op must be 'and' or 'or'",
        ),
        (
            {"encoding": "gac11", "components": [{"columns": ["men_diff"], "weights": [1, 2]}]},
            "2 weights for 1 columns",
        ),
        (
            {
                "encoding": "gac11",
                "components": [{"columns": ["men_diff"], "when": [{"column": "x"}]}],
            },
            "no column 'x'",
        ),
    ],
)
def test_bad_phased_configs(setup, table, message):
    game, _ = setup
    with pytest.raises(ConfigError, match=message):
        build_evaluator(get_registry(), game, {"model": "phased", **table})


def test_negation_applies_to_the_whole_condition(setup):
    game, encoding = setup
    no_kings = {
        "model": "phased",
        "encoding": "gac11",
        "components": [
            {
                "name": "no kings",
                "op": "or",
                "negate": True,  # NOT(kings_mine BETWEEN 1 AND inf OR kings_theirs BETWEEN 1 ...)
                "when": [{"column": "kings_mine", "lo": 1}, {"column": "kings_theirs", "lo": 1}],
                "columns": ["men_diff"],
                "weights": [1.0],
            }
        ],
    }
    model = build_evaluator(get_registry(), game, no_kings).model
    for branch, text in BRANCHES.items():
        x = encoding.encode(game.parse_position(text))
        kings = x[encoding.columns.index("kings_mine")] + x[encoding.columns.index("kings_theirs")]
        assert model.phase(x) == (0 if kings == 0 else -1), branch
        men = x[encoding.columns.index("men_diff")]
        assert model.value(x) == pytest.approx(men / (1 + abs(men)) if kings == 0 else 0.0)
