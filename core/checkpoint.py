"""Learner checkpoints: one file format and one set of rules for every learner.

A checkpoint is ``checkpoint.npz`` in the run directory, written through ``files.write_npz``
(atomically: a temporary file renamed over the old one; numbers only, never pickle). Its JSON
record holds:

* ``format`` -- ``mindgames-<learner name>-checkpoint`` -- and ``version`` (``VERSION``);
* ``options`` -- the learner's options (its attrs fields), as ``config.unstructure`` writes them;
* ``rng`` -- the state of the run's ``numpy.random.Generator``, when the learner draws from it
  (Layered Learning derives every seed from a root kept among its counters instead);
* ``history`` -- the rows reported so far;
* the learner's own counters, at the top level (``games``, ``generation``, ``elapsed``, ...).

Its arrays are the learner's own (weights, a population, step sizes), under their own names.

**Resuming** (``load``) checks, in this order, each failure one line naming the file: the file
reads; its format is this learner's and its version one this code reads; and it was written with
the same options (where the work runs aside: ``learner.PLACEMENT``). The one rule for **options
added after a checkpoint was written**: an option missing from the saved record counts as its
default (also inside nested option records such as ``fit``), so an older checkpoint resumes
exactly when the run used what the new option defaults to -- which is the behaviour the run had
before the option existed. Any other difference is refused. Then the random state is restored,
and the learner takes its counters and arrays back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.config import unstructure
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz, write_npz
from mindgames.learner import Learner, unplaced

#: the checkpoint's file name in a run directory
CHECKPOINT = "checkpoint.npz"
#: the version every learner's checkpoints are written with (all were version 1 before this
#: module; a new version adds a step to ``_migrate``)
VERSION = 1
#: keys of the JSON record that are the helper's, not the learner's counters
_OWN = ("format", "version", "options", "rng", "history")


@attrs.frozen(eq=False)
class Checkpoint:
    """What a learner gets back from a checkpoint: its counters, history and arrays."""

    #: the learner's own JSON values (``games``, ``generation``, ``elapsed``, ...)
    counters: dict[str, Any]
    history: list[dict[str, Any]]
    arrays: dict[str, np.ndarray]


def path_in(workdir: Path | str) -> Path:
    """The checkpoint file of a run directory."""
    return Path(workdir) / CHECKPOINT


def resumable(workdir: Path | str, resume: bool) -> Path | None:
    """The checkpoint to resume from: the run directory's, when resuming and it exists (a run
    stopped before its first checkpoint starts afresh); else None."""
    path = path_in(workdir)
    return path if resume and path.exists() else None


def format_of(learner: Learner) -> str:
    """The format name of ``learner``'s checkpoints, e.g. ``mindgames-td-checkpoint``."""
    return f"mindgames-{learner.name}-checkpoint"


def save(
    path: Path,
    learner: Learner,
    *,
    counters: dict[str, Any],
    history: list[dict[str, Any]],
    arrays: dict[str, np.ndarray],
    rng: np.random.Generator | None = None,
) -> None:
    """Write the checkpoint of a run of ``learner`` (an attrs learner: its fields are saved)."""
    clash = sorted(set(counters) & set(_OWN))
    if clash:
        raise ValueError(f"checkpoint counters may not be named {', '.join(clash)}")
    meta: dict[str, Any] = {
        "format": format_of(learner),
        "version": VERSION,
        "options": unstructure(learner),
    }
    if rng is not None:
        meta["rng"] = rng.bit_generator.state
    meta["history"] = history
    meta.update(counters)
    write_npz(path, meta, arrays)


def load(path: Path, learner: Learner, *, rng: np.random.Generator | None = None) -> Checkpoint:
    """Read and check the checkpoint of a run of ``learner``; restore ``rng`` when given.

    Refuses, in one line naming the file, a file that does not read, another format or a
    version this code does not read, and other options (module docstring: the one rule for
    options added since).
    """
    what = f"{learner.name} checkpoint"
    meta, arrays = read_npz(path, what)
    if meta.get("format") != format_of(learner) or not isinstance(meta.get("version"), int):
        raise MindgamesError(f"{path}: not a {what} of version {VERSION}")
    if meta["version"] > VERSION:
        raise MindgamesError(
            f"{path}: a {what} of version {meta['version']}, newer than this mindgames reads "
            f"({VERSION}); upgrade mindgames to resume it"
        )
    meta = _migrate(meta)
    if not same_options(meta.get("options"), learner):
        raise ConfigError(f"{path}: written with other {learner.name} options; cannot resume")
    if rng is not None:
        rng.bit_generator.state = meta["rng"]
    counters = {k: v for k, v in meta.items() if k not in _OWN}
    return Checkpoint(counters, list(meta.get("history", [])), arrays)


def same_options(saved: Any, learner: object) -> bool:
    """Whether options saved in a checkpoint are ``learner``'s, an option missing from them
    counting as its default (the one rule for options added after the file was written), and
    where the work ran (``PLACEMENT``) left aside."""
    current = unplaced(_as_json(unstructure(learner)))
    return unplaced(_with_defaults(saved, learner)) == current


def _with_defaults(saved: Any, options: object) -> Any:
    """``saved`` with the default of every field of ``options`` that it lacks, recursively into
    fields that are attrs records themselves."""
    cls = type(options)
    if not isinstance(saved, dict) or not attrs.has(cls):
        return saved
    out = dict(saved)
    for field in attrs.fields(cls):
        if not field.init:
            continue
        if field.name in out:
            out[field.name] = _with_defaults(out[field.name], getattr(options, field.name))
            continue
        default = field.default
        if default is attrs.NOTHING:
            continue  # a required option cannot have been added later: it stays missing
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            if default.takes_self:
                continue
            default = default.factory()
        out[field.name] = _as_json(unstructure(default))
    return out


def _as_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, and so on)."""
    return json.loads(json.dumps(value))


def _migrate(meta: dict[str, Any]) -> dict[str, Any]:
    """A checkpoint record of an older version brought to ``VERSION``, step by step (version 1
    is the first: nothing to do yet)."""
    return meta
