"""The Searcher interface: choose a move for a game, a state and an evaluator.

A searcher is a frozen attrs object whose fields are its options (``AlphaBeta(depth=4)``); all
per-search state (transposition table, counters) lives inside one ``search`` call, and every
random choice draws from the generator it is given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

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


@attrs.frozen
class SearchResult:
    """The chosen move, its value for the side to move, the principal variation and stats."""

    move: Move
    value: float
    pv: tuple[Move, ...] = ()
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
