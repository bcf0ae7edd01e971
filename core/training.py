"""The generic training driver: a TOML config names a game, an evaluator and a learner; ``run``
builds them through the registry, trains, and writes a run directory.

Config (documented in docs/learners.md)::

    game = "kalah:pits=6,seeds=4"     # a game spec
    seed = 1                           # default seed; --seed overrides it

    [eval]                             # an evaluator table (or eval = "@model.npz" to continue)
    model = "mlp"
    encoding = "kalah14"
    hidden = [30]

    [learner]                          # name plus the learner's own options
    name = "td"
    games = 20000

Run directory: ``config.json`` (the config and seed the run was started with, and what a
learner with ``MeasuresInputs`` measured before training: TD's input scales, the other learners'
derived defaults), ``history.jsonl``
(one row per batch/generation/phase), ``model.npz`` (the trained evaluator), ``snapshots/`` (model
files of the evaluator as it was during training, ``save_snapshot``; ``mindgames curve`` plays
them), and whatever checkpoints the learner writes. Core code: it never imports a concrete game,
model or learner.
"""

from __future__ import annotations

import contextlib
import json
import resource
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.agent import build_evaluator
from mindgames.config import load_toml, located, structure
from mindgames.errors import ConfigError, FileError, Interrupted, MindgamesError
from mindgames.files import atomic_write, lock_run
from mindgames.game import Game
from mindgames.history import HISTORY_FILE, HistoryFile
from mindgames.history import read_history as read_history  # run directories are read here too
from mindgames.interrupts import acknowledged, signal_name, stop_on_signals
from mindgames.learner import (
    PLACEMENT,
    Learner,
    MeasuresInputs,
    Progress,
    TrainingResult,
    planned_of,
    unplaced,
)
from mindgames.model import Evaluator, require
from mindgames.registry import Registry, get_registry

CONFIG_FILE = "config.json"
#: the history column every learner writes: seconds of training so far, carried across a
#: resume (curves put runs of different learners on it)
TRAINED_FOR = "elapsed"
#: the history columns that time a run, so differ between two runs of one seed
TIMING_COLUMNS = frozenset({"seconds", TRAINED_FOR, "start_seconds"})
MODEL_FILE = "model.npz"
SNAPSHOT_DIR = "snapshots"
#: digits of a snapshot's file name (the games trained, zero-padded so names sort by games)
SNAPSHOT_DIGITS = 9


@attrs.frozen
class TrainingConfig:
    """The top level of a training config; ``learner`` holds ``name`` plus the learner's options."""

    game: str
    learner: dict[str, Any]
    eval: Any
    seed: int = attrs.field(default=0, validator=attrs.validators.ge(0))


@attrs.frozen
class TrainingRun:
    """What ``run`` produced: the result, the run directory and its files, and the seed used."""

    result: TrainingResult
    directory: Path
    model_path: Path
    history_path: Path
    seed: int
    seconds: float


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and the worker processes it has waited for."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def load_config(
    path: str | Path, placement: Mapping[str, Any] | None = None
) -> tuple[TrainingConfig, dict[str, Any]]:
    """Read and check a training config, its learner's ``PLACEMENT`` options replaced by
    ``placement``'s; return it and the raw table (kept as provenance)."""
    raw = load_toml(path)
    if placement:
        learner = raw.get("learner")
        if isinstance(learner, Mapping):
            raw["learner"] = {**learner, **placement}
    config = structure(raw, TrainingConfig, where=str(path))
    if not isinstance(config.learner.get("name"), str):
        raise ConfigError(f"{path}: learner: expected 'name = \"LEARNER\"' in the [learner] table")
    if not isinstance(config.eval, (str, Mapping)):
        raise ConfigError(f"{path}: eval: expected '@model.npz', a model name or a table")
    return config, raw


