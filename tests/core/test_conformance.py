"""The conformance suite passes on every registered game and catches each planted bug."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from mindgames import Encoding
from mindgames.conformance.suite import CHECKS, check_game
from mindgames.errors import ConformanceError
from mindgames.registry import get_registry

from support.tictactoe import TicTacToe


def test_tictactoe_conforms(registry):
    game = registry.game("tictactoe")
    encs = [registry.encoding(game, e.name) for e in registry.encodings_for("tictactoe")]
    report = check_game(game, encs, playouts=10, seed=1)
    assert report.positions > 50 and report.encodings == ("cells", "material", "progress")
    assert report.checks == CHECKS


@pytest.mark.parametrize("name", sorted(get_registry().games))
def test_every_registered_game_conforms(name):
    registry = get_registry()
    game = registry.game(name)
    encs = [registry.encoding(game, e.name) for e in registry.encodings_for(name)]
    report = check_game(game, encs, playouts=5, seed=0)
    assert report.positions > 5


# --- the planted bugs: a tic-tac-toe with one thing wrong each ---------------------------------


def _cells(state) -> np.ndarray:
    board, side = state
    return np.array([0.0 if c == 0 else (1.0 if c == side + 1 else -1.0) for c in board])


def cells(**paths) -> Encoding:
    """The cells encoding with all three paths; ``paths`` replaces some of them."""
    fields = {
        "encode": _cells,
        "encode_batch_fn": lambda states: np.array([_cells(s) for s in states]).reshape(-1, 9),
        "encode_py": lambda state: tuple(_cells(state).tolist()),
        **paths,
    }
    return Encoding("cells", tuple(f"c{i}" for i in range(9)), **fields)


def _off_batch(states):
    rows = np.array([_cells(s) for s in states])
    rows[-1, 0] += 0.5
    return rows


def _inf_when_full(state):
    vec = _cells(state)
    return vec + float("inf") if all(state[0]) else vec


@attrs.frozen
class MovesWhenOver(TicTacToe):
    def legal_moves(self, state):
        return tuple(i for i in range(9) if state[0][i] == 0)


@attrs.frozen
class NoisyReturns(TicTacToe):
    def returns(self, state):
        return (1.0, 0.0)


@attrs.frozen
class ListBoard(TicTacToe):
    def initial_state(self):
        return ([0] * 9, 0)


@attrs.frozen
class SideAlwaysX(TicTacToe):
    def position_text(self, state):
        return super().position_text(state)[:9] + " x"


@attrs.frozen
class MoveTextOffByOne(TicTacToe):
    def move_text(self, state, move):
        return str(move + 2)


@attrs.frozen
class ReversedChildren(TicTacToe):
    def children(self, state):
        return list(reversed(super().children(state)))


@attrs.frozen
class CentreMovesAgain(TicTacToe):
    """Declares alternating turns, but the centre square keeps the turn."""

    turns_alternate = True

    def play(self, state, move):
        board, side = super().play(state, move)
        return (board, 1 - side) if move == 4 else (board, side)


@attrs.frozen
class WrongMoveCount(TicTacToe):
    def move_count(self, state):
        return 9


@attrs.frozen
class CapturesEverywhere(TicTacToe):
    def pieces(self, state):
        return sum(1 for c in state[0] if c)

    def capture_pending(self, state):
        return not self.is_terminal(state)


@attrs.frozen
class WrongPerft(TicTacToe):
    def known_perft(self):
        return [(None, (9, 72, 505))]


@attrs.frozen
class KeyedByMovesPlayed(TicTacToe):
    """A transposition key that forgets where the pieces stand."""

    def search_key(self, state):
        return sum(1 for c in state[0] if c)


@attrs.frozen
class ListKeys(TicTacToe):
    def search_key(self, state):
        return list(state[0])


@attrs.frozen
class KeyedByCallCount(TicTacToe):
    """A key that changes from one call to the next (say, an id or a counter)."""

    calls: list = attrs.field(factory=list)

    def search_key(self, state):
        self.calls.append(1)
        return len(self.calls)


@attrs.frozen
class DrawnTicTacToe(TicTacToe):
    """Tic-tac-toe drawn as a 3x3 board whose cells are keyed by their index."""

    def board(self, state):
        from mindgames.board import Board, Cell

        cells = [
            Cell(self.key(i), i // 3, i % 3, piece=(c - 1 if c else None))
            for i, c in enumerate(state[0])
        ]
        return Board(3, 3, tuple(cells))

    def key(self, i):
        return str(i)

    def move_cells(self, state, move):
        return (str(move),)


@attrs.frozen
class SameKeys(DrawnTicTacToe):
    def key(self, i):
        return str(i % 8)


@attrs.frozen
class SameClicks(DrawnTicTacToe):
    def move_cells(self, state, move):
        return (str(min(move, 7)),)


@attrs.frozen
class ClicksOffTheBoard(DrawnTicTacToe):
    def move_cells(self, state, move):
        return (f"cell {move}",)


PLANTED = [
    ("board cells with one key", SameKeys, None, "two cells of the board picture have the same"),
    ("two moves with one click", SameClicks, None, "two legal moves have the same clicks"),
    ("clicks off the board", ClicksOffTheBoard, None, "are not cells of the board"),
    ("batch encoder differs", TicTacToe, cells(encode_batch_fn=_off_batch), "batch encoder"),
    (
        "encode_py differs",
        TicTacToe,
        cells(encode_py=lambda s: tuple(reversed(_cells(s).tolist()))),
        "encode_py differs from encode",
    ),
    ("moves at a finished position", MovesWhenOver, None, "terminal state has legal moves"),
    ("returns not summing to zero", NoisyReturns, None, "do not sum to zero"),
    (
        "wrong column count",
        TicTacToe,
        attrs.evolve(cells(), columns=tuple(f"c{i}" for i in range(8))),
        r"gave shape \(9,\), declared 8 columns",
    ),
    ("non-finite values", TicTacToe, cells(encode=_inf_when_full), "non-finite"),
    ("unhashable state", ListBoard, None, "state is not hashable"),
    ("wrong side in the position text", SideAlwaysX, None, "parses with player 0 to move, not 1"),
    ("move text off by one", MoveTextOffByOne, None, r"move text '\d+' does not"),
    ("children in another order", ReversedChildren, None, "children differ"),
    ("move_count too high", WrongMoveCount, None, "move_count disagrees"),
    ("declared alternation that is not", CentreMovesAgain, None, "a move keeps the turn"),
    ("capture_pending without captures", CapturesEverywhere, None, "capture_pending is True"),
    ("a key shared by other positions", KeyedByMovesPlayed, None, "plays otherwise"),
    ("an unhashable key", ListKeys, None, "search_key gave an unhashable list"),
    ("a key that changes", KeyedByCallCount, None, "search_key differs for a copy"),
    ("a wrong declared perft count", WrongPerft, None, "perft 3 is 504 .*declared 505"),
]


def test_the_sound_game_passes_with_all_three_encoding_paths():
    @attrs.frozen
    class KnowsPerft(TicTacToe):
        def known_perft(self):
            return [(None, (9, 72, 504, 3024)), ("XO....... x", (7, 42))]

    check_game(KnowsPerft(), [cells()], playouts=5)
    check_game(DrawnTicTacToe(), [cells()], playouts=5)


@pytest.mark.parametrize(
    ("bug", "cls", "encoding", "message"), PLANTED, ids=[bug for bug, *_ in PLANTED]
)
def test_each_planted_bug_is_caught_and_named(bug, cls, encoding, message):
    with pytest.raises(ConformanceError, match=message):
        check_game(cls(), [encoding] if encoding else [], playouts=5, seed=0)


def test_a_position_drawn_by_its_path_conforms(registry):
    """``mindgames check-game checkers`` with its defaults (20 playouts, seed 0) reaches king
    endings drawn by no progress; their FEN has no counters, so it parses to a position still
    in play. That is the text's meaning, not a broken round trip (it failed so before)."""
    from mindgames.conformance.suite import playout

    game = registry.game("checkers")
    drawn_by_path = []

    def visit(state):
        if game.is_terminal(state) and not any(game.returns(state)):
            parsed = game.parse_position(game.position_text(state))
            drawn_by_path.append(not game.is_terminal(parsed))

    for i in range(20):
        playout(game, np.random.default_rng([0, i]), visit)
    assert any(drawn_by_path)
    assert check_game(game, [], playouts=20, seed=0).positions > 1000
