"""TD checkpoint files (``checkpoint.npz``): the weights, momentum, the clone's weights, the
random state, counters and history, written atomically; resuming with other options is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.config import unstructure
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz, write_npz
from mindgames.model import Evaluator, Model, as_parametric

CHECKPOINT = "checkpoint.npz"
CHECKPOINT_FORMAT = "mindgames-td-checkpoint"
CHECKPOINT_VERSION = 1


def save_checkpoint(
    path: Path,
    options: Any,
    model: Model,
    clone: Evaluator | None,
    rng: np.random.Generator,
    velocity: np.ndarray,
    counters: dict[str, Any],
    history: list[dict[str, Any]],
    best: Evaluator | None = None,
) -> None:
    """Write the checkpoint of a run of the learner ``options`` (an attrs record); ``best`` is
    the gate's best net, when the run keeps one."""
    meta = {
        "format": CHECKPOINT_FORMAT,
        "version": CHECKPOINT_VERSION,
        "options": unstructure(options),
        "rng": rng.bit_generator.state,
        "history": history,
        **counters,
    }
    arrays = {"params": as_parametric(model).get_params(), "velocity": velocity}
    if clone is not None:
        arrays["clone"] = as_parametric(clone.model).get_params()
    if best is not None:
        arrays["best"] = as_parametric(best.model).get_params()
    write_npz(path, meta, arrays)


def load_checkpoint(
    path: Path,
    options: Any,
    model: Model,
    clone: Evaluator | None,
    rng: np.random.Generator,
    best: Evaluator | None = None,
) -> tuple[dict[str, Any], np.ndarray]:
    """Restore the weights, the clone, the best net and the random state; return the counters
    and velocity."""
    meta, arrays = read_npz(path, "TD checkpoint")
    if meta.get("format") != CHECKPOINT_FORMAT or meta.get("version") != CHECKPOINT_VERSION:
        raise MindgamesError(f"{path}: not a TD checkpoint of version {CHECKPOINT_VERSION}")
    if meta["options"] != json.loads(json.dumps(unstructure(options))):
        raise ConfigError(f"{path}: written with other td options; cannot resume with these")
    params = arrays["params"]
    if params.shape != np.shape(as_parametric(model).get_params()):
        raise MindgamesError(f"{path}: parameters do not fit this model")
    as_parametric(model).set_params(params)
    if clone is not None:
        as_parametric(clone.model).set_params(arrays["clone"])
    if best is not None:
        as_parametric(best.model).set_params(arrays["best"])
    rng.bit_generator.state = meta["rng"]
    return meta, arrays["velocity"].astype(float)


def copy_evaluator(evaluator: Evaluator) -> Evaluator:
    """An independent copy of an evaluator (its model rebuilt from its own saved form)."""
    model = evaluator.model
    arrays = {name: np.array(a, copy=True) for name, a in model.arrays().items()}
    twin = type(model).from_saved(model.config(), arrays, evaluator.encoding.columns)
    return Evaluator(evaluator.encoding, twin)
