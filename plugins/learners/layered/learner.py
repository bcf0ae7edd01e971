"""The Layered Learning learner (Wałędzik and Mańdziuk): train end-game first, one stage of plies
at a time, each stage labelled by a search with the evaluator trained on the stages before.

The game is split into ``stages`` disjoint stages of ``width`` plies (``stages.disjoint``); the
stage nearest the end is trained first. Unset, ``stages`` follows the game's typical length: the
deepest stage holds the median length of seeded random games (``measure``). For each stage:
positions from playouts (``data``), labels by alpha-beta -- the deepest stage with the null
evaluator or a game's exact solver, every later one with the previous stage's evaluator (its
snapshot) -- then a population fitter (``population``: ``rprop``, ``evolution``,
``evolution+rprop``) runs ``generations`` generations on the stage's training set and a test set
drawn from every stage trained so far.

``evaluators = "one"``: one evaluator for all stages, trained on the current stage plus the
earlier stages' positions (kept, or regenerated and ``relabel``led by the newest evaluator), the
current stage weighted to ``current_share`` of the training set. ``"per-stage"``: a ``staged``
evaluator on the ``plies`` column (``encoding = "...+progress"``, ``by = ["plies"]``, ``measure =
"sum"``, bounds at the stage boundaries); each stage trains its own member on its own positions,
and its network is copied into the members of the stages not trained yet, so the evaluator after
each stage plays every ply.

After each stage the evaluator is kept as a snapshot (``snapshots/<playouts>.npz``, named by the
playouts behind it), which labels the next stage and makes a learning curve (``mindgames curve
RUN --vs AGENT``: the tournament of the evaluators after each stage). A checkpoint after every
generation lets ``--resume`` continue a killed run exactly; data files and labelling journals
resume on their own.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames import checkpoint
from mindgames.capabilities import require
from mindgames.errors import ConfigError
from mindgames.executors import open_executor
from mindgames.game import Game, Solvable
from mindgames.learner import Learner, Progress, TrainingResult
from mindgames.model import DIFFERENTIABLE, PARAMETRIC, Evaluator, HasMembers, Model, as_parametric
from mindgames.model import require as require_capabilities
from mindgames.plugins.learners import stages as schedules
from mindgames.plugins.learners.coevolution.evolve import ordered_pair
from mindgames.plugins.learners.fitters import FitOptions, Patterns
from mindgames.plugins.learners.layered import population as pop
from mindgames.plugins.learners.layered.checkpoint import (
    CHECKPOINT,
    RunState,
    load_checkpoint,
    save_checkpoint,
)
from mindgames.plugins.learners.layered.data import SOLVE, StageData, encode, seed_of, split
from mindgames.plugins.learners.stages import Stage
from mindgames.plugins.learners.td import scaling
from mindgames.registry import get_registry
from mindgames.spec import parse_spec
from mindgames.training import reporting, save_snapshot, snapshots

#: default population and generations a phase of each fitter (the study's)
DEFAULTS = {"rprop": (8, 4), "evolution": (40, 300), "evolution+rprop": (40, 300)}


@attrs.frozen
class LayeredLearner(Learner):
    """End-game-first training by stages of plies with population fitters (module docstring)."""

    name: ClassVar[str] = "layered"
    needs: ClassVar[frozenset[str]] = frozenset({PARAMETRIC})

    #: disjoint stages of ``width`` plies: stage 1 is plies [0, width); the last is trained
    #: first. Unset: enough stages that the deepest holds the median length of seeded random
    #: games (``measure``: length // width + 1). ``width`` 5: every example used 4-5 plies, the
    #: depth a later stage's labels search to reach the stage before
    stages: int | None = attrs.field(default=None, validator=v.optional(v.ge(1)))
    width: int = attrs.field(default=5, validator=v.ge(1))
    #: positions of each stage for training, and for the test set
    positions: int = attrs.field(default=500, validator=v.ge(1))
    test_positions: int = attrs.field(default=100, validator=v.ge(1))
    #: agent specs that take turns move by move in the playouts (empty: uniformly random moves)
    playouts: list[str] = attrs.Factory(list)
    #: the deepest stage's labeller: a searcher with the null evaluator, or "solve" (exact)
    deepest: str = "endgame:depth=6"
    #: the searcher labelling every later stage with the evaluator of the stages before
    search: str = "alphabeta"
    #: its depth; 0: from each position, deep enough to reach the stage trained before
    label_depth: int = attrs.field(default=0, validator=v.ge(0))
    #: exact labels ("solve"): tanh(margin / scale), or clip(margin / scale) with "linear"
    scale: float = attrs.field(default=8.0, validator=v.gt(0.0))
    squash: str = attrs.field(default="tanh", validator=v.in_(("tanh", "linear")))
    #: "one" evaluator for all stages, or "per-stage" (a staged evaluator on plies)
    evaluators: str = attrs.field(default="one", validator=v.in_(("one", "per-stage")))
    #: "one": the current stage's share of the training weight (1: earlier stages left out)
    current_share: float = attrs.field(default=0.5, validator=[v.gt(0.0), v.le(1.0)])
    #: "one": earlier stages' positions "keep" their labels or are "relabel"led by the newest
    earlier: str = attrs.field(default="keep", validator=v.in_(("keep", "relabel")))
    #: rprop, evolution or evolution+rprop; population and generations a phase (None: 8 and 4
    #: for rprop, 40 and 300 for evolution)
    fitter: str = attrs.field(default="rprop", validator=v.in_(pop.FITTERS))
    population: int | None = attrs.field(default=None, validator=v.optional(v.ge(2)))
    generations: int | None = attrs.field(default=None, validator=v.optional(v.ge(1)))
    #: mutation rates: a low one drawn from this range per copy, and the high one
    mutation_low: tuple[float, float] = attrs.field(default=(0.01, 0.03), validator=ordered_pair)
    mutation_high: float = attrs.field(default=0.1, validator=[v.ge(0.0), v.le(1.0)])
    #: uniform range of random networks and of a mutation's new random value
    init: tuple[float, float] = attrs.field(default=(-0.1, 0.1), validator=ordered_pair)
    #: evolution: the worst fraction dropped, the top fraction copied twice, the fraction
    #: that survives a phase change
    discard: float = attrs.field(default=0.55, validator=[v.ge(0.0), v.lt(1.0)])
    elite: float = attrs.field(default=0.05, validator=[v.ge(0.0), v.le(1.0)])
    survive: float = attrs.field(default=0.3, validator=[v.gt(0.0), v.le(1.0)])
    #: evolution+rprop: RPROP epochs of each new network
    pass_epochs: int = attrs.field(default=10, validator=v.ge(1))
    #: RPROP and its early stopping (the fitters module's options)
    fit: FitOptions = attrs.Factory(FitOptions)
    #: processes that label positions (1: in this process); a Dask scheduler address
    workers: int = attrs.field(default=1, validator=v.ge(1))
    scheduler: str | None = None
    #: the probe's measurement (``measure``); set by ``mindgames train`` from the run's seed,
    #: not by configs. None: ``train`` probes with seed 0 when ``stages`` is unset.
    measured: dict[str, Any] | None = attrs.field(default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        deepest = [] if self.deepest == SOLVE else [self.deepest]
        for spec in (self.search, *self.playouts, *deepest):
            parse_spec(spec)
        schedules.disjoint(self.stages or 1, self.width)

    def planned(self) -> tuple[str, int] | None:
        """Every stage runs the fitter's generations (``train``'s progress bar); None before
        ``measure`` when ``stages`` is unset."""
        count = self.stages or (self.measured or {}).get("stages")
        return ("generation", count * self.breeding().generations) if count else None

    def measure(self, game: Game, evaluator: Evaluator, seed: int) -> tuple[Learner, dict]:
        """With ``stages`` unset, the median length of random games seeded by ``seed``
        (``td.scaling.typical_length``) and the stages it gives; the learner with them."""
        found: dict[str, Any] = {}
        if self.stages is None:
            length = scaling.typical_length(game, seed)
            found = {"probe_seed": int(seed), "probe_games": scaling.PROBE_GAMES,
                     "typical_length": length, "stages": length // self.width + 1}  # fmt: skip
        return attrs.evolve(self, measured=found), found

    def breeding(self) -> pop.PopulationOptions:
        """The population fitter's options, with the fitter's defaults filled in."""
        size, generations = DEFAULTS[self.fitter]
        return pop.PopulationOptions(
            self.fitter, self.population or size, self.generations or generations,
            (self.mutation_low[0], self.mutation_low[1]), self.mutation_high,
            (self.init[0], self.init[1]), self.discard,
            self.elite, self.survive, self.pass_epochs, self.fit,
        )  # fmt: skip

    # --- training --------------------------------------------------------------------------
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
        """Train every stage, last first, checkpointing each generation into ``workdir``."""
        if self.stages is None:  # the schedule from the game's length (``measure``)
            found = self.measured if self.measured else self.measure(game, evaluator, 0)[1]
            resolved = attrs.evolve(self, stages=int(found["stages"]), measured=found)
            return resolved.train(
                game, evaluator, rng, workdir=workdir, resume=resume, progress=progress
            )
        schedule = schedules.disjoint(self.stages, self.width)
        self._check(game, evaluator, schedule)
        o = self.breeding()
        path = Path(workdir) / CHECKPOINT
        model = evaluator.model
        if checkpoint.resumable(workdir, resume):
            state, params = load_checkpoint(path, self)
            as_parametric(model).set_params(params)
        else:
            state = RunState(int(rng.integers(2**62)))
        with open_executor(self.workers, self.scheduler) as executor:
            data = StageData(self, game, get_registry(), Path(workdir), state.root, executor)
            while state.done < len(schedule):
                self._stage(game, evaluator, schedule, data, state, o, path, progress)
        return TrainingResult(evaluator, tuple(state.history))

    def _check(self, game: Game, evaluator: Evaluator, schedule: tuple[Stage, ...]) -> None:
        """Refuse, before any work, what cannot run: agents, the solver, the staged shape."""
        registry = get_registry()
        for spec in (*self.playouts, *([] if self.deepest == SOLVE else [self.deepest])):
            from mindgames.agent import build_agent

            build_agent(registry, game, spec)
        if self.deepest == SOLVE and not isinstance(game, Solvable):
            raise ConfigError(f"deepest = 'solve': game {game.spec()!r} cannot solve positions")
        if self.breeding().uses_rprop:
            require_capabilities({DIFFERENTIABLE}, evaluator.model, who=f"fitter {self.fitter!r}")
        if self.evaluators == "per-stage":
            model = evaluator.model
            want = schedules.bounds(schedule)
            if (
                not isinstance(model, HasMembers)
                or [float(b) for b in want] != list(model.bounds)
                or model.by != ["plies"]
                or model.measure != "sum"
            ):
                raise ConfigError(
                    "evaluators = 'per-stage' needs a staged evaluator on the plies column: "
                    f'encoding = "...+progress", by = ["plies"], measure = "sum", bounds = {want}'
                )

    def _target(self, evaluator: Evaluator, stage: Stage) -> Model:
        """The model a stage fits: the evaluator's, or its member for the stage."""
        model = evaluator.model
        if self.evaluators == "one":
            return model
        staged = require(model, HasMembers, what="evaluators = 'per-stage'")
        return staged.members[len(staged.members) - stage.order]  # one member a stage

    def _stage(
        self, game: Game, evaluator: Evaluator, schedule: tuple[Stage, ...], data: StageData,
        state: RunState, o: pop.PopulationOptions, path: Path, progress: Progress | None,
    ) -> None:  # fmt: skip
        """The generations of the next stage not yet run, from its data to its snapshot."""
        begin = time.perf_counter()
        index = state.done
        stage = schedule[index]
        kept = [p for _, p in snapshots(data.workdir)]
        previous = kept[index - 1] if index else None
        sets, playouts = self._sets(game, evaluator, schedule, data, index, kept)
        target = self._target(evaluator, stage)
        size = len(as_parametric(target).get_params())
        population = state.population
        if state.generation == 0:
            start = seed_of(state.root, stage.order, 0)
            if index and population.shape[1] == size:
                population = pop.phase_change(population, o, start)
            else:
                population = pop.first(as_parametric(target).get_params(), o, start)
            population = pop.begin(population, target, sets, o, start)
        data_seconds = time.perf_counter() - begin
        first = state.generation
        for g in range(first, o.generations):
            started = time.perf_counter()
            last = g == o.generations - 1
            rng = seed_of(state.root, stage.order, g + 1)
            population, train, test = pop.generation(population, target, sets, o, last, rng)
            as_parametric(target).set_params(population[0])
            seconds = time.perf_counter() - started + (data_seconds if g == first else 0)
            state.elapsed += seconds
            row = {
                "generation": index * o.generations + g + 1,
                "stage": stage.order,
                "plies": [stage.lo, stage.hi],
                "stage_generation": g + 1,
                "games": state.games + playouts,
                "train": len(sets.train),
                "test": len(sets.test),
                "best_train_mse": round(float(train[0]), 8),
                "best_test_mse": round(float(test[0]), 8),
                "median_train_mse": round(float(np.median(train)), 8),
                "median_test_mse": round(float(np.median(test)), 8),
                "start_seconds": round(data_seconds if g == first else 0.0, 4),
                "seconds": round(seconds, 4),
                "elapsed": round(state.elapsed, 3),
            }
            state.population, state.generation = population, g + 1
            if last:
                self._finish(game, evaluator, stage, state, playouts, previous, data.workdir)
            state.history.append(row)
            with reporting(row, progress):
                save_checkpoint(path, self, state, as_parametric(evaluator.model).get_params())

    def _finish(
        self, game: Game, evaluator: Evaluator, stage: Stage, state: RunState, playouts: int,
        previous: Path | None, workdir: Path,
    ) -> None:  # fmt: skip
        """A stage is done: copy its network forward (per-stage), snapshot, move on."""
        if self.evaluators == "per-stage":
            best = state.population[0]
            members = require(evaluator.model, HasMembers, what="evaluators = 'per-stage'").members
            for member in members[: len(members) - stage.order]:
                if len(as_parametric(member).get_params()) == len(best):
                    as_parametric(member).set_params(best)
        state.games += playouts
        provenance = {"learner": self.name, "stage": stage.as_dict(),
                      "labelled_by": None if previous is None else previous.name}  # fmt: skip
        save_snapshot(workdir, game, evaluator, state.games, provenance, unit="playouts")
        state.done, state.generation = state.done + 1, 0

    def _sets(
        self, game: Game, evaluator: Evaluator, schedule: tuple[Stage, ...], data: StageData,
        index: int, kept: list[Path],
    ) -> tuple[pop.Sets, int]:  # fmt: skip
        """The phase's training and test patterns, and the playouts behind them."""
        stage = schedule[index]
        previous = kept[index - 1] if index else None
        current = data.stage(stage, previous)
        train_rows, test_rows = split(current, self.positions, self.test_positions)
        parts = [(current, train_rows, 1.0)]
        tests = [(current, test_rows)]
        playouts = current.playouts
        if self.evaluators == "one":
            earlier = []
            for j in range(index):
                before = data.stage(schedule[j], kept[j - 1] if j else None)
                tests.append((before, split(before, self.positions, self.test_positions)[1]))
                if self.current_share >= 1.0:
                    continue
                if self.earlier == "relabel":
                    assert previous is not None
                    fresh = data.relabelled(schedule[j], stage, previous)
                    playouts += fresh.playouts
                    earlier.append((fresh, np.arange(len(fresh.labels))))
                else:
                    earlier.append((before, split(before, self.positions, self.test_positions)[0]))
            if earlier:
                total = sum(len(rows) for _, rows in earlier)
                share = self.current_share * total / ((1 - self.current_share) * len(train_rows))
                parts = [(current, train_rows, share)] + [(e, rows, 1.0) for e, rows in earlier]
        train = _patterns(game, evaluator, parts)
        test = _patterns(game, evaluator, [(lab, rows, 1.0) for lab, rows in tests])
        return pop.Sets(train, test), playouts


def _patterns(
    game: Game, evaluator: Evaluator, parts: list[tuple[Any, np.ndarray, float]]
) -> Patterns:
    """Encoded rows, labels and weights of ``(labelled stage, rows, weight)`` parts."""
    xs, ys, ws = [], [], []
    for labelled, rows, weight in parts:
        xs.append(encode(game, evaluator.encoding, labelled.data.positions[rows]))
        ys.append(labelled.labels[rows])
        ws.append(np.full(len(rows), weight))
    return Patterns.of(np.vstack(xs), np.concatenate(ys), np.concatenate(ws))
