"""The solved-positions file: one position with the exact value of each of its moves
(``Solved``), written atomically and read back with every fault named by file and line.

JSON Lines: a header record (format, version, game, how the positions were sampled: built by
``core/data/solved.py``), then one record per position: ``{"position", "plies", "values": {move
text: value}, "best"}``. Version 1 stores every move's value; version 2 (a best-moves set,
``quality --judge best``) may store null for a move known only to be worse than the best, whose
value was not computed. The format is in docs/measuring.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import MindgamesError
from mindgames.files import atomic_write
from mindgames.game import Game

FORMAT = "mindgames-solved-positions"
#: the newest version this reads: 1, every move's value; 2, values may be null (module docstring)
VERSION = 2


@attrs.frozen
class Solved:
    """One position with the exact value (for its mover) of each legal move, by move text;
    None for a move known only to be worse than the best (a best-moves set)."""

    position: str
    plies: int
    values: dict[str, int | None]

    @property
    def best(self) -> int:
        return max(v for v in self.values.values() if v is not None)

    @property
    def decisive(self) -> bool:
        """Whether some move is worse than another (else the position asks nothing)."""
        return len(set(self.values.values())) > 1

    @property
    def best_moves(self) -> frozenset[str]:
        """The moves that keep the position's value."""
        best = self.best
        return frozenset(move for move, value in self.values.items() if value == best)

    def loss(self, move: str) -> int | None:
        """The margin ``move`` loses against the best (None: not stored, known only > 0)."""
        value = self.values[move]
        return None if value is None else self.best - value

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "plies": self.plies,
            "values": self.values,
            "best": self.best,
        }


def write_file(path: str | Path, head: Mapping[str, Any], solved: list[Solved]) -> None:
    """Write a solved-positions file atomically: the header, then one record per position."""
    with atomic_write(path, "w") as fh:
        fh.write(json.dumps({**head, "positions": len(solved)}, sort_keys=True) + "\n")
        for item in solved:
            fh.write(json.dumps(item.as_dict(), sort_keys=True) + "\n")


def read_file(path: str | Path, game: Game) -> tuple[dict[str, Any], list[Solved]]:
    """The header and positions of a solved-positions file written for ``game``.

    Every way the file can be bad is one MindgamesError naming the file and line.
    """
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise MindgamesError(f"{p}: cannot read the positions file: {exc}") from None
    if not lines:
        raise MindgamesError(f"{p}:1: empty file: not a solved-positions file")
    head = _record(p, 1, lines[0])
    if head.get("format") != FORMAT:
        raise MindgamesError(f"{p}:1: not a solved-positions file (format is not {FORMAT!r})")
    version = head.get("version")
    if not isinstance(version, int) or not 1 <= version <= VERSION:
        raise MindgamesError(f"{p}:1: format version {version!r} is not one this mindgames reads")
    if head.get("game") != game.spec():
        raise MindgamesError(f"{p}:1: positions of game {head.get('game')!r}, not {game.spec()!r}")
    solved = [_position(p, number, text, game, version) for number, text in enumerate(lines[1:], 2)]
    if not solved:
        raise MindgamesError(f"{p}: holds no positions")
    return head, solved


def _record(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MindgamesError(f"{path}:{number}: not a JSON record: {exc}") from None
    if not isinstance(record, dict):
        raise MindgamesError(f"{path}:{number}: not a JSON object")
    return record


def _is_value(value: object, version: int) -> bool:
    if value is None:
        return version >= 2
    return isinstance(value, int) and not isinstance(value, bool)


def _position(path: Path, number: int, text: str, game: Game, version: int) -> Solved:
    """One position record, checked: its text parses and its values cover the legal moves."""
    record = _record(path, number, text)
    position, plies, values = record.get("position"), record.get("plies"), record.get("values")
    where = f"{path}:{number}"
    if not isinstance(position, str) or not isinstance(plies, int) or not isinstance(values, dict):
        raise MindgamesError(f"{where}: expected position (text), plies and values (an object)")
    if not all(_is_value(v, version) for v in values.values()):
        kind = "an integer" if version == 1 else "an integer or null (known worse than the best)"
        raise MindgamesError(f"{where}: every move value must be {kind}")
    if all(v is None for v in values.values()):
        raise MindgamesError(f"{where}: no move has a value: the best must be stored")
    try:
        state = game.parse_position(position)
    except MindgamesError as exc:
        raise MindgamesError(f"{where}: {exc}") from None
    legal = {game.move_text(state, move) for move in game.legal_moves(state)}
    if set(values) != legal or len(legal) < 2:
        raise MindgamesError(
            f"{where}: the values name moves {sorted(values)}, but the legal moves are "
            f"{sorted(legal)}"
        )
    return Solved(position, plies, dict(values))
