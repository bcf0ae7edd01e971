"""Openings that paired games start from: random plies, a named book, a file of positions.

An opening is a start position (the game's own, or a position text) plus moves in the game's
notation, so it travels to worker processes and into result files as plain text. Configs::

    [openings]                  # or on the command line: --openings random:plies=4,count=8
    kind = "random"             # random | book | file | start
    plies = 4                   # random: plies of uniformly random legal moves
    count = 8                   # how many (book/file: the first ``count``; default all)
    name = "acf-3move"          # book: one of Game.opening_books() (checkers: the ACF ballots)
    path = "openings.txt"       # file: a position text per line (PDN FEN, Kalah); '#' comments
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.config import structure
from mindgames.errors import ConfigError, MindgamesError
from mindgames.game import Game, State, opening_books_of
from mindgames.limits import MAX_OPENINGS, at_most
from mindgames.spec import parse_spec

KINDS = ("random", "book", "file", "start")
#: the options each kind reads (any other is refused rather than silently ignored)
OPTIONS = {"random": ("plies", "count"), "book": ("name", "count"), "file": ("path", "count"),
           "start": ()}  # fmt: skip
#: spawn key that separates the openings' random stream from the games' seeds
OPENING_STREAM = 1
#: random lines drawn in a row without a new one before the distinct lines count as all found
STALE_TRIES = 1000
#: the plies of random openings whose positions' successors are kept (the lines share them)
SHARED_PLIES = 6
#: the most plies of a random opening (a random game of checkers need never end)
MAX_OPENING_PLIES = 1000


@attrs.frozen
class Opening:
    """A label, a start position text (None: the game's initial position) and moves played."""

    label: str
    position: str | None = None
    moves: tuple[str, ...] = ()

    def state(self, game: Game) -> State:
        """The position after the opening."""
        if self.position is None:
            state = game.initial_state()
        else:
            state = game.parse_position(self.position)
        for text in self.moves:
            state = game.play_text(state, text)
        return state

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "position": self.position, "moves": list(self.moves)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Opening:
        return cls(data["label"], data.get("position"), tuple(data.get("moves", ())))


@attrs.frozen
class OpeningsConfig:
    """Where openings come from (see the module docstring)."""

    kind: str = "random"
    plies: int = 2
    count: int | None = None
    name: str | None = None
    path: str | None = None


def parse_openings(value: str | Mapping[str, Any] | None, *, where: str) -> OpeningsConfig:
    """An OpeningsConfig from a spec (``random:plies=4``, ``book:name=acf-3move``) or a table;
    errors name ``where`` (nothing when empty: the caller's context names it)."""
    if value is None:
        return OpeningsConfig()
    prefix = f"{where}: openings" if where else "openings"
    if isinstance(value, str):
        if not value.strip():
            raise ConfigError(f"{prefix}: empty; expected a kind ({', '.join(KINDS)})")
        kind, options = parse_spec(value)
        table: dict[str, Any] = {"kind": kind, **options}
    else:
        table = dict(value)
    config = structure(table, OpeningsConfig, where=prefix)
    if config.kind not in KINDS:
        raise ConfigError(f"{prefix}: unknown kind {config.kind!r} (known: {', '.join(KINDS)})")
    # a table may carry every field (a saved config): an unused option is one off its default
    unused = [
        field.name
        for field in attrs.fields(OpeningsConfig)[1:]  # every option after ``kind``
        if field.name not in OPTIONS[config.kind] and getattr(config, field.name) != field.default
    ]
    if unused:
        takes = ", ".join(OPTIONS[config.kind]) or "no options"
        raise ConfigError(
            f"{prefix}: kind {config.kind!r} does not use {', '.join(unused)} (it takes {takes})"
        )
    if config.count is not None and config.count < 1:
        raise ConfigError(f"{prefix}: count must be at least 1, got {config.count}")
    if config.count is not None:
        at_most(f"{prefix}: count", config.count, MAX_OPENINGS)
    if config.plies < 0:
        raise ConfigError(f"{prefix}: plies must not be negative, got {config.plies}")
    at_most(f"{prefix}: plies", config.plies, MAX_OPENING_PLIES)
    return config


def make_openings(
    game: Game,
    config: OpeningsConfig,
    seed: int,
    *,
    base: Path | None = None,
    where: str = "",
    fewer: bool = False,
) -> list[Opening]:
    """The openings ``config`` describes for ``game``, checked playable (not already over).

    Random openings draw from a generator derived from ``seed``; with ``fewer`` (a match, which
    reuses its openings as rounds) only the distinct lines that exist, up to ``count``
    (``random_openings``). A relative file path is taken from ``base`` (the config file's
    folder).
    """
    prefix = f"{where}: " if where else ""
    ends: list[State] | None = None  # the positions after the openings, when known
    if config.kind == "start":
        openings = [Opening("start")]
    elif config.kind == "random":
        wanted = config.count or 8
        openings, ends = _random_lines(game, config.plies, wanted, seed, fewer)
        if not openings:
            raise ConfigError(
                f"{prefix}openings: no line of {config.plies} random plies leaves "
                f"{game.spec()} unfinished"
            )
    elif config.kind == "book":
        books = opening_books_of(game)
        if config.name not in books:
            known = ", ".join(sorted(books)) or "none"
            raise ConfigError(
                f"{prefix}openings: game {game.name!r} has no book {config.name!r} (books: {known})"
            )
        openings = [Opening(label, None, tuple(moves)) for label, moves in books[config.name]]
        openings = openings[: config.count] if config.count else openings
    else:
        if not config.path:
            raise ConfigError(f"{prefix}openings: kind 'file' needs path = FILE")
        path = Path(config.path)
        if base is not None and not path.is_absolute() and not path.exists():
            path = base / path
        openings = read_openings(game, path)[: config.count or None]
    for k, opening in enumerate(openings):
        try:
            state = opening.state(game) if ends is None else ends[k]
        except MindgamesError as exc:
            raise ConfigError(f"{prefix}opening {opening.label!r}: {exc}") from None
        if game.is_terminal(state):
            raise ConfigError(f"{prefix}opening {opening.label!r}: the game is already over")
    return openings


def read_openings(game: Game, path: Path) -> list[Opening]:
    """One opening per non-blank, non-comment line of a file of position texts."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such opening file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read opening file: {exc}") from None
    out = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            game.parse_position(text)
        except MindgamesError as exc:
            raise ConfigError(f"{path}:{number}: not a {game.name} position: {exc}") from None
        out.append(Opening(f"{path.name}:{number}", text, ()))
    if not out:
        raise ConfigError(f"{path}: the opening file holds no positions")
    return out


def random_openings(
    game: Game, plies: int, count: int, seed: int, *, fewer: bool = False
) -> list[Opening]:
    """``count`` openings of ``plies`` uniformly random legal moves, distinct while possible.

    A line already drawn, or one that ends the game, is drawn again; after ``100 * count``
    draws repeats are taken (``count`` is at most ``MAX_OPENINGS``, so this ends: the lines
    any seed gave before stay the same). With ``fewer``, only distinct unfinished lines are
    kept and the drawing stops after ``STALE_TRIES`` draws in a row bring nothing new (Kalah
    has 35 lines of two plies): what a match wants, which reuses its openings as rounds.
    """
    return _random_lines(game, plies, count, seed, fewer)[0]


def _random_lines(
    game: Game, plies: int, count: int, seed: int, fewer: bool
) -> tuple[list[Opening], list[State]]:
    """``random_openings`` and the position after each (``make_openings`` checks those rather
    than replay a thousand lines from their text)."""
    rng = np.random.default_rng([seed, OPENING_STREAM])
    seen: set[tuple[str, ...]] = set()
    out: list[Opening] = []
    ends: list[State] = []
    # the lines share their first plies: their positions' successors and texts made once
    known: dict[State, list[tuple[str, State]]] = {}
    attempts = stale = 0
    while len(out) < count and not (fewer and stale >= STALE_TRIES):
        attempts += 1
        state = game.initial_state()
        moves: list[str] = []
        for ply in range(plies):
            kids = known.get(state)
            if kids is None:
                kids = [(game.move_text(state, m), c) for m, c in game.children(state)]
                if ply < SHARED_PLIES:
                    known[state] = kids
            if not kids:
                break
            text, state = kids[int(rng.integers(len(kids)))]
            moves.append(text)
        line = tuple(moves)
        retry = fewer or attempts < 100 * count  # past it, repeats are taken
        if (game.is_terminal(state) or line in seen) and retry:
            stale += 1
            continue
        stale = 0
        seen.add(line)
        out.append(Opening(f"random {len(out) + 1}", None, line))
        ends.append(state)
    return out, ends