def build(
    config: TrainingConfig, registry: Registry, seed: int, *, where: str = "config"
) -> tuple[Any, Any, Learner, str]:
    """The game, evaluator and learner a config names; refuses a learner/model mismatch."""
    with located(f"{where}: game"):
        game = registry.game(config.game)
    options = dict(config.learner)
    name = options.pop("name")
    with located(f"{where}: learner"):
        cls = registry.learner_info(name).cls
        for key in PLACEMENT:
            if key in options and not (attrs.has(cls) and key in attrs.fields_dict(cls)):
                raise ConfigError(
                    f"{where}: learner {name!r} has no {key!r} option: it runs in one process"
                )
        learner = registry.learner(name, options, where=f"{where}: learner {name!r}")
    with located(f"{where}: eval"):
        evaluator = build_evaluator(registry, game, config.eval, seed=seed)
    require(learner.needs, evaluator.model, who=f"learner {name!r}")
    return game, evaluator, learner, name


def run(
    config_path: str | Path,
    *,
    seed: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    registry: Registry | None = None,
    placement: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    on_plan: Callable[[tuple[str, int] | None], None] | None = None,
) -> TrainingRun:
    """Train as ``config_path`` says (``placement`` as ``load_config`` takes it), into ``out``
    (default ``runs/<config stem>``).

    Everything is built and checked before anything is written. The directory is locked while
    the run goes (``files.lock_run``); one that already holds a run is refused unless
    ``resume`` is set, and resuming checks that the config and seed are the ones the run
    started with (``PLACEMENT`` aside). SIGINT or SIGTERM stop the run after the learner's next
    history row with an ``Interrupted`` error; ``--resume`` continues it from the learner's last
    checkpoint.
    ``on_plan`` hears the learner's ``planned()`` just before training starts (a progress bar).
    """
    registry = registry or get_registry()
    config, raw = load_config(config_path, placement)
    seed = config.seed if seed is None else seed
    directory = Path(out) if out is not None else Path("runs") / Path(config_path).stem
    started: dict[str, Any] = {"config": raw, "seed": seed}
    game, evaluator, learner, name = build(config, registry, seed, where=str(config_path))
    if isinstance(learner, MeasuresInputs):  # deterministic: a resume measures the same
        learner, started["measured"] = learner.measure(game, evaluator, seed)
    with lock_run(directory), stop_on_signals(graceful=True):
        _prepare(directory, started, resume)
        with atomic_write(directory / CONFIG_FILE, "w") as fh:
            fh.write(json.dumps(started, indent=2, sort_keys=True) + "\n")
        history = HistoryFile(directory / HISTORY_FILE, resume, progress)
        if on_plan is not None:
            on_plan(planned_of(learner))
        from mindgames.ladder.build import commit

        source = commit()  # the code that trains: a later edit of the tree is not its
        begin, cpu_begin = time.perf_counter(), cpu_seconds()
        try:
            result = learner.train(
                game,
                evaluator,
                np.random.default_rng(seed),
                workdir=directory,
                resume=resume,
                progress=history.add,
            )
        except Interrupted as exc:
            raise Interrupted(f"{exc} {history.state(planned_of(learner))}") from None
        except MindgamesError as exc:
            if history.rows or isinstance(exc, FileError):
                raise
            if not resume:
                _forget(directory)  # failed before any work: the corrected config may start here
            raise type(exc)(f"{config_path}: learner {name!r}: {exc}") from None
        finally:
            history.close()
        seconds = time.perf_counter() - begin
        cpu = cpu_seconds() - cpu_begin
        # The learner's history is authoritative: after a resume it holds each row once.
        history.rewrite(result.history)
        model_path = directory / MODEL_FILE
        from mindgames.modelfile import save_evaluator

        provenance = {"learner": name, "config": raw, "seed": seed, "commit": source}
        if result.inputs:
            provenance["inputs"] = dict(result.inputs)
        provenance |= {"cpu_seconds": round(cpu, 2), "history_rows": len(result.history)}
        if resume:
            provenance["resumed"] = True  # cpu_seconds counts the last part only
        save_evaluator(model_path, game, result.evaluator, provenance)
    return TrainingRun(result, directory, model_path, history.path, seed, seconds)


