"""Layered Learning checkpoints (``checkpoint.npz``): where the run is (stages finished, the
generation of the current one), the population, the evaluator's parameters, the root seed,
counters and history, written atomically; resuming with other options is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.config import unstructure
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz, write_npz

CHECKPOINT = "checkpoint.npz"
FORMAT = "mindgames-layered-checkpoint"
VERSION = 1


@attrs.define
class Progress:
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
        names = ("root", "done", "generation", "games", "elapsed", "snapshot")
        return {name: getattr(self, name) for name in names}


def save_checkpoint(path: Path, options: Any, progress: Progress, params: np.ndarray) -> None:
    """Write the checkpoint of a run of the learner ``options`` (an attrs record)."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "options": unstructure(options),
        "history": progress.history,
        **progress.counters(),
    }
    write_npz(path, meta, {"population": progress.population, "params": params})


def load_checkpoint(path: Path, options: Any) -> tuple[Progress, np.ndarray]:
    """The run's progress and the evaluator's parameters from a checkpoint."""
    meta, arrays = read_npz(path, "layered checkpoint")
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise MindgamesError(f"{path}: not a layered checkpoint of version {VERSION}")
    if meta["options"] != json.loads(json.dumps(unstructure(options))):
        raise ConfigError(f"{path}: written with other layered options; cannot resume")
    progress = Progress(
        int(meta["root"]),
        int(meta["done"]),
        int(meta["generation"]),
        int(meta["games"]),
        float(meta["elapsed"]),
        meta.get("snapshot"),
        arrays["population"].astype(float),
        list(meta["history"]),
    )
    return progress, arrays["params"].astype(float)
