"""The game conformance suite: checks that a game keeps the Game contract.

Plugin authors run it with ``mindgames check-game NAME``; the project's tests run it on every
registered game. It plays seeded random games and checks, at every position visited:

* states are hashable and equal to an independent rebuild from their own position text;
* ``play`` never mutates its input (the state's hash and text are unchanged afterwards);
* terminal states have no legal moves, and their returns sum to zero and lie in [-1, 1];
* non-terminal states have legal moves, and ``to_move`` is 0 or 1;
* ``children`` equals every legal move paired with its ``play`` (the default), in order;
* move text and position text round-trip;
* every encoding returns a finite vector of its declared number of named columns;
* the same seed gives the same playout.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable

import attrs
import numpy as np

from mindgames.errors import ConformanceError
from mindgames.game import Encoding, Game, State


@attrs.frozen
class ConformanceReport:
    game: str
    playouts: int
    positions: int
    encodings: tuple[str, ...]
    checks: tuple[str, ...]


CHECKS = (
    "hashable states",
    "play does not mutate",
    "terminal states have no moves",
    "children equal legal moves with play",
    "returns sum to zero",
    "move text round-trips",
    "position text round-trips",
    "encodings have their declared columns",
    "same seed, same playout",
)


def _fail(game: Game, state: State, what: str) -> ConformanceError:
    try:
        where = game.position_text(state)
    except Exception:  # the position text itself may be what is broken
        where = repr(state)
    return ConformanceError(f"{game.name}: {what} (position {where})")


def _check_state(game: Game, state: State, encodings: list[Encoding]) -> None:
    try:
        hash(state)
    except TypeError:
        raise _fail(game, state, "state is not hashable") from None
    text = game.position_text(state)
    if game.position_text(game.parse_position(text)) != text:
        raise _fail(game, state, "position text does not round-trip")
    if game.to_move(state) not in (0, 1):
        raise _fail(game, state, f"to_move returned {game.to_move(state)!r}")
    for enc in encodings:
        vec = np.asarray(enc.encode(state))
        if vec.shape != (enc.width,):
            raise _fail(
                game,
                state,
                f"encoding {enc.name!r} gave shape {vec.shape}, declared {enc.width} columns",
            )
        if not np.all(np.isfinite(vec)):
            raise _fail(game, state, f"encoding {enc.name!r} gave a non-finite value")
    moves = list(game.legal_moves(state))
    kids = [(move, child) for move, child in game.children(state)]
    if kids != [(move, game.play(state, move)) for move in moves]:
        raise _fail(game, state, "children differ from legal_moves with play")
    if game.is_terminal(state):
        if moves:
            raise _fail(game, state, "terminal state has legal moves")
        returns = game.returns(state)
        if len(returns) != 2 or not math.isclose(sum(returns), 0.0, abs_tol=1e-9):
            raise _fail(game, state, f"returns {returns!r} do not sum to zero")
        if any(abs(r) > 1 for r in returns):
            raise _fail(game, state, f"returns {returns!r} outside [-1, 1]")
        return
    if not moves:
        raise _fail(game, state, "non-terminal state has no legal moves")
    if game.move_count(state) != len(moves):
        raise _fail(game, state, "move_count disagrees with legal_moves")
    for move in moves:
        mtext = game.move_text(state, move)
        if game.parse_move(state, mtext) != move:
            raise _fail(game, state, f"move text {mtext!r} does not round-trip")


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
    raise ConformanceError(f"{game.name}: a random game did not end within {max_plies} plies")


def check_game(
    game: Game, encodings: list[Encoding], *, playouts: int = 20, seed: int = 0
) -> ConformanceReport:
    """Run the suite; raise ConformanceError at the first broken promise."""
    positions = 0

    def visit(state: State) -> None:
        nonlocal positions
        positions += 1
        _check_state(game, state, encodings)

    for i in range(playouts):
        first = playout(game, np.random.default_rng([seed, i]), visit)
        again = playout(game, np.random.default_rng([seed, i]))
        if first != again:
            raise ConformanceError(f"{game.name}: the same seed gave two different playouts")
    return ConformanceReport(
        game.name, playouts, positions, tuple(e.name for e in encodings), CHECKS
    )
