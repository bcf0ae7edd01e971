"""The Learner interface: train an evaluator for a game, reproducibly and resumably."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

import attrs
import numpy as np

from mindgames.game import Game
from mindgames.model import Evaluator

#: called with one history row after each generation / phase / batch of games. A row's first
#: field counts the work done (games, generation, phase) and grows row by row. The call may
#: raise ``Interrupted`` (SIGINT/SIGTERM): a learner checkpoints before reporting a row when
#: ``mindgames.interrupts.stop_requested()`` says so, and lets the exception through.
Progress = Callable[[dict[str, Any]], None]


@attrs.frozen
class TrainingResult:
    """What ``Learner.train`` returns: the trained evaluator and one history row per
    generation/phase/game batch (the rows it reported, those before a resume included).

    ``evaluator`` is *the* result: the model ``mindgames train`` saves. It may be the evaluator
    that ``train`` was given, trained in place (TD, supervised, Layered Learning), or a new one
    (co-evolution's and HG's best individual, TD's best net when it gates): a population method
    has no single evaluator to train, and a co-evolved option (checkers' king value) can change
    the encoding itself. Callers use ``result.evaluator``, never the evaluator they passed in.
    """

    evaluator: Evaluator
    history: tuple[dict[str, Any], ...] = ()
    #: what the run read besides its config and seed (a supervised run's data files, each with
    #: its digest and record), added to the saved model's provenance so that it names its data
    inputs: Mapping[str, Any] = attrs.field(factory=dict)


#: learner options that say where the work runs, not what it computes (processes, a Dask
#: scheduler): a learner with them gives the same result for any values, so ``train --workers``
#: and ``--scheduler`` set them, and a resume (the run's config, the checkpoint's options) may
#: change them
PLACEMENT = ("workers", "scheduler")


def unplaced(options: Any) -> Any:
    """A learner's options without the ``PLACEMENT`` ones (anything else is returned as is)."""
    if not isinstance(options, Mapping):
        return options
    return {k: v for k, v in options.items() if k not in PLACEMENT}


class Learner(ABC):
    """Trains an evaluator. Subclasses are frozen attrs classes whose fields are the options.

    ``needs`` lists the model capabilities the method uses; ``mindgames.model.require`` refuses
    an evaluator whose model lacks one, naming both sides, before any work starts. Optional
    capabilities a learner uses when a model or game offers them (a batch gradient, a margin)
    are protocols that it checks with ``isinstance`` or ``mindgames.capabilities.require``.

    ``train`` returns a ``TrainingResult`` whose ``evaluator`` is the trained one (see there:
    the evaluator passed in is the starting point, and may or may not be the one returned).
    """

    name: ClassVar[str]
    needs: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
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
        """Train from ``evaluator``, checkpointing into ``workdir``; return the trained evaluator
        (the one given or a new one: ``TrainingResult``) and the history."""


@runtime_checkable
class PlansWork(Protocol):
    """A learner that knows its work beforehand (optional; every built-in one does)."""

    def planned(self) -> tuple[str, int] | None:
        """The history's counting field and its value when training ends (``("games", 1000)``):
        the length of ``mindgames train``'s progress bar. None: not known for these options."""
        ...


@runtime_checkable
class MeasuresInputs(Protocol):
    """A learner that measures the game and encoding before training (optional; TD's and
    supervised's step sizes scale to the inputs, co-evolution's and HG's initial ranges too,
    Layered Learning's stages follow the game's length). ``mindgames train`` calls ``measure``
    with the run's seed, trains the learner it returns and keeps the measurement in the run's
    config.json."""

    def measure(self, game: Game, evaluator: Evaluator, seed: int) -> tuple[Learner, dict]:
        """The learner to train (the measurement bound) and the measurement (JSON-able)."""
        ...


def planned_of(learner: Learner) -> tuple[str, int] | None:
    """``learner.planned()`` of a learner with the ``PlansWork`` capability; else None."""
    return learner.planned() if isinstance(learner, PlansWork) else None
