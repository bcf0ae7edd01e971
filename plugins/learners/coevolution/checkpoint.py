"""Co-evolution checkpoints (``checkpoint.npz``): the parents' weights, step sizes and option
values, the random state, counters and history, written atomically; resuming with other
options is refused."""

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
FORMAT = "mindgames-coevolution-checkpoint"
VERSION = 1


@attrs.frozen
class Population:
    """Individuals as rows: weights and step sizes (individuals x weights), option values."""

    weights: np.ndarray
    sigmas: np.ndarray
    kings: np.ndarray

    def take(self, rows: np.ndarray) -> Population:
        return Population(self.weights[rows], self.sigmas[rows], self.kings[rows])


def save_checkpoint(
    path: Path,
    options: Any,
    population: Population,
    rng: np.random.Generator,
    counters: dict[str, Any],
    history: list[dict[str, Any]],
) -> None:
    """Write the checkpoint of a run of the learner ``options`` (an attrs record)."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "options": unstructure(options),
        "rng": rng.bit_generator.state,
        "history": history,
        **counters,
    }
    arrays = {"weights": population.weights, "sigmas": population.sigmas, "kings": population.kings}
    write_npz(path, meta, arrays)


def load_checkpoint(
    path: Path, options: Any, rng: np.random.Generator
) -> tuple[Population, dict[str, Any]]:
    """The parents and counters of a checkpoint; restores the random state."""
    meta, arrays = read_npz(path, "co-evolution checkpoint")
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise MindgamesError(f"{path}: not a co-evolution checkpoint of version {VERSION}")
    if _as_written(meta["options"], options) != json.loads(json.dumps(unstructure(options))):
        raise ConfigError(f"{path}: written with other coevolution options; cannot resume")
    rng.bit_generator.state = meta["rng"]
    population = Population(
        arrays["weights"].astype(float),
        arrays["sigmas"].astype(float),
        arrays["kings"].astype(float),
    )
    return population, meta


def _as_written(saved: Any, options: Any) -> Any:
    """The saved options, with the defaults of options added since (a checkpoint of an older
    version resumes when it ran with what the new options default to)."""
    if not isinstance(saved, dict):
        return saved
    fields = attrs.fields(type(options))
    missing = {
        f.name: f.default for f in fields if f.name not in saved and f.default is not attrs.NOTHING
    }
    return {**json.loads(json.dumps(unstructure(missing))), **saved}
