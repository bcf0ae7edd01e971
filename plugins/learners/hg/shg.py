"""SHG, the Simple Heuristic Generator (Kusiak, Walędzik, Mańdziuk): HG's operators without a
fitness function. Specimens are compared by play (``comparison``: two games, colours swapped,
with ``search``, alpha-beta to depth 3 and at most 150 expanded nodes by default).

A step draws three tournaments of ``tournament`` specimens at once and plays each one's round
robin of comparisons (all games of the step go to the executor together): the winners of the
first two are the parents, the loser of the third is replaced by their child (crossover per
linear combination, per-gene mutation, the genotype normalised to unit length with
``normalise``). The best specimen is the one with the best record of comparisons won over
played ((won + 1) / (played + 2)); a new specimen starts with no record.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames.game import Game
from mindgames.model import Evaluator
from mindgames.plugins.learners.hg import comparison, operators
from mindgames.plugins.learners.hg.population import Context, Evolution, Run
from mindgames.spec import parse_spec


@attrs.frozen
class SHGLearner(Evolution):
    """SHG: evolution by comparisons in play (two games, colours swapped)."""

    name: ClassVar[str] = "shg"
    counts: ClassVar[str] = "games"

    population: int = attrs.field(default=100, validator=v.ge(3))
    tournament: int = attrs.field(default=2, validator=v.ge(2))
    #: the searcher of the comparison games (the evaluator is the specimen's)
    search: str = "alphabeta:depth=3,nodes=150"
    #: comparison games longer than this are draws
    max_plies: int = attrs.field(default=200, validator=v.gt(0))
    #: scale every new genotype to unit length
    normalise: bool = True

    def check(self, game: Game, evaluator: Evaluator) -> None:
        """Refuse a search that is not registered, before any game."""
        from mindgames.registry import get_registry

        name, options = parse_spec(self.search)
        get_registry().searcher(name, options, where=f"shg search {self.search!r}")

    def initial(
        self, genes: np.ndarray, bounds: tuple[Any, Any], rng: np.random.Generator
    ) -> np.ndarray:
        population = super().initial(genes, bounds, rng)
        if self.normalise:
            population = np.array([operators.normalise(g) for g in population])
        return population

    def step(self, context: Context, run: Run, rng: np.random.Generator) -> None:
        """Three tournaments by play; the child of the two winners replaces the third's loser."""
        size = len(run.population)
        tournaments = [operators.tournament(size, self.tournament, rng) for _ in range(3)]
        rounds = [(k, pair) for k, t in enumerate(tournaments)
                  for pair in comparison.round_robin(t.tolist())]  # fmt: skip
        pairs = [pair for _, pair in rounds]
        involved = sorted({i for pair in pairs for i in pair})
        sides = {
            i: comparison.side(context.evaluator, run.population[i], self.search) for i in involved
        }
        master = int(rng.integers(2**62))
        index = {i: k for k, i in enumerate(involved)}
        local = [(index[i], index[j]) for i, j in pairs]
        results = comparison.compare(
            context.executor, context.game.spec(), [sides[i] for i in involved], local, master,
            self.max_plies,
        )  # fmt: skip
        run.games += 2 * len(pairs)
        wins: list[dict[int, int]] = [{} for _ in tournaments]
        for (k, pair), result in zip(rounds, results, strict=True):
            won = comparison.winner_of(pair, result["points"], rng)
            wins[k][won] = wins[k].get(won, 0) + 1
            run.score[won] += 1.0
            for i in pair:
                run.played[i] += 1.0
        first, _ = comparison.rank(tournaments[0].tolist(), wins[0])
        second, _ = comparison.rank(tournaments[1].tolist(), wins[1])
        _, loser = comparison.rank(tournaments[2].tolist(), wins[2])
        genes, changed = self.child(context, run, first, second, rng)
        if self.normalise:
            genes = operators.normalise(genes)
        run.replace(loser, genes, 0.0, changed > 0)
        run.tally.kept += 1

    def record(self, run: Run) -> np.ndarray:
        """(won + 1) / (played + 2) of every specimen."""
        return (run.score + 1.0) / (run.played + 2.0)

    def best(self, run: Run) -> int:
        return int(np.argmax(self.record(run)))

    def count(self, run: Run) -> int:
        return run.games

    def describe(self, context: Context, run: Run, best: int) -> dict[str, Any]:
        return {
            "games": run.games,
            "best_won": int(run.score[best]),
            "best_played": int(run.played[best]),
            "best_record": round(float(self.record(run)[best]), 6),
        }
