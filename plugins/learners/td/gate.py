"""Keeping the best net (``gate_games``): at each checkpoint the learning net plays a gate match
against the best net so far and replaces it when it scores enough, in the manner of
NeuroDraughts' clone test; the run's model is the best net, not the last.

Why: with constant step sizes the net's 2-ply move choice keeps changing from one checkpoint to
the next (docs/learners.md, "Keeping the best net"), so the last net's strength is a draw from a
wide spread; the gate keeps the net that beat its predecessor instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mindgames.game import Game
from mindgames.model import Evaluator
from mindgames.plugins.learners.td.selfplay import play_game
from mindgames.plugins.learners.td.starts import pick_start
from mindgames.search import Searcher

if TYPE_CHECKING:
    from mindgames.plugins.learners.td.learner import TDLearner


def gate_score(
    opts: TDLearner,
    game: Game,
    net: Evaluator,
    best: Evaluator,
    searcher: Searcher | None,
    rng: np.random.Generator,
) -> float:
    """``net``'s share of the points (win 1, draw 1/2) in ``opts.gate_games`` games against
    ``best``: each opening (``gate_plies`` random plies) played with both colours, with the
    training look-ahead, no exploration, no learning; games cut at ``max_plies`` are draws."""
    none = {"epsilon": 0.0} if opts.explore == "epsilon" else {"temperature": 0.0}
    points = 0.0
    for _ in range(opts.gate_games // 2):
        start, _ = pick_start(game, [], rng, opts.gate_plies)
        for side in (0, 1):
            players = (net, best) if side == 0 else (best, net)
            final, _ = play_game(
                opts, game, start, players, (False, False), None, searcher, rng, none
            )
            if game.is_terminal(final):
                points += (game.returns(final)[side] + 1.0) / 2.0
            else:
                points += 0.5
    return points / opts.gate_games
