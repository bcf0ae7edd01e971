"""The Game interface: a stateless rules object with frozen parameters and immutable states.

A concrete game is an ``@attrs.frozen`` class whose fields are its parameters
(``Kalah(pits=6, seeds=4)``); its states are small hashable values (ints and tuples) that the
game alone interprets. Moves are hashable values too. Every method is pure: it never mutates
its arguments, which is what lets searchers and parallel workers share states freely.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias, runtime_checkable

import attrs
import numpy as np

from mindgames.errors import CapabilityError, IllegalMoveError

#: A state or a move: a hashable value (ints and tuples) that only its game interprets. Typed
#: ``Any`` so that each game annotates its own concrete type (``KalahState``,
#: ``DraughtsMove``) and game-agnostic code passes them through unchecked; with ``Hashable``
#: here, every concrete override would break the Game signature it implements.
State: TypeAlias = Any
Move: TypeAlias = Any


class MissingCapabilityError(CapabilityError, AttributeError):
    """A capability's method asked of a game without the capability (``Game.__getattr__``)."""


#: what a game without each optional capability's method says when it is asked anyway
_REFUSALS = {
    "solve": "cannot solve positions exactly",
    "import_games": "cannot read game records",
    "export_games": "cannot write game records",
    "opening_books": "has no opening books",
}


class Game(ABC):
    """Rules of a two-player, zero-sum, perfect-information game.

    Players are numbered 0 (moves first) and 1. Subclasses are frozen attrs classes; their
    fields are the game parameters and are what a spec string such as ``kalah:pits=4`` sets.
    """

    #: registry name of the game, set by the class
    name: ClassVar[str]
    #: display names of player 0 and player 1, e.g. ("Black", "White")
    player_names: ClassVar[tuple[str, str]] = ("First", "Second")
    #: whether every move passes the turn (draughts: yes; Kalah's extra turns: no). Searchers
    #: then negate every child's value without asking ``to_move``; the conformance suite checks it.
    turns_alternate: ClassVar[bool] = False

    @property
    def solvable(self) -> bool:
        """Whether the game has the ``Solvable`` capability (kept for callers of the flag that
        declared it before the protocol did: ``isinstance(game, Solvable)`` is the test)."""
        return isinstance(self, Solvable)

    if not TYPE_CHECKING:  # invisible to type checkers: they see only the protocols

        def __getattr__(self, name: str) -> Any:
            """A capability's method on a game without it: one clear ``CapabilityError`` (which
            is an ``AttributeError`` too, so the protocols still see the method as absent)."""
            if name in _REFUSALS:
                raise MissingCapabilityError(f"game {self.name!r} {_REFUSALS[name]}")
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # --- rules -----------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> State:
        """The position a game starts from."""

    @abstractmethod
    def to_move(self, state: State) -> int:
        """The player to move: 0 or 1."""

    @abstractmethod
    def legal_moves(self, state: State) -> Sequence[Move]:
        """Every legal move; empty exactly when the state is terminal."""

    @abstractmethod
    def play(self, state: State, move: Move) -> State:
        """The state after ``move``; ``move`` must be one of ``legal_moves(state)``."""

    def children(self, state: State) -> Sequence[tuple[Move, State]]:
        """Every legal move with its successor, in ``legal_moves`` order; empty when terminal.

        The hot path of searchers, self-play and perft: one call per expanded position instead
        of ``legal_moves`` plus a ``play`` per move. This default does exactly that; games that
        can make the successors while generating the moves (draughts, Kalah) override it, and
        the conformance suite checks that an override equals this default.
        """
        play = self.play
        return [(move, play(state, move)) for move in self.legal_moves(state)]

    @abstractmethod
    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self, state: State) -> tuple[float, float]:
        """Final result per player (+1 win, 0 draw, -1 loss); only for terminal states."""

    @abstractmethod
    def progress(self, state: State) -> int:
        """Plies played so far: the measure that staged evaluators split a game by."""

    # --- text --------------------------------------------------------------------------------
    @abstractmethod
    def move_text(self, state: State, move: Move) -> str:
        """Canonical notation of ``move`` played in ``state``."""

    @abstractmethod
    def parse_move(self, state: State, text: str) -> Move:
        """The legal move that ``text`` denotes; raises NotationError or IllegalMoveError."""

    @abstractmethod
    def position_text(self, state: State) -> str:
        """Canonical one-line text of a position (FEN for draughts)."""

    @abstractmethod
    def parse_position(self, text: str) -> State:
        """The state that ``text`` denotes; raises NotationError."""

    @abstractmethod
    def render(self, state: State) -> str:
        """A multi-line plain-text picture of the position for a terminal."""

    # --- helpers with generic defaults that games may speed up ----------------------------
    def move_count(self, state: State) -> int:
        """Number of legal moves (forced-move extensions ask this)."""
        return len(self.legal_moves(state))

    def capture_pending(self, state: State) -> bool:
        """Whether the side to move must capture (capture extensions ask this)."""
        return False

    def search_key(self, state: State) -> Hashable:
        """Key for transposition tables: what decides the game's future from here."""
        return state

    def perft(self, state: State, depth: int) -> int:
        """Number of move sequences of exactly ``depth`` plies (leaves of the full tree)."""
        if depth == 0:
            return 1
        if depth == 1:
            return len(self.legal_moves(state))
        return sum(self.perft(child, depth - 1) for _, child in self.children(state))

    def known_perft(self) -> Sequence[tuple[str | None, Sequence[int]]]:
        """Perft counts this game knows: ``(position text or None for the start, counts at
        depths 1, 2, ...)``. The conformance suite checks them; the default knows none."""
        return ()

    def play_text(self, state: State, text: str) -> State:
        """Parse a move in ``state`` and play it."""
        return self.play(state, self.parse_move(state, text))

    def find_move(self, state: State, text: str) -> Move:
        """Generic ``parse_move``: the legal move whose canonical text equals ``text``."""
        wanted = text.strip()
        for move in self.legal_moves(state):
            if self.move_text(state, move) == wanted:
                return move
        raise IllegalMoveError(f"{wanted!r} is not a legal move in {self.position_text(state)}")

    def spec(self) -> str:
        """The spec string that rebuilds this game, e.g. ``kalah:pits=4,seeds=3``.

        Only parameters that differ from their defaults are written.
        """
        from mindgames.spec import format_spec

        defaults = {f.name: f.default for f in attrs.fields(type(self)) if f.init}  # type: ignore[arg-type]
        changed = {k: v for k, v in params_of(self).items() if defaults.get(k) != v}
        return format_spec(self.name, changed)


