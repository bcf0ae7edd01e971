"""What HG and SHG share: the population of genotypes with its bookkeeping (``Run``), and the
generation loop with checkpoints, snapshots and resume (``Evolution``). A generation is
``steps`` steady-state steps (default: one per specimen); the subclass says what a step does,
what starts a generation, which specimen is the best and what its history rows add."""

from __future__ import annotations

import time
from abc import abstractmethod
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames import checkpoint
from mindgames.game import Game
from mindgames.interrupts import stop_requested
from mindgames.learner import Learner, Progress, TrainingResult
from mindgames.model import PARAMETRIC, Evaluator, Parametric, as_parametric
from mindgames.plugins.learners.hg import operators, stats
from mindgames.plugins.learners.td import scaling
from mindgames.training import reporting, save_snapshot


@attrs.define
class Run:
    """The population and its counters: genotypes as rows, each one's score (HG: fitness;
    SHG: comparisons won) and comparisons played, whether it was made by a mutation."""

    population: np.ndarray
    score: np.ndarray
    played: np.ndarray
    mutated: np.ndarray
    tally: stats.Tally = attrs.Factory(stats.Tally)
    generation: int = 0
    games: int = 0
    elapsed: float = 0.0
    history: list[dict[str, Any]] = attrs.Factory(list)

    @classmethod
    def start(cls, population: np.ndarray) -> Run:
        n = len(population)
        return cls(population, np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool))

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "population": self.population,
            "score": self.score,
            "played": self.played,
            "mutated": self.mutated,
        }

    def counters(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "games": self.games,
            "elapsed": self.elapsed,
            "tally": self.tally.as_dict(),
        }

    @classmethod
    def restore(cls, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> Run:
        return cls(
            arrays["population"].astype(float),
            arrays["score"].astype(float),
            arrays["played"].astype(float),
            arrays["mutated"].astype(bool),
            stats.Tally(**meta["tally"]),
            int(meta["generation"]),
            int(meta["games"]),
            float(meta["elapsed"]),
            list(meta["history"]),
        )

    def replace(self, i: int, genes: np.ndarray, score: float, mutated: bool) -> None:
        """Specimen ``i`` becomes a new genotype with its score and mutation flag."""
        self.population[i] = genes
        self.score[i] = score
        self.played[i] = 0.0
        self.mutated[i] = mutated


@attrs.define
class Context:
    """What a run works with: the game, the evaluator whose model the genotypes set, the gene
    groups, the executor, the run directory and the random genes' bounds (``Evolution.bounds``);
    ``tests`` is HG's current test set."""

    game: Game
    evaluator: Evaluator
    groups: list[slice]
    executor: Any
    workdir: Path
    bounds: tuple[Any, Any]
    tests: Any = None


def _init_range(inst: Any, attr: attrs.Attribute, value: Any) -> None:
    if len(value) != 2 or not value[0] < value[1]:
        raise ValueError(f"{attr.name} must be [lo, hi] with lo < hi, got {list(value)!r}")


@attrs.frozen
class Evolution(Learner):
    """A steady-state genetic algorithm over a parametric model's vector (HG, SHG)."""

    needs: ClassVar[frozenset[str]] = frozenset({PARAMETRIC})
    #: what ``count`` counts, the unit ``mindgames curve`` shows its snapshots by
    counts: ClassVar[str] = "generation"

    #: specimens in the population
    population: int = attrs.field(default=100, validator=v.ge(3))
    #: generations (history rows); HG: per phase
    generations: int = attrs.field(default=20, validator=v.gt(0))
    #: steady-state steps (one child each) per generation; unset: one per specimen
    steps: int | None = attrs.field(default=None, validator=v.optional(v.gt(0)))
    #: specimens in each selection tournament
    tournament: int = attrs.field(default=3, validator=v.ge(2))
    #: probability that a gene mutates (x2, /2, sign change with odds 2:2:1)
    mutation: float = attrs.field(default=0.05, validator=[v.ge(0.0), v.le(1.0)])
    #: uniform range of the random genes (initial population, regenerated specimens); unset:
    #: per linear combination, +-1 shrunk so that its value spreads by at most 0.5 over
    #: positions of seeded random games (``measure``: ``td.scaling.uniform_ranges``)
    init: tuple[float, float] | None = attrs.field(default=None, validator=v.optional(_init_range))
    #: checkpoint (and snapshot the best) every this many generations (0: at the end only)
    checkpoint_every: int = attrs.field(default=1, validator=v.ge(0))
    #: processes for the tasks (labelling, comparison games)
    workers: int = attrs.field(default=1, validator=v.ge(1))
    #: a Dask scheduler address for the tasks ("local" or tcp://host:port)
    scheduler: str | None = None
    #: the probe's measurement (``measure``); set by ``mindgames train`` from the run's seed,
    #: not by configs. None: ``train`` probes with seed 0 when ``init`` is unset.
    measured: dict[str, Any] | None = attrs.field(default=None, repr=False)

    def measure(self, game: Game, evaluator: Evaluator, seed: int) -> tuple[Learner, dict]:
        """With ``init`` unset, probe the encoding on random games seeded by ``seed``
        (``td.scaling``): the gene range of each linear combination."""
        found: dict[str, Any] = {}
        if self.init is None and isinstance(evaluator.model, Parametric):  # else train refuses
            found = scaling.measure(scaling.probe(game, evaluator, seed), seed)
            reach = scaling.uniform_ranges(
                evaluator.model, evaluator.encoding.width, found, 1.0, linear=True
            )
            found["init"] = [[-r, r] for r in reach]  # one [lo, hi] per linear combination
        return attrs.evolve(self, measured=found), found

    def bounds(self, game: Game, evaluator: Evaluator) -> tuple[Any, Any]:
        """The random genes' bounds: ``init``, or per gene its group's measured range."""
        if self.init is not None:
            return self.init[0], self.init[1]
        found = self.measured if self.measured else self.measure(game, evaluator, 0)[1]
        reach = scaling.per_weight(evaluator.model, [hi for _, hi in found["init"]])
        return -reach, reach

    def total(self) -> int:
        """Generations in the whole run."""
        return self.generations

    def planned(self) -> tuple[str, int]:
        """The history counts generations (the length of ``mindgames train``'s progress bar)."""
        return ("generation", self.total())

    def train(
        self,
        game: Game,
        evaluator: Evaluator,
        rng: np.random.Generator,
        *,
        workdir: Path,
        resume: bool = False,
        progress: Progress | None = None,
    ) -> TrainingResult:
        """Run every generation, checkpointing into ``workdir``; the best specimen."""
        from mindgames.executors import open_executor

        self.check(game, evaluator)
        path = checkpoint.path_in(workdir)
        genes = as_parametric(evaluator.model).get_params()
        groups = operators.gene_groups(evaluator.model, genes.size)
        bounds = self.bounds(game, evaluator)
        if checkpoint.resumable(workdir, resume):
            saved = checkpoint.load(path, self, rng=rng)
            run = Run.restore(saved.arrays, saved.counters | {"history": saved.history})
        else:
            run = Run.start(self.initial(genes, bounds, rng))
        with open_executor(self.workers, self.scheduler) as executor:
            context = Context(game, evaluator, groups, executor, Path(workdir), bounds)
            while run.generation < self.total():
                row = self._generation(context, run, rng)
                every, done = self.checkpoint_every, run.generation
                with reporting(row, progress):
                    if stop_requested() or (every and done % every == 0) or done >= self.total():
                        best = self.specimen(evaluator, run, self.best(run))
                        count = self.count(run)
                        info = {"learner": self.name}
                        save_snapshot(workdir, game, best, count, info, unit=self.counts)
                        counters, arrays = run.counters(), run.arrays()
                        checkpoint.save(path, self, counters=counters, history=run.history,
                                        arrays=arrays, rng=rng)  # fmt: skip
        return TrainingResult(self.specimen(evaluator, run, self.best(run)), tuple(run.history))

    def _generation(self, context: Context, run: Run, rng: np.random.Generator) -> dict[str, Any]:
        """One generation: its start, its steps, its history row (appended to ``run``)."""
        begin = time.perf_counter()
        before = attrs.evolve(run.tally)
        self.begin(context, run, rng)
        for _ in range(self.steps or self.population):
            self.step(context, run, rng)
        run.generation += 1
        best = self.best(run)
        row = {"generation": run.generation, **self.describe(context, run, best)}
        row.update(stats.row(run.tally, before, run.population, best, run.mutated))
        seconds = time.perf_counter() - begin
        run.elapsed += seconds
        row.update({"seconds": round(seconds, 4), "elapsed": round(run.elapsed, 3)})
        run.history.append(row)
        return row

    def initial(
        self, genes: np.ndarray, bounds: tuple[Any, Any], rng: np.random.Generator
    ) -> np.ndarray:
        """Specimen 0 has the evaluator's parameters, the others random genes in ``bounds``."""
        others = operators.random_genotypes(self.population - 1, genes.size, bounds, rng)
        return np.vstack([genes, others])

    def child(
        self, context: Context, run: Run, a: int, b: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, int]:
        """Crossover of specimens ``a`` and ``b``, then mutation; the genes and mutations."""
        genes = operators.crossover(run.population[a], run.population[b], context.groups, rng)
        genes, changed = operators.mutate(genes, self.mutation, rng)
        run.tally.crossovers += 1
        run.tally.mutations += changed
        return genes, changed

    def specimen(self, evaluator: Evaluator, run: Run, i: int) -> Evaluator:
        """``evaluator`` with its model set to specimen ``i``'s genes."""
        as_parametric(evaluator.model).set_params(run.population[i])
        return evaluator

    # --- what HG and SHG say -----------------------------------------------------------------
    def check(self, game: Game, evaluator: Evaluator) -> None:
        """Refuse bad options for this game before any work (nothing by default)."""

    def begin(self, context: Context, run: Run, rng: np.random.Generator) -> None:
        """Prepare a generation (HG: a phase change, or its test set after a resume)."""

    @abstractmethod
    def step(self, context: Context, run: Run, rng: np.random.Generator) -> None:
        """One steady-state step: select, make a child, maybe replace a specimen."""

    @abstractmethod
    def best(self, run: Run) -> int:
        """The index of the best specimen."""

    @abstractmethod
    def describe(self, context: Context, run: Run, best: int) -> dict[str, Any]:
        """The learner's own fields of a history row."""

    @abstractmethod
    def count(self, run: Run) -> int:
        """What a snapshot is named by (HG: the generation; SHG: the games played: ``counts``)."""
