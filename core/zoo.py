"""The model zoo: trained model files shipped with the package, named ``@zoo:NAME`` in specs.

A zoo model is an ordinary model file (core/modelfile.py) in ``mindgames/shipped/zoo/NAME.npz``; its
metadata's provenance says how it was trained (config, seed, commit, CPU) and, once measured,
its ladder rating (``ladder_rating``). Folders listed in the environment variable
``MINDGAMES_ZOO`` (separated like PATH) add models of their own; a name found twice is an
error naming both files. Wherever a model file is accepted, ``zoo:NAME`` (``eval=@zoo:NAME`` in
an agent spec) stands for that file.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path
from typing import Any

from mindgames.errors import ModelFileError

PREFIX = "zoo:"
SHIPPED = "shipped/zoo"
ENVIRONMENT = "MINDGAMES_ZOO"
SUFFIX = ".npz"


def folders() -> list[Path]:
    """The shipped zoo folder, then those of ``MINDGAMES_ZOO``."""
    out = []
    shipped = files("mindgames").joinpath(SHIPPED)
    if shipped.is_dir():
        out.append(Path(str(shipped)))
    extra = os.environ.get(ENVIRONMENT, "")
    out += [Path(p) for p in extra.split(os.pathsep) if p.strip()]
    return out


def models() -> dict[str, Path]:
    """Every zoo model by name (the file's stem), sorted by name."""
    found: dict[str, Path] = {}
    for folder in folders():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob(f"*{SUFFIX}")):
            name = path.name[: -len(SUFFIX)]
            if name in found:
                raise ModelFileError(f"zoo model {name!r} is in two folders: {found[name]}, {path}")
            found[name] = path
    return dict(sorted(found.items()))


def path_of(name: str) -> Path:
    """The file of zoo model ``name``; an unknown name is one line listing the known ones."""
    known = models()
    if name not in known:
        listed = ", ".join(known) or f"none: the zoo is empty (add folders with {ENVIRONMENT})"
        raise ModelFileError(f"{PREFIX}{name}: no such zoo model (known: {listed})")
    return known[name]


def resolve(path: str | Path) -> Path:
    """``zoo:NAME`` as its file; any other path as it is. ``@`` marks a model file only inside
    an agent spec (``eval=@FILE``): a missing ``@...`` given as a file is refused with that hint."""
    text = str(path)
    if text.startswith(PREFIX):
        return path_of(text[len(PREFIX) :])
    if text.startswith("@") and not Path(path).exists():
        raise ModelFileError(
            f"{text}: no such model file ('@' marks a model file in agent specs, eval=@FILE; "
            f"name it here without the '@': {text[1:]})"
        )
    return Path(path)


def describe(name: str, path: Path) -> dict[str, Any]:
    """A zoo model's listing: name, file, game, encoding, model kind, provenance."""
    from mindgames.modelfile import game_spec, read_model_file
    from mindgames.registry import get_registry

    meta, _ = read_model_file(path)
    provenance = meta.get("provenance", {})
    return {
        "name": name,
        "file": str(path),
        "game": game_spec(meta["game"], get_registry()),
        "encoding": meta["encoding"],
        "model": meta["model"]["kind"],
        "learner": provenance.get("learner"),
        "ladder_rating": provenance.get("ladder_rating"),
        "provenance": provenance,
    }
