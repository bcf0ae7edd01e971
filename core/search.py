"""The Searcher interface: choose a move for a game, a state and an evaluator.

A searcher is a frozen attrs object whose fields are its options (``AlphaBeta(depth=4)``); all
per-search state (transposition table, counters) lives inside one ``search`` call, and every
random choice draws from the generator it is given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, overload

import attrs
import numpy as np

from mindgames.game import Game, Move, State
from mindgames.model import Evaluator


@attrs.frozen
class SearchStats:
    """What a search did: the figures engine authors compare."""

    nodes: int = 0  # interior nodes expanded
    leaves: int = 0  # positions evaluated (evaluator or terminal)
    depth: int = 0  # deepest completed iteration (plies)
    seconds: float = 0.0
    branching: float = 0.0  # average branching factor of expanded nodes
    pruning: float = 0.0  # 1 - n / s, s the full tree's size at that branching and depth
    #: which path searched: "compiled" (numba kernels) or "python" (the reference)
    path: str = "python"

    @property
    def nodes_per_second(self) -> float:
        return (self.nodes + self.leaves) / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, float | str]:
        d = attrs.asdict(self)
        d["nodes_per_second"] = self.nodes_per_second
        return d


class Line(Sequence[Move]):
    """A principal variation made when first read: the compiled search knows its line only as
    child indices, and turning them into moves (a ``children`` call a ply) costs a few percent
    of a search whose line a match never reads. Equal to, and hashed as, the tuple of its moves.
    """

    __slots__ = ("_make", "_moves")

    def __init__(self, make: Callable[[], tuple[Move, ...]]) -> None:
        self._make: Callable[[], tuple[Move, ...]] | None = make
        self._moves: tuple[Move, ...] = ()

    def moves(self) -> tuple[Move, ...]:
        """The line as a tuple, made on the first call (two threads may both make it: the same)."""
        make = self._make
        if make is not None:
            self._moves = make()
            self._make = None
        return self._moves

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Move, ...]: ...
    def __getitem__(self, index: int | slice) -> Move | tuple[Move, ...]:
        return self.moves()[index]

    def __len__(self) -> int:
        return len(self.moves())

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Line):
            other = other.moves()
        return self.moves() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.moves())

    def __repr__(self) -> str:
        return repr(self.moves())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.moves(),))  # another process gets the plain tuple


@attrs.frozen
class SearchResult:
    """The chosen move, its value for the side to move, the principal variation and stats."""

    move: Move
    value: float
    #: the principal variation from ``move`` on: a tuple, or a ``Line`` made when first read
    pv: tuple[Move, ...] | Line = ()
    stats: SearchStats = SearchStats()


class Searcher(ABC):
    """Chooses moves. Subclasses are frozen attrs classes whose fields are the options."""

    name: ClassVar[str]
    #: whether this searcher needs an evaluator at all (``random`` does not)
    needs_evaluator: ClassVar[bool] = True

    @abstractmethod
    def search(
        self,
        game: Game,
        state: State,
        evaluator: Evaluator | None,
        rng: np.random.Generator,
    ) -> SearchResult:
        """Search ``state`` (not terminal) and return the move to play."""
