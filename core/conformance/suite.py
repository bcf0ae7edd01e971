"""The game conformance suite: checks that a game keeps the Game contract.

Plugin authors run it with ``mindgames check-game NAME``; the project's tests run it on every
registered game. It plays seeded random games and checks, at every position visited:

* states are hashable, and the position text parses back to the same position (same text, same
  side to move, same moves) -- a text that fails to parse is reported as such; a position drawn
  by its path (a repetition, no progress) may parse to one still in play;
* ``play`` never mutates its input (the state's hash and text are unchanged afterwards);
* terminal states have no legal moves, and their returns sum to zero and lie in [-1, 1];
* non-terminal states have legal moves, and ``to_move`` is 0 or 1;
* ``children`` equals every legal move paired with its ``play`` (the default), in order, and
  ``move_count`` and ``capture_pending`` agree with the legal moves (a capture, in a game that
  counts its pieces, is a move that removes one);
* a game that declares ``turns_alternate`` passes the turn with every move;
* every move text is distinct in its position and parses back to its move;
* every encoding returns a finite vector of its declared number of named columns, and its fast
  paths equal it: ``encode_py`` at each position, the batch encoder over each playout;
* a game with states as rows (``StateRows``) gives back each state from its row, and its row
  successors equal ``children`` (with ``is_terminal`` and ``to_move``) over each playout; an
  encoding's ``encode_rows`` equals ``encode_batch`` there;
* ``search_key`` is hashable and the same for a copy of the state, and positions that share a
  key play alike: the same side to move, the same move texts, each leading to the same key
  (over every position visited and its children; a finished position may differ, as
  path-dependent draws live in the state, not the key);
* the perft counts a game declares (``Game.known_perft``) hold;
* a game drawn as a board (``mindgames.board.DrawsBoard``) has distinct cell keys, and every
  legal move's clicks are cells of its board, different for different moves;
* a game that both writes and reads game records (``ExportsGames`` and ``ImportsGames``) reads
  back each playout it wrote, position by position;
* the same seed gives the same playout;
* a game with compiled kernels (``kernels()`` not None) has kernels equal to its Python rules
  at every position visited: rows both ways, children in order, the predicates, the keys and
  the encodings (``conformance_kernels``; the report lists this check only when it ran).

The report lists the game's optional capabilities, read from the same protocols that the code
using them checks (``mindgames.capabilities.GAME_CAPABILITIES``).
"""

from __future__ import annotations

import copy
import math
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.board import DrawsBoard
from mindgames.capabilities import GAME_CAPABILITIES, capabilities_of
from mindgames.conformance.kernels import KERNEL_CHECK, kernel_checker
from mindgames.errors import ConformanceError
from mindgames.game import (
    CountsPieces,
    Encoding,
    ExportsGames,
    Game,
    ImportsGames,
    State,
    StateRows,
)


@attrs.frozen
class ConformanceReport:
    game: str  # the game's spec: the parameters checked are part of what passed
    playouts: int
    positions: int
    encodings: tuple[str, ...]
    checks: tuple[str, ...]
    #: the game's optional capabilities (``GAME_CAPABILITIES`` names)
    capabilities: tuple[str, ...] = ()


CHECKS = (
    "hashable states",
    "play does not mutate",
    "terminal states have no moves",
    "returns sum to zero",
    "children equal legal moves with play",
    "declared alternating turns alternate",
    "move_count and capture_pending agree with the legal moves",
    "move text round-trips",
    "positions with one search key play alike",
    "position text round-trips",
    "encodings have their declared columns",
    "encode_py and the batch encoder equal encode",
    "state rows and their successors equal the states and children",
    "known perft counts",
    "board cells and move clicks",
    "written game records read back",
    "same seed, same playout",
)

#: how far a fast path's value may differ from ``encode``'s (they may sum in another order)
TOLERANCE = 1e-9


def _fail(game: Game, state: State, what: str) -> ConformanceError:
    try:
        where = game.position_text(state)
    except Exception:  # the position text itself may be what is broken
        where = repr(state)
    return ConformanceError(f"{game.spec()}: {what} (position {where})")


def _error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def _move_texts(game: Game, state: State) -> list[str]:
    return sorted(game.move_text(state, move) for move in game.legal_moves(state))


