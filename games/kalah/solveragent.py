"""The ``kalah-solver`` searcher: perfect play once the rest of the game solves within a node
budget, alpha-beta with the agent's evaluator before.

Every move first asks the exact solver (``solver.solve``) for the position's value with a node
budget; when it answers, the move is one of the solver's best moves (the first in the solver's
order, or one at random with ``random_ties``) and the value is the game's result (+1, 0, -1).
When the budget runs out, or more than ``max_seeds`` seeds are left in the pits (the solver is
not tried: with the default budget it almost never answers there, and a failed try costs the
whole budget), the move is the alpha-beta search's at ``depth`` plies. Positions only get smaller
as a game goes on, so once a game solves it stays solved. It tops the Kalah ladder.
"""

from __future__ import annotations

import time

import attrs
import numpy as np
from attrs import validators as _v

from mindgames.errors import CapabilityError
from mindgames.game import Game, State
from mindgames.model import Evaluator
from mindgames.search import Searcher, SearchResult, SearchStats

#: the fallback searcher, found by name in the registry (a game never imports a searcher)
FALLBACK = "alphabeta"
#: the default ``max_seeds``: above it a 200,000-node solve of a Kalah(6,4) game position
#: (almost) never answers (docs/ladder.md#kalah-solver-the-top-of-the-kalah-ladder)
MAX_SEEDS = 32


@attrs.frozen
class KalahSolver(Searcher):
    """Exact play within ``nodes`` solver nodes a move once at most ``max_seeds`` seeds are
    left in the pits (0: always try); alpha-beta at ``depth`` before."""

    name = "kalah-solver"

    nodes: int = attrs.field(default=200_000, validator=_v.ge(1))
    depth: int = attrs.field(default=6, validator=_v.ge(1))
    max_seeds: int = attrs.field(default=MAX_SEEDS, validator=_v.ge(0))
    random_ties: bool = False

    def __attrs_post_init__(self) -> None:
        self.fallback()  # its options are checked now (depth=1000 is refused), not mid-game

    def search(
        self, game: Game, state: State, evaluator: Evaluator | None, rng: np.random.Generator
    ) -> SearchResult:
        from mindgames.games.kalah.rules import Kalah
        from mindgames.games.kalah.solver import OverBudget, solve

        if not isinstance(game, Kalah):
            raise CapabilityError(f"searcher 'kalah-solver' plays kalah, not {game.name!r}")
        if self.max_seeds and game.pieces(state) > self.max_seeds:
            return self.fallback().search(game, state, evaluator, rng)
        start = time.perf_counter()
        try:
            solution = solve(game, state, budget=self.nodes)
        except OverBudget:
            return self.fallback().search(game, state, evaluator, rng)
        best = solution.best_moves
        move = best[int(rng.integers(len(best)))] if self.random_ties and len(best) > 1 else best[0]
        value = float(np.sign(solution.value))
        stats = SearchStats(nodes=solution.nodes, seconds=time.perf_counter() - start)
        return SearchResult(move, value, (move,), stats)

    def fallback(self) -> Searcher:
        """The alpha-beta searcher of the moves that do not solve within the budget."""
        from mindgames.registry import get_registry

        options = {"depth": self.depth, "random_ties": self.random_ties}
        return get_registry().searcher(FALLBACK, options, where="kalah-solver's fallback")
