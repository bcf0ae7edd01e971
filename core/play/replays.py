"""Recorded games read back for replay: match and tournament results, and game record files.

Two kinds of file hold played games. Result records (JSON Lines: a tournament's
``results.jsonl``, ``match --out``, ``play``'s ``save FILE.json``) name their game spec, the
players, the start and the moves. Anything else is a file in a game's own record format (PDN
for draughts), read by ``Game.import_games``; without ``rules`` the first installed game (by
name) that reads a game of the file is taken.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import CapabilityError, GameRecordError, MindgamesError
from mindgames.files import read_jsonl
from mindgames.game import Game, ImportsGames, State
from mindgames.registry import Registry

#: the results file of a tournament run directory (``tournament.RESULTS_FILE``)
RESULTS_FILE = "results.jsonl"


@attrs.frozen
class RecordedGame:
    """One game of a file: its number there (from 1), rules, players, every state and move."""

    number: int
    game: Game
    players: tuple[str, str]
    states: tuple[State, ...]
    moves: tuple[str, ...]
    result: str
    about: str = ""  # round, opening, how it ended: one line for people
    opening_plies: int = 0  # the first moves a result record names as its opening's


@attrs.frozen
class GameFile:
    """The games of one file: those that replay, numbered by their place in the file (from 1),
    and why each other one does not (``{number: why}``)."""

    path: str
    games: tuple[RecordedGame, ...]
    skipped: Mapping[int, str]
    rules: str | None = None  # the game a record file was read as

    def failure(self, number: int) -> str:
        """Why game ``number`` does not replay, in a few words."""
        rules = f" as {self.rules}" if self.rules else ""
        return f"does not replay{rules}: {self.skipped[number]}"

    def pick(self, number: int) -> RecordedGame:
        """Game ``number`` of the file, or one line saying why not (none there, or no replay)."""
        for recorded in self.games:
            if recorded.number == number:
                return recorded
        if number in self.skipped:
            raise GameRecordError(f"{self.path}: game {number} {self.failure(number)}")
        numbers = sorted([g.number for g in self.games] + list(self.skipped))
        held = f"{len(numbers)}"
        if numbers != list(range(1, len(numbers) + 1)):  # a results file of a run still going
            held += f": {_spans(numbers)}"
        raise MindgamesError(f"{self.path}: no game {number} (the file holds {held})")

    def replaying(self) -> tuple[RecordedGame, ...]:
        """The games that replay; none is an error naming the first game and why."""
        if not self.games:
            first = min(self.skipped)
            why = f"game {first} {self.failure(first)}"
            raise GameRecordError(f"{self.path}: no game replays ({why})")
        return self.games

    def lines(self) -> list[tuple[int, RecordedGame | str]]:
        """Every game of the file in its order: the game, or why it does not replay."""
        out: list[tuple[int, RecordedGame | str]] = [(g.number, g) for g in self.games]
        out += [(n, self.failure(n)) for n in self.skipped]
        return sorted(out, key=lambda item: item[0])


def load_games(path: str | Path, registry: Registry, rules: str | None = None) -> GameFile:
    """Every game recorded in ``path`` (a tournament run directory means its results file).

    ``rules`` (a game spec) is the game of a file in a game's own format; a result record
    names its own. A game that does not replay is kept as its reason, so that the others
    keep their numbers and still replay; a file with no game at all is an error.
    """
    p = Path(path)
    if p.is_dir():
        p = p / RESULTS_FILE
    if not p.is_file():
        raise MindgamesError(f"{p}: no such file")
    if _is_json(p):
        games, skipped = [], {}
        for number, record in _numbered(_results(p)):
            try:
                games.append(_from_result(number, record, registry))
            except MindgamesError as exc:
                skipped[number] = str(exc)
        found = GameFile(str(p), tuple(games), skipped)
    else:
        found = _from_game_records(p, registry, rules)
    if not found.games and not found.skipped:
        raise GameRecordError(f"{p}: no recorded game in it")
    return found


def read_games(
    path: str | Path, registry: Registry, rules: str | None = None
) -> list[RecordedGame]:
    """The games of ``path`` that replay (``load_games``); none replaying is an error."""
    return list(load_games(path, registry, rules).replaying())


def _is_json(path: Path) -> bool:
    if path.suffix in (".jsonl", ".json"):
        return True
    with path.open("rb") as fh:
        return fh.read(64).lstrip().startswith(b"{")


def _results(path: Path) -> list[dict[str, Any]]:
    records = read_jsonl(path)
    bad = [n for n, r in enumerate(records, 1) if not isinstance(r, dict) or "moves" not in r]
    if bad:
        raise GameRecordError(f"{path}: record {bad[0]} is not a game result (no 'moves')")
    return sorted(records, key=lambda r: r.get("index", 0)) if len(records) > 1 else records


def _numbered(records: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Each result record with its game number: its ``index`` + 1 (the tournament's Round, so
    a run still going keeps its numbers), else its place in the file."""
    indices = [r.get("index") for r in records]
    if all(type(i) is int and i >= 0 for i in indices) and len(set(indices)) == len(indices):
        return [(int(r["index"]) + 1, r) for r in records]
    return list(enumerate(records, 1))