def _check_position_text(game: Game, state: State) -> None:
    text = game.position_text(state)
    try:
        parsed = game.parse_position(text)
    except Exception as exc:
        raise _fail(game, state, f"position text {text!r} does not parse ({_error(exc)})") from None
    if game.position_text(parsed) != text:
        raise _fail(game, state, "position text does not round-trip")
    if parsed == state:
        return
    if game.to_move(parsed) != game.to_move(state):
        raise _fail(
            game,
            state,
            f"position text {text!r} parses with player {game.to_move(parsed)} to move, "
            f"not {game.to_move(state)}",
        )
    if game.is_terminal(state) and not game.is_terminal(parsed) and not any(game.returns(state)):
        return  # drawn by its path (a repetition, no progress): the text has no history
    if _move_texts(game, parsed) != _move_texts(game, state):
        raise _fail(game, state, f"position text {text!r} parses to a position with other moves")


def _key(game: Game, state: State) -> Hashable:
    key = game.search_key(state)
    try:
        hash(key)
    except TypeError:
        raise _fail(game, state, f"search_key gave an unhashable {type(key).__name__}") from None
    return key


def _check_keys(game: Game, states: list[State], seen: dict[Hashable, State]) -> None:
    """Positions with one ``search_key`` play alike, so a transposition table that merges them
    loses nothing: the same side to move, and each move's text leads to the same key. A finished
    position may differ (path-dependent draws live in the state, not the key)."""

    def plays(state: State) -> tuple[int, dict[str, Hashable]]:
        moves = {game.move_text(state, m): _key(game, child) for m, child in game.children(state)}
        return game.to_move(state), moves

    for state in states:
        key = _key(game, state)
        if _key(game, copy.deepcopy(state)) != key:
            raise _fail(game, state, "search_key differs for a copy of the state")
        other = seen.setdefault(key, state)
        if other is state or other == state or game.is_terminal(state) or game.is_terminal(other):
            continue
        if plays(other) != plays(state):
            raise _fail(
                game,
                state,
                "it has the search key of a position that plays otherwise (side to move, moves "
                f"or where they lead): {game.position_text(other)}",
            )


def _check_encoding(game: Game, state: State, enc: Encoding) -> np.ndarray:
    vec = np.asarray(enc.encode(state))
    if vec.shape != (enc.width,):
        raise _fail(
            game,
            state,
            f"encoding {enc.name!r} gave shape {vec.shape}, declared {enc.width} columns",
        )
    if not np.all(np.isfinite(vec)):
        raise _fail(game, state, f"encoding {enc.name!r} gave a non-finite value")
    if enc.encode_py is not None:
        fast = np.asarray(enc.encode_py(state), dtype=float)
        if fast.shape != vec.shape or not np.allclose(fast, vec, rtol=0, atol=TOLERANCE):
            raise _fail(game, state, f"encoding {enc.name!r}: encode_py differs from encode")
    return vec


def _check_moves(game: Game, state: State, moves: list) -> None:
    if game.move_count(state) != len(moves):
        raise _fail(game, state, "move_count disagrees with legal_moves")
    texts = [game.move_text(state, move) for move in moves]
    if len(set(texts)) != len(texts):
        raise _fail(game, state, f"two moves have one text: {sorted(texts)}")
    for move, mtext in zip(moves, texts, strict=True):
        try:
            parsed = game.parse_move(state, mtext)
        except Exception as exc:
            raise _fail(
                game, state, f"move text {mtext!r} does not parse ({_error(exc)})"
            ) from None
        if parsed != move:
            raise _fail(game, state, f"move text {mtext!r} does not round-trip")


def _check_captures(game: Game, state: State, kids: list[tuple[object, State]]) -> None:
    """``capture_pending`` (when overridden): a must-capture position has moves; in a game that
    counts pieces, it is pending exactly when the moves remove pieces."""
    if type(game).capture_pending is Game.capture_pending:
        return
    pending = game.capture_pending(state)
    if pending and not kids:
        raise _fail(game, state, "capture_pending is true where there are no legal moves")
    if isinstance(game, CountsPieces) and kids:
        before = game.pieces(state)
        removes = [game.pieces(child) < before for _, child in kids]
        if (all(removes) if pending else any(removes)) != pending:
            raise _fail(game, state, f"capture_pending is {pending} but the moves disagree")


