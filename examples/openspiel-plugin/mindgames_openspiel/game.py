"""The ``openspiel`` game: one OpenSpiel game, named by its game string, behind the Game API.

A state is a ``SpielState``: the action history (what it equals and hashes by) with the
OpenSpiel state it leads to kept beside it, so ``play`` costs one ``child()`` and never a replay.
Moves are OpenSpiel action ids; their text is the game's own ``action_to_string``. Position
text is the history of action ids, space-separated, ``-`` for the start: it round-trips for every
game (a replay from the start), which OpenSpiel's state strings do not promise.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from mindgames import Game, IllegalMoveError, NotationError
from mindgames_openspiel.loading import canonical, load

#: perft counts published for these games (the standard chess perft included), checked by
#: ``mindgames check-game`` through the bridge
KNOWN_PERFT = {
    "tic_tac_toe": (9, 72, 504, 3024, 15120),
    "connect_four": (7, 49, 343, 2401, 16807),
    "chess": (20, 400, 8902),
}


class SpielState:
    """An immutable OpenSpiel position: equal and hashed by its action history.

    ``spiel`` is the OpenSpiel state, never modified (successors come from ``child``).
    ``player`` is the side to move; at the end of a game it is the player who did not make the
    last move (OpenSpiel reports no player there). This is the hot path of search and perft,
    hence ``__slots__``, no attrs, and one int ``_side`` asked of OpenSpiel only when first
    needed: -1 or -2 not asked yet (the last move was made by player 0 or 1), 0 or 1 the side to
    move, 2 or 3 the side to move (2 + player) of a finished game.
    """

    __slots__ = ("_hash", "_side", "history", "spiel")

    def __init__(self, history: tuple[int, ...], spiel: Any, side: int):
        self.history = history
        self.spiel = spiel
        self._side = side
        self._hash: int | None = None

    def side(self) -> int:
        """``_side``, asked of OpenSpiel the first time."""
        side = self._side
        if side < 0:
            player = self.spiel.current_player()  # negative when the game is over
            side = self._side = player if player >= 0 else 4 + side  # 2 + the other player
        return side

    @property
    def player(self) -> int:
        return self.side() & 1

    @property
    def terminal(self) -> bool:
        return self.side() > 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpielState) and self.history == other.history

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.history)
        return self._hash

    def __repr__(self) -> str:
        return f"SpielState({self.history!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (for worker processes) as the game string and the history; rebuilt by replay."""
        return (replay, (str(self.spiel.get_game()), self.history))

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielState:
        """An equal state around a clone of the OpenSpiel state (no replay)."""
        return SpielState(self.history, self.spiel.clone(), self._side)


def replay(game_text: str, history: Sequence[int]) -> SpielState:
    """The state that ``history`` leads to from the start of ``game_text``; checks legality."""
    spiel = load(game_text).new_initial_state()  # a fresh state of our own: applied in place
    mover = 0
    for ply, action in enumerate(history):
        if action not in spiel.legal_actions():
            done = " ".join(map(str, history[:ply])) or "the start"
            raise NotationError(f"action {action} is not legal after {done}")
        mover = spiel.current_player()
        spiel.apply_action(action)
    return SpielState(tuple(history), spiel, -1 - mover)


