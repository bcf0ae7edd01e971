"""Layered Learning's part of its checkpoints (the format and the rules are
``mindgames.checkpoint``'s): where the run stands -- stages finished, the generation of the
current one, the population, the root seed every other seed derives from (so no random state is
kept), counters -- and the evaluator's parameters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames import checkpoint
from mindgames.learner import Learner

CHECKPOINT = checkpoint.CHECKPOINT


@attrs.define
class RunState:
    """Where a run stands. ``done``: stages finished; ``generation``: generations of the next
    stage already run; ``population``: ranked best first (empty before the first stage);
    ``snapshot``: the model file of the last finished stage (relative to the run directory)."""

    root: int
    done: int = 0
    generation: int = 0
    games: int = 0
    elapsed: float = 0.0
    snapshot: str | None = None
    population: np.ndarray = attrs.Factory(lambda: np.zeros((0, 0)))
    history: list[dict[str, Any]] = attrs.Factory(list)

    def counters(self) -> dict[str, Any]:
        """The JSON counters a checkpoint keeps (the arrays and history go apart)."""
        return {
            "root": self.root,
            "done": self.done,
            "generation": self.generation,
            "games": self.games,
            "elapsed": self.elapsed,
            "snapshot": self.snapshot,
        }


def save_checkpoint(path: Path, options: Learner, state: RunState, params: np.ndarray) -> None:
    """Write the checkpoint of a run of the learner ``options``."""
    arrays = {"population": state.population, "params": params}
    checkpoint.save(path, options, counters=state.counters(), history=state.history, arrays=arrays)


def load_checkpoint(path: Path, options: Learner) -> tuple[RunState, np.ndarray]:
    """The run's state and the evaluator's parameters from a checkpoint."""
    saved = checkpoint.load(path, options)
    counters = saved.counters
    state = RunState(
        int(counters["root"]),
        int(counters["done"]),
        int(counters["generation"]),
        int(counters["games"]),
        float(counters["elapsed"]),
        counters.get("snapshot"),
        saved.arrays["population"].astype(float),
        saved.history,
    )
    return state, saved.arrays["params"].astype(float)