def _spans(numbers: Sequence[int]) -> str:
    """Sorted numbers as ranges: ``1-3, 5``."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans)


def _from_result(number: int, record: Mapping[str, Any], registry: Registry) -> RecordedGame:
    """A result record (``task.play_game``'s fields) replayed from its start."""
    try:
        game = registry.game(str(record["game"]))
        position = record.get("opening_position")
        state = game.initial_state() if position is None else game.parse_position(position)
        texts = [*record.get("opening_moves", []), *record["moves"]]
    except (KeyError, TypeError) as exc:
        raise GameRecordError(f"not a game result ({exc})") from None
    states, moves = [state], []
    for ply, text in enumerate(texts, 1):
        try:
            move = game.parse_move(states[-1], str(text))
        except MindgamesError as exc:
            raise GameRecordError(f"ply {ply}: {exc}") from None
        moves.append(game.move_text(states[-1], move))
        states.append(game.play(states[-1], move))
    about = ", ".join(
        f"{key} {record[key]}" for key in ("opening", "termination") if record.get(key)
    )
    players = (str(record.get("first", "?")), str(record.get("second", "?")))
    result, opening = str(record.get("result", "*")), len(record.get("opening_moves", []))
    return RecordedGame(number, game, players, tuple(states), tuple(moves), result, about, opening)


def _from_game_records(path: Path, registry: Registry, rules: str | None) -> GameFile:
    """The games of a file in a game's own record format (``Game.import_games``)."""
    if rules is not None:
        game = registry.game(rules)
        if not isinstance(game, ImportsGames):
            raise CapabilityError(f"game {game.name!r} cannot read game records")
        read, skipped = game.import_games(str(path))
    else:
        game, read, skipped = _best_reader(path, registry)
    names = game.player_names
    out = []
    for place, record in enumerate(read, 1):
        number = int(record.get("number", place))
        states = tuple(record["states"])
        tags = record.get("tags", {})
        players = (tags.get(names[0], "?"), tags.get(names[1], "?"))
        about = ", ".join(f"{k} {tags[k]}" for k in ("Event", "Round") if tags.get(k))
        moves = _moves_between(game, states, f"{path}: game {number}")
        out.append(RecordedGame(number, game, players, states, moves, record["result"], about))
    return GameFile(str(path), tuple(out), dict(skipped), game.spec())


def _best_reader(
    path: Path, registry: Registry
) -> tuple[Game, list[dict[str, Any]], dict[int, str]]:
    """The first installed game, by name, that reads a game of ``path`` (default parameters);
    else the first that finds games in it that do not replay (so each says why).

    PDN: checkers reads the games without a Variant tag, give-away only files of its own.
    """
    fallback = None
    for name in sorted(registry.games):
        if not issubclass(registry.games[name].record.cls, ImportsGames):
            continue  # this game reads no record files
        try:
            game = registry.game(name)
            assert isinstance(game, ImportsGames)
            read, skipped = game.import_games(str(path))
        except MindgamesError:
            continue
        if read:
            return game, read, skipped
        fallback = fallback or (skipped and (game, read, skipped))
    if fallback:
        return fallback
    raise GameRecordError(
        f"{path}: no installed game reads a game from it (a result file is JSON Lines; "
        "give --game GAME for a record file)"
    )


def _moves_between(game: Game, states: Sequence[State], where: str) -> tuple[str, ...]:
    """The move texts that lead from each state to the next, matched by ``search_key``: a record
    reader may keep other counters than ``play`` (the PDN replay's repetition history)."""
    moves = []
    for ply, (before, after) in enumerate(itertools.pairwise(states), 1):
        key = game.search_key(after)
        found = [m for m, child in game.children(before) if game.search_key(child) == key]
        if not found:
            raise GameRecordError(f"{where}, ply {ply}: no legal move leads to the next position")
        moves.append(game.move_text(before, found[0]))
    return tuple(moves)


def describe(recorded: RecordedGame) -> dict[str, Any]:
    """A recorded game as JSON-able data (``show --json``)."""
    game = recorded.game
    return {
        "number": recorded.number,
        "game": game.spec(),
        "players": list(recorded.players),
        "result": recorded.result,
        "about": recorded.about,
        "moves": list(recorded.moves),
        "opening_plies": recorded.opening_plies,
        "positions": [game.position_text(s) for s in recorded.states],
    }