@attrs.frozen
class OpenSpiel(Game):
    """An OpenSpiel game, e.g. ``openspiel:game=connect_four``; see the package README."""

    name = "openspiel"
    #: OpenSpiel's game string, e.g. ``breakthrough(rows=6,columns=6)``; kept in OpenSpiel's
    #: canonical form (parameters sorted), so equal games have equal specs
    game: str = attrs.field(default="tic_tac_toe", converter=canonical)
    _start: SpielState = attrs.field(init=False, eq=False, repr=False)
    _scale: tuple[float, float] = attrs.field(init=False, eq=False, repr=False)
    #: the last state whose moves were parsed, and its table move text -> action
    _parsed: list[Any] = attrs.field(init=False, eq=False, repr=False, factory=lambda: [None, {}])

    def __attrs_post_init__(self) -> None:
        spiel = load(self.game)
        object.__setattr__(self, "_start", replay(self.game, ()))
        # returns mapped onto [-1, 1] summing to zero: (r - constant sum / 2) / half the range
        offset = spiel.utility_sum() / 2.0
        half = (spiel.max_utility() - spiel.min_utility()) / 2.0
        object.__setattr__(self, "_scale", (offset, half or 1.0))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.game,))

    @property
    def spiel_game(self) -> Any:
        """The ``pyspiel.Game`` behind this game."""
        return load(self.game)

    # --- rules -----------------------------------------------------------------------------
    def initial_state(self) -> SpielState:
        return self._start

    def to_move(self, state: SpielState) -> int:
        side = state._side
        return (side if side >= 0 else state.side()) & 1

    def legal_moves(self, state: SpielState) -> list[int]:
        return state.spiel.legal_actions()

    def play(self, state: SpielState, move: int) -> SpielState:
        return SpielState((*state.history, move), state.spiel.child(move), -1 - state.player)

    def children(self, state: SpielState) -> list[tuple[int, SpielState]]:
        """The hot path of search and perft: one ``child`` per move, nothing asked of it yet."""
        spiel, history, side, new = state.spiel, state.history, -1 - state.player, SpielState
        return [(a, new((*history, a), spiel.child(a), side)) for a in spiel.legal_actions()]

    def is_terminal(self, state: SpielState) -> bool:
        side = state._side
        return (side if side >= 0 else state.side()) > 1

    def returns(self, state: SpielState) -> tuple[float, float]:
        offset, half = self._scale
        first, second = state.spiel.returns()
        return ((first - offset) / half, (second - offset) / half)

    def progress(self, state: SpielState) -> int:
        return len(state.history)

    def known_perft(self) -> list[tuple[str | None, tuple[int, ...]]]:
        counts = KNOWN_PERFT.get(self.game)
        return [(None, counts)] if counts else []

    # --- text --------------------------------------------------------------------------------
    def move_text(self, state: SpielState, move: int) -> str:
        return _text(lambda: state.spiel.action_to_string(state.player, move), self.game)

    def parse_move(self, state: SpielState, text: str) -> int:
        """The legal action whose text is ``text``; the table of the last state is kept."""
        last, table = self._parsed
        if last is not state:
            spiel, player = state.spiel, state.player
            table = {
                _text(functools.partial(spiel.action_to_string, player, a), self.game): a
                for a in spiel.legal_actions()
            }
            self._parsed[:] = [state, table]
        action = table.get(text.strip())
        if action is None:
            raise IllegalMoveError(
                f"{text.strip()!r} is not a legal move in {self.game} after "
                f"{self.position_text(state)}"
            )
        return action

    def position_text(self, state: SpielState) -> str:
        return " ".join(map(str, state.history)) or "-"

    def parse_position(self, text: str) -> SpielState:
        words = text.replace(",", " ").split()
        if words == ["-"]:
            return self._start
        if not words or not all(w.isdigit() for w in words):
            raise NotationError(
                f"bad {self.game} position {text!r}: expected action ids such as '3 4 3' "
                "(or '-' for the start)"
            )
        return replay(self.game, [int(w) for w in words])

    def render(self, state: SpielState) -> str:
        return _text(lambda: str(state.spiel), self.game)


def _text(write: Callable[[], str], game: str) -> str:
    """OpenSpiel's text of a move or a position; one line, not a traceback, when OpenSpiel
    writes bytes that are not UTF-8 (a board larger than its notation names)."""
    try:
        return write()
    except UnicodeDecodeError:
        raise NotationError(
            f"OpenSpiel cannot write this {game} move or position as text (its notation does "
            "not reach that far); choose smaller parameters"
        ) from None
