"""Draughts rules: perft, a slow reference generator, notation, draws and give-away results."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.errors import IllegalMoveError, MindgamesError, NotationError
from mindgames.game import Game
from mindgames.games.draughts import engine
from mindgames.games.draughts.rules import Checkers, Giveaway

CHECKERS = Checkers()
GIVEAWAY = Giveaway()
START_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]

# --- a slow, obviously correct reference on (row, column) coordinates ------------------------
# Row 0 is Black's back row (squares 1-4); on even rows the dark squares are columns 1,3,5,7.
COORD = {s: ((s - 1) // 4, 2 * ((s - 1) % 4) + (1 - ((s - 1) // 4) % 2)) for s in range(1, 33)}
SQUARE = {rc: s for s, rc in COORD.items()}


def ref_moves(board: dict[int, str], side: int) -> list[tuple[int, ...]]:
    """Legal moves as PDN paths; ``board`` maps square -> 'b', 'B', 'w' or 'W'."""
    me = "b" if side == 0 else "w"
    forward = 1 if side == 0 else -1
    last_row = 7 if side == 0 else 0
    captures: list[tuple[int, ...]] = []
    simple: list[tuple[int, ...]] = []
    for start, piece in board.items():
        if piece.lower() != me:
            continue
        king = piece.isupper()
        dirs = [(dr, dc) for dr in (1, -1) for dc in (1, -1) if king or dr == forward]

        def jumps(
            sq: int,
            taken: frozenset[int],
            path: tuple[int, ...],
            start: int = start,
            king: bool = king,
            dirs: list = dirs,
        ) -> None:
            found = False
            r, c = COORD[sq]
            for dr, dc in dirs:
                over = SQUARE.get((r + dr, c + dc))
                land = SQUARE.get((r + 2 * dr, c + 2 * dc))
                if over is None or land is None or over in taken:
                    continue
                if board.get(over, me).lower() == me:
                    continue
                if land in board and land != start:
                    continue
                found = True
                if not king and COORD[land][0] == last_row:
                    captures.append((*path, land))  # crowned: the move ends here
                else:
                    jumps(land, taken | {over}, (*path, land))
            if not found and len(path) > 1:
                captures.append(path)

        jumps(start, frozenset(), (start,))
        r, c = COORD[start]
        for dr, dc in dirs:
            to = SQUARE.get((r + dr, c + dc))
            if to is not None and to not in board:
                simple.append((start, to))
    return sorted(captures) if captures else sorted(simple)


def ref_play(board: dict[int, str], move: tuple[int, ...]) -> dict[int, str]:
    new = dict(board)
    piece = new.pop(move[0])
    for a, b in itertools.pairwise(move):
        (ra, ca), (rb, cb) = COORD[a], COORD[b]
        if abs(ra - rb) == 2:
            del new[SQUARE[((ra + rb) // 2, (ca + cb) // 2)]]
    end = move[-1]
    if (piece == "b" and COORD[end][0] == 7) or (piece == "w" and COORD[end][0] == 0):
        piece = piece.upper()
    new[end] = piece
    return new


def fen_of(board: dict[int, str], side: int) -> str:
    def part(colour: str) -> str:
        return ",".join(
            ("K" if p.isupper() else "") + str(s)
            for s, p in sorted(board.items())
            if p.lower() == colour
        )

    return f"{'BW'[side]}:W{part('w')}:B{part('b')}"


def board_of(state) -> dict[int, str]:
    b, w, k = state[0], state[1], state[2]
    out = {}
    for s in range(1, 33):
        m = engine.SQ[s]
        if m & (b | w):
            p = "b" if m & b else "w"
            out[s] = p.upper() if m & k else p
    return out


@st.composite
def boards(draw, density: float | None = None) -> tuple[dict[int, str], int]:
    """Random legal-looking positions: at most 12 pieces a side, men never on their own
    crowning row, often kings."""
    dens = density if density is not None else draw(st.floats(0.15, 0.7))
    king_share = draw(st.sampled_from([0.0, 0.2, 0.5]))
    board = {}
    for s in range(1, 33):
        if draw(st.floats(0, 1)) >= dens:
            continue
        colour = draw(st.sampled_from("bw"))
        if sum(piece.lower() == colour for piece in board.values()) >= 12:
            continue
        crown_row = 7 if colour == "b" else 0
        king = COORD[s][0] == crown_row or draw(st.floats(0, 1)) < king_share
        board[s] = colour.upper() if king else colour
    return board, draw(st.integers(0, 1))


FAST = settings(max_examples=300)


# --- perft -----------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_from_start(depth):
    assert CHECKERS.perft(CHECKERS.initial_state(), depth) == START_PERFT[depth - 1]


@pytest.mark.slow
def test_perft_depth_8_both_ways():
    b, w, k, side = engine.START
    assert engine.perft(b, w, k, side, 8) == START_PERFT[7]
    assert engine.perft_made(b, w, k, side, 8) == START_PERFT[7]


def test_giveaway_perft_is_the_same_tree():
    assert GIVEAWAY.perft(GIVEAWAY.initial_state(), 5) == START_PERFT[4]


def test_perft_counts_both_paths_round_a_loop():
    state = CHECKERS.parse_position("B:W14,15,22,23:BK10")
    texts = sorted(CHECKERS.move_text(state, m) for m in CHECKERS.legal_moves(state))
    assert texts == ["10x17x26x19x10", "10x19x26x17x10"]
    after = {CHECKERS.position_text(CHECKERS.play(state, m)) for m in CHECKERS.legal_moves(state)}
    assert after == {"W:W:BK10"}
    assert CHECKERS.perft(state, 1) == 2 and CHECKERS.move_count(state) == 2


# --- generator against the reference ---------------------------------------------------------
@FAST
@given(boards())
def test_generated_moves_equal_the_reference(position):
    board, side = position
    state = CHECKERS.parse_position(fen_of(board, side))
    moves = CHECKERS.legal_moves(state)
    assert sorted(moves) == ref_moves(board, side)
    assert len(set(moves)) == len(moves)
    assert CHECKERS.move_count(state) == len(moves)
    b, w, k, s = state[0], state[1], state[2], state[3]
    assert len(engine.children(b, w, k, s)) == len(moves)
    assert CHECKERS.is_terminal(state) == (not moves)
    has_capture = bool(moves) and (len(moves[0]) > 2 or abs(moves[0][0] - moves[0][1]) > 5)
    assert CHECKERS.capture_pending(state) == has_capture
    for move in moves:
        assert board_of(CHECKERS.play(state, move)) == ref_play(board, move)
    made = sorted(engine.children(b, w, k, s))
    played = sorted(tuple(CHECKERS.play(state, m)[:3]) for m in moves)
    assert made == played
    for game in (CHECKERS, Giveaway(repetition=False, no_progress=0)):
        state = game.parse_position(fen_of(board, side))
        assert game.children(state) == Game.children(game, state)


@settings(max_examples=60)
@given(boards(density=0.45))
def test_fast_perft_equals_the_generic_definition(position):
    board, side = position
    state = CHECKERS.parse_position(fen_of(board, side))
    quiet = Checkers(repetition=False, no_progress=0)
    for depth in (1, 2, 3):
        assert CHECKERS.perft(state, depth) == Game.perft(quiet, state, depth)


# --- notation --------------------------------------------------------------------------------
@FAST
@given(boards())
def test_fen_and_move_text_round_trip(position):
    board, side = position
    fen = fen_of(board, side)
    state = CHECKERS.parse_position(fen)
    assert CHECKERS.position_text(state) == CHECKERS.position_text(CHECKERS.parse_position(fen))
    assert board_of(state) == board and CHECKERS.to_move(state) == side
    again = CHECKERS.parse_position(CHECKERS.position_text(state))
    assert again == state
    for move in CHECKERS.legal_moves(state):
        text = CHECKERS.move_text(state, move)
        assert CHECKERS.parse_move(state, text) == move


def test_fen_reading_accepts_ranges_kings_and_either_order():
    start = CHECKERS.initial_state()
    assert CHECKERS.parse_position("B:W21-32:B1-12") == start
    assert CHECKERS.parse_position(' [FEN "B:B1-12:W21-32."] ') == start
    s = CHECKERS.parse_position("W:WK1-K3,20:B5,K30")
    assert CHECKERS.position_text(s) == "W:W20,K1,K2,K3:B5,K30"
    assert (
        CHECKERS.position_text(start)
        == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    )


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "B",
        "X:W1:B2",
        "B:W1:W2",
        "B:W1,1:B2",
        "B:W33:B1",
        "B:W0:B1",
        "B:Wx:B1",
        "B:W5-3:B1",
        "B:W1:B1",
        "B:W:B29",
        "B:W4:B5:W6",
        "B:W1,,2:B5",
        "B:W١:B2",
    ],
)
def test_malformed_fen_is_a_notation_error(fen):
    with pytest.raises(NotationError):
        CHECKERS.parse_position(fen)


def test_move_parsing_errors_and_shorthand():
    start = CHECKERS.initial_state()
    assert CHECKERS.parse_move(start, " 11-15 ") == (11, 15)
    with pytest.raises(IllegalMoveError, match="not legal"):
        CHECKERS.parse_move(start, "12-13")
    with pytest.raises(NotationError):
        CHECKERS.parse_move(start, "11--15")
    with pytest.raises(NotationError):
        CHECKERS.parse_move(start, "33-29")
    loop = CHECKERS.parse_position("B:W14,15,22,23:BK10")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        CHECKERS.parse_move(loop, "10x10")
    assert CHECKERS.parse_move(loop, "10x17x26x10") == (10, 17, 26, 19, 10)
    jump = CHECKERS.parse_position("B:W18,26:B15")
    assert CHECKERS.parse_move(jump, "15x31") == (15, 22, 31)
    assert CHECKERS.move_text(jump, (15, 22, 31)) == "15x22x31"
    with pytest.raises(IllegalMoveError):
        CHECKERS.play(start, (21, 17))
    with pytest.raises(IllegalMoveError):
        CHECKERS.play(start, ("a", 3))


@settings(max_examples=300)
@given(st.text(alphabet='BWKbwk0123456789:,-x. "[]FEN', max_size=40) | st.text(max_size=20))
def test_fuzzed_text_raises_only_project_errors(text):
    start = CHECKERS.initial_state()
    try:
        state = CHECKERS.parse_position(text)
    except MindgamesError:
        pass
    else:  # what parses is a position whose own text reads back to it
        assert CHECKERS.parse_position(CHECKERS.position_text(state)) == state
    try:
        move = CHECKERS.parse_move(start, text)
    except MindgamesError:
        pass
    else:
        assert move in CHECKERS.legal_moves(start)


# --- results and draws -----------------------------------------------------------------------
def test_no_pieces_or_no_moves_loses_in_checkers_and_wins_in_giveaway():
    for fen, black_result in [("B:W5:B", -1.0), ("W:W:B5", 1.0), ("B:W9,10:B5,K1", None)]:
        for game, sign in ((CHECKERS, 1), (GIVEAWAY, -1)):
            state = game.parse_position(fen)
            if black_result is None:
                assert not game.is_terminal(state)
                continue
            assert game.is_terminal(state) and game.legal_moves(state) == []
            assert game.returns(state) == (sign * black_result, -sign * black_result)
    blocked = CHECKERS.parse_position("B:W9,14:B5")  # Black's only man is blocked in
    assert CHECKERS.returns(blocked) == (-1.0, 1.0) and GIVEAWAY.returns(blocked) == (1.0, -1.0)


def test_giveaway_results_are_the_reverse_of_checkers_on_random_games():
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(20):
        state = CHECKERS.initial_state()
        while not CHECKERS.is_terminal(state):
            moves = CHECKERS.legal_moves(state)
            state = CHECKERS.play(state, moves[int(rng.integers(len(moves)))])
        if CHECKERS.drawn(state):
            continue
        ended += 1
        assert GIVEAWAY.is_terminal(state)
        c, g = CHECKERS.returns(state), GIVEAWAY.returns(state)
        assert c == (-g[0], -g[1]) and c[0] != 0
    assert ended > 5


def _shuffle(game, state, times):
    for _ in range(times):
        for text in ("1-6", "32-27", "6-1", "27-32"):
            state = game.play_text(state, text)
    return state


def test_threefold_repetition_is_a_draw_only_when_on():
    game = Checkers()
    state = game.parse_position("B:WK32,21:BK1,12")
    once = _shuffle(game, state, 1)
    assert not game.is_terminal(once) and game.search_key(once) == game.search_key(state)
    twice = _shuffle(game, state, 2)
    assert game.is_terminal(twice) and game.legal_moves(twice) == [] and game.move_count(twice) == 0
    assert game.returns(twice) == (0.0, 0.0) and game.children(twice) == []
    assert game.children(once) == Game.children(game, once)  # kings' moves extend the history
    off = Checkers(repetition=False)
    assert not off.is_terminal(_shuffle(off, off.parse_position("B:WK32,21:BK1,12"), 3))
    # a man move is irreversible and clears the history
    reset = game.play_text(_shuffle(game, state, 1), "12-16")
    assert reset[6] == () and reset[5] == 0
    # the history holds the four positions before this one, the start first
    assert len(once[6]) == 4 and once[6][0] == game.search_key(state)


def test_no_progress_and_length_cap():
    game = Checkers(no_progress=2, repetition=False)
    state = game.parse_position("B:WK32,21:BK1,12")
    three = game.play_text(game.play_text(game.play_text(state, "1-6"), "32-27"), "6-1")
    assert not game.is_terminal(three)
    four = game.play_text(three, "27-32")
    assert game.is_terminal(four) and game.returns(four) == (0.0, 0.0)
    assert game.children(three) == Game.children(game, three) and game.children(four) == []
    capped = Checkers(max_plies=3)
    s = capped.initial_state()
    for text in ("11-15", "23-19", "8-11"):
        assert not capped.is_terminal(s)
        s = capped.play_text(s, text)
    assert capped.is_terminal(s) and capped.progress(s) == 3 and capped.returns(s) == (0.0, 0.0)
    with pytest.raises(MindgamesError):
        CHECKERS.returns(CHECKERS.initial_state())


def test_parameters_come_from_spec_strings(registry):
    game = registry.game("checkers:no_progress=20,max_plies=300")
    assert game == Checkers(no_progress=20, max_plies=300)
    assert game.spec() == "checkers:no_progress=20,max_plies=300"
    assert registry.game("giveaway").losing
    with pytest.raises(MindgamesError):
        registry.game("checkers:no_progress=-1")
    with pytest.raises(MindgamesError):
        registry.game("checkers:max_plies=0")


def test_render_shows_pieces_and_side():
    text = CHECKERS.render(CHECKERS.parse_position("W:WK1:B5"))
    assert "B" not in text.splitlines()[1] and "W" in text.splitlines()[1]
    assert "White to move" in text and len(text.splitlines()) == 12
    # a finished game says how it ended, not who would move (White has no piece left)
    over = CHECKERS.render(CHECKERS.parse_position("W:W:B5")).splitlines()[-1]
    assert over == "game over: Black wins (b/w men, B/W kings)"
    assert (
        GIVEAWAY.render(GIVEAWAY.parse_position("W:W:B5"))
        .splitlines()[-1]
        .startswith("game over: White wins")
    )


def test_search_key_ignores_how_a_position_was_reached():
    game = CHECKERS
    a = game.play_text(
        game.play_text(game.play_text(game.initial_state(), "11-15"), "23-19"), "9-13"
    )
    b = game.play_text(
        game.play_text(game.play_text(game.initial_state(), "9-13"), "23-19"), "11-15"
    )
    assert a == b and game.search_key(a) == game.search_key(b)
    assert game.search_key(a) != game.search_key(game.initial_state())


def test_reference_agreement_covers_kings_multi_jumps_and_crowning_captures():
    """Seeded random boards rich in captures: the hard cases really occur and agree."""
    rng = np.random.default_rng(11)
    seen = {"multi_jump": 0, "king_capture": 0, "crowning_capture": 0, "loop": 0, "blocked": 0}
    for _ in range(4000):
        board, density = {}, rng.uniform(0.03, 0.6)
        for s in range(1, 33):
            if rng.random() < density:
                colour = "bw"[int(rng.integers(2))]
                crown_row = 7 if colour == "b" else 0
                king = COORD[s][0] == crown_row or rng.random() < 0.3
                if sum(piece.lower() == colour for piece in board.values()) < 12:
                    board[s] = colour.upper() if king else colour
        side = int(rng.integers(2))
        state = CHECKERS.parse_position(fen_of(board, side))
        moves = CHECKERS.legal_moves(state)
        assert sorted(moves) == ref_moves(board, side)
        for move in moves:
            assert board_of(CHECKERS.play(state, move)) == ref_play(board, move)
            piece = board[move[0]]
            capture = len(move) > 2 or abs(move[0] - move[1]) > 5
            seen["multi_jump"] += len(move) > 2
            seen["king_capture"] += capture and piece.isupper()
            crown_row = 7 if piece == "b" else 0 if piece == "w" else -1
            seen["crowning_capture"] += capture and COORD[move[-1]][0] == crown_row
            seen["loop"] += capture and move[0] == move[-1]
        if not moves:
            seen["blocked"] += 1
            c, g = CHECKERS.returns(state), GIVEAWAY.returns(state)
            assert c == (-g[0], -g[1]) and c[side] == -1.0
    assert min(seen.values()) >= 5, seen  # seed 11: 623, 1897, 326, 10, 257
