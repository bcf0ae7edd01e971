"""The co-evolution learner (Chellapilla and Fogel 1999, 2001): a population of parametric
evaluators, each parent makes one offspring by self-adaptive Gaussian mutation (``evolve``),
all of them play games against opponents drawn at random, and the best half survive. Fitness
comes from play alone; no labels, no gradients.

Optionally an encoding option evolves beside the weights (``king_option = "king"``: the king
value K of draughts' ``raw32``), so each individual plays with its own encoding. Games run as
pure game tasks (``mindgames.play.task``, each individual a ``Player``) on an executor, their seeds
derived from the generator up front, so a run gives the same result serial or in parallel. A
work item is a chunk of games, each one compiled call when the searcher can (``gamebatch``),
with the Python path's outcomes.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames import checkpoint
from mindgames.errors import ConfigError
from mindgames.executors import open_executor
from mindgames.game import Game
from mindgames.interrupts import stop_requested
from mindgames.learner import Learner, Progress, TrainingResult
from mindgames.model import PARAMETRIC, Evaluator, Parametric, as_parametric
from mindgames.play.gamebatch import play_outcomes
from mindgames.play.openings import Opening, make_openings, parse_openings
from mindgames.play.task import Player, game_between, game_seed
from mindgames.plugins.learners.coevolution import evolve
from mindgames.plugins.learners.coevolution.checkpoint import (
    CHECKPOINT,
    Population,
    load_checkpoint,
    save_checkpoint,
)
from mindgames.plugins.learners.td import scaling
from mindgames.spec import format_spec, parse_spec, split_plus
from mindgames.training import reporting, save_snapshot

#: half-width of the initial weights' uniform range before shrinking (``init`` unset)
INIT_REACH = 0.2
#: the initial step size as a share of the initial range's half-width (0.05 for +-0.2)
SIGMA_SHARE = 0.25


@attrs.frozen
class CoevolutionLearner(Learner):
    """Co-evolution by self-play with self-adaptive mutation and an evolvable encoding option."""

    name: ClassVar[str] = "coevolution"
    needs: ClassVar[frozenset[str]] = frozenset({PARAMETRIC})

    #: generations to run; parents (mu) per generation; meetings each individual opens as first
    #: player against an opponent drawn at random (a game each; two when ``paired``)
    generations: int = attrs.field(default=10, validator=v.gt(0))
    parents: int = attrs.field(default=15, validator=v.ge(1))
    games: int = attrs.field(default=5, validator=v.gt(0))
    #: points of a win, draw and loss (for both players of every game)
    win: float = 1.0
    draw: float = 0.0
    loss: float = -2.0
    #: the searcher every game is played with (the evaluator is the individual's)
    search: str = "alphabeta:depth=4,extend_forced=true,extend_captures=true"
    #: games longer than this are draws
    max_plies: int = attrs.field(default=200, validator=v.gt(0))
    #: where games start: "start" (the initial position, as published) or openings as
    #: ``match --openings`` takes them (``book:name=acf-3move``, ``random:plies=2``), one
    #: drawn at random for each meeting
    openings: str = "start"
    #: each meeting is two games from its opening, colours swapped (not published: the
    #: opening's and the first move's luck cancel within a pair)
    paired: bool = False
    #: uniform range of the initial weights of parents 1..; unset: per parameter group,
    #: +-0.2 shrunk so that a unit's initial pre-activation spreads by at most 0.5 over
    #: positions of seeded random games (``measure``: ``td.scaling.uniform_ranges``)
    init: tuple[float, float] | None = attrs.field(
        default=None, validator=v.optional(evolve.ordered_pair)
    )
    #: initial step size of every weight; unset: a quarter of its initial range's half-width
    #: (``SIGMA_SHARE``: the published 0.05 for +-0.2)
    sigma: float | None = attrs.field(default=None, validator=v.optional(v.gt(0.0)))
    #: an encoding option that evolves too ("king": raw32's K); None: none does
    king_option: str | None = None
    king_start: float = 2.0
    king_step: float = attrs.field(default=0.1, validator=v.ge(0.0))
    king_bounds: tuple[float, float] = attrs.field(
        default=(1.0, 3.0), validator=evolve.ordered_pair
    )
    #: checkpoint (and snapshot the best) every this many generations (0: at the end only)
    checkpoint_every: int = attrs.field(default=1, validator=v.ge(0))
    #: processes that play the games (1: in this process); a Dask scheduler address
    workers: int = attrs.field(default=1, validator=v.ge(1))
    scheduler: str | None = None

    #: the probe's measurement (``measure``); set by ``mindgames train`` from the run's seed,
    #: not by configs. None: ``train`` probes with seed 0 when ``init`` or ``sigma`` is unset.
    measured: dict[str, Any] | None = attrs.field(default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if not self.king_bounds[0] <= self.king_start <= self.king_bounds[1]:
            raise ValueError(f"king_start {self.king_start} is outside king_bounds")
        name, _ = parse_spec(self.search)
        if not name:
            raise ValueError(f"search: expected a searcher spec, got {self.search!r}")
        parse_openings(self.openings, where="")

    # --- training --------------------------------------------------------------------------
    def planned(self) -> tuple[str, int]:
        return ("generation", self.generations)

    def measure(self, game: Game, evaluator: Evaluator, seed: int) -> tuple[Learner, dict]:
        """With ``init`` or ``sigma`` unset, probe the encoding on random games seeded by
        ``seed`` (``td.scaling``): per parameter group, the initial range (``init``) and the
        initial step size (``sigma``); the learner with them."""
        found: dict[str, Any] = {}
        if (self.init is None or self.sigma is None) and isinstance(evaluator.model, Parametric):
            model, width = evaluator.model, evaluator.encoding.width
            found = scaling.measure(scaling.probe(game, evaluator, seed), seed)
            reach = scaling.uniform_ranges(model, width, found, INIT_REACH)
            if self.init is None:  # one [lo, hi] per parameter group
                found["init"] = [[-r, r] for r in reach]
            if self.sigma is None:
                given = self.init
                ranges = reach if given is None else [(given[1] - given[0]) / 2] * len(reach)
                found["sigma"] = [float(f"{SIGMA_SHARE * r:.6g}") for r in ranges]
        return attrs.evolve(self, measured=found), found

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
        """Run ``generations`` generations, checkpointing into ``workdir``; the best survivor."""
        self._check(game, evaluator)
        config = parse_openings(self.openings, where="")
        # random openings draw their seed first (the published start draws nothing, so its
        # runs keep their stream); the checkpoint keeps it, so a resume plays the same ones
        seed = int(rng.integers(2**62)) if config.kind == "random" else 0
        path = Path(workdir) / CHECKPOINT
        if checkpoint.resumable(workdir, resume):
            population, counters = load_checkpoint(path, self, rng)
            seed = int(counters.get("openings_seed", seed))
        else:
            population, counters = self._initial(evaluator, game, rng), {}
        starts = make_openings(game, config, seed)
        history: list[dict[str, Any]] = list(counters.get("history", []))
        done, elapsed = int(counters.get("generation", 0)), float(counters.get("elapsed", 0.0))
        with open_executor(self.workers, self.scheduler) as executor:
            while done < self.generations:
                begin = time.perf_counter()
                population, row, elder = self._generation(
                    game, evaluator, population, starts, rng, executor
                )
                if done == 0:  # generation 0's best, as its games ranked it: the curve's start
                    first = self.individual(game, evaluator, elder, 0)
                    save_snapshot(workdir, game, first, 0, {"learner": self.name})
                done += 1
                seconds = time.perf_counter() - begin
                elapsed += seconds
                played = row["first_wins"] + row["draws"] + row["first_losses"]
                games_played = (history[-1]["games"] if history else 0) + played
                row = {"generation": done, "games": games_played, **row}
                row.update({"seconds": round(seconds, 4), "elapsed": round(elapsed, 3)})
                history.append(row)
                every = self.checkpoint_every
                saving = (every and done % every == 0) or done >= self.generations
                with reporting(row, progress):
                    if stop_requested() or saving:
                        best = self.individual(game, evaluator, population, 0)
                        save_snapshot(workdir, game, best, row["games"], {"learner": self.name})
                        extra = {"generation": done, "elapsed": elapsed, "openings_seed": seed}
                        save_checkpoint(path, self, population, rng, extra, history)
        return TrainingResult(self.individual(game, evaluator, population, 0), tuple(history))

    def _check(self, game: Game, evaluator: Evaluator) -> None:
        """Refuse, before any game, an encoding without the evolving option or a bad search."""
        from mindgames.registry import get_registry

        registry = get_registry()
        name, options = parse_spec(self.search)
        registry.searcher(name, options, where=f"coevolution search {self.search!r}")
        if self.king_option is not None:
            if len(split_plus(evaluator.encoding.name)) > 1:
                raise ConfigError(
                    f"king_option needs a single encoding, not {evaluator.encoding.name!r}"
                )
            registry.encoding(game, self.encoding_spec(evaluator, self.king_start))

    def _initial(self, evaluator: Evaluator, game: Game, rng: np.random.Generator) -> Population:
        """Parent 0 has the evaluator's weights, the others uniform ones in ``init`` (unset:
        the measured range of each parameter group); every sigma starts at ``sigma``."""
        first = as_parametric(evaluator.model).get_params()
        found = self.measured
        if found is None and (self.init is None or self.sigma is None):
            found = self.measure(game, evaluator, 0)[1]
        shape = (self.parents - 1, first.size)
        if self.init is not None:
            others = rng.uniform(*self.init, shape)
        else:
            assert found is not None
            reach = [hi for _, hi in found["init"]]
            others = rng.uniform(-1.0, 1.0, shape) * scaling.per_weight(evaluator.model, reach)
        weights = np.vstack([first, others])
        if self.sigma is not None:
            sigmas = np.full_like(weights, self.sigma)
        else:
            assert found is not None
            sigma = scaling.per_weight(evaluator.model, found["sigma"])
            sigmas = np.tile(sigma, (self.parents, 1))
        return Population(weights, sigmas, np.full(self.parents, float(self.king_start)))

    def _generation(
        self, game: Game, evaluator: Evaluator, parents: Population, starts: list[Opening],
        rng: np.random.Generator, executor: Any,
    ) -> tuple[Population, dict[str, Any], Population]:  # fmt: skip
        """Offspring, games, scores, survivors: the next parents, the history row's stats and
        the best of the parents (the generation before, ranked by these games)."""
        children = [
            evolve.mutate(w, s, rng) for w, s in zip(parents.weights, parents.sigmas, strict=True)
        ]
        kings = parents.kings
        if self.king_option is not None:
            kings = np.array([evolve.mutate_king(k, self.king_step, self.king_bounds, rng)
                              for k in parents.kings])  # fmt: skip
        everyone = Population(
            np.vstack([parents.weights, [w for w, _ in children]]),
            np.vstack([parents.sigmas, [s for _, s in children]]),
            np.concatenate([parents.kings, kings]),
        )
        size = 2 * self.parents
        pairings = evolve.schedule(size, self.games, len(starts), self.paired, rng)
        master = int(rng.integers(2**62))
        sides = [self._side(evaluator, everyone, i) for i in range(size)]
        tasks = [
            game_between(n, game.spec(), sides[p.first], sides[p.second], game_seed(master, n),
                         self.max_plies, starts[p.opening])
            for n, p in enumerate(pairings)
        ]  # fmt: skip
        results = list(play_outcomes(tasks, executor))
        points = evolve.Points(self.win, self.draw, self.loss)
        scores = evolve.tally(size, pairings, [r["score"] for r in results], points)
        keep = evolve.survivors(scores, self.parents)
        survivors = everyone.take(keep)
        firsts = [r["score"] for r in results]
        row: dict[str, Any] = {
            "best": float(scores[keep[0]]),
            "mean": round(float(scores.mean()), 6),
            "offspring_kept": int(np.count_nonzero(keep >= self.parents)),
            "first_wins": firsts.count(1.0),
            "draws": firsts.count(0.5),
            "first_losses": firsts.count(0.0),
            "mean_plies": float(np.mean([r["plies"] for r in results])),
            "sigma_mean": round(float(survivors.sigmas.mean()), 6),
            "sigma_min": round(float(survivors.sigmas.min()), 6),
            "sigma_max": round(float(survivors.sigmas.max()), 6),
        }
        if self.king_option is not None:
            row["king"] = round(float(survivors.kings[0]), 6)
        elder = everyone.take(np.array([evolve.best_parent(scores, self.parents)]))
        return survivors, row, elder

    # --- individuals ----------------------------------------------------------------------
    def encoding_spec(self, evaluator: Evaluator, king: float) -> str:
        """The evaluator's encoding spec with the evolving option set to ``king``."""
        if self.king_option is None:
            return evaluator.encoding.name
        name, options = parse_spec(evaluator.encoding.name)
        return format_spec(name, {**options, self.king_option: float(king)})

    def _side(self, evaluator: Evaluator, population: Population, i: int) -> Player:
        model = evaluator.model
        as_parametric(model).set_params(population.weights[i])
        arrays = {name: np.array(a, copy=True) for name, a in model.arrays().items()}
        spec = self.encoding_spec(evaluator, population.kings[i])
        return Player(self.search, model.name, model.config(), spec, arrays)

    def individual(
        self, game: Game, evaluator: Evaluator, population: Population, i: int
    ) -> Evaluator:
        """Individual ``i`` as an evaluator: ``evaluator``'s model set to its weights, and its
        encoding with its own option value."""
        from mindgames.registry import get_registry

        as_parametric(evaluator.model).set_params(population.weights[i])
        if self.king_option is None:
            return evaluator
        spec = self.encoding_spec(evaluator, population.kings[i])
        return Evaluator(get_registry().encoding(game, spec), evaluator.model)
