"""The TD(lambda) learner: the update against the formula by hand, convergence on the 5-state
random walk, options, cloning, start positions and look-ahead."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
import pytest

from mindgames import (
    Encoding,
    EncodingInfo,
    Evaluator,
    GameInfo,
    Searcher,
    SearcherInfo,
    SearchResult,
    hookimpl,
)
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz
from mindgames.plugins.learners.td import TDLearner, TDUpdate, alpha_vector, copy_evaluator

from support.tinymodel import TinyLinear
from support.walk import RandomWalk

# --- a 5-state random walk as a game ------------------------------------------------------


def onehot(game: RandomWalk) -> Encoding:
    def encode(state) -> np.ndarray:
        x = np.zeros(5)
        x[state - 1] = 1.0
        return x

    return Encoding("onehot", tuple("ABCDE"), encode)


def tiny_evaluator(encoding: Encoding, weights=None) -> Evaluator:
    w = np.zeros(encoding.width) if weights is None else np.asarray(weights, dtype=float)
    return Evaluator(encoding, TinyLinear(w))


# --- the update against the formula -------------------------------------------------------


def test_update_matches_sutton_formula_by_hand():
    """Same side throughout, gamma = 1: dw_t = alpha (P_{t+1} - P_t) sum_k lam^{t-k} grad P_k."""
    rng = np.random.default_rng(3)
    xs = rng.normal(size=(4, 3))
    w0 = np.array([0.2, -0.1, 0.3])
    alpha = np.array([0.5, 0.1, 0.2])
    lam, reward = 0.6, 1.0
    model = TinyLinear(w0)
    update = TDUpdate(model, alpha, lam)
    v0, g0 = model.value_and_grad(xs[0])
    update.begin(v0, g0)
    for x in xs[1:]:
        update.step(*model.value_and_grad(x), same_side=True)
    update.finish(reward)

    # By hand, online: values and gradients under the weights in force at each step.
    w = w0.copy()
    grads, values = [], []
    for t in range(len(xs) + 1):
        if t < len(xs):
            p = np.tanh(w @ xs[t])
            values.append(p)
            grads.append((1 - p * p) * xs[t])
        if t == 0:
            continue
        target = values[t] if t < len(xs) else reward
        trace = sum(lam ** (t - 1 - k) * grads[k] for k in range(t))
        w = w + alpha * (target - values[t - 1]) * trace
    np.testing.assert_allclose(model.get_params(), w, rtol=1e-12, atol=1e-14)


def test_update_negates_successor_and_trace_when_the_side_changes():
    """Alternating sides: delta = -gamma P_{t+1} - P_t and the trace flips its sign."""
    xs = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, -1.0], [0.5, 0.5, 0.5]])
    w0 = np.array([0.3, 0.2, -0.4])
    alpha, lam, gamma, reward = 0.1, 0.8, 0.9, -1.0
    model = TinyLinear(w0)
    update = TDUpdate(model, np.full(3, alpha), lam, gamma)
    update.begin(*model.value_and_grad(xs[0]))
    update.step(*model.value_and_grad(xs[1]), same_side=False)
    update.step(*model.value_and_grad(xs[2]), same_side=False)
    update.finish(reward)

    # Hand computation from player 0's fixed view: Q_t = sigma_t P_t, sigma = +1, -1, +1.
    w = w0.copy()
    sigma = [1.0, -1.0, 1.0]
    q_prev = None
    e = np.zeros(3)
    for t in range(3):
        p = np.tanh(w @ xs[t])
        q, dq = sigma[t] * p, sigma[t] * (1 - p * p) * xs[t]
        if q_prev is not None:
            w = w + alpha * (gamma * q - q_prev) * e
        e = gamma * lam * e + dq
        q_prev = q
    # the last mover (sigma +1) gets `reward`: in player 0's view that is +reward
    w = w + alpha * (sigma[2] * reward - q_prev) * e
    np.testing.assert_allclose(model.get_params(), w, rtol=1e-12, atol=1e-14)


def test_momentum_is_applied_only_where_it_agrees_in_sign():
    model = TinyLinear(np.zeros(2))
    update = TDUpdate(model, np.ones(2), lam=0.0, momentum=0.5, direction_check=True)
    update.trace = np.array([1.0, 1.0])
    update.p = 0.0
    update.velocity = np.array([0.4, -0.4])
    update.finish(0.2)  # change = [0.2, 0.2]; carry = [0.2, -0.2] -> only the first agrees
    np.testing.assert_allclose(model.get_params(), [0.4, 0.2])
    np.testing.assert_allclose(update.velocity, [0.4, 0.2])

    plain = TinyLinear(np.zeros(2))
    free = TDUpdate(plain, np.ones(2), lam=0.0, momentum=0.5, direction_check=False)
    free.trace = np.array([1.0, 1.0])
    free.velocity = np.array([0.4, -0.4])
    free.finish(0.2)
    np.testing.assert_allclose(plain.get_params(), [0.4, 0.0])


# --- convergence -----------------------------------------------------------------------------


@pytest.mark.parametrize("lam", [0.0, 0.8])
def test_random_walk_converges_to_the_true_values(tmp_path, lam):
    """Reward 1 on the right, 0 on the left: the true values are 1/6 .. 5/6."""
    game = RandomWalk()
    evaluator = tiny_evaluator(onehot(game))
    learner = TDLearner(games=3000, batch=1000, lam=lam, alpha=0.02, epsilon=1.0, win=1.0, loss=0.0)
    learner.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path)
    learned = evaluator.evaluate_batch([1, 2, 3, 4, 5])
    truth = np.arange(1, 6) / 6
    assert np.sqrt(np.mean((learned - truth) ** 2)) < 0.05, learned
    assert np.all(np.diff(learned) > 0)


# --- step sizes ----------------------------------------------------------------------------


class Layered(TinyLinear):
    """A tiny model that declares two parameter groups (as an MLP would)."""

    def param_groups(self):
        return [("hidden", 2, 4), ("output", 1, 2)]


def test_alpha_defaults_to_one_over_fan_in_per_group():
    model = Layered(np.zeros(3))
    np.testing.assert_allclose(alpha_vector(model, 3, None), [0.25, 0.25, 0.5])
    np.testing.assert_allclose(alpha_vector(model, 3, [0.1, 0.3]), [0.1, 0.1, 0.3])
    np.testing.assert_allclose(alpha_vector(model, 3, 0.2), [0.2] * 3)
    with pytest.raises(ConfigError, match="2 parameter groups"):
        alpha_vector(model, 3, [0.1, 0.2, 0.3])


def test_alpha_without_groups_is_one_over_inputs():
    np.testing.assert_allclose(alpha_vector(TinyLinear(np.zeros(4)), 4, None), [0.25] * 4)


# --- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"batch": 0}, "batch"),
        ({"td_leaf": True}, "td_leaf needs a lookahead"),
        ({"explore": "softmax", "lookahead": "x"}, "softmax"),
        ({"lam": 1.5}, "lam"),
        ({"alpha": [0.1, -1]}, "alpha"),
        ({"regime": "league"}, "regime"),
    ],
)
def test_bad_options_are_refused(registry, options, message):
    with pytest.raises(ValueError, match=message):
        TDLearner(**options)
    with pytest.raises(ConfigError, match="^test: "):
        registry.learner("td", options, where="test")


def test_unknown_option_is_named(registry):
    with pytest.raises(ConfigError, match="lamda"):
        registry.learner("td", {"lamda": 0.5}, where="test")


# --- regimes, starts, look-ahead on tic-tac-toe --------------------------------------------


def ttt(registry):
    game = registry.game("tictactoe")
    encoding = registry.encoding(game, "cells")
    return game, tiny_evaluator(encoding, np.random.default_rng(0).uniform(-0.1, 0.1, 9))


def test_selfplay_changes_weights_and_reports_rows(registry, tmp_path):
    game, evaluator = ttt(registry)
    before = evaluator.model.get_params()
    rows = []
    learner = TDLearner(games=30, batch=10, checkpoint_every=0, alpha=0.1, epsilon=0.2)
    result = learner.train(
        game, evaluator, np.random.default_rng(0), workdir=tmp_path, progress=rows.append
    )
    assert [r["games"] for r in rows] == [10, 20, 30]
    assert list(result.history) == rows
    assert all(5 <= r["mean_plies"] <= 9 for r in rows)
    assert not np.array_equal(before, evaluator.model.get_params())
    assert (tmp_path / "checkpoint.npz").exists()  # always written at the end


def test_clone_regime_tests_and_copies_when_the_learner_scores(registry, tmp_path):
    game, evaluator = ttt(registry)
    learner = TDLearner(games=20, batch=10, regime="clone", clone_points=0, alpha=0.1)
    result = learner.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path)
    rows = result.history
    assert [r["clones"] for r in rows] == [1, 2]
    assert all(len(r["test"]) == 2 and set(r["test"]) <= {0, 1, 2} for r in rows)

    never = TDLearner(games=10, batch=10, regime="clone", clone_points=4, alpha=0.1)
    game, evaluator = ttt(registry)
    out = never.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path / "b")
    assert out.history[0]["cloned"] is (sum(out.history[0]["test"]) >= 4)


def test_clone_regime_learns_only_from_the_learner_positions(registry, tmp_path):
    """Learner vs a frozen clone: the clone's weights stay put when it never copies."""
    game, evaluator = ttt(registry)
    learner = TDLearner(games=10, batch=10, regime="clone", alpha=0.1)
    clone = copy_evaluator(evaluator)
    update = TDUpdate(evaluator.model, np.full(9, 0.1), 0.7)
    before = clone.model.get_params()
    learner.play_game(
        game,
        game.initial_state(),
        (evaluator, clone),
        (True, False),
        update,
        None,
        np.random.default_rng(1),
        {"epsilon": 0.0},
    )
    np.testing.assert_array_equal(clone.model.get_params(), before)
    assert not np.array_equal(evaluator.model.get_params(), before)


