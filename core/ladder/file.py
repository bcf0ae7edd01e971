"""Ladders: fixed reference agents of one game rated once on one Elo scale, as a JSON file.

A ladder is what ``mindgames rate`` measures an agent against (core/ladder/rate.py) and what
``mindgames ladder build`` writes (core/ladder/build.py). File (documented in docs/formats.md)::

    {"format": "mindgames-ladder", "version": 1,
     "game": "kalah:pits=6,seeds=4",
     "openings": "random:plies=2", "max_plies": 400,
     "anchor": "random",
     "rungs": [{"name": "random", "agent": "random", "elo": 0.0, "low": 0.0, "high": 0.0,
                "games": 40}, ...],
     "provenance": {"command": ..., "seed": 1, "commit": ..., "games": 120, ...}}

Rungs are stored weakest first. The ladders shipped with the package live in
``mindgames/shipped/ladders/*.json`` and are found by their game (``shipped_ladder``).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import atomic_write
from mindgames.registry import Registry

FORMAT = "mindgames-ladder"
VERSION = 1
#: the folder of the shipped ladders inside the package
SHIPPED = "shipped/ladders"


class LadderError(ConfigError):
    """A ladder file that cannot be read, or no ladder for a game."""


@attrs.frozen
class Rung:
    """One reference agent: its name, agent spec, Elo and 95% interval, games it played, and
    its misfit: how far (an Elo standard deviation) its head-to-head results with its
    neighbouring rungs stray from what the ratings predict, beyond their sampling noise
    (core/ladder/misfit.py; 0 in files written before it was measured)."""

    name: str
    agent: str
    elo: float
    low: float
    high: float
    games: int
    misfit: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Ladder:
    """A game, the openings and move cap its games were played with, and rungs weakest first."""

    game: str
    openings: str
    max_plies: int
    anchor: str
    rungs: tuple[Rung, ...]
    provenance: dict[str, Any] = attrs.field(factory=dict)

    def rung(self, name: str) -> Rung:
        for r in self.rungs:
            if r.name == name:
                return r
        raise LadderError(f"ladder of {self.game}: no rung {name!r}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "openings": self.openings,
            "max_plies": self.max_plies,
            "anchor": self.anchor,
            "rungs": [r.as_dict() for r in self.rungs],
            "provenance": self.provenance,
        }


def write_ladder(path: str | Path, ladder: Ladder) -> None:
    """Write ``ladder`` to ``path`` atomically (a reader never sees half a file)."""
    with atomic_write(path, "w") as fh:
        fh.write(json.dumps(ladder.as_dict(), indent=2) + "\n")


def load_ladder(path: str | Path) -> Ladder:
    """Read and check a ladder file; every way it can be bad is one LadderError naming it."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LadderError(f"{p}: no such ladder file") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LadderError(f"{p}: not a ladder file: {exc}") from None
    return parse_ladder(data, where=str(p))


def parse_ladder(data: Any, *, where: str) -> Ladder:
    """A Ladder from the JSON value of a file, checked key by key."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LadderError(f"{where}: not a ladder file (format is not {FORMAT!r})")
    version = data.get("version")
    if version != VERSION:
        raise LadderError(f"{where}: ladder format version {version!r} (this mindgames reads 1)")
    game = _text(data, "game", where)
    openings = _text(data, "openings", where)
    anchor = _text(data, "anchor", where)
    max_plies = data.get("max_plies")
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
        raise LadderError(f"{where}: max_plies: expected a positive integer, got {max_plies!r}")
    raw = data.get("rungs")
    if not isinstance(raw, list) or len(raw) < 2:
        raise LadderError(f"{where}: rungs: expected a list of at least two rungs")
    rungs = tuple(_rung(r, f"{where}: rungs[{i}]") for i, r in enumerate(raw))
    names = [r.name for r in rungs]
    if len(set(names)) != len(names):
        raise LadderError(f"{where}: rungs: a name is repeated ({', '.join(names)})")
    if anchor not in names:
        raise LadderError(f"{where}: anchor {anchor!r} is not a rung ({', '.join(names)})")
    if any(a.elo > b.elo for a, b in itertools.pairwise(rungs)):
        raise LadderError(f"{where}: rungs: expected weakest first (Elo in increasing order)")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise LadderError(f"{where}: provenance: expected a table")
    return Ladder(game, openings, max_plies, anchor, rungs, provenance)


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise LadderError(f"{where}: {key}: expected a non-empty string, got {value!r}")
    return value


def _rung(data: Any, where: str) -> Rung:
    if not isinstance(data, dict):
        raise LadderError(f"{where}: expected a table with name, agent, elo, low, high, games")
    name, agent = _text(data, "name", where), _text(data, "agent", where)
    numbers = []
    for key in ("elo", "low", "high"):
        value = data.get(key)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise LadderError(f"{where}: {key}: expected a finite number, got {value!r}")
        numbers.append(float(value))
    elo, low, high = numbers
    if not low <= elo <= high:
        raise LadderError(f"{where}: expected low <= elo <= high, got {low}, {elo}, {high}")
    games = data.get("games")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise LadderError(f"{where}: games: expected a non-negative integer, got {games!r}")
    misfit = data.get("misfit", 0.0)
    if (
        isinstance(misfit, bool)
        or not isinstance(misfit, (int, float))
        or not math.isfinite(misfit)
        or misfit < 0
    ):
        raise LadderError(f"{where}: misfit: expected a non-negative number, got {misfit!r}")
    return Rung(name, agent, elo, low, high, games, float(misfit))


def shipped_files() -> list[Path]:
    """The ladder files shipped with the package, by name."""
    folder = files("mindgames").joinpath(SHIPPED)
    if not folder.is_dir():
        return []
    return sorted(Path(str(f)) for f in folder.iterdir() if f.name.endswith(".json"))


def shipped_ladder(registry: Registry, game_spec: str) -> Ladder:
    """The shipped ladder of the game ``game_spec`` names (any spelling of the same game)."""
    wanted = registry.game(game_spec).spec()
    known = []
    for path in shipped_files():
        ladder = load_ladder(path)
        try:
            spec = registry.game(ladder.game).spec()
        except MindgamesError:  # a game whose plugin is not installed
            continue
        if spec == wanted:
            return ladder
        known.append(spec)
    raise LadderError(
        f"no ladder ships for {wanted!r} (ladders: {', '.join(known) or 'none'}); build one "
        "with 'mindgames ladder build' and give it with --ladder FILE"
    )


def find_ladder(registry: Registry, text: str) -> Ladder:
    """``text`` as a ladder file when one exists there, else as a game with a shipped ladder."""
    if text.endswith(".json") or Path(text).is_file():
        return load_ladder(text)
    return shipped_ladder(registry, text)