@runtime_checkable
class Solvable(Protocol):
    """A game that values positions exactly (optional; Kalah). Data labelling (``data solve``),
    solved quality sets and Layered Learning's ``deepest = "solve"`` require it."""

    def solve(self, state: State) -> int:
        """Exact value of ``state`` for the side to move with perfect play by both sides, in the
        game's own unit (Kalah: the final store margin)."""
        ...


@runtime_checkable
class SolvesMany(Protocol):
    """A game that solves a batch of positions for less than one by one (optional; Kalah:
    one transposition table for the batch). ``data solve`` hands it each chunk of positions."""

    def solve_many(self, states: Sequence[State]) -> list[int]:
        """``Solvable.solve`` of each of ``states``, in order."""
        ...


@runtime_checkable
class SolvesBestMoves(Protocol):
    """A game that finds every best move of a position in one exact solve (optional; Kalah):
    cheaper than ``Solvable.solve`` of each successor, and all that the share of optimal moves
    needs (``quality --judge best``)."""

    def solve_best(self, state: State) -> tuple[int, Sequence[Move]]:
        """The exact value of ``state`` for the side to move (as ``solve``) and every legal
        move that keeps it."""
        ...


@runtime_checkable
class HasOpeningBooks(Protocol):
    """A game with named standard openings (optional; checkers: the ACF three-move ballots),
    from which tournaments and matches start paired games."""

    def opening_books(self) -> dict[str, Sequence[tuple[str, Sequence[str]]]]:
        """Named standard opening books: name -> [(label, moves in canonical text)]."""
        ...


@runtime_checkable
class ExportsGames(Protocol):
    """A game that writes played games in its own record format (optional; draughts: PDN);
    tournaments write them beside their results."""

    def export_games(self, games: Sequence[dict[str, Any]]) -> tuple[str, str] | None:
        """Played games in the game's own record format, as (file suffix, text).

        Each game has ``tags`` (name -> text), ``position`` (start position text, or None for
        the initial position), ``moves`` (texts from there) and ``result`` (``1-0``, ``0-1`` or
        ``1/2-1/2`` for the player moving first). None: nothing to write."""
        ...


@runtime_checkable
class ImportsGames(Protocol):
    """A game that reads game records in its own format (optional; draughts: PDN): supervised
    learners, ``pdn extract``, ``show`` and ``play --load`` read recorded games through it."""

    def import_games(self, path: str) -> tuple[list[dict[str, Any]], dict[int, str]]:
        """The game records of file ``path`` in the game's own format (``export_games``'s).

        Returns the games that replay -- each ``{"number": n, "states": [start, after each
        move...], "result": "1-0" | "0-1" | "1/2-1/2" | "*", "tags": {name: text}}`` (``n``:
        its place among the file's records, from 1; the first player's result; tags optional,
        e.g. the players as PDN names them) -- and the records skipped (unreadable, illegal
        moves, other rules) as ``{n: why}``."""
        ...