def test_start_positions_and_draw_rewards(registry, tmp_path):
    game, evaluator = ttt(registry)
    starts = tmp_path / "starts.txt"
    starts.write_text("# comment\nXOXOXO... x\t0.5\nXO....... x\n", encoding="utf-8")
    learner = TDLearner(games=4, batch=4, start_positions=str(starts), epsilon=0.5)
    result = learner.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path)
    assert result.history[0]["mean_plies"] <= 7  # started from positions with moves played
    # a draw with a per-start reward counts for the start's side to move, negated for the other
    assert learner.reward(game, ((1, 2, 1, 1, 2, 2, 2, 1, 1), 0), 0, 0, 0.5) == 0.5
    assert learner.reward(game, ((1, 2, 1, 1, 2, 2, 2, 1, 1), 0), 1, 0, 0.5) == -0.5
    assert learner.reward(game, ((1, 2, 1, 1, 2, 2, 2, 1, 1), 0), 1, 0, None) == 0.0

    bad = tmp_path / "bad.txt"
    bad.write_text("XOXOXO... x\nnonsense\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.txt:2"):
        TDLearner(start_positions=str(bad)).train(
            game, evaluator, np.random.default_rng(0), workdir=tmp_path
        )


def test_a_start_positions_file_that_is_not_text_is_one_line(tmp_path):
    from support.cli import one_line_error, run

    starts = tmp_path / "starts.txt"
    starts.write_bytes(b"PK\x03\x04\x14\x00\xcf\xc9\xff\xfe\n")  # a zip, not UTF-8 text
    config = tmp_path / "td.toml"
    config.write_text(
        'game = "kalah:pits=3,seeds=2"\n[eval]\nmodel = "linear"\nencoding = "kalah14"\n'
        f'[learner]\nname = "td"\ngames = 2\nstart_positions = "{starts}"\n',
        encoding="utf-8",
    )
    done = run("train", config, "--out", tmp_path / "run")
    one_line_error(done, f"start_positions {starts}: cannot read", "utf-8")


