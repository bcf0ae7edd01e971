"""The game logic behind the page's JSON API, without HTTP: positions, views, clicks, replies.

The server keeps no game: every request carries the game spec, the start position (None for the
initial one) and the moves played, and the position is replayed from them (a few hundred plies at
most). So any number of pages play at once, a reload loses nothing the page holds, and a bad
request can only be refused. A request that does not describe a legal game raises a
``MindgamesError`` naming what is wrong, which the app answers with 400.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from mindgames.board import DrawsBoard
from mindgames.errors import IllegalMoveError, MindgamesError
from mindgames.game import Game, Move, State, outcome_text
from mindgames.play.session import natural_key
from mindgames.registry import Registry
from mindgames.web.errors import RequestError
from mindgames.web.svg import board_svg

#: the most moves a request may carry (longer games are refused, not replayed)
MAX_MOVES = 2000


@attrs.frozen
class Position:
    """A game, its start and moves as texts, and the state they lead to."""

    game: Game
    start: str | None
    moves: tuple[str, ...]
    state: State
    last: State | None  # the state before the last move, if any


def field(body: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """``body[name]`` checked against ``kind``; ``default`` when absent (None: required)."""
    if name not in body or body[name] is None:
        if default is None and kind is not type(None):
            raise RequestError(f"the request needs {name!r}")
        return default
    value = body[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RequestError(f"{name!r} must be {names}, got {type(value).__name__}")
    return value


def position(registry: Registry, body: Mapping[str, Any]) -> Position:
    """Replay the request's ``game``, ``start`` and ``moves``."""
    spec = field(body, "game", str, None)
    start = field(body, "start", str, "") or None
    moves = field(body, "moves", list, [])
    if len(moves) > MAX_MOVES:
        raise RequestError(f"'moves' holds {len(moves)} moves; at most {MAX_MOVES} are replayed")
    if not all(isinstance(m, str) for m in moves):
        raise RequestError("'moves' must be a list of move texts")
    game = registry.game(spec)
    state = game.initial_state() if start is None else game.parse_position(start)
    before = None
    texts = []
    for ply, text in enumerate(moves, 1):
        if game.is_terminal(state):
            raise RequestError(f"move {ply} ({text!r}): the game was already over")
        try:
            move = game.parse_move(state, text)
        except MindgamesError as exc:
            raise RequestError(f"move {ply} ({text!r}): {exc}") from None
        texts.append(game.move_text(state, move))
        before, state = state, game.play(state, move)
    return Position(game, start, tuple(texts), state, before)


def played(p: Position, move: Move) -> Position:
    """``p`` after ``move`` (a legal move of its state)."""
    game = p.game
    text = game.move_text(p.state, move)
    return Position(game, p.start, (*p.moves, text), game.play(p.state, move), p.state)


def move_from(p: Position, body: Mapping[str, Any]) -> Move:
    """The legal move a request names: its ``move`` text or the ``cells`` clicked."""
    game, state = p.game, p.state
    if game.is_terminal(state):
        raise RequestError("the game is over: no move can be played")
    cells = field(body, "cells", list, [])
    if not cells:
        if body.get("move") is None:
            raise RequestError("the request needs 'move' (a move text) or 'cells' (cells clicked)")
        text = field(body, "move", str, None)
        try:
            return game.parse_move(state, text)
        except MindgamesError as exc:
            raise RequestError(str(exc)) from None
    if not isinstance(game, DrawsBoard) or not all(isinstance(c, str) for c in cells):
        raise RequestError("'cells' must be a list of cell keys of a game drawn as a board")
    return move_of_cells(game, state, tuple(cells))


def move_of_cells(game: Any, state: State, cells: tuple[str, ...]) -> Move:
    """The legal move whose clicks are ``cells``; else the one legal move from the first cell to
    the last (a capture's landing squares may be left out); else a refusal saying why."""
    paths = [(tuple(game.move_cells(state, m)), m) for m in game.legal_moves(state)]
    exact = [m for path, m in paths if path == cells]
    if exact:
        return exact[0]
    ends = [
        m for path, m in paths if len(cells) > 1 and (path[0], path[-1]) == (cells[0], cells[-1])
    ]
    if len(ends) == 1:
        return ends[0]
    clicked = " → ".join(cells)
    starts = sorted({path[0] for path, _ in paths}, key=lambda key: (len(key), key))
    if cells[0] not in starts:
        raise IllegalMoveError(
            f"illegal: no legal move starts at {cells[0]} (moves start at {', '.join(starts)})"
        )
    if len(ends) > 1:
        raise IllegalMoveError(f"ambiguous: {clicked}; click the squares between too")
    goes = sorted(" → ".join(path) for path, _ in paths if path[0] == cells[0])
    raise IllegalMoveError(f"illegal: {clicked} (from {cells[0]}: {'; '.join(goes)})")


def view(p: Position) -> dict[str, Any]:
    """What the page shows: board (SVG) or text, the legal moves with their clicks, the result."""
    game, state = p.game, p.state
    over = game.is_terminal(state)
    drawer = game if isinstance(game, DrawsBoard) else None
    legal = []
    for move in [] if over else game.legal_moves(state):
        entry: dict[str, Any] = {"text": game.move_text(state, move)}
        if drawer is not None:
            entry["cells"] = list(drawer.move_cells(state, move))
        legal.append(entry)
    board = None
    if drawer is not None:
        last: Sequence[str] = ()
        if p.last is not None:
            last = drawer.move_cells(p.last, game.parse_move(p.last, p.moves[-1]))
        board = board_svg(drawer.board(state), last)
    return {
        "game": game.spec(),
        "start": p.start,
        "moves": list(p.moves),
        "position": game.position_text(state),
        "players": list(game.player_names),
        "to_move": None if over else game.to_move(state),
        "over": over,
        "result": outcome_text(game, state) if over else None,
        "legal": sorted(legal, key=lambda e: natural_key(e["text"])),
        "board": board,
        "text": game.render(state),
    }
