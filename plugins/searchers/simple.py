"""The simplest players: ``greedy`` (the best move one ply deep) and ``random`` (any legal move)."""

from __future__ import annotations

import time

import attrs
import numpy as np

from mindgames.game import Game, State
from mindgames.model import Evaluator
from mindgames.plugins.searchers.alphabeta_compiled import greedy_values
from mindgames.plugins.searchers.common import (
    TIE,
    make_stats,
    need_evaluator,
    root_children,
    root_moves,
    terminal_value,
)
from mindgames.search import Searcher, SearchResult, SearchStats


@attrs.frozen
class Greedy(Searcher):
    """One ply: every child evaluated in one batch; ``random_ties`` picks among equal bests."""

    name = "greedy"

    random_ties: bool = False
    null: bool = False
    quick_wins: bool = True

    def search(
        self, game: Game, state: State, evaluator: Evaluator | None, rng: np.random.Generator
    ) -> SearchResult:
        """Score every child (from ``Game.children``) for this side, keep the best."""
        need_evaluator(self.name, evaluator, self.null)
        start = time.perf_counter()
        pairs = root_children(game, state, self.random_ties, rng)
        moves = [move for move, _ in pairs]
        kids = [child for _, child in pairs]
        compiled = greedy_values(game, state, evaluator, self.null, self.quick_wins)
        if compiled is not None:
            # in generation order: put them in the order of ``pairs`` (shuffled for ties)
            place = {move: i for i, move in enumerate(game.legal_moves(state))}
            values = [compiled[place[move]] for move in moves]
        else:
            values = self._values(game, state, kids, evaluator)
        best = max(values)
        ties = [i for i, v in enumerate(values) if v >= best - TIE] if self.random_ties else []
        pick = ties[int(rng.integers(len(ties)))] if len(ties) > 1 else values.index(best)
        path = "python" if compiled is None else "compiled"
        stats = make_stats(1, len(kids), 1, time.perf_counter() - start, len(moves), path)
        return SearchResult(moves[pick], values[pick], (moves[pick],), stats)

    def _values(
        self, game: Game, state: State, kids: list[State], evaluator: Evaluator | None
    ) -> list[float]:
        """Every child's value for the side to move (the Python path)."""
        side = game.to_move(state)
        values = [0.0] * len(kids)
        todo = []
        for i, child in enumerate(kids):
            if game.is_terminal(child):
                values[i] = terminal_value(game, child, 1, self.quick_wins)
            elif not self.null:
                todo.append(i)
        if todo and evaluator is not None:
            got = evaluator.evaluate_batch([kids[i] for i in todo]).tolist()
            for i, x in zip(todo, got, strict=True):
                values[i] = float(x)
        for i, child in enumerate(kids):
            if game.to_move(child) != side:
                values[i] = -values[i]
        return values


@attrs.frozen
class RandomPlayer(Searcher):
    """A uniformly random legal move: the baseline every evaluator should beat."""

    name = "random"
    needs_evaluator = False

    def search(
        self, game: Game, state: State, evaluator: Evaluator | None, rng: np.random.Generator
    ) -> SearchResult:
        """Pick one legal move with the generator; value 0."""
        start = time.perf_counter()
        moves = root_moves(game, state, False, rng)
        move = moves[int(rng.integers(len(moves)))]
        stats = SearchStats(
            nodes=1, depth=0, seconds=time.perf_counter() - start, branching=float(len(moves))
        )
        return SearchResult(move, 0.0, (move,), stats)
