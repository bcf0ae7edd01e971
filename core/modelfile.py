"""Model files: ``.npz`` arrays plus one JSON metadata record, never pickle.

Layout (``mindgames.files.write_npz``): the array ``__meta__`` holds UTF-8 JSON as uint8; every
model array is stored as ``m/<name>``. The metadata is an envelope::

    {"format": "mindgames-model", "version": 1,
     "game": {"name": ..., "params": {...}}, "encoding": "raw32", "columns": [...],
     "model": {"kind": "mlp", "config": {...}, "shapes": {name: shape}},
     "provenance": {"learner": ..., "config": ..., "seed": ..., "mindgames": "x.y.z", ...}}

Writes are atomic; every way a file can be bad on load is a ``ModelFileError`` naming the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mindgames.errors import MindgamesError, ModelFileError
from mindgames.files import read_npz, write_npz
from mindgames.game import Game, params_of
from mindgames.limits import MAX_FILE_ELEMENTS
from mindgames.model import Evaluator, Model
from mindgames.zoo import resolve

if TYPE_CHECKING:  # pragma: no cover
    from mindgames.registry import Registry

FORMAT = "mindgames-model"
VERSION = 1
PREFIX = "m/"


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def game_record(game: Game) -> dict[str, Any]:
    return {"name": game.name, "params": _jsonable(params_of(game))}


def save_evaluator(
    path: str | Path,
    game: Game,
    evaluator: Evaluator,
    provenance: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``evaluator`` for ``game`` to ``path`` atomically; return the metadata written."""
    from mindgames import __version__

    model = evaluator.model
    arrays = {name: np.asarray(a) for name, a in model.arrays().items()}
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": game_record(game),
        "encoding": evaluator.encoding.name,
        "columns": list(evaluator.encoding.columns),
        "model": {
            "kind": model.name,
            "config": _jsonable(model.config()),
            "shapes": {name: list(a.shape) for name, a in arrays.items()},
        },
        "provenance": _jsonable({"mindgames": __version__, **dict(provenance or {})}),
    }
    write_npz(path, meta, {PREFIX + name: a for name, a in arrays.items()}, ModelFileError)
    return meta


def read_model_file(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The metadata and model arrays of a file (or ``zoo:NAME``), checked for format and
    version."""
    p = resolve(path)
    meta, contents = read_npz(p, "model file", ModelFileError, MAX_FILE_ELEMENTS)
    if meta.get("format") != FORMAT:
        raise ModelFileError(f"{p}: not a mindgames model file (format is not {FORMAT!r})")
    meta = migrate(meta, p)
    arrays = {k[len(PREFIX) :]: v for k, v in contents.items() if k.startswith(PREFIX)}
    try:
        shapes = meta["model"]["shapes"]
        extra = sorted(set(contents) - {PREFIX + name for name in shapes})
        if extra:
            raise ModelFileError(
                f"{p}: holds arrays its record does not list ({', '.join(extra[:5])}); "
                "not a model file as mindgames writes them"
            )
        for name, shape in shapes.items():
            if name not in arrays or list(arrays[name].shape) != list(shape):
                raise ModelFileError(f"{p}: array {name!r} is missing or has the wrong shape")
        for key in ("game", "encoding", "columns"):
            meta[key]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ModelFileError(f"{p}: metadata record lacks {exc}") from None
    for name, array in arrays.items():
        if array.dtype.kind not in "biuf":
            raise ModelFileError(f"{p}: array {name!r} is not numeric ({array.dtype})")
        bad = int(array.size - np.count_nonzero(np.isfinite(array)))
        if bad:
            raise ModelFileError(
                f"{p}: array {name!r} holds {bad} non-finite value(s) (NaN or infinity); "
                "the model is broken (a diverged training?)"
            )
    return meta, arrays


#: step-by-step upgrades: MIGRATIONS[v] turns a version-v record into version v+1
MIGRATIONS: dict[int, Any] = {}


def migrate(meta: dict[str, Any], path: Path) -> dict[str, Any]:
    version = meta.get("version")
    if not isinstance(version, int) or version < 1:
        raise ModelFileError(f"{path}: invalid format version {version!r}")
    if version > VERSION:
        raise ModelFileError(
            f"{path}: format version {version} is newer than this mindgames reads ({VERSION}); "
            "upgrade mindgames"
        )
    while version < VERSION:
        meta = MIGRATIONS[version](meta)
        version = meta["version"]
    return meta


def load_evaluator(
    path: str | Path, registry: Registry, game: Game | None = None
) -> tuple[Game, Evaluator, dict[str, Any]]:
    """Load a model file (or ``zoo:NAME``) as an evaluator; refuse it if written for another
    game or encoding."""
    p = resolve(path)
    meta, arrays = read_model_file(p)
    stored_game = meta["game"]
    if game is None:
        game = registry.game_from(
            stored_game["name"], stored_game.get("params", {}), where=f"{p}: game"
        )
    elif game_record(game) != stored_game and not _same_game(stored_game, game, registry):
        stored, wanted = game_spec(stored_game, registry), game.spec()
        if stored == wanted:  # specs that read alike: say which parameters differ
            stored = f"{stored} {json.dumps(stored_game.get('params'), sort_keys=True)}"
            wanted = f"{wanted} {json.dumps(game_record(game)['params'], sort_keys=True)}"
        raise ModelFileError(f"{p}: written for game {stored!r}, not {wanted!r}")
    encoding = registry.encoding(game, meta["encoding"])
    if list(encoding.columns) != list(meta["columns"]):
        raise ModelFileError(
            f"{p}: encoding {meta['encoding']!r} now has other columns than the file was "
            "written for"
        )
    kind = meta["model"]["kind"]
    info = registry.model_info(kind)
    try:
        model: Model = info.cls.from_saved(meta["model"]["config"], arrays, encoding.columns)
    except MindgamesError:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise ModelFileError(
            f"{p}: model {kind!r} cannot be rebuilt from this file: {exc}"
        ) from None
    return game, Evaluator(encoding, model), meta


def _same_game(record: Mapping[str, Any], game: Game, registry: Registry) -> bool:
    """Whether a model file's game record builds ``game`` (a record whose parameters are left
    out, ``{}``, is the game with its defaults)."""
    try:
        stored = registry.game_from(record["name"], record.get("params", {}), where="game")
    except (MindgamesError, KeyError, TypeError, AttributeError):
        return False
    return game_record(stored) == game_record(game)


def game_spec(record: Mapping[str, Any], registry: Registry) -> str:
    """The spec string of a model file's game: only non-default parameters when it is installed
    (``kalah``, not ``kalah:pits=6,seeds=4,empty_capture=false``)."""
    from mindgames.spec import format_spec

    params = record.get("params", {})
    try:
        return registry.game_from(record["name"], params, where="game").spec()
    except MindgamesError:  # not installed (or other parameters now): as stored, None left out
        return format_spec(record["name"], {k: v for k, v in params.items() if v is not None})
