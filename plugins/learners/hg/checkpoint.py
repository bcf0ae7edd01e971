"""HG and SHG checkpoints (``checkpoint.npz``): the population's arrays, the random state,
counters and history, written atomically; resuming with other options is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.config import unstructure
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz, write_npz

CHECKPOINT = "checkpoint.npz"
VERSION = 1


def _format(learner: str) -> str:
    return f"mindgames-{learner}-checkpoint"


def save_checkpoint(
    path: Path,
    learner: Any,
    arrays: dict[str, np.ndarray],
    rng: np.random.Generator,
    counters: dict[str, Any],
    history: list[dict[str, Any]],
) -> None:
    """Write the checkpoint of ``learner`` (an attrs record with a ``name``)."""
    meta = {
        "format": _format(learner.name),
        "version": VERSION,
        "options": unstructure(learner),
        "rng": rng.bit_generator.state,
        "history": history,
        **counters,
    }
    write_npz(path, meta, arrays)


def load_checkpoint(
    path: Path, learner: Any, rng: np.random.Generator
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and counters of a checkpoint of ``learner``; restores the random state."""
    meta, arrays = read_npz(path, f"{learner.name} checkpoint")
    if meta.get("format") != _format(learner.name) or meta.get("version") != VERSION:
        raise MindgamesError(f"{path}: not a {learner.name} checkpoint of version {VERSION}")
    if meta["options"] != json.loads(json.dumps(unstructure(learner))):
        raise ConfigError(f"{path}: written with other {learner.name} options; cannot resume")
    rng.bit_generator.state = meta["rng"]
    return arrays, meta
