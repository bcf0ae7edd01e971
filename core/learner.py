"""The Learner interface: train an evaluator for a game, reproducibly and resumably."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

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
    """The trained evaluator and one history row per generation/phase/game batch."""

    evaluator: Evaluator
    history: tuple[dict[str, Any], ...] = ()


class Learner(ABC):
    """Trains an evaluator. Subclasses are frozen attrs classes whose fields are the options.

    ``needs`` lists the model capabilities the method uses; ``mindgames.model.require`` refuses
    an evaluator whose model lacks one, naming both sides, before any work starts.
    """

    name: ClassVar[str]
    needs: ClassVar[frozenset[str]] = frozenset()

    def planned(self) -> tuple[str, int] | None:
        """The history's counting field and its value when training ends (``("games", 1000)``),
        if known beforehand: the length of ``mindgames train``'s progress bar. None: unknown."""
        return None

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
        """Train ``evaluator`` in place, checkpointing into ``workdir``; return it and history."""