def _check_board(game: Game, state: State, moves: list) -> None:
    """Distinct cell keys; every move's clicks are cells of the board, one path per move."""
    if not isinstance(game, DrawsBoard):
        return
    keys = [cell.key for cell in game.board(state).cells if cell.key]
    if len(set(keys)) != len(keys):
        raise _fail(game, state, "two cells of the board picture have the same key")
    paths = [tuple(game.move_cells(state, move)) for move in moves]
    if len(set(paths)) != len(paths):
        raise _fail(game, state, "two legal moves have the same clicks (move_cells)")
    for path in paths:
        if not path or any(key not in keys for key in path):
            raise _fail(game, state, f"move_cells {path!r} are not cells of the board")


def _check_state(game: Game, state: State, encodings: list[Encoding]) -> list[tuple[object, State]]:
    """The checks at one position; returns its children (the key check reads them too)."""
    try:
        hash(state)
    except TypeError:
        raise _fail(game, state, "state is not hashable") from None
    _check_position_text(game, state)
    if game.to_move(state) not in (0, 1):
        raise _fail(game, state, f"to_move returned {game.to_move(state)!r}")
    for enc in encodings:
        _check_encoding(game, state, enc)
    moves = list(game.legal_moves(state))
    if moves and game.is_terminal(state):
        raise _fail(game, state, "terminal state has legal moves")
    kids = [(move, child) for move, child in game.children(state)]
    if kids != [(move, game.play(state, move)) for move in moves]:
        raise _fail(game, state, "children differ from legal_moves with play")
    _check_captures(game, state, kids)
    _check_board(game, state, moves)
    if game.turns_alternate and any(game.to_move(c) == game.to_move(state) for _, c in kids):
        raise _fail(game, state, "a move keeps the turn, but the game declares turns_alternate")
    if game.is_terminal(state):
        returns = game.returns(state)
        if len(returns) != 2 or not math.isclose(sum(returns), 0.0, abs_tol=1e-9):
            raise _fail(game, state, f"returns {returns!r} do not sum to zero")
        if any(abs(r) > 1 for r in returns):
            raise _fail(game, state, f"returns {returns!r} outside [-1, 1]")
        return kids
    if not moves:
        raise _fail(game, state, "non-terminal state has no legal moves")
    _check_moves(game, state, moves)
    return kids


def _check_batches(game: Game, states: list[State], encodings: list[Encoding]) -> None:
    """The batch encoder of each encoding equals ``encode`` row by row over a playout."""
    for enc in encodings:
        batch = np.asarray(enc.encode_batch(states))
        single = np.array([enc.encode(s) for s in states], dtype=float).reshape(-1, enc.width)
        if batch.shape != single.shape:
            raise ConformanceError(
                f"{game.spec()}: encoding {enc.name!r}: the batch encoder gave shape {batch.shape} "
                f"for {len(states)} positions, expected {single.shape}"
            )
        wrong = np.flatnonzero(~np.all(np.isclose(batch, single, rtol=0, atol=TOLERANCE), axis=1))
        if len(wrong):
            raise _fail(
                game,
                states[wrong[0]],
                f"encoding {enc.name!r}: the batch encoder differs from encode",
            )


def _check_records(game: Game, states: list[State], moves: list[str]) -> None:
    """``ExportsGames`` with ``ImportsGames``: a playout written as a record reads back as the
    same positions (the record of an unfinished game carries the result ``*``)."""
    if not (isinstance(game, ExportsGames) and isinstance(game, ImportsGames)) or not moves:
        return
    record: dict[str, Any] = {
        "tags": {},
        "position": None,
        "moves": moves,
        "result": _result(game, states[-1]),
    }
    exported = game.export_games([record])
    if exported is None:
        return
    suffix, text = exported
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"playout{suffix}"
        path.write_text(text, encoding="utf-8")
        read, skipped = game.import_games(str(path))
    if skipped or len(read) != 1:
        why = "; ".join(skipped.values()) or f"{len(read)} games"
        raise _fail(game, states[-1], f"a written record does not read back ({why})")
    texts = [game.position_text(s) for s in read[0]["states"]]
    if texts != [game.position_text(s) for s in states]:
        raise _fail(game, states[-1], "a written record reads back as other positions")


