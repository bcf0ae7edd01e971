"""Keeping the best net (TD's ``gate_games``): the gate match's score, the best replaced only
when the learning net scores enough, the run's model the best, resume restoring it."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.errors import ConfigError
from mindgames.modelfile import load_evaluator
from mindgames.plugins.learners.td import TDLearner, copy_evaluator
from mindgames.plugins.learners.td.gate import gate_score
from mindgames.training import snapshots

from support.tinymodel import TinyLinear


def ttt(registry, seed=0):
    from mindgames import Evaluator

    game = registry.game("tictactoe")
    encoding = registry.encoding(game, "cells")
    weights = np.random.default_rng(seed).uniform(-0.1, 0.1, 9)
    return game, Evaluator(encoding, TinyLinear(weights))


def _searcher(registry):
    return registry.searcher("alphabeta", {"depth": 1}, where="test")


def test_a_net_against_its_own_copy_scores_exactly_one_half(registry):
    """Deterministic play: each opening's two games are the same game with the colours
    swapped, so every pair gives the net one point of two."""
    game, net = ttt(registry)
    opts = TDLearner(gate_games=8, gate_plies=2, lookahead="alphabeta:depth=1")
    score = gate_score(opts, game, net, copy_evaluator(net), _searcher(registry),
                       np.random.default_rng(3))  # fmt: skip
    assert score == 0.5


def test_the_gate_score_is_the_share_of_points_of_the_net(registry):
    game, net = ttt(registry)
    _, other = ttt(registry, seed=9)
    opts = TDLearner(gate_games=6, lookahead="alphabeta:depth=1")
    rng = np.random.default_rng(4)
    mine = gate_score(opts, game, net, other, _searcher(registry), rng)
    theirs = gate_score(opts, game, other, net, _searcher(registry), np.random.default_rng(4))
    assert mine * 6 == int(mine * 6 * 2) / 2  # whole and half points only
    assert mine + theirs == pytest.approx(1.0)  # the same games, seen from the other side


def _run(registry, tmp_path, **options):
    game, evaluator = ttt(registry)
    base = {"games": 6, "batch": 2, "checkpoint_every": 2, "alpha": 0.1, "epsilon": 0.2,
            "gate_games": 4, "lookahead": "alphabeta:depth=1"}  # fmt: skip
    learner = TDLearner(**{**base, **options})
    return learner.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path)


def test_the_run_model_is_the_net_of_the_last_gate_it_passed(registry, tmp_path):
    result = _run(registry, tmp_path, gate_score=0.5)
    rows = result.history
    assert [r["games"] for r in rows] == [2, 4, 6]
    assert all(0.0 <= r["gate"] <= 1.0 and r["kept"] is (r["gate"] >= 0.5) for r in rows)
    saved = dict(snapshots(tmp_path))
    kept = [r["games"] for r in rows if r["kept"]]
    expected = saved[kept[-1] if kept else 0]
    _, best, _ = load_evaluator(expected, registry)
    np.testing.assert_array_equal(result.evaluator.model.get_params(), best.model.get_params())


def test_the_best_is_replaced_only_when_the_net_scores_the_gate_score(registry):
    game, net = ttt(registry)
    _, old = ttt(registry, seed=9)
    copy = copy_evaluator(net)  # the net against its own copy scores exactly 1/2
    search = _searcher(registry)
    strict = TDLearner(gate_games=4, gate_score=0.55, lookahead="alphabeta:depth=1")
    best = copy_evaluator(old)
    best.model.set_params(copy.model.get_params())
    row = strict._gate(game, net, best, search, np.random.default_rng(2))
    assert row == {"gate": 0.5, "kept": False}
    loose = TDLearner(gate_games=4, gate_score=0.5, lookahead="alphabeta:depth=1")
    before = net.model.get_params() + 0.0
    net.model.set_params(before + 0.01)  # differs from the best by a little
    best.model.set_params(before)
    row = loose._gate(game, net, best, search, np.random.default_rng(2))
    assert row["kept"] is (row["gate"] >= 0.5)
    expected = net.model.get_params() if row["kept"] else before
    np.testing.assert_array_equal(best.model.get_params(), expected)


def test_without_a_gate_the_run_model_is_the_last_net_and_rows_have_no_gate(registry, tmp_path):
    result = _run(registry, tmp_path, gate_games=0)
    assert all("gate" not in r for r in result.history)
    _, last, _ = load_evaluator(dict(snapshots(tmp_path))[6], registry)
    np.testing.assert_array_equal(result.evaluator.model.get_params(), last.model.get_params())


def test_a_resumed_run_keeps_the_same_best_net(registry, tmp_path):
    whole = _run(registry, tmp_path / "whole", gate_score=0.5)
    rows = []

    def stop(row):
        rows.append(row)
        if len(rows) == 3:  # a row is reported before its checkpoint
            raise KeyboardInterrupt  # killed after the checkpoint at 4 games, before 6's

    game, evaluator = ttt(registry)
    base = {"games": 6, "batch": 2, "checkpoint_every": 2, "alpha": 0.1, "epsilon": 0.2,
            "gate_games": 4, "gate_score": 0.5, "lookahead": "alphabeta:depth=1"}  # fmt: skip
    with pytest.raises(KeyboardInterrupt):
        TDLearner(**base).train(game, evaluator, np.random.default_rng(1),
                                workdir=tmp_path / "cut", progress=stop)  # fmt: skip
    game, evaluator = ttt(registry, seed=5)  # other weights: the checkpoint must restore them
    resumed = TDLearner(**base).train(game, evaluator, np.random.default_rng(99),
                                      workdir=tmp_path / "cut", resume=True)  # fmt: skip
    np.testing.assert_array_equal(
        whole.evaluator.model.get_params(), resumed.evaluator.model.get_params()
    )
    assert [r["kept"] for r in whole.history] == [r["kept"] for r in resumed.history]


def test_an_odd_number_of_gate_games_is_refused(registry):
    with pytest.raises(ValueError, match="gate_games must be even"):
        TDLearner(gate_games=3)
    with pytest.raises(ConfigError, match="gate_score"):
        registry.learner("td", {"gate_score": 1.5}, where="test")
