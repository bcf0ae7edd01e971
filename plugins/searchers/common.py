"""What the searchers share: their common options, root moves, the value scale, terminal values
and search statistics.

Value scale (negamax: always for the side to move). Evaluators give values in [-1, 1]. A
terminal position is worth ``returns[mover] * WIN`` with ``WIN = 2``, so any proven win beats
any heuristic value; with ``quick_wins`` the ply at which the game ends is folded in as
``WIN - ply * STEP`` (a win in fewer plies is worth more, a loss in more plies hurts less).
``|value| > PROVEN`` therefore means "a proven result", and ``plies_to_end`` reads the distance
back out of such a value.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs
import numpy as np

from mindgames.errors import CapabilityError, MindgamesError
from mindgames.game import Game, Move, State
from mindgames.model import Evaluator
from mindgames.search import Searcher, SearchStats

_v = attrs.validators

WIN = 2.0
STEP = 1.0 / 4096.0
PROVEN = 1.5
INF = 1e9
#: the largest ``depth`` accepted, and the depth an iterative-deepening search goes to when
#: only a node or time budget is set; longer searches take ``time=`` or ``nodes=``
MAX_DEPTH = 64
#: root values closer than this count as equal for random tie-breaking
TIE = 1e-12


def terminal_value(game: Game, state: State, ply: int, quick_wins: bool) -> float:
    """Exact value of a finished game for its side to move, ``ply`` plies below the root."""
    r = game.returns(state)[game.to_move(state)]
    if r == 0:
        return 0.0
    if not quick_wins:
        return r * WIN
    return r * WIN - ply * STEP if r > 0 else r * WIN + ply * STEP


def plies_to_end(value: float) -> int | None:
    """For a proven value with ``quick_wins``, plies from the root to the game's end."""
    if abs(value) <= PROVEN:
        return None
    return round((WIN - abs(value)) / STEP)


def pruning(nodes: int, branching: float, depth: int) -> float:
    """``1 - n / s``: s the interior nodes of a full tree of that branching and depth."""
    if depth <= 0 or nodes <= 0:
        return 0.0
    full = float(depth) if branching <= 1.0 else (branching**depth - 1.0) / (branching - 1.0)
    return 1.0 - nodes / full


def make_stats(
    nodes: int, leaves: int, depth: int, seconds: float, moves: int, path: str = "python"
) -> SearchStats:
    """SearchStats from raw counters; ``moves`` is the total of moves at expanded nodes."""
    branching = moves / nodes if nodes else 0.0
    return SearchStats(
        nodes=nodes,
        leaves=leaves,
        depth=depth,
        seconds=seconds,
        branching=branching,
        pruning=pruning(nodes, branching, depth),
        path=path,
    )


def need_evaluator(name: str, evaluator: Evaluator | None, null: bool) -> None:
    """Refuse a search that would have to evaluate leaves without an evaluator."""
    if evaluator is None and not null:
        raise CapabilityError(f"searcher {name!r} needs an evaluator (give eval=...) or null=true")


def py_random(rng: np.random.Generator) -> random.Random:
    """A fast per-search Python generator seeded from the caller's numpy generator."""
    return random.Random(int(rng.integers(0, 2**63 - 1)))


def _depth(_: Any, attribute: attrs.Attribute, value: int) -> None:
    """Refuse a depth that never ends (``depth=1000`` ran for ten minutes); checked once, when
    the options are built, never during a search."""
    if value < 1:
        raise ValueError(f"'{attribute.name}' must be >= 1: {value}")
    if value > MAX_DEPTH:
        raise ValueError(
            f"'{attribute.name}' must be <= {MAX_DEPTH}: {value} "
            "(for a long search give a budget instead: time=SECONDS or nodes=N)"
        )


@attrs.frozen
class DepthSearcher(Searcher):
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

    depth: int | None = attrs.field(default=None, validator=_v.optional(_depth))
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


def root_children(
    game: Game, state: State, random_ties: bool, rng: np.random.Generator
) -> list[tuple[Move, State]]:
    """Every (move, successor) of a position to search, shuffled when ties are broken at random.

    ``root_moves`` draws the same permutation, so both give the same moves in the same order.
    """
    kids, order = root_order(game, state, random_ties, rng)
    return [kids[i] for i in order]


def root_order(
    game: Game, state: State, random_ties: bool, rng: np.random.Generator
) -> tuple[list[tuple[Move, State]], list[int]]:
    """``root_children`` as the children in generation order and the order to try them in
    (the compiled path names moves by their place in generation order)."""
    kids = list(game.children(state))
    if not kids:
        raise MindgamesError(f"cannot search a finished game: {game.position_text(state)}")
    order = list(range(len(kids)))
    if random_ties and len(kids) > 1:
        order = [int(i) for i in rng.permutation(len(kids))]
    return kids, order


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector off for a search, back to how it was afterwards.

    A search makes many short-lived tuples and no reference cycles, so the collector's scans
    find nothing to free; they cost 6-12% of a depth-8 checkers search (benchmarks/README.md).
    Reference counting still frees everything as usual.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
