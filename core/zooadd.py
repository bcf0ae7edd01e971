"""Adding a trained model to a zoo folder, rated on its game's ladder (``mindgames zoo add``).

The model is rated as ``alphabeta:depth=D,eval=@MODEL`` by the adaptive gauntlet of
``mindgames rate`` (core/ladder/rate.py); the copy written to the zoo folder keeps the model's
own provenance (learner, config, seed, commit, CPU seconds) and adds the rating: the Elo as
``ladder_rating`` and, under ``ladder``, its interval, the agent spec rated (naming the model as
``@zoo:NAME``), the games and seed of the gauntlet and the ladder's commit and size. Rating
again with that spec and seed reproduces the figure. When a ladder is rebuilt, ``rerate`` (``zoo
rerate``) rates a zoo model again as it was rated and rewrites that record in place: a rung may
be a zoo model itself, so the file must stay where it is while the gauntlet plays.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mindgames.errors import ConfigError, ModelFileError
from mindgames.files import write_npz
from mindgames.ladder.file import Ladder
from mindgames.ladder.rate import rate
from mindgames.modelfile import PREFIX as MODEL_PREFIX
from mindgames.modelfile import load_evaluator, read_model_file
from mindgames.registry import Registry
from mindgames.zoo import PREFIX, SUFFIX, models, path_of

NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def rated_agent(model: str, depth: int) -> str:
    """The agent spec a zoo model is rated as: alpha-beta at ``depth`` plies with the model."""
    return f"alphabeta:depth={depth},eval=@{model}"


def add(
    registry: Registry,
    ladder: Ladder,
    model: str | Path,
    name: str,
    into: str | Path,
    *,
    depth: int,
    games: int,
    seed: int,
    workers: int | None = None,
    scheduler: str | None = None,
) -> tuple[Path, dict[str, Any]]:
    """Rate ``model`` on ``ladder`` and write it as ``into/NAME.npz``; return the file and the
    rating. A name some zoo folder (or ``into``) already holds is refused: ``@zoo:NAME`` names
    one file, and a shipped model is not overwritten by accident."""
    if not NAME.fullmatch(name):
        raise ConfigError(f"zoo add: name {name!r}: use lower-case letters, digits and '-'")
    out = Path(into) / f"{name}{SUFFIX}"
    for path in (out, models().get(name)):  # refused before the gauntlet's games
        if path is not None and path.exists():
            raise ConfigError(
                f"zoo add: {path} already holds zoo model {name!r}; remove it to replace it, "
                "or choose another name"
            )
    game, _, _ = load_evaluator(model, registry)
    meta, arrays = read_model_file(model)
    if registry.game(ladder.game).spec() != game.spec():
        raise ConfigError(
            f"zoo add: {model} is a model of {game.spec()}, the ladder one of {ladder.game}"
        )
    rating = rate(
        registry,
        ladder,
        rated_agent(str(model), depth),
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
    )
    Path(into).mkdir(parents=True, exist_ok=True)
    _write_rated(out, meta, arrays, rated_agent(PREFIX + name, depth), rating, seed, ladder)
    return out, rating


def rerate(
    registry: Registry,
    ladder: Ladder,
    name: str,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """Rate zoo model ``name`` on ``ladder`` as its record says it was rated (agent spec, games,
    seed) and rewrite the record in its file; return the file, the old record and the rating."""
    path = path_of(name)
    meta, arrays = read_model_file(path)
    recorded = meta.get("provenance", {}).get("ladder")
    if not isinstance(recorded, dict) or not {"agent", "games", "seed"} <= recorded.keys():
        raise ConfigError(f"zoo rerate: {path} records no rating to repeat; zoo add rates a model")
    rating = rate(
        registry,
        ladder,
        recorded["agent"],
        games=int(recorded["games"]),
        seed=int(recorded["seed"]),
        workers=workers,
        scheduler=scheduler,
    )
    _write_rated(path, meta, arrays, recorded["agent"], rating, int(recorded["seed"]), ladder)
    return path, recorded, rating


def _write_rated(
    out: Path,
    meta: dict[str, Any],
    arrays: dict[str, Any],
    agent: str,
    rating: dict[str, Any],
    seed: int,
    ladder: Ladder,
) -> None:
    """Write the model file ``out`` with ``rating`` as its record (atomically), and read it back."""
    provenance = dict(meta.get("provenance", {}))
    provenance["ladder_rating"] = round(float(rating["elo"]), 1)
    provenance["ladder"] = {
        "agent": agent,
        "elo_low": round(float(rating["elo_low"]), 1),
        "elo_high": round(float(rating["elo_high"]), 1),
        "games": rating["games"],
        "seed": seed,
        "game": ladder.game,
        "ladder_commit": ladder.provenance.get("commit"),
        "ladder_games": ladder.provenance.get("games"),
    }
    arrays_out = {MODEL_PREFIX + key: value for key, value in arrays.items()}
    write_npz(out, {**meta, "provenance": provenance}, arrays_out, ModelFileError)
    read_model_file(out)  # the file reads back as a model file
