"""A learner as a third-party mindgames plugin: (1+1) hill climbing by play.

Each generation mutates the champion's weights with Gaussian noise and plays the mutant against
it in game pairs (a shared random opening, colours swapped); the mutant takes over unless it
scores less than half (a tie moves on: neutral drift). Any game, any parametric model. It
checkpoints every generation, so ``mindgames train --resume`` continues a stopped run to the
same weights, and it keeps a snapshot per generation for ``mindgames curve``. The example of
docs/plugins.md: one module, registered through the ``mindgames`` entry point of this
distribution and nothing else.
"""

import copy
import time
from typing import ClassVar

import attrs

from mindgames import PARAMETRIC, Learner, LearnerInfo, TrainingResult, checkpoint, hookimpl
from mindgames.agent import Agent
from mindgames.model import Evaluator
from mindgames.registry import get_registry
from mindgames.spec import parse_spec
from mindgames.training import reporting, save_snapshot


@attrs.frozen
class HillClimb(Learner):
    """(1+1) hill climbing: a mutant replaces the champion unless it loses their match."""

    name: ClassVar[str] = "hillclimb"  # the registry name: LearnerInfo must use the same
    needs: ClassVar[frozenset[str]] = frozenset({PARAMETRIC})  # get_params and set_params

    #: generations (one history row each)
    generations: int = attrs.field(default=20, validator=attrs.validators.gt(0))
    #: game pairs between the mutant and the champion in each generation
    pairs: int = attrs.field(default=4, validator=attrs.validators.gt(0))
    #: the standard deviation of the Gaussian mutation of every weight
    sigma: float = attrs.field(default=0.1, validator=attrs.validators.gt(0))
    #: the searcher both sides play with
    search: str = "alphabeta:depth=2"
    #: random plies that open each game pair
    opening_plies: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    #: longer games are draws
    max_plies: int = attrs.field(default=200, validator=attrs.validators.gt(0))

    def planned(self):
        return ("generation", self.generations)

    def train(self, game, evaluator, rng, *, workdir, resume=False, progress=None):
        name, options = parse_spec(self.search)
        searcher = get_registry().searcher(name, options, where="hillclimb: search")
        champion, history, start, before = evaluator.model.get_params(), [], 0, 0.0
        if checkpoint.resumable(workdir, resume):  # checks the options, restores the rng
            saved = checkpoint.load(checkpoint.path_in(workdir), self, rng=rng)
            champion, history = saved.arrays["champion"], saved.history
            start, before = saved.counters["generation"], saved.counters["elapsed"]
        else:
            save_snapshot(workdir, game, evaluator, 0, unit="generation")
        began = time.perf_counter()
        for generation in range(start + 1, self.generations + 1):
            mutant = champion + rng.normal(0.0, self.sigma, champion.shape)
            score = self._match(game, evaluator, searcher, mutant, champion, rng)
            kept = score >= self.pairs  # at least half of the 2 * pairs points
            if kept:
                champion = mutant
            elapsed = round(before + time.perf_counter() - began, 3)  # training time so far
            row = {"generation": generation, "score": score, "kept": kept, "elapsed": elapsed}
            history.append(row)
            with reporting(row, progress):  # report, checkpoint, then stop if a signal came
                evaluator.model.set_params(champion)
                save_snapshot(workdir, game, evaluator, generation, unit="generation")
                counters = {"generation": generation, "elapsed": elapsed}
                arrays = {"champion": champion}
                checkpoint.save(checkpoint.path_in(workdir), self, counters=counters,
                                history=history, arrays=arrays, rng=rng)  # fmt: skip
        evaluator.model.set_params(champion)
        return TrainingResult(evaluator, tuple(history))

    def _match(self, game, evaluator, searcher, mutant, champion, rng):
        """The mutant's points (1 a win, 1/2 a draw) in ``pairs`` game pairs."""
        sides = []
        for weights in (mutant, champion):
            model = copy.deepcopy(evaluator.model)
            model.set_params(weights)
            sides.append(Agent(self.name, searcher, Evaluator(evaluator.encoding, model)))
        points = 0.0
        for _ in range(self.pairs):
            opening = game.initial_state()
            for _ in range(self.opening_plies):
                if not game.is_terminal(opening):
                    moves = game.legal_moves(opening)
                    opening = game.play(opening, moves[rng.integers(len(moves))])
            for mutant_side in (0, 1):
                state, plies = opening, 0
                while not game.is_terminal(state) and plies < self.max_plies:
                    agent = sides[0] if game.to_move(state) == mutant_side else sides[1]
                    state = game.play(state, agent.choose(game, state, rng).move)
                    plies += 1
                if game.is_terminal(state):
                    points += (game.returns(state)[mutant_side] + 1.0) / 2.0
                else:
                    points += 0.5
        return points


@hookimpl
def mindgames_learners():
    return [LearnerInfo("hillclimb", HillClimb, "(1+1) hill climbing by play (an example plugin)")]