def opening_books_of(game: Game) -> dict[str, Sequence[tuple[str, Sequence[str]]]]:
    """The game's opening books; none when it lacks the ``HasOpeningBooks`` capability."""
    return game.opening_books() if isinstance(game, HasOpeningBooks) else {}


def export_games_of(game: Game, games: Sequence[dict[str, Any]]) -> tuple[str, str] | None:
    """``export_games`` of a game with the ``ExportsGames`` capability; None without it."""
    return game.export_games(games) if isinstance(game, ExportsGames) else None


@runtime_checkable
class CountsPieces(Protocol):
    """A game fact learners may report (optional): pieces left on the board.

    TD's history adds ``mean_pieces`` of the final positions when the game offers it (draughts
    does): how decisive the self-play games are becoming.
    """

    def pieces(self, state: State) -> int: ...


@runtime_checkable
class DeclaresMaterial(Protocol):
    """A game fact evaluators use (optional): the weights of the ``material`` model over the
    game's ``material`` encoding's columns, when more is not better (give-away: -1 each, fewer
    pieces is better). ``eval=material`` on the game takes them unless the config gives weights.
    """

    def material_weights(self) -> Mapping[str, float]: ...


@runtime_checkable
class HasMargin(Protocol):
    """A game fact learners may use (optional): the first player's score minus the second's,
    which at the end of a game is its final margin (Kalah: South's store minus North's).

    TD's ``outcome = "margin"`` learns the final margin instead of the win/draw/loss result.
    """

    def margin(self, state: State) -> int: ...


@runtime_checkable
class StateRows(Protocol):
    """States as rows of one integer array (optional): TD's lockstep self-play makes the
    successors of all its games in one numpy pass (Kalah does, games/kalah/rows.py).

    ``row_children(rows)`` returns ``(children, legal, over, passes)``: ``children`` shaped
    (rows, slots, columns), the others (rows, slots); the legal slots of a row, in order, are
    ``children(state)``'s successors, ``over`` says which of them end the game and ``passes``
    which have the other side to move. The conformance suite checks them against ``children``,
    ``is_terminal`` and ``to_move``.
    """

    def state_rows(self, states: Sequence[State]) -> np.ndarray: ...

    def row_state(self, row: np.ndarray) -> State: ...

    def row_children(
        self, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...

    def row_sides(self, rows: np.ndarray) -> np.ndarray: ...

    def rows_over(self, rows: np.ndarray) -> np.ndarray: ...


def outcome_text(game: Game, state: State) -> str:
    """Who won a finished game in the game's own player names (``Black wins``), or ``draw``."""
    first, second = game.returns(state)
    if first == second:
        return "draw"
    return f"{game.player_names[0 if first > second else 1]} wins"


def params_of(obj: Any) -> dict[str, Any]:
    """The attrs fields of a parameter object as a plain dict (its public parameters)."""
    return {f.name: getattr(obj, f.name) for f in attrs.fields(type(obj)) if f.init}


@attrs.frozen
class Encoding:
    """A named function state -> float vector, from the side to move's point of view.

    ``encode`` returns a 1-D float64 array of ``len(columns)``; ``encode_batch`` a 2-D array with
    one row per state (a game may supply a faster one than the default loop). ``encode_py``,
    optional, returns the same vector as a tuple of Python floats without numpy: the
    single-position fast path that ``Evaluator.evaluate`` takes with a model's ``value_py``.
    ``groups``, optional, names sets of column groups (``raw32``'s ``subsquares``: the columns
    of each 3x3 ... 8x8 sub-square), which a model's ``groups`` option may name for its mask.
    """

    name: str
    columns: tuple[str, ...]
    encode: Callable[[State], np.ndarray]
    encode_batch_fn: Callable[[Sequence[State]], np.ndarray] | None = None
    encode_py: Callable[[State], tuple[float, ...]] | None = None
    groups: Mapping[str, tuple[tuple[str, ...], ...]] = attrs.field(factory=dict)
    #: optional: the encodings of states given as rows of the game's ``StateRows`` array
    #: (``encode_batch`` of the rows' states), for lockstep self-play
    encode_rows: Callable[[np.ndarray], np.ndarray] | None = None
    #: optional, the compiled path: this encoding's options as the game's ``encode`` kernel
    #: reads them (``mindgames.kernels``); None when no kernel computes it with these options
    kernel_options: tuple[float, ...] | None = None
    #: the encodings a joined one (``raw32+progress``) puts side by side, in order
    parts: tuple[Encoding, ...] = ()

    @property
    def width(self) -> int:
        return len(self.columns)

    def encode_batch(self, states: Sequence[State]) -> np.ndarray:
        if self.encode_batch_fn is not None:
            return self.encode_batch_fn(states)
        if not states:
            return np.zeros((0, self.width))
        return np.stack([self.encode(s) for s in states])
