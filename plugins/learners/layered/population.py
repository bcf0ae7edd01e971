"""The population fitters of Layered Learning: networks as rows of one parameter matrix, fitted
to one phase's (one stage's) training and test sets.

A phase is ``generations`` generations. Each generation ranks the population best first and,
except after the last generation of the phase, breeds the next one:

* ``rprop`` -- every network is trained by RPROP with early stopping on the test set
  (``fitters.Fit``), then ranked by test-set MSE; the worse half is replaced by mutated copies
  of the better half (low rate). At a phase change the best quarter (2 of 8) survive intact,
  each is copied twice mutated (once at a low rate, once at ``mutation_high``), random networks
  fill the rest (2 of 8).
* ``evolution`` -- ranked by training MSE; the worst ``discard`` (55%) are dropped, each
  survivor is copied mutated (low rate), the top ``elite`` (5%) once more at ``mutation_high``,
  random networks fill up. At a phase change the best ``survive`` (30%) stay, the rest are new
  random networks.
* ``evolution+rprop`` -- as ``evolution``, and every new network (mutant or random) gets an
  RPROP pass of ``pass_epochs`` epochs; at a phase change every network is retrained by RPROP
  (the training set changed).

Low rates are drawn uniformly from ``mutation_low`` (0.01-0.03) per copy; mutation is
``mutation.mutate``. The population stays sorted best first after each ranking, so row 0 is
the phase's best network.
"""

from __future__ import annotations

import math

import attrs
import numpy as np
from attrs import validators as v

from mindgames.model import Model, as_parametric
from mindgames.plugins.learners.fitters import Fit, FitOptions, Patterns, Rprop, mse
from mindgames.plugins.learners.layered.mutation import low_rate, mutate, random_params

FITTERS = ("rprop", "evolution", "evolution+rprop")


@attrs.frozen
class PopulationOptions:
    """How the population is bred (module docstring)."""

    fitter: str = attrs.field(default="rprop", validator=v.in_(FITTERS))
    size: int = attrs.field(default=8, validator=v.ge(2))
    generations: int = attrs.field(default=4, validator=v.ge(1))
    mutation_low: tuple[float, float] = (0.01, 0.03)
    mutation_high: float = 0.1
    init: tuple[float, float] = (-0.1, 0.1)
    discard: float = 0.55
    elite: float = 0.05
    survive: float = 0.3
    pass_epochs: int = 10
    fit: FitOptions = attrs.Factory(FitOptions)

    @property
    def uses_rprop(self) -> bool:
        return self.fitter != "evolution"


@attrs.frozen(eq=False)
class Sets:
    """A phase's patterns: the (weighted) training set and the test set."""

    train: Patterns
    test: Patterns


def errors(model: Model, population: np.ndarray, patterns: Patterns) -> np.ndarray:
    """The MSE of every network (row) of ``population`` on ``patterns``."""
    out = np.empty(len(population))
    parametric = as_parametric(model)
    for i, params in enumerate(population):
        parametric.set_params(params)
        out[i] = mse(model, patterns)
    return out


def rprop_fit(
    model: Model, params: np.ndarray, sets: Sets, options: FitOptions, rng: np.random.Generator
) -> np.ndarray:
    """``params`` trained by RPROP with early stopping on the test set: the result ``Fit`` keeps
    (the best epoch's, or the average of the last epochs with ``average_from``)."""
    as_parametric(model).set_params(params)
    trainer = Rprop(sets.train, len(params), options)
    fit = Fit(model, trainer, sets.test, options)
    while not fit.done:
        fit.step(rng)
    fit.finish()
    return np.array(as_parametric(model).get_params(), dtype=float)


def _pass_options(o: PopulationOptions) -> FitOptions:
    low = min(o.fit.min_epochs, o.pass_epochs)
    average = min(o.fit.average_from, o.pass_epochs)
    return attrs.evolve(o.fit, epochs=o.pass_epochs, min_epochs=low, average_from=average)


def first(params: np.ndarray, o: PopulationOptions, rng: np.random.Generator) -> np.ndarray:
    """The first phase's population: the evaluator's own network, then random ones."""
    rows = [np.asarray(params, dtype=float)]
    rows += [random_params(len(params), o.init, rng) for _ in range(o.size - 1)]
    return np.vstack(rows)


def phase_change(ranked: np.ndarray, o: PopulationOptions, rng: np.random.Generator) -> np.ndarray:
    """The population a new phase starts from, given the last one ranked best first."""
    n, size = o.size, ranked.shape[1]
    if o.fitter == "rprop":
        keep = max(1, n // 4)
        rows = [ranked[i] for i in range(keep)]
        for i in range(keep):
            rows.append(mutate(ranked[i], low_rate(o.mutation_low, rng), o.init, rng))
            rows.append(mutate(ranked[i], o.mutation_high, o.init, rng))
    else:
        rows = [ranked[i] for i in range(max(1, math.ceil(o.survive * n)))]
    rows = rows[:n]
    rows += [random_params(size, o.init, rng) for _ in range(n - len(rows))]
    return np.vstack(rows)


def begin(
    population: np.ndarray, model: Model, sets: Sets, o: PopulationOptions,
    rng: np.random.Generator,
) -> np.ndarray:  # fmt: skip
    """A phase's population before its first generation: the hybrid retrains every network by
    RPROP, since the training set changed."""
    if o.fitter != "evolution+rprop":
        return population
    return np.vstack([rprop_fit(model, p, sets, o.fit, rng) for p in population])


def generation(
    population: np.ndarray, model: Model, sets: Sets, o: PopulationOptions, last: bool,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """One generation: (the next population, the ranked networks' training and test MSE).

    Row 0 of the next population is the generation's best network in every fitter."""
    if o.fitter == "rprop":
        population = np.vstack([rprop_fit(model, p, sets, o.fit, rng) for p in population])
    train = errors(model, population, sets.train)
    test = errors(model, population, sets.test)
    key = test if o.fitter == "rprop" else train
    order = np.argsort(key, kind="stable")
    population, train, test = population[order], train[order], test[order]
    if not last:
        population = breed(population, model, sets, o, rng)
    return population, train, test


def breed(
    ranked: np.ndarray, model: Model, sets: Sets, o: PopulationOptions, rng: np.random.Generator
) -> np.ndarray:
    """The next generation from one ranked best first (module docstring)."""
    n, size = len(ranked), ranked.shape[1]
    if o.fitter == "rprop":
        half = n // 2
        kept = list(ranked[: n - half])
        young = [mutate(ranked[i], low_rate(o.mutation_low, rng), o.init, rng) for i in range(half)]
        return np.vstack(kept + young)
    survivors = max(1, n - round(o.discard * n))
    kept = list(ranked[:survivors])
    young = [mutate(p, low_rate(o.mutation_low, rng), o.init, rng) for p in kept]
    elite = max(1, round(o.elite * n))
    young += [mutate(ranked[i], o.mutation_high, o.init, rng) for i in range(min(elite, survivors))]
    young = young[: n - survivors]
    young += [random_params(size, o.init, rng) for _ in range(n - survivors - len(young))]
    if o.fitter == "evolution+rprop":
        options = _pass_options(o)
        young = [rprop_fit(model, p, sets, options, rng) for p in young]
    return np.vstack(kept + young) if young else np.vstack(kept)