@attrs.frozen
class OnePly(Searcher):
    """A test searcher: the best move on one ply, with its one-move principal variation."""

    name = "oneply"

    def search(self, game, state, evaluator, rng):
        side = game.to_move(state)
        best = None
        for move in game.legal_moves(state):
            child = game.play(state, move)
            if game.is_terminal(child):
                value = game.returns(child)[side]
            else:
                value = evaluator.evaluate(child)
                value = value if game.to_move(child) == side else -value
            if best is None or value > best[1]:
                best = (move, value)
        return SearchResult(best[0], best[1], (best[0],))


class OnePlyPlugin:
    @hookimpl
    def mindgames_searchers(self) -> Sequence[SearcherInfo]:
        return [SearcherInfo("oneply", OnePly)]

    @hookimpl
    def mindgames_games(self) -> Sequence[GameInfo]:
        return [GameInfo("randomwalk", RandomWalk)]

    @hookimpl
    def mindgames_encodings(self) -> Sequence[EncodingInfo]:
        return [EncodingInfo("randomwalk", "onehot", lambda game, options: onehot(game))]


@pytest.fixture
def with_searcher(monkeypatch):
    from mindgames import registry as registry_module

    from support.tictactoe import TicTacToePlugin
    from support.tinymodel import TinyModelPlugin

    reg = registry_module.registry_with(
        ("tictactoe", TicTacToePlugin()), ("tiny", TinyModelPlugin()), ("oneply", OnePlyPlugin())
    )
    monkeypatch.setattr(registry_module, "_default", reg)
    return reg


