"""American checkers and US give-away checkers: one rules class on the bitboard engine.

A state is the tuple ``(black, white, kings, side, plies, quiet, history)``:

* ``black``, ``white``, ``kings`` -- bitboards on Samuel's 35-square layout (see ``engine``);
* ``side`` -- 0 Black to move, 1 White;
* ``plies`` -- plies played since the start (or since the FEN it was read from);
* ``quiet`` -- plies since the last capture or man move (the no-progress counter);
* ``history`` -- with ``repetition`` on, the keys (``position_key``) of the positions before this
  one since the last capture or man move, oldest first; ``()`` with repetition off. Only those
  positions can ever recur, so this is the least history that decides threefold repetition.
  The current position is left out (it is the state's own board): a man's move or a capture,
  most moves, then needs no history at all, which keeps ``children`` cheap.

Moves are tuples of PDN squares: ``(11, 15)`` is 11-15, ``(15, 22, 29)`` is 15x22x29; a capture
keeps every landing square, so two paths between the same squares are two moves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, ClassVar

import attrs

from mindgames.board import Board
from mindgames.config import shorten
from mindgames.errors import IllegalMoveError, MindgamesError, NotationError
from mindgames.game import Game, outcome_text
from mindgames.games.draughts import engine
from mindgames.games.draughts.board import board as board_picture
from mindgames.games.draughts.board import move_cells as move_squares
from mindgames.games.draughts.engine import BOARD, CAPTURED, PROMO, SQ
from mindgames.games.draughts.successors import children as _children
from mindgames.kernels import GameKernels

DraughtsState = tuple[int, int, int, int, int, int, tuple[tuple[int, int, int, int], ...]]
DraughtsMove = tuple[int, ...]

_MASK = {s: SQ[s] for s in range(1, 33)}
_MOVE = re.compile(r"^([0-9]{1,2})((?:[-xX][0-9]{1,2})+)$")
_TOKEN = re.compile(r"^([Kk]?)([0-9]{1,2})(?:-[Kk]?([0-9]{1,2}))?$")


def position_key(b: int, w: int, k: int, side: int) -> tuple[int, int, int, int]:
    """Board and side to move: the transposition and repetition key.

    A tuple rather than one packed int: packing needs shifts of 100-bit ints, which cost more
    than building and hashing four small ones (measured for benchmarks/README.md).
    """
    return (b, w, k, side)


def _squares(mask: int) -> list[int]:
    return [s for s in range(1, 33) if mask & SQ[s]]


def _non_negative(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{attribute.name} must be a non-negative integer, got {value!r}")


def _cap(instance: Any, attribute: attrs.Attribute, value: int | None) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ValueError(f"{attribute.name} must be a positive integer or None, got {value!r}")


@attrs.frozen
class Draughts(Game):
    """The 8x8 draughts rules shared by ``checkers`` and ``giveaway``.

    ``repetition``: a position occurring for the third time (same side to move) is a draw.
    ``no_progress``: a draw after that many moves per side without a capture or a man move
    (0 turns it off). ``max_plies``: a hard cap on game length; reaching it is a draw.
    """

    player_names = ("Black", "White")
    turns_alternate = True
    #: True when a side without pieces or moves wins (give-away)
    losing: ClassVar[bool] = False

    repetition: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))
    no_progress: int = attrs.field(default=40, validator=_non_negative)
    max_plies: int | None = attrs.field(default=None, validator=_cap)
    #: ``quiet`` and ``plies`` at which the draw rules end a game (derived, not parameters)
    _quiet_limit: int = attrs.field(init=False, repr=False, eq=False)
    _ply_limit: int | float = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: derived fields are set once, here
        set_(self, "_quiet_limit", 2 * self.no_progress if self.no_progress else 1 << 62)
        set_(self, "_ply_limit", self.max_plies if self.max_plies is not None else 1 << 62)

    # --- rules -----------------------------------------------------------------------------
    def make_state(self, black: int, white: int, kings: int, side: int) -> DraughtsState:
        """A fresh state (no plies, no history) from bitboards."""
        return (black, white, kings, side, 0, 0, ())

    def initial_state(self) -> DraughtsState:
        return self.make_state(*engine.START)

    def to_move(self, state: DraughtsState) -> int:
        return state[3]

    def drawn(self, state: DraughtsState) -> bool:
        """Whether a draw rule (repetition, no progress, length cap) has ended the game."""
        _, _, _, _, plies, quiet, history = state
        return (
            quiet >= self._quiet_limit
            or plies >= self._ply_limit
            or (len(history) >= 8 and history.count(state[:4]) >= 2)
        )

    def legal_moves(self, state: DraughtsState) -> list[DraughtsMove]:
        if self.drawn(state):
            return []
        return engine.legal_paths(state[0], state[1], state[2], state[3])

    #: every legal move with its successor, made while the moves are generated: the same
    #: states ``play`` makes (counters and repetition history included), in ``legal_moves``
    #: order (the conformance suite checks it). The function itself, not a method calling it:
    #: a call less per node of every search.
    children = _children

    def move_count(self, state: DraughtsState) -> int:
        if self.drawn(state):
            return 0
        return engine.count_moves(state[0], state[1], state[2], state[3])

    def capture_pending(self, state: DraughtsState) -> bool:
        b, w, k, side = state[0], state[1], state[2], state[3]
        own, opp = (b, w) if side == 0 else (w, b)
        return bool(engine.jumpers(own, opp, k, side)) and not self.drawn(state)

    def play(self, state: DraughtsState, move: DraughtsMove) -> DraughtsState:
        """The state after ``move``. Only cheap checks: moves should come from legal_moves."""
        b, w, k, side, plies, quiet, history = state
        try:
            first, last = move[0], move[-1]
            f, t = _MASK[first], _MASK[last]
            if len(move) == 2 and abs(first - last) <= 5:
                cap = 0
            else:
                cap = 0
                for i in range(len(move) - 1):
                    cap |= CAPTURED[move[i], move[i + 1]]
        except (TypeError, KeyError, IndexError):
            raise IllegalMoveError(f"not a draughts move: {move!r}") from None
        own, opp = (b, w) if side == 0 else (w, b)
        if not f & own or (t & (b | w) and t != f) or cap & ~opp:
            raise IllegalMoveError(f"{self.move_text(state, move)} cannot be played here")
        own ^= f ^ t
        opp ^= cap
        nk = k & ~cap
        man = not f & k
        if not man:
            nk = (nk ^ f) | t
        elif t & PROMO[side]:
            nk |= t
        nb, nw = (own, opp) if side == 0 else (opp, own)
        nside = 1 - side
        if cap or man:
            quiet = 0
            history = ()
        else:
            quiet += 1
            if self.repetition:
                history = (*history, position_key(b, w, k, side))
        return (nb, nw, nk, nside, plies + 1, quiet, history)

    def is_terminal(self, state: DraughtsState) -> bool:
        """Drawn, or no move: a set-wise test that stops at the first kind of move found
        (inlined: searchers ask this of every leaf; ``history and`` spares the ``len`` call
        for the empty history of most states, as ``children`` does)."""
        b, w, k, side, plies, quiet, history = state
        if (
            quiet >= self._quiet_limit
            or plies >= self._ply_limit
            or (history and len(history) >= 8 and history.count(state[:4]) >= 2)
        ):
            return True
        empty = BOARD ^ (b | w)
        if side == 0:
            if ((b << 4) | (b << 5)) & empty:
                return False
            kings = b & k
            if kings and ((kings >> 4) | (kings >> 5)) & empty:
                return False
            return not engine.jumpers(b, w, k, 0)
        if ((w >> 4) | (w >> 5)) & empty:
            return False
        kings = w & k
        if kings and ((kings << 4) | (kings << 5)) & empty:
            return False
        return not engine.jumpers(w, b, k, 1)

    def returns(self, state: DraughtsState) -> tuple[float, float]:
        """+1/-1 when the side to move has no piece or move (reversed in give-away), else 0."""
        if not engine.count_moves(state[0], state[1], state[2], state[3]):
            mover = 1.0 if self.losing else -1.0
            return (mover, -mover) if state[3] == 0 else (-mover, mover)
        if self.drawn(state):
            return (0.0, 0.0)
        raise MindgamesError(
            f"returns asked of a game that is not over: {self.position_text(state)}"
        )

    def progress(self, state: DraughtsState) -> int:
        return state[4]

    def kernels(self) -> GameKernels | None:
        """The compiled path's description (``kernel_spec``; the ``@njit`` functions are
        ``mindgames.games.draughts.kernels``, imported only by a searcher that runs them).
        None with repetition on and neither ``no_progress`` nor ``max_plies`` bounding the
        history a row must hold."""
        from mindgames.games.draughts.kernel_spec import game_kernels

        return game_kernels(self)

    def pieces(self, state: DraughtsState) -> int:
        """Pieces of both sides on the board (training histories report it at each game's end)."""
        return (state[0] | state[1]).bit_count()

    #: ``search_key(state)``: board and side to move only (``position_key``), the counters and
    #: history left out on purpose: path-dependent draws (repetition, no progress, the cap) are
    #: seen by ``is_terminal`` on the state itself, which a searcher checks before probing its
    #: table. ``state[:4]`` by a C callable: no Python frame for a call made at every node.
    search_key: ClassVar[Any] = itemgetter(slice(0, 4))

    def perft(self, state: DraughtsState, depth: int) -> int:
        """Leaves of the move tree; like every perft it ignores the draw rules."""
        return engine.perft(state[0], state[1], state[2], state[3], depth)

    def known_perft(self) -> Sequence[tuple[str | None, Sequence[int]]]:
        """The published counts from the start (the conformance suite checks them)."""
        return [(None, (7, 49, 302, 1469, 7361))]

    def opening_books(self) -> dict[str, Sequence[tuple[str, Sequence[str]]]]:
        from mindgames.games.draughts.ballots import load_ballots

        return {"acf-3move": [(f"ballot {b.number}", b.moves) for b in load_ballots()]}

    def export_games(self, games: Sequence[dict[str, Any]]) -> tuple[str, str] | None:
        """Played games as PDN (tournaments write them beside their results)."""
        from mindgames.games.draughts.pdn_tree import (
            ENGLISH_DRAUGHTS,
            GAME_TYPE_TAG,
            GIVEAWAY,
            VARIANT_TAG,
            PdnGame,
            write_pdn,
        )

        out = []
        for g in games:
            tags = {GAME_TYPE_TAG: ENGLISH_DRAUGHTS, **g.get("tags", {})}
            if self.losing:
                tags[VARIANT_TAG] = GIVEAWAY
            if g.get("position") is not None:
                tags.update(SetUp="1", FEN=g["position"])
            out.append(PdnGame.from_moves(g["moves"], g["result"], tags))
        return ".pdn", write_pdn(out)

    def import_games(self, path: str) -> tuple[list[dict[str, Any]], dict[int, str]]:
        """The PDN games of ``path`` that replay under these rules, as states and results."""
        from mindgames.games.draughts.pdn import read_pdn_file, replay

        games: list[dict[str, Any]] = []
        skipped: dict[int, str] = {}
        for number, record in enumerate(read_pdn_file(path), 1):
            played = replay(record, self)
            if played.error is not None:
                skipped[number] = str(played.error).removeprefix(f"game {record.number}, ")
            elif type(played.rules) is not type(self):
                skipped[number] = f"a {played.rules.name} game"
            else:
                states, tags = list(played.states), dict(record.tags)
                games.append(
                    {"number": number, "states": states, "result": record.result, "tags": tags}
                )
        return games, skipped

    # --- text ------------------------------------------------------------------------------
    def move_text(self, state: DraughtsState, move: DraughtsMove) -> str:
        return ("x" if is_capture(move) else "-").join(map(str, move))

    def parse_move(self, state: DraughtsState, text: str) -> DraughtsMove:
        """Parse ``11-15``, ``22x15`` or ``15x22x29``; a capture may leave out landing squares
        (``15x29``) when only one legal capture fits."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, got {text!r}")
        m = _MOVE.match(text.strip())
        if not m:
            raise NotationError(f"bad draughts move {text!r}: expected e.g. 11-15, 22x15, 15x22x29")
        squares = tuple(int(x) for x in re.split(r"[-xX]", text.strip()))
        if not all(1 <= s <= 32 for s in squares):
            raise NotationError(f"bad draughts move {text!r}: squares are numbered 1-32")
        moves = self.legal_moves(state)
        if squares in moves:
            if "x" in text.lower() and not is_capture(squares):
                raise NotationError(
                    f"bad draughts move {text.strip()!r}: a capture sign on a quiet move "
                    f"(write {'-'.join(map(str, squares))})"
                )
            return squares
        fits = [mv for mv in moves if _fits(squares, mv)]
        if len(fits) == 1:
            return fits[0]
        fen = self.position_text(state)
        if fits:
            options = ", ".join(self.move_text(state, mv) for mv in fits)
            raise IllegalMoveError(f"{text.strip()!r} is ambiguous in {fen}: {options}")
        legal = ", ".join(sorted(self.move_text(state, mv) for mv in moves)) or "none"
        raise IllegalMoveError(f"{text.strip()!r} is not legal in {fen} (legal: {legal})")

    def position_text(self, state: DraughtsState) -> str:
        b, w, k, side = state[0], state[1], state[2], state[3]

        def pieces(own: int) -> str:
            men = [str(s) for s in _squares(own & ~k)]
            kings = [f"K{s}" for s in _squares(own & k)]
            return ",".join(men + kings)

        return f"{'BW'[side]}:W{pieces(w)}:B{pieces(b)}"

    def parse_position(self, text: str) -> DraughtsState:
        """Read PDN FEN (``B:W18,24,K10:B12,16,K22``); ranges such as ``1-12`` are accepted."""
        b, w, k, side = parse_fen(text)
        return self.make_state(b, w, k, side)

    def render(self, state: DraughtsState) -> str:
        b, w, k, side = state[0], state[1], state[2], state[3]
        lines = ["  +-----------------+"]
        for r in range(8):
            cells = []
            for c in range(8):
                s = engine.SQUARE_AT.get((r, c))
                if s is None:
                    cells.append(" ")
                    continue
                m = SQ[s]
                ch = "b" if m & b else "w" if m & w else "."
                cells.append(ch.upper() if m & k else ch)
            nums = " ".join(f"{s:2d}" for s in range(4 * r + 1, 4 * r + 5))
            lines.append(f"{8 - r} | {' '.join(cells)} |   {nums}")
        lines.append("  +-----------------+")
        lines.append("    a b c d e f g h")
        if self.is_terminal(state):
            lines.append(f"game over: {outcome_text(self, state)} (b/w men, B/W kings)")
        else:
            lines.append(f"{self.player_names[side]} to move (b/w men, B/W kings)")
        return "\n".join(lines)

    def board(self, state: DraughtsState) -> Board:
        """The position as a board picture (``mindgames.board.DrawsBoard``)."""
        return board_picture(state)

    def move_cells(self, state: DraughtsState, move: DraughtsMove) -> tuple[str, ...]:
        """The squares a player clicks to make ``move``."""
        return move_squares(move)


def is_capture(move: DraughtsMove) -> bool:
    """Whether a legal move is a capture: more than one step, or a jump (5 or more squares)."""
    return len(move) > 2 or abs(move[0] - move[-1]) > 5


def _fits(squares: tuple[int, ...], move: DraughtsMove) -> bool:
    """Whether a capture path ``move`` has the given first, last and (in order) other squares."""
    if len(move) < 3 and abs(move[0] - move[-1]) <= 5:
        return False
    if move[0] != squares[0] or move[-1] != squares[-1]:
        return False
    rest = iter(move[1:-1])
    return all(any(s == x for x in rest) for s in squares[1:-1])


#: the most pieces a side has in checkers and give-away (a FEN with more is refused)
MAX_PIECES = 12


def parse_fen(text: str) -> tuple[int, int, int, int]:
    """Bitboards and side to move of a PDN FEN string; NotationError with the reason."""
    b, w, kings, side, _ = read_fen(text)
    return b, w, kings, side


def read_fen(text: str, *, crown: bool = False) -> tuple[int, int, int, int, int]:
    """``parse_fen`` plus the men it crowned: with ``crown`` (the lenient PDN reader) a man on
    its own crowning row becomes a king instead of an error. Errors quote at most 80
    characters of the text."""
    if not isinstance(text, str):
        raise NotationError(f"a FEN must be text, got {shorten(repr(text))}")
    bad = f"bad FEN {shorten(repr(text))}"
    s = text.strip()
    if s.startswith("[FEN") and s.endswith("]"):
        s = s[4:-1].strip()
    s = s.strip().strip('"').strip().rstrip(".").strip()
    parts = s.split(":")
    if len(parts) != 3:
        raise NotationError(f"{bad}: expected side:Wsquares:Bsquares")
    turn = parts[0].strip().upper()
    if turn not in ("B", "W"):
        raise NotationError(f"{bad}: side to move must be B or W")
    boards = {"B": 0, "W": 0}
    kings = 0
    seen: set[str] = set()
    for part in parts[1:]:
        p = part.strip()
        colour = p[:1].upper()
        if colour not in boards or colour in seen:
            raise NotationError(f"{bad}: expected one W and one B piece list")
        seen.add(colour)
        body = p[1:].strip()
        for token in body.split(",") if body else []:
            m = _TOKEN.match(token.strip())
            if not m:
                raise NotationError(f"{bad}: cannot read square {shorten(token.strip())!r}")
            lo = int(m.group(2))
            hi = int(m.group(3)) if m.group(3) else lo
            if not 1 <= lo <= hi <= 32:
                raise NotationError(f"{bad}: squares are 1-32 ({token.strip()!r})")
            for sq in range(lo, hi + 1):
                mask = SQ[sq]
                if (boards["B"] | boards["W"]) & mask:
                    raise NotationError(f"{bad}: square {sq} given twice")
                boards[colour] |= mask
                if m.group(1):
                    kings |= mask
    b, w = boards["B"], boards["W"]
    for name, board in (("Black", b), ("White", w)):
        if board.bit_count() > MAX_PIECES:
            raise NotationError(
                f"{bad}: {name} has {board.bit_count()} pieces (at most {MAX_PIECES})"
            )
    far_men = (b & ~kings & PROMO[0]) | (w & ~kings & PROMO[1])
    if far_men and not crown:
        raise NotationError(f"{bad}: a man on the far row must be a king")
    assert not (b | w) & ~BOARD
    return b, w, kings | far_men, 0 if turn == "B" else 1, far_men


@attrs.frozen
class Checkers(Draughts):
    """American checkers (English draughts): a side with no piece or no move loses."""

    name = "checkers"
    losing = False


@attrs.frozen
class Giveaway(Draughts):
    """US give-away checkers: checkers' moves, but a side with no piece or no move wins."""

    name = "giveaway"
    losing = True

    def material_weights(self) -> dict[str, float]:
        """Fewer pieces is better: ``eval=material`` counts men and kings negatively."""
        return {"men_diff": -1.0, "kings_diff": -1.0}
