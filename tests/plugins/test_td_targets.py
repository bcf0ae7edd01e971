"""TD targets from each colour's point of view, cut-off games, random opening plies, TD-leaf's
leaf and the snapshots a run keeps."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from mindgames import Encoding, Evaluator
from mindgames.agent import build_evaluator
from mindgames.plugins.learners.td import TDLearner, TDUpdate, copy_evaluator
from mindgames.plugins.learners.td.starts import pick_start
from mindgames.training import snapshots

from support.tinymodel import TinyLinear
from support.walk import RandomWalk


@attrs.frozen
class Fixed(RandomWalk):
    """``length`` plies, one move each, players alternating; ``winner`` wins (None: a draw,
    and with ``endless`` the game never ends). States are the plies played."""

    name = "fixed"
    length: int = 4
    winner: int | None = 1
    endless: bool = False

    def initial_state(self):
        return 0

    def to_move(self, state):
        return state % 2

    def legal_moves(self, state):
        return () if self.is_terminal(state) else (1,)

    def play(self, state, move):
        return state + move

    def is_terminal(self, state):
        return not self.endless and state >= self.length

    def returns(self, state):
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def progress(self, state):
        return state

    def render(self, state):
        return str(state)


def plies_onehot(size: int) -> Encoding:
    def encode(state) -> np.ndarray:
        x = np.zeros(size)
        x[state % size] = 1.0
        return x

    return Encoding("plies", tuple(f"p{i}" for i in range(size)), encode)


def evaluator(size: int = 4) -> Evaluator:
    return Evaluator(plies_onehot(size), TinyLinear(np.zeros(size)))


def learn(game, learner, players, learners, games=200, alpha=0.2):
    update = TDUpdate(players[0].model if learners[0] else players[1].model, np.full(4, alpha), 0.5)
    rng = np.random.default_rng(0)
    for _ in range(games):
        learner.play_game(game, game.initial_state(), players, learners, update, None, rng, {})


@pytest.mark.parametrize("winner", [0, 1])
def test_selfplay_values_each_position_for_its_side_to_move(winner):
    """White (1) or Black (0) always wins: positions with the winner to move go to +1."""
    game, net = Fixed(winner=winner), evaluator()
    learn(game, TDLearner(epsilon=0.0), (net, net), (True, True))
    values = net.evaluate_batch([0, 1, 2, 3])
    signs = np.array([1.0 if game.to_move(s) == winner else -1.0 for s in range(4)])
    assert np.all(values * signs > 0.8), values


@pytest.mark.parametrize("learner_side", [0, 1])
@pytest.mark.parametrize("winner", [0, 1])
def test_clone_regime_targets_are_the_learner_result_on_either_colour(learner_side, winner):
    """The learner learns from its own positions only, towards its own result."""
    game, net = Fixed(winner=winner), evaluator()
    clone = copy_evaluator(net)
    players = (net, clone) if learner_side == 0 else (clone, net)
    learners = (learner_side == 0, learner_side == 1)
    learn(game, TDLearner(regime="clone", epsilon=0.0), players, learners)
    own = [s for s in range(4) if game.to_move(s) == learner_side]
    other = [s for s in range(4) if game.to_move(s) != learner_side]
    values = net.evaluate_batch(own)
    expected = 1.0 if winner == learner_side else -1.0
    assert np.all(values * expected > 0.8), values
    assert not net.evaluate_batch(other).any()  # the clone's positions are never learned from
    assert not clone.model.get_params().any()


@attrs.frozen
class Scored(Fixed):
    """``Fixed`` with a final margin of 3 points for the winner (``HasMargin``)."""

    name = "scored"

    def margin(self, state):
        return 0 if self.winner is None else 3 if self.winner == 0 else -3


@pytest.mark.parametrize("winner", [0, 1])
def test_a_margin_reward_values_each_position_by_the_final_margin_for_its_side(winner):
    game, net = Scored(winner=winner), evaluator()
    learner = TDLearner(epsilon=0.0, outcome="margin", margin_scale=6.0, margin_squash="linear")
    learn(game, learner, (net, net), (True, True), games=400)
    values = net.evaluate_batch([0, 1, 2, 3])
    signs = np.array([1.0 if game.to_move(s) == winner else -1.0 for s in range(4)])
    assert np.allclose(values * signs, 0.5, atol=0.02), values  # 3 / 6, not the win's 1


def test_a_margin_reward_needs_a_game_with_a_margin(registry, tmp_path):
    from mindgames.errors import CapabilityError

    game = Fixed()
    with pytest.raises(CapabilityError, match="margin"):
        TDLearner(outcome="margin").train(
            game, evaluator(), np.random.default_rng(0), workdir=tmp_path
        )
    with pytest.raises(ValueError, match="outcome"):
        TDLearner(outcome="score")


def test_a_game_cut_at_max_plies_ends_with_the_draw_reward():
    game = Fixed(endless=True)
    for cutoff, moved in (("draw", True), ("none", False)):
        net = evaluator()
        learner = TDLearner(max_plies=6, draw=0.5, cutoff=cutoff, epsilon=0.0)
        learn(game, learner, (net, net), (True, True), games=1)
        # every value is 0 before: only a final reward can move the weights
        assert bool(net.model.get_params().any()) is moved
    with pytest.raises(ValueError, match="cutoff"):
        TDLearner(cutoff="material")


def test_random_plies_start_later_and_keep_the_draw_reward_with_its_side(registry):
    game = registry.game("tictactoe")
    rng = np.random.default_rng(4)
    start = game.initial_state()
    state, draw = pick_start(game, [(start, 0.25)], rng, random_plies=3)
    assert game.progress(state) == 3 and draw == -0.25  # the other side is to move
    state, draw = pick_start(game, [(start, 0.25)], rng, random_plies=2)
    assert game.progress(state) == 2 and draw == 0.25
    assert pick_start(game, [], rng, random_plies=0) == (start, None)
    with pytest.raises(ValueError, match="random_plies"):
        TDLearner(random_plies=-1)


def test_random_plies_up_to_a_maximum_draw_each_games_count_uniformly(registry):
    game = registry.game("kalah:pits=4,seeds=3")
    rng = np.random.default_rng(5)
    counts = [game.progress(pick_start(game, [], rng, 2, 6)[0]) for _ in range(300)]
    assert set(counts) == {2, 3, 4, 5, 6}  # random plies never end a game this short
    assert min(np.bincount(counts)[2:]) > 40
    with pytest.raises(ValueError, match="random_plies_max"):
        TDLearner(random_plies=3, random_plies_max=2)


def test_td_leaf_takes_the_leaf_whose_value_the_search_reports():
    """Alpha-beta's principal variation ends at the leaf that gives the root its value."""
    from mindgames.registry import get_registry

    registry = get_registry()
    game = registry.game("kalah:pits=4,seeds=3")
    net = build_evaluator(registry, game, {"model": "mlp", "encoding": "kalah14", "seed": 2})
    learner = TDLearner(lookahead="alphabeta:depth=3", td_leaf=True)
    searcher = learner._searcher()
    rng = np.random.default_rng(1)
    state, checked = game.initial_state(), 0
    while not game.is_terminal(state):
        found = searcher.search(game, state, net, rng)
        value, grad = learner._leaf(game, state, found.pv, net, 0)
        if abs(found.value) <= 1.0:  # the leaf is not a finished game
            assert value == pytest.approx(found.value, abs=1e-12)
            assert grad.shape == net.model.get_params().shape and grad.any()
            checked += 1
        moves = game.legal_moves(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    assert checked >= 5


def test_training_keeps_a_snapshot_at_the_start_and_at_every_checkpoint(registry, tmp_path):
    game = registry.game("tictactoe")
    net = Evaluator(registry.encoding(game, "cells"), TinyLinear(np.zeros(9)))
    TDLearner(games=25, batch=5, checkpoint_every=10, alpha=0.1).train(
        game, net, np.random.default_rng(0), workdir=tmp_path
    )
    assert [games for games, _ in snapshots(tmp_path)] == [0, 10, 20, 25]


@pytest.mark.parametrize("learner_side", [0, 1])
def test_clone_regime_learning_from_both_sides_keeps_negamax_targets(learner_side):
    """learn_from = "both": every position is learned, valued by the learning net, for its
    own side to move, so the values stay zero-sum; the clone's weights never move."""
    game, net = Fixed(winner=1), evaluator()
    clone = copy_evaluator(net)
    clone.model.set_params(np.full(4, 0.3))  # a different opponent net: never used to learn
    players = (net, clone) if learner_side == 0 else (clone, net)
    learner = TDLearner(regime="clone", learn_from="both", epsilon=0.0)
    update = TDUpdate(net.model, np.full(4, 0.2), 0.5)
    rng = np.random.default_rng(0)
    for _ in range(200):
        learner.play_game(game, 0, players, (True, True), update, None, rng, {}, net=net)
    values = net.evaluate_batch([0, 1, 2, 3])
    assert np.all(values * np.array([-1, 1, -1, 1]) > 0.8), values
    np.testing.assert_array_equal(clone.model.get_params(), np.full(4, 0.3))
    with pytest.raises(ValueError, match="learn_from"):
        TDLearner(learn_from="clone")
