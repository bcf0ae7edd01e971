"""HG, the Heuristic Generator (Kusiak, Walędzik, Mańdziuk): a steady-state genetic algorithm
whose fitness is how well a specimen matches labelled test positions, trained in phases from
the end of the game towards the root as Layered Learning is.

Phase p (1, 2, ...) draws its test positions at the stage ``plies - (p - 1) * step_plies``
(``stages.windows``), labels them by alpha-beta (``first_label``, the null evaluator, in phase
0; ``label`` with the best specimen of phase p - 1 later) and keeps them as data sets in
``DIR/stages/``. A share ``current_share`` of a phase's ``boards`` comes from its own stage
(the one nearest the root so far), the rest from the earlier stages: new positions labelled now
(``reuse = false``, the study's linear runs) or positions of the earlier phases' test sets
drawn again (``reuse = true``, its non-linear runs). At a phase change the worst
``regenerate`` share of the population is replaced by random genotypes.

A step: two tournaments of ``tournament`` specimens give the parents (the fitter wins), the
crossover per linear combination and per-gene mutation (``operators``) give a child, which
replaces the weakest specimen only if it is fitter. Fitness n / sum (h - a)^2 (``fitness``),
divided by the niche count with ``sharing``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames.data.sets import DataSet, merge, read_dataset, write_dataset
from mindgames.errors import ConfigError
from mindgames.game import Game
from mindgames.model import Evaluator
from mindgames.plugins.learners.hg import fitness, operators
from mindgames.plugins.learners.hg.boards import labelled_positions
from mindgames.plugins.learners.hg.population import Context, Evolution, Run
from mindgames.plugins.learners.stages import Stage, windows
from mindgames.spec import parse_spec

STAGES = "stages"


def _window(inst: Any, attr: attrs.Attribute, value: Any) -> None:
    if len(value) != 2 or not 0 <= value[0] <= value[1]:
        raise ValueError(f"{attr.name} must be [lo, hi] with 0 <= lo <= hi, got {list(value)!r}")


@attrs.frozen
class HGLearner(Evolution):
    """HG: evolution by the fitness on labelled positions, in phases towards the root."""

    name: ClassVar[str] = "hg"

    population: int = attrs.field(default=350, validator=v.ge(3))
    #: phases (stages); the run has phases x generations generations
    phases: int = attrs.field(default=7, validator=v.gt(0))
    #: the ply window of the first stage (random playouts)
    plies: tuple[int, int] = attrs.field(default=(81, 87), validator=_window)
    #: plies each phase's stage lies nearer the root than the one before
    step_plies: int = attrs.field(default=6, validator=v.ge(1))
    #: test positions per phase
    boards: int = attrs.field(default=3000, validator=v.gt(0))
    #: the share of a phase's test positions from its own stage (the rest: earlier stages)
    current_share: float = attrs.field(default=0.5, validator=[v.gt(0.0), v.le(1.0)])
    #: the earlier stages' share: drawn again from the earlier test sets (true) or new (false)
    reuse: bool = False
    #: the labelling search of phase 0 (the null evaluator: unresolved leaves are draws)
    first_label: str = "endgame:depth=6"
    #: the labelling search of later phases, with the previous phase's best as its evaluator
    label: str = "alphabeta:depth=6"
    #: share of the population (the worst) regenerated at random at each phase change
    regenerate: float = attrs.field(default=0.8, validator=[v.ge(0.0), v.lt(1.0)])
    #: divide the fitness by the niche count sum_j exp(-d_ij^2)
    sharing: bool = False

    def total(self) -> int:
        return self.phases * self.generations

    def stages(self) -> tuple[Stage, ...]:
        """The stage of each phase (``stages.windows``)."""
        return windows(self.plies[0], self.plies[1], self.step_plies, self.phases)

    def check(self, game: Game, evaluator: Evaluator) -> None:
        """Refuse labelling searches that are not registered, before any work."""
        from mindgames.registry import get_registry

        self.stages()  # a schedule that passes ply 0 is refused here
        registry = get_registry()
        for option in ("first_label", "label"):
            spec = getattr(self, option)
            name, options = parse_spec(spec)
            if "eval" in options and option == "label":
                raise ConfigError(f"hg {option} {spec!r}: the previous best is its evaluator")
            registry.searcher(name, options, where=f"hg {option} {spec!r}")

    # --- phases ------------------------------------------------------------------------------
    def begin(self, context: Context, run: Run, rng: np.random.Generator) -> None:
        """At a phase's first generation: its test set, the regeneration, new fitness; after a
        resume inside a phase: its test set read back."""
        phase = run.generation // self.generations
        folder = context.workdir / STAGES
        if run.generation % self.generations == 0:
            data = self._phase_data(context, run, phase, rng)
            write_dataset(folder / f"phase-{phase + 1}.npz", data)
            context.tests = fitness.TestSet.of(context.game, context.evaluator, data)
            if phase > 0:
                worst = operators.worst(run.score, self.regenerate)
                size = run.population.shape[1]
                fresh = operators.random_genotypes(len(worst), size, context.bounds, rng)
                for i, genes in zip(worst, fresh, strict=True):
                    run.replace(int(i), genes, 0.0, False)
            run.score = fitness.scores(context.evaluator, run.population, context.tests)
        elif context.tests is None:
            data = read_dataset(folder / f"phase-{phase + 1}.npz", game=context.game.spec())
            context.tests = fitness.TestSet.of(context.game, context.evaluator, data)

    def _phase_data(
        self, context: Context, run: Run, phase: int, rng: np.random.Generator
    ) -> DataSet:
        """The labelled test positions of phase ``phase`` (0-based; files and history rows
        number phases from 1, as the stages are numbered)."""
        from mindgames.modelfile import save_evaluator

        folder = context.workdir / STAGES
        stages = self.stages()
        agent = self.first_label
        if phase > 0:
            best = folder / f"labeller-{phase + 1}.npz"
            labeller = self.specimen(context.evaluator, run, self.best(run))
            save_evaluator(best, context.game, labeller, {"learner": self.name, "phase": phase})
            agent = f"{self.label},eval=@{best}"
        own = self.boards if phase == 0 else max(1, round(self.current_share * self.boards))
        parts = [self._stage(context, stages[phase], phase, own, agent, rng)]
        rest = self.boards - own
        if phase > 0 and rest > 0 and self.reuse:
            earlier = merge([(f"phase-{p}", read_dataset(folder / f"phase-{p}.npz"))
                             for p in range(1, phase + 1)])  # fmt: skip
            pick = rng.choice(len(earlier), size=rest, replace=rest > len(earlier))
            parts.append(earlier.select(np.sort(pick)))
        elif phase > 0 and rest > 0:
            counts = np.diff(np.linspace(0, rest, phase + 1).round().astype(int))
            for stage, count in zip(stages[:phase], counts, strict=True):
                if count > 0:
                    parts.append(self._stage(context, stage, phase, int(count), agent, rng))
        return merge([(f"part-{k}", part) for k, part in enumerate(parts)])

    def _stage(
        self, context: Context, stage: Stage, phase: int, count: int, agent: str,
        rng: np.random.Generator,
    ) -> DataSet:  # fmt: skip
        out = context.workdir / STAGES / f"phase-{phase + 1}-stage-{stage.order}.npz"
        return labelled_positions(context.game, stage, count, rng, agent, out, context.executor,
                                  self.workers)  # fmt: skip

    # --- steps -------------------------------------------------------------------------------
    def _selection(self, run: Run) -> np.ndarray:
        if self.sharing:
            return operators.shared(run.score, run.population)
        return run.score

    def step(self, context: Context, run: Run, rng: np.random.Generator) -> None:
        """Two tournaments, a child, and the child replaces the weakest if it is fitter."""
        values = self._selection(run)
        size = len(values)
        first = self._winner(operators.tournament(size, self.tournament, rng), values)
        second = self._winner(operators.tournament(size, self.tournament, rng, (first,)), values)
        genes, changed = self.child(context, run, first, second, rng)
        raw = fitness.score(context.evaluator, genes, context.tests)
        weakest = int(np.argmin(values))
        value = raw
        if self.sharing:
            value = raw / operators.niche_count(genes, np.delete(run.population, weakest, axis=0))
        if value > values[weakest]:
            run.replace(weakest, genes, raw, changed > 0)
            run.tally.kept += 1

    @staticmethod
    def _winner(candidates: np.ndarray, values: np.ndarray) -> int:
        return int(candidates[int(np.argmax(values[candidates]))])

    def best(self, run: Run) -> int:
        return int(np.argmax(run.score))

    def count(self, run: Run) -> int:
        return run.generation

    def describe(self, context: Context, run: Run, best: int) -> dict[str, Any]:
        phase = (run.generation - 1) // self.generations
        stage = self.stages()[phase]
        return {
            "phase": phase + 1,
            "plies": [stage.lo, stage.hi],
            "boards": len(context.tests),
            "best": round(float(run.score[best]), 6),
            "mean": round(float(np.mean(run.score)), 6),
            "best_mse": round(1.0 / float(run.score[best]), 6),
        }