def _result(game: Game, state: State) -> str:
    """A record's result for the player moving first: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    if not game.is_terminal(state):
        return "*"
    first, second = game.returns(state)
    return "1-0" if first > second else "0-1" if second > first else "1/2-1/2"


def _check_rows(game: Game, states: list[State], encodings: list[Encoding]) -> None:
    """``StateRows``: each row gives its state back; the legal slots of its successors are
    ``children`` in order (states, game over, side changed); ``encode_rows`` is the batch."""
    if not isinstance(game, StateRows) or not states:
        return
    rows = game.state_rows(states)
    over = game.rows_over(rows)
    for state, row, done in zip(states, rows, over.tolist(), strict=True):
        if game.row_state(row) != state or done != game.is_terminal(state):
            raise _fail(game, state, "its state row gives another state back")
    live = [k for k, state in enumerate(states) if not game.is_terminal(state)]
    kids, legal, ended, passes = game.row_children(rows[live])
    for r, k in enumerate(live):
        state, slots = states[k], np.flatnonzero(legal[r])
        want = [child for _, child in game.children(state)]
        got = [game.row_state(kids[r, j]) for j in slots]
        if got != want:
            raise _fail(game, state, "row successors differ from children")
        if ended[r, slots].tolist() != [game.is_terminal(c) for c in want] or passes[
            r, slots
        ].tolist() != [game.to_move(c) != game.to_move(state) for c in want]:
            raise _fail(game, state, "row successors' game over or side to move is wrong")
    for enc in encodings:
        if enc.encode_rows is not None and not np.array_equal(
            enc.encode_rows(rows), enc.encode_batch(states)
        ):
            raise ConformanceError(
                f"{game.spec()}: encoding {enc.name!r}: encode_rows differs from encode_batch"
            )


def _check_perft(game: Game) -> None:
    """The counts the game declares, by its own ``perft`` and by the generic definition."""
    for text, counts in game.known_perft():
        state = game.initial_state() if text is None else game.parse_position(text)
        for depth, expected in enumerate(counts, 1):
            got = game.perft(state, depth)
            generic = Game.perft(game, state, depth) if expected <= 50_000 else got
            if got != expected or generic != expected:
                raise _fail(
                    game,
                    state,
                    f"perft {depth} is {got} (generic {generic}), declared {expected}",
                )


def playout(
    game: Game,
    rng: np.random.Generator,
    visit: Callable[[State], None] | None = None,
    max_plies: int = 2000,
) -> list[str]:
    """Play random moves from the start; return the move texts played."""
    state = game.initial_state()
    texts: list[str] = []
    for _ in range(max_plies):
        if visit:
            visit(state)
        if game.is_terminal(state):
            return texts
        moves = list(game.legal_moves(state))
        move = moves[int(rng.integers(len(moves)))]
        before_hash, before_text = hash(state), game.position_text(state)
        snapshot = copy.deepcopy(state)
        texts.append(game.move_text(state, move))
        state_after = game.play(state, move)
        if (
            hash(state) != before_hash
            or game.position_text(state) != before_text
            or (state != snapshot)
        ):
            raise _fail(game, state, "play mutated its input state")
        state = state_after
    raise ConformanceError(f"{game.spec()}: a random game did not end within {max_plies} plies")


def check_game(
    game: Game, encodings: list[Encoding], *, playouts: int = 20, seed: int = 0
) -> ConformanceReport:
    """Run the suite; raise ConformanceError at the first broken promise."""
    positions = 0
    visited: list[State] = []
    keys: dict[Hashable, State] = {}

    def visit(state: State) -> None:
        nonlocal positions
        positions += 1
        kids = _check_state(game, state, encodings)
        _check_keys(game, [state] + [child for _, child in kids], keys)
        visited.append(state)

    _check_perft(game)
    kernels = kernel_checker(game, encodings)
    if kernels is not None:
        kernels.check_perft()
    for i in range(playouts):
        visited.clear()
        first = playout(game, np.random.default_rng([seed, i]), visit)
        _check_batches(game, visited, encodings)
        _check_rows(game, visited, encodings)
        _check_records(game, visited, first)
        if kernels is not None:
            kernels.check(visited)
        again = playout(game, np.random.default_rng([seed, i]))
        if first != again:
            raise ConformanceError(f"{game.spec()}: the same seed gave two different playouts")
    checks = CHECKS if kernels is None else (*CHECKS, KERNEL_CHECK)
    capabilities = tuple(capabilities_of(game, GAME_CAPABILITIES))
    names = tuple(e.name for e in encodings)
    return ConformanceReport(game.spec(), playouts, positions, names, checks, capabilities)