def _forget(directory: Path) -> None:
    """Remove the files a run wrote before it failed, so the directory takes a new config."""
    for name in (CONFIG_FILE, HISTORY_FILE):
        (directory / name).unlink(missing_ok=True)


def _prepare(directory: Path, started: dict[str, Any], resume: bool) -> None:
    """Refuse to overwrite a run, or to resume one that was started differently."""
    saved = directory / CONFIG_FILE
    if resume:
        if not saved.exists():
            raise ConfigError(f"{directory}: nothing to resume (no {CONFIG_FILE})")
        try:
            before = json.loads(saved.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # JSONDecodeError, UnicodeDecodeError
            raise ConfigError(f"{saved}: cannot read the run's config: {exc}") from None
        if _unplaced(before) != _unplaced(json.loads(json.dumps(started))):
            raise ConfigError(
                f"{directory}: the run was started with another config or seed; "
                "resume it with the same ones or train into a new --out"
            )
    elif saved.exists():
        raise ConfigError(
            f"{directory}: already holds a training run; use --resume to continue it "
            "or --out for a new directory"
        )


def _unplaced(started: Mapping[str, Any]) -> Any:
    """A run's start record without its learner's ``PLACEMENT`` options: what fixes its result."""
    config = started.get("config")
    if not isinstance(config, Mapping) or not isinstance(config.get("learner"), Mapping):
        return started
    return {**started, "config": {**config, "learner": unplaced(config["learner"])}}


@contextlib.contextmanager
def reporting(row: dict[str, Any], progress: Progress | None) -> Iterator[None]:
    """Report a history row, run the block (the learner's checkpoint, if any), then stop if the
    learner saw a signal (``stop_requested``).

    In this order a kill at any moment leaves every checkpointed row in ``history.jsonl`` (rows
    after the checkpoint are replaced when the run resumes), and a graceful stop ends right
    after the checkpoint of its last row.
    """
    if progress is not None:
        progress(row)
    yield
    if acknowledged():
        raise Interrupted(f"interrupted by {signal_name()}")


def snapshot_path(directory: str | Path, games: int) -> Path:
    """Where the snapshot after ``games`` training games lives: ``DIR/snapshots/<games>.npz``."""
    return Path(directory) / SNAPSHOT_DIR / f"{games:0{SNAPSHOT_DIGITS}d}.npz"


def save_snapshot(
    directory: str | Path,
    game: Game,
    evaluator: Evaluator,
    games_played: int,
    provenance: Mapping[str, Any] | None = None,
    *,
    unit: str = "games",
) -> Path:
    """Keep the evaluator as it is after ``games_played`` games as a model file, atomically.

    Any learner calls this at its checkpoints, so every run has a learning curve
    (``mindgames curve``). A learner that counts its work in another ``unit`` than games
    (``generation``, ``playouts``) names it; the provenance records ``unit`` and the count
    under the unit's name (``"games": 1000``) besides what the caller gives.
    """
    if games_played < 0:
        raise ValueError(f"games_played must be at least 0, got {games_played}")
    from mindgames.modelfile import save_evaluator

    path = snapshot_path(directory, games_played)
    counted = {"unit": unit, unit: games_played}
    save_evaluator(path, game, evaluator, {**dict(provenance or {}), **counted})
    return path


def snapshots(directory: str | Path) -> list[tuple[int, Path]]:
    """The snapshots of a run directory as ``(games, path)``, fewest games first."""
    folder = Path(directory) / SNAPSHOT_DIR
    if not folder.is_dir():
        return []
    found = [(int(p.stem), p) for p in folder.glob("*.npz") if p.stem.isdigit()]
    return sorted(found)