@pytest.mark.parametrize("leaf", [False, True])
def test_lookahead_and_td_leaf_train(with_searcher, tmp_path, leaf):
    game, evaluator = ttt(with_searcher)
    before = evaluator.model.get_params()
    learner = with_searcher.learner(
        "td",
        {"games": 6, "batch": 3, "lookahead": "oneply", "td_leaf": leaf, "alpha": 0.1},
        where="test",
    )
    result = learner.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path)
    assert len(result.history) == 2
    assert not np.array_equal(before, evaluator.model.get_params())


def test_td_leaf_learns_from_the_leaf_of_the_principal_variation(with_searcher):
    """On the random walk the 1-ply PV leaf of square 3 is square 4 (the better neighbour)."""
    game = RandomWalk()
    evaluator = tiny_evaluator(onehot(game), [0.0, 0.0, 0.0, 0.5, 0.0])
    learner = TDLearner(lookahead="oneply", td_leaf=True)
    value, grad = learner._leaf(game, 3, (1,), evaluator, 0)
    assert value == pytest.approx(np.tanh(0.5))
    np.testing.assert_allclose(grad, [0, 0, 0, 1 - np.tanh(0.5) ** 2, 0])
    value, grad = learner._leaf(game, 5, (1,), evaluator, 0)
    assert value == 1.0 and not grad.any()


def test_unknown_lookahead_searcher_is_named(with_searcher, tmp_path):
    game, evaluator = ttt(with_searcher)
    learner = TDLearner(lookahead="deepblue:depth=2")
    with pytest.raises(MindgamesError, match="deepblue"):
        learner.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path)


# --- lockstep ------------------------------------------------------------------------------


def test_lockstep_random_walk_converges_to_the_true_values(tmp_path):
    game = RandomWalk()
    evaluator = tiny_evaluator(onehot(game))
    learner = TDLearner(
        games=3000, batch=1000, lam=0.5, alpha=0.01, epsilon=1.0, win=1.0, loss=0.0, lockstep=8
    )
    result = learner.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path)
    assert [r["games"] for r in result.history] == [1000, 2000, 3000]
    learned = evaluator.evaluate_batch([1, 2, 3, 4, 5])
    assert np.sqrt(np.mean((learned - np.arange(1, 6) / 6) ** 2)) < 0.05, learned


