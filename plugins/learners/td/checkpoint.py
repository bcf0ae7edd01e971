"""TD's part of its checkpoints (the format and the rules are ``mindgames.checkpoint``'s): the
weights, momentum's velocity, the clone's and the gate's best net's weights, and the counters
``games``, ``clones`` and ``elapsed``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mindgames import checkpoint
from mindgames.errors import MindgamesError
from mindgames.learner import Learner
from mindgames.model import Evaluator, Model, as_parametric

CHECKPOINT = checkpoint.CHECKPOINT


def save_checkpoint(
    path: Path,
    options: Learner,
    model: Model,
    clone: Evaluator | None,
    rng: np.random.Generator,
    velocity: np.ndarray,
    counters: dict[str, Any],
    history: list[dict[str, Any]],
    best: Evaluator | None = None,
) -> None:
    """Write the checkpoint of a run of the learner ``options``; ``best`` is the gate's best
    net, when the run keeps one."""
    arrays = {"params": as_parametric(model).get_params(), "velocity": velocity}
    if clone is not None:
        arrays["clone"] = as_parametric(clone.model).get_params()
    if best is not None:
        arrays["best"] = as_parametric(best.model).get_params()
    checkpoint.save(path, options, counters=counters, history=history, arrays=arrays, rng=rng)


def load_checkpoint(
    path: Path,
    options: Learner,
    model: Model,
    clone: Evaluator | None,
    rng: np.random.Generator,
    best: Evaluator | None = None,
) -> tuple[dict[str, Any], np.ndarray]:
    """Restore the weights, the clone, the best net and the random state; return the counters
    (with the ``history``) and the velocity."""
    saved = checkpoint.load(path, options, rng=rng)
    params = saved.arrays["params"]
    if params.shape != np.shape(as_parametric(model).get_params()):
        raise MindgamesError(f"{path}: parameters do not fit this model")
    as_parametric(model).set_params(params)
    if clone is not None:
        as_parametric(clone.model).set_params(saved.arrays["clone"])
    if best is not None:
        as_parametric(best.model).set_params(saved.arrays["best"])
    return saved.counters | {"history": saved.history}, saved.arrays["velocity"].astype(float)


def copy_evaluator(evaluator: Evaluator) -> Evaluator:
    """An independent copy of an evaluator (its model rebuilt from its own saved form)."""
    model = evaluator.model
    arrays = {name: np.array(a, copy=True) for name, a in model.arrays().items()}
    twin = type(model).from_saved(model.config(), arrays, evaluator.encoding.columns)
    return Evaluator(evaluator.encoding, twin)
