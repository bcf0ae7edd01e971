"""Plain minimax (negamax form): the slow, obviously correct reference for ``alphabeta``.

It shares the leaf rules of alpha-beta exactly (terminal values, the null evaluator, forced-move
and capture extensions with their per-path budget), so the two must return the same root value
at the same depth; the property tests hold them to it. It walks the tree through
``legal_moves`` and ``play`` on purpose, while alpha-beta uses ``Game.children``: the property
tests then also hold a game's ``children`` to its ``play``.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from mindgames.game import Game, Move, State
from mindgames.model import Evaluator
from mindgames.plugins.searchers.common import (
    INF,
    TIE,
    DepthSearcher,
    make_stats,
    need_evaluator,
    root_moves,
    terminal_value,
)
from mindgames.search import SearchResult


@attrs.frozen
class Minimax(DepthSearcher):
    """Full-width negamax to a fixed depth (default 2): for reference and tests."""

    name = "minimax"

    def search(
        self, game: Game, state: State, evaluator: Evaluator | None, rng: np.random.Generator
    ) -> SearchResult:
        """Search every line to ``depth`` plies (plus extensions) and return the best move."""
        import time

        need_evaluator(self.name, evaluator, self.null)
        start = time.perf_counter()
        depth = self.depth or 2
        counts = {"nodes": 0, "leaves": 0, "moves": 0}
        moves = root_moves(game, state, self.random_ties, rng)
        side = game.to_move(state)
        scored: list[tuple[float, Move, tuple[Move, ...]]] = []
        counts["nodes"] += 1
        counts["moves"] += len(moves)
        cd, cext = self._child_depth(depth, self.extension_budget(depth), len(moves))
        for move in moves:
            child = game.play(state, move)
            v, pv = self._node(game, child, cd, cext, 1, evaluator, counts)
            if game.to_move(child) != side:
                v = -v
            scored.append((v, move, (move, *pv)))
        best = max(v for v, _, _ in scored)
        if self.random_ties:
            ties = [s for s in scored if s[0] >= best - TIE]
            value, move, pv = ties[int(rng.integers(len(ties)))]
        else:
            value, move, pv = next(s for s in scored if s[0] == best)
        stats = make_stats(
            counts["nodes"], counts["leaves"], depth, time.perf_counter() - start, counts["moves"]
        )
        return SearchResult(move, value, pv, stats)

    def _child_depth(self, d: int, ext: int, n: int) -> tuple[int, int]:
        if self.extend_forced and n == 1 and ext >= self.extension:
            return d - 1 + self.extension, ext - self.extension
        return d - 1, ext

    def _node(
        self,
        game: Game,
        state: State,
        d: int,
        ext: int,
        ply: int,
        evaluator: Any,
        counts: dict[str, int],
    ) -> tuple[float, tuple[Move, ...]]:
        e = self.extension
        if d <= 0:
            if game.is_terminal(state):
                counts["leaves"] += 1
                return terminal_value(game, state, ply, self.quick_wins), ()
            if self.extend_captures and ext >= e and game.capture_pending(state):
                d, ext = e, ext - e
            elif not (self.extend_forced and ext >= e and game.move_count(state) == 1):
                counts["leaves"] += 1
                return (0.0 if self.null else float(evaluator.evaluate(state))), ()
        moves = game.legal_moves(state)
        if not moves:
            counts["leaves"] += 1
            return terminal_value(game, state, ply, self.quick_wins), ()
        counts["nodes"] += 1
        counts["moves"] += len(moves)
        side = game.to_move(state)
        cd, cext = self._child_depth(d, ext, len(moves))
        best, best_pv = -INF, ()
        for move in moves:
            child = game.play(state, move)
            v, pv = self._node(game, child, cd, cext, ply + 1, evaluator, counts)
            if game.to_move(child) != side:
                v = -v
            if v > best:
                best, best_pv = v, (move, *pv)
        return best, best_pv