def test_lockstep_of_one_game_equals_the_serial_update(registry, tmp_path):
    """With one slot and greedy play, lockstep is the serial algorithm step for step."""
    game, a = ttt(registry)
    _, b = ttt(registry)
    options = {"games": 5, "batch": 5, "alpha": 0.1, "epsilon": 0.0, "momentum": 0.3}
    serial = TDLearner(**options)
    lock = TDLearner(**options, lockstep=2)
    serial.train(game, a, np.random.default_rng(0), workdir=tmp_path / "a")
    # lockstep=2 but one game per batch: a single slot is used
    TDLearner(**{**options, "batch": 1}, lockstep=2).train(
        game, b, np.random.default_rng(0), workdir=tmp_path / "b"
    )
    np.testing.assert_allclose(a.model.get_params(), b.model.get_params(), rtol=1e-12)
    assert lock.lockstep == 2


def test_lockstep_needs_plain_selfplay():
    with pytest.raises(ValueError, match="lockstep"):
        TDLearner(lockstep=4, regime="clone")
    with pytest.raises(ValueError, match="lockstep"):
        TDLearner(lockstep=4, lookahead="oneply")


@attrs.frozen
class CountedWalk(RandomWalk):
    """The random walk offering ``pieces``: the history reports its mean at the end."""

    def pieces(self, state) -> int:
        return state


def test_history_reports_mean_pieces_when_the_game_offers_it(tmp_path):
    game = CountedWalk()
    evaluator = tiny_evaluator(onehot(game))
    result = TDLearner(games=50, batch=50, epsilon=1.0).train(
        game, evaluator, np.random.default_rng(2), workdir=tmp_path
    )
    assert 0.0 < result.history[0]["mean_pieces"] < 6.0
    plain = TDLearner(games=5, batch=5).train(
        RandomWalk(), tiny_evaluator(onehot(game)), np.random.default_rng(2), workdir=tmp_path
    )
    assert "mean_pieces" not in plain.history[0]


def test_alpha_decays_linearly_to_its_end_scale(registry, tmp_path):
    def train(**options):
        game, evaluator = ttt(registry)
        learner = TDLearner(games=4, batch=2, alpha=0.2, epsilon=0.3, **options)
        result = learner.train(game, evaluator, np.random.default_rng(5), workdir=tmp_path)
        return result.history, evaluator.model.get_params()

    rows, fixed = train(alpha_end_scale=None)
    assert "alpha_scale" not in rows[0]
    rows, default = train()  # decaying to a tenth (issue 39)
    assert [r["alpha_scale"] for r in rows] == [0.55, 0.1]
    assert not np.allclose(default, fixed)
    rows, same = train(alpha_end_scale=1.0)
    assert [r["alpha_scale"] for r in rows] == [1.0, 1.0]
    np.testing.assert_array_equal(same, fixed)
    rows, decayed = train(alpha_end_scale=0.0)
    assert [r["alpha_scale"] for r in rows] == [0.5, 0.0]
    assert not np.allclose(decayed, fixed)
    with pytest.raises(ValueError, match="alpha_end_scale"):
        TDLearner(alpha_end_scale=1.5)


def test_each_row_is_reported_before_the_checkpoint_that_holds_it(registry, tmp_path):
    """So a kill between the two never leaves a checkpointed row out of ``history.jsonl``."""
    game, evaluator = ttt(registry)
    saved = []

    def report(row):
        path = tmp_path / "checkpoint.npz"
        saved.append(read_npz(path, "checkpoint")[0]["games"] if path.exists() else 0)

    learner = TDLearner(games=40, batch=10, checkpoint_every=20, alpha=0.1, epsilon=0.2)
    learner.train(game, evaluator, np.random.default_rng(0), workdir=tmp_path, progress=report)
    assert saved == [0, 0, 20, 20]  # at the report of rows 10, 20, 30, 40
    assert read_npz(tmp_path / "checkpoint.npz", "checkpoint")[0]["games"] == 40
