"""Plain minimax (negamax form): the slow, obviously correct reference for ``alphabeta``.

It shares the leaf rules of alpha-beta exactly (terminal values, the null evaluator, forced-move
and capture extensions with their per-path budget), so the two must return the same root value
at the same depth; the property tests hold them to it.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from mindgames.errors import MindgamesError
from mindgames.game import Game, Move, State
from mindgames.model import Evaluator
from mindgames.plugins.searchers.stats import (
    INF,
    TIE,
    make_stats,
    need_evaluator,
    terminal_value,
)
from mindgames.search import Searcher, SearchResult

_v = attrs.validators


@attrs.frozen
class SearchOptions(Searcher):
    """Options shared by minimax and alpha-beta: depth, leaf rules and tie-breaking.

    ``extend_forced``: a node whose side to move has one legal move does not use up depth; the
    search goes ``extension`` plies further (2 keeps the leaf's side to move). ``extend_captures``:
    a leaf with a capture pending is searched ``extension`` plies more. The extensions along one
    path share a budget of ``max_extension`` plies (default the larger of ``depth`` and two
    extensions), so every path ends.
    ``null``: leaves that are not terminal score 0 (a draw), terminal ones their exact result.
    ``quick_wins``: fold the distance to the end into proven values (win sooner, lose later).
    ``random_ties``: shuffle the root moves and pick at random among equally valued best moves.
    """

    depth: int | None = attrs.field(default=None, validator=_v.optional(_v.ge(1)))
    extend_forced: bool = False
    extend_captures: bool = False
    extension: int = attrs.field(default=2, validator=_v.ge(1))
    null: bool = False
    quick_wins: bool = True
    random_ties: bool = False
    max_extension: int | None = attrs.field(default=None, validator=_v.optional(_v.ge(0)))

    def extension_budget(self, depth: int) -> int:
        """Plies of extension allowed along one path of a search to ``depth``."""
        if not (self.extend_forced or self.extend_captures):
            return 0
        if self.max_extension is not None:
            return self.max_extension
        return max(depth, 2 * self.extension)


def root_moves(game: Game, state: State, random_ties: bool, rng: np.random.Generator) -> list:
    """The legal moves of a position to search, shuffled when ties are broken at random."""
    moves = list(game.legal_moves(state))
    if not moves:
        raise MindgamesError(f"cannot search a finished game: {game.position_text(state)}")
    if random_ties and len(moves) > 1:
        moves = [moves[i] for i in rng.permutation(len(moves))]
    return moves


@attrs.frozen
class Minimax(SearchOptions):
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
