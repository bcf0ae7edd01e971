"""The shipped training examples run end to end with the real games, evaluators and searchers
(with a handful of games), and the trained model plays through an agent spec."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_agent, build_evaluator
from mindgames.modelfile import load_evaluator
from mindgames.registry import get_registry
from mindgames.training import build, load_config, read_history, run

from support.examples import EXAMPLES, shrunk
from support.positions import random_positions


def test_neurodraughts_example_runs_a_few_games_with_lookahead(tmp_path):
    config, raw = shrunk(
        "checkers-neurodraughts.toml", tmp_path, games=2, batch=2, max_plies=24, checkpoint_every=0
    )
    assert raw["eval"]["encoding"] == "samuel" and raw["eval"].get("direct") is True
    assert raw["learner"]["lookahead"].startswith("alphabeta")
    assert raw["learner"]["regime"] == "selfplay"  # why not cloning: docs/learners.md
    done = run(config, out=tmp_path / "nd")
    (row,) = read_history(done.directory)
    assert row["games"] == 2 and "test" not in row
    assert 0 < row["mean_plies"] <= 24 and 0 < row["mean_pieces"] <= 24
    registry = get_registry()
    game, evaluator, meta = load_evaluator(done.model_path, registry)
    assert game.name == "checkers" and evaluator.encoding.name == "samuel"
    assert meta["provenance"]["learner"] == "td"
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{done.model_path}")
    result = agent.choose(game, game.initial_state(), np.random.default_rng(0))
    assert result.move in game.legal_moves(game.initial_state())


@pytest.mark.parametrize(
    "options",
    [
        {"games": 16, "lockstep": 1},
        {"games": 16, "lockstep": 8},
        {"games": 4, "lookahead": "alphabeta:depth=2", "td_leaf": True},
        {"games": 4, "explore": "softmax", "temperature": 0.05},
    ],
    ids=["serial", "lockstep", "td-leaf", "softmax"],
)
def test_kalah_example_runs_and_its_model_plays(tmp_path, options):
    batch = options["games"] // 2
    config, raw = shrunk("kalah-td.toml", tmp_path, batch=batch, checkpoint_every=batch, **options)
    assert raw["eval"]["hidden"] == [30] and raw["eval"]["encoding"].startswith("kalah14")
    registry = get_registry()
    game = registry.game(raw["game"])
    start = build_evaluator(registry, game, raw["eval"], seed=raw["seed"]).model.get_params()
    fresh = run(config, out=tmp_path / "a")
    before = fresh.result.evaluator.model.get_params()
    assert [r["games"] for r in fresh.result.history] == [batch, 2 * batch]
    assert not np.allclose(before, start)  # it learned
    again = run(config, out=tmp_path / "b").result.evaluator.model.get_params()
    np.testing.assert_array_equal(before, again)  # same config and seed: same weights
    game, evaluator, _ = load_evaluator(tmp_path / "a" / "model.npz", registry)
    np.testing.assert_array_equal(evaluator.model.get_params(), before)
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{tmp_path / 'a' / 'model.npz'}")
    assert agent.choose(game, game.initial_state(), np.random.default_rng(0)).move in (
        game.legal_moves(game.initial_state())
    )


def test_kalah_strong_example_learns_margins_from_random_starts_and_plays(tmp_path):
    config, raw = shrunk("kalah-td-strong.toml", tmp_path, games=8, batch=4, checkpoint_every=4)
    learner = raw["learner"]
    assert learner["outcome"] == "margin" and learner["random_plies_max"] > 0
    assert "kalah-moves" in raw["eval"]["encoding"]
    done = run(config, out=tmp_path / "strong")
    assert [r["games"] for r in done.result.history] == [4, 8]
    registry = get_registry()
    game, evaluator, _ = load_evaluator(done.model_path, registry)
    assert evaluator.encoding.width == 14 + 26  # kalah14 + kalah-moves
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{done.model_path}")
    assert agent.choose(game, game.initial_state(), np.random.default_rng(0)).move in (
        game.legal_moves(game.initial_state())
    )


def test_giveaway_example_keeps_its_values_off_the_tanh_bounds(tmp_path):
    """The gac11 inputs are counts up to ~30 (the distance sums), so the 1/fan-in step (1/33)
    moves the pre-activation by about 40 times the TD error and the tanh saturates within 100
    games; the example's alpha keeps it about 0.3 (docs/learners.md)."""
    registry = get_registry()
    game = registry.game("giveaway")
    states = random_positions(game, 100, seed=0)
    saturated = {}
    for name, alpha in (("example", None), ("fan-in", 1.0 / 33)):
        options = {"alpha": alpha} if alpha else {}
        (tmp_path / name).mkdir()
        config, raw = shrunk(
            "giveaway-td.toml", tmp_path / name, games=100, batch=100, checkpoint_every=0, **options
        )
        values = run(config, out=tmp_path / name / "run").result.evaluator.evaluate_batch(states)
        saturated[name] = float(np.mean(np.abs(values) > 0.99))
    assert raw["eval"]["encoding"] == "gac11"
    assert saturated["fan-in"] > 0.5 and saturated["example"] < 0.05, saturated


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_every_training_example_builds(path):
    config, _ = load_config(path)
    game, evaluator, learner, name = build(config, get_registry(), config.seed, where=str(path))
    assert game.name in ("kalah", "checkers", "giveaway")
    assert name in ("td", "coevolution", "supervised", "layered", "hg", "shg")
    if name == "td":  # the checkers run at Layered Learning's CPU time is the one shorter run
        assert learner.games >= (500 if path.name.endswith("-ll-time.toml") else 1000)
    elif name == "coevolution":
        assert learner.generations >= 10
    elif name == "layered":
        assert learner.stages >= 4 and learner.positions >= 200
    elif name in ("hg", "shg"):
        assert learner.total() * (learner.steps or learner.population) >= 100
    elif learner.target == "td":  # an epoch is a pass of TD(lambda) along every game
        assert learner.fit.epochs >= 20
    else:
        assert learner.fit.epochs >= 100
    assert evaluator.encoding.width == len(evaluator.encoding.columns) > 0
