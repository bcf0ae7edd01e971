"""Kalah: rules, notation, perft against OpenSpiel's published counts, and the solver."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.errors import IllegalMoveError, MindgamesError, NotationError
from mindgames.game import Game
from mindgames.games.kalah.engine import perft, perft_made
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import solve, solve_python

START = "4,4,4,4,4,4;0;4,4,4,4,4,4;0;S"


def pos(game: Kalah, text: str):
    return game.parse_position(text)


def test_start_position_text():
    game = Kalah()
    assert game.position_text(game.initial_state()) == START
    assert game.legal_moves(game.initial_state()) == (1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize(
    "depth,count",
    [(1, 6), (2, 35), (3, 185), (4, 942), (5, 4690), (6, 23233), (7, 114430), (8, 563055)],
)
def test_perft_matches_openspiel_mancala(depth, count):
    game = Kalah()
    assert game.perft(game.initial_state(), depth) == count


@pytest.mark.parametrize("empty_capture", [False, True])
@pytest.mark.parametrize("pits,seeds", [(6, 4), (4, 3), (3, 6), (2, 7)])
def test_made_perft_equals_counted_perft(pits, seeds, empty_capture):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    t, (packed, side, _) = game.t, game.initial_state()
    for depth in range(1, 6):
        assert perft_made(t, packed, side, depth, empty_capture) == perft(
            t, packed, side, depth, empty_capture
        )


def test_perft_agrees_with_generic_tree_walk():
    game = Kalah(pits=4, seeds=3)
    state = game.initial_state()
    generic = super(Kalah, game).perft
    assert [game.perft(state, d) for d in range(1, 6)] == [generic(state, d) for d in range(1, 6)]


def test_last_seed_in_store_gives_another_turn():
    game = Kalah()
    after = game.play(game.initial_state(), 3)  # 4 seeds from pit 3: pits 4,5,6 and the store
    assert game.position_text(after) == "4,4,0,5,5,5;1;4,4,4,4,4,4;0;S"
    assert game.to_move(after) == 0


def test_plain_move_passes_the_turn_and_never_feeds_the_other_store():
    game = Kalah(pits=2, seeds=2)
    state = pos(game, "1,4;0;1,0;0;S")  # 4 seeds from pit 2: store, N1, N2, (skip N store), S1
    after = game.play(state, 2)
    assert game.position_text(after) == "2,0;1;2,1;0;N"


def test_capture_takes_both_pits():
    game = Kalah()
    state = pos(game, "1,0,4,4,4,4;0;4,4,4,4,4,7;0;S")
    after = game.play(state, 1)  # lands in own empty pit 2, opposite is North's pit 5 (4 seeds)
    assert game.position_text(after) == "0,0,4,4,4,4;5;4,4,4,4,0,7;0;N"


@pytest.mark.parametrize(
    "empty_capture,expected", [(False, "0,1,4;0;4,0,3;0;N"), (True, "0,0,4;1;4,0,3;0;N")]
)
def test_empty_capture_rule(empty_capture, expected):
    game = Kalah(pits=3, seeds=2, empty_capture=empty_capture)
    state = pos(game, "1,0,4;0;4,0,3;0;S")  # lands in own empty pit 2, facing North's empty pit 2
    assert game.position_text(game.play(state, 1)) == expected


def test_lap_sows_into_its_own_starting_pit():
    game = Kalah(pits=2, seeds=4)
    # 7 seeds from S1: S2, store, N1, N2, (skip), S1, S2, store -> extra turn
    state = pos(game, "7,0;0;1,0;0;S")
    after = game.play(state, 1)
    assert game.position_text(after) == "1,2;2;2,1;0;S"


def test_game_ends_when_a_side_is_empty_and_the_rest_is_swept():
    game = Kalah(pits=2, seeds=2)
    state = pos(game, "0,1;3;2,2;0;S")  # S2 -> store: South has no seeds left
    after = game.play(state, 2)
    assert game.is_terminal(after)
    assert game.position_text(after) == "0,0;4;0,0;4;S"
    assert game.returns(after) == (0.0, 0.0) and game.legal_moves(after) == ()


def test_bad_positions_and_moves_are_clear_errors():
    game = Kalah()
    for text in [
        "",
        "4,4,4;0;4,4,4;0;S",
        "4,4,4,4,4,x;0;4,4,4,4,4,4;0;S",
        START[:-1] + "E",
        "4,4,4,4,4,-4;0;4,4,4,4,4,4;0;S",
        "9,9,9,9,9,9;0;4,4,4,4,4,4;0;S",
    ]:
        with pytest.raises(NotationError):
            game.parse_position(text)
    with pytest.raises(NotationError, match="48"):
        game.parse_position("1,1,1,1,1,1;0;1,1,1,1,1,1;0;S", check_total=True)
    state = pos(game, "0,4,4,4,4,4;4;4,4,4,4,4,4;0;S")
    with pytest.raises(IllegalMoveError, match="pit 1 is not a legal move"):
        game.parse_move(state, "1")
    with pytest.raises(NotationError):
        game.parse_move(state, "one")
    with pytest.raises(ValueError):
        Kalah(pits=0)


@settings(max_examples=300)
@given(
    st.text(alphabet="0123456789,;-SNsn x+_", max_size=40)
    | st.text(max_size=30)
    | st.lists(st.integers(-3, 60), min_size=14, max_size=14).map(
        lambda v: f"{','.join(map(str, v[:6]))};{v[6]};{','.join(map(str, v[7:13]))};{v[13]};S"
    )
)
def test_fuzzed_text_raises_only_project_errors(text):
    game = Kalah()
    try:
        state = game.parse_position(text)
    except MindgamesError:
        pass
    else:  # anything accepted is a position that writes back and reads the same
        assert game.parse_position(game.position_text(state))[:2] == state[:2]
        assert sum(game.t.unpack(state[0])) <= 48
    try:
        game.parse_move(game.initial_state(), text)
    except MindgamesError:
        pass
    for bad in ("²", "٣", "1_0", "+3", " 3 4", "3.0"):
        with pytest.raises(NotationError):
            game.parse_move(game.initial_state(), bad)


def test_margin_and_returns_after_the_sweep():
    game = Kalah(pits=2, seeds=3)
    state = game.parse_position("0,1;5;3,0;3;S")  # S2 -> store: South's pits are empty
    after = game.play(state, 2)
    assert game.is_terminal(after) and game.position_text(after) == "0,0;6;0,0;6;S"
    assert game.margin(after) == 0 and game.returns(after) == (0.0, 0.0)
    won = game.parse_position("0,2;6;1,0;3;N")  # North's N1 -> N2: no capture (S1 is empty)
    end = game.play(won, 1)
    assert not game.is_terminal(end) and game.to_move(end) == 0
    final = game.play(end, 2)  # S2 (2 seeds): store, N1; South is empty: North sweeps 2
    assert game.position_text(final) == "0,0;7;0,0;5;N" and game.margin(final) == 2
    assert game.returns(final) == (1.0, -1.0)


@settings(max_examples=60)
@given(st.integers(1, 6), st.integers(1, 5), st.booleans(), st.integers(0, 2**32 - 1))
def test_random_playouts_conserve_seeds_and_end(pits, seeds, empty_capture, seed):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    total = 2 * pits * seeds
    for _ in range(2000):
        fields = game.t.unpack(state[0])
        assert sum(fields) == total and min(fields) >= 0
        assert game.parse_position(game.position_text(state))[:2] == state[:2]
        kids = game.children(state)
        assert kids == Game.children(game, state)  # the native one equals the default
        if game.is_terminal(state):
            assert kids == []
            break
        state = kids[int(rng.integers(len(kids)))][1]
    assert game.is_terminal(state)
    assert abs(game.margin(state)) <= total


# --- an independent reference: plain lists, one seed at a time, exhaustive minimax ------------
def ref_sow(fields: tuple, side: int, pit: int, m: int, empty_capture: bool) -> tuple:
    """(fields, next side) after ``side`` sows pit ``pit`` (1..m), written the obvious way."""
    f = list(fields)
    own_store, their_store = (m, 2 * m + 1) if side == 0 else (2 * m + 1, m)
    own_pits = range(0, m) if side == 0 else range(m + 1, 2 * m + 1)
    i = own_pits[pit - 1]
    seeds, f[i] = f[i], 0
    while seeds:
        i = (i + 1) % (2 * m + 2)
        if i != their_store:
            f[i] += 1
            seeds -= 1
    nxt = side if i == own_store else 1 - side
    if i in own_pits and f[i] == 1 and (f[2 * m - i] or empty_capture):
        f[own_store] += 1 + f[2 * m - i]
        f[i] = f[2 * m - i] = 0
    if not sum(f[0:m]) or not sum(f[m + 1 : 2 * m + 1]):
        f[m] += sum(f[0:m])
        f[2 * m + 1] += sum(f[m + 1 : 2 * m + 1])
        f = [v if k in (m, 2 * m + 1) else 0 for k, v in enumerate(f)]
    return tuple(f), nxt


def ref_moves(fields: tuple, side: int, m: int) -> list[int]:
    off = 0 if side == 0 else m + 1
    return [p for p in range(1, m + 1) if fields[off + p - 1]]


@functools.cache
def ref_value(fields: tuple, side: int, m: int, empty_capture: bool) -> int:
    """Exhaustive minimax of the mover's final margin (no pruning, no tables but the memo)."""
    moves = ref_moves(fields, side, m)
    if not moves:
        margin = fields[m] - fields[2 * m + 1]
        return margin if side == 0 else -margin
    best = None
    for pit in moves:
        child, nxt = ref_sow(fields, side, pit, m, empty_capture)
        v = ref_value(child, nxt, m, empty_capture)
        v = v if nxt == side else -v
        best = v if best is None else max(best, v)
    assert best is not None
    return best


def brute_force(game: Kalah, state) -> int:
    return ref_value(tuple(game.t.unpack(state[0])), state[1], game.pits, game.empty_capture)


def positions(game: Kalah, sample: int, rng: np.random.Generator) -> list:
    """Every non-terminal position reachable from the start (reference rules), or ``sample``
    distinct ones met in seeded random playouts from the 12th ply on (where the exhaustive
    minimax stays small)."""
    m, ec = game.pits, game.empty_capture
    start = tuple(game.t.unpack(game.initial_state()[0]))
    seen: dict = {}
    if not sample:
        frontier = [(start, 0)]
        while frontier:
            key = frontier.pop()
            if key in seen or not ref_moves(*key, m):
                continue
            seen[key] = None
            frontier.extend(ref_sow(*key, p, m, ec) for p in ref_moves(*key, m))
    while len(seen) < sample:
        key, ply = (start, 0), 0
        while ref_moves(*key, m):
            if ply >= 12:
                seen[key] = None
            ply += 1
            moves = ref_moves(*key, m)
            key = ref_sow(*key, moves[int(rng.integers(len(moves)))], m, ec)
    return [(game.t.pack(f), side, 0) for f, side in seen]


@settings(max_examples=40)
@given(st.integers(1, 6), st.integers(1, 6), st.booleans(), st.integers(0, 2**32 - 1))
def test_rules_agree_with_the_reference_on_random_playouts(pits, seeds, empty_capture, seed):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        fields, side = tuple(game.t.unpack(state[0])), state[1]
        assert list(game.legal_moves(state)) == ref_moves(fields, side, pits)
        move = int(rng.choice(game.legal_moves(state)))
        state = game.play(state, move)
        assert (tuple(game.t.unpack(state[0])), state[1]) == ref_sow(
            fields, side, move, pits, empty_capture
        )
    assert game.legal_moves(state) == ()


TINY = [(1, 4), (2, 1), (2, 2), (2, 3), (2, 4), (3, 2)]


@pytest.mark.parametrize(
    "pits,seeds,sample,empty_capture",
    [(*size, 0, rule) for size in TINY for rule in (False, True)]
    + [(3, 3, 400, False), (3, 3, 400, True), (4, 2, 150, False), (4, 3, 60, True)],
)
def test_solver_agrees_with_brute_force(pits, seeds, sample, empty_capture):
    """Every reachable position of the tiny boards; seeded samples of the larger ones."""
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    states = positions(game, sample, np.random.default_rng(pits * 100 + seeds))
    for state in states:
        sol = solve(game, state)  # compiled (games/kalah/solverkernels.py)
        assert sol.value == brute_force(game, state), game.position_text(state)
        py = solve_python(game, state)  # the same search in Python, node for node
        assert (py.value, py.best_moves, py.nodes) == (sol.value, sol.best_moves, sol.nodes)
        assert sol.south_margin == (sol.value if state[1] == 0 else -sol.value)
        for move in sol.best_moves:  # every reported best move keeps the value
            child = game.play(state, move)
            v = brute_force(game, child)
            assert (v if child[1] == state[1] else -v) == sol.value
        worse = set(game.legal_moves(state)) - set(sol.best_moves)
        for move in worse:  # and every other move is strictly worse
            child = game.play(state, move)
            v = brute_force(game, child)
            assert (v if child[1] == state[1] else -v) < sol.value
    assert len(states) >= (sample or 2)


@pytest.mark.parametrize("empty_capture", [False, True])
def test_the_rest_of_the_game_depends_on_the_pits_alone(empty_capture):
    """The solver's table premise (games/kalah/solver.py): moving seeds between the stores, or
    mirroring the board to the other side to move, changes the value by the change of the
    mover's store lead and keeps the best moves (the independent reference and the solver)."""
    game = Kalah(pits=3, seeds=3, empty_capture=empty_capture)
    m = game.pits
    states = positions(game, 60, np.random.default_rng(35 + empty_capture))
    for state in states:
        f, side = list(game.t.unpack(state[0])), state[1]
        mine, theirs = (m, 2 * m + 1) if side == 0 else (2 * m + 1, m)
        lead = f[mine] - f[theirs]
        rest = brute_force(game, state) - lead
        best = solve(game, state).best_moves
        variants = []
        for k in (-f[mine], f[theirs]):  # all of my store to theirs, or all of theirs to mine
            g = list(f)
            g[mine], g[theirs] = g[mine] + k, g[theirs] - k
            variants.append((g, side))
        variants.append((f[m + 1 :] + f[: m + 1], 1 - side))  # the mirror, the other to move
        for g, s in variants:
            other = (game.t.pack(g), s, 0)
            g_mine, g_theirs = (m, 2 * m + 1) if s == 0 else (2 * m + 1, m)
            g_lead = g[g_mine] - g[g_theirs]
            assert brute_force(game, other) - g_lead == rest, game.position_text(other)
            assert solve(game, other).best_moves == best, game.position_text(other)
    assert len(states) >= 60


def test_known_small_values():
    # Kalah(1,3): South's one move sows store, North's pit and laps into its own empty pit,
    # capturing North's 4 seeds: South wins 6-0.
    game = Kalah(pits=1, seeds=3)
    assert solve(game, game.initial_state()).south_margin == 6


def test_kalah_declares_and_answers_solve_with_the_solver_margin():
    from mindgames.games.kalah.solver import solve

    game = Kalah(pits=3, seeds=3)
    assert game.solvable
    state = game.initial_state()
    assert game.solve(state) == solve(game, state).value
    after = game.play(state, game.legal_moves(state)[0])
    assert game.solve(after) == solve(game, after).value


def test_a_game_without_a_solver_refuses_solve_with_a_capability_error():
    import pytest

    from mindgames.errors import CapabilityError
    from mindgames.games.draughts.rules import Checkers

    game = Checkers()
    assert not game.solvable
    with pytest.raises(CapabilityError, match="cannot solve"):
        game.solve(game.initial_state())


@settings(max_examples=30)
@given(st.lists(st.integers(0, 5), max_size=40))
def test_pieces_are_the_seeds_left_in_the_pits(choices):
    from mindgames.game import CountsPieces

    game = Kalah(pits=4, seeds=3)
    assert isinstance(game, CountsPieces)
    state = game.initial_state()
    assert game.pieces(state) == 24
    for choice in choices:
        if game.is_terminal(state):
            break
        moves = game.legal_moves(state)
        state = game.play(state, moves[choice % len(moves)])
        south, north = game.t.unpack(state[0])[4], game.t.unpack(state[0])[9]
        assert game.pieces(state) == 24 - south - north
    if game.is_terminal(state):
        assert game.pieces(state) == 0
    assert game.pieces(pos(game, "1,0,0,2;10;0,0,3,0;5;S")) == 6


def test_the_board_numbers_each_rows_pits_from_its_owners_left():
    game = Kalah(pits=4, seeds=3)
    text = game.render(game.parse_position("1,0,12,2;4;3,0,0,2;0;N"))
    lines = text.splitlines()
    assert lines[0].split() == ["pit", "4", "3", "2", "1", "North"]
    assert lines[1].split() == ["2", "0", "0", "3"]  # North's pit 1 is on South's right
    assert lines[2].split() == ["0", "4"]  # North's store left, South's right
    assert lines[3].split() == ["1", "0", "12", "2"]
    assert lines[4].split() == ["pit", "1", "2", "3", "4", "South"]
    assert lines[5] == "North to move (pits 1-4)"
    for text, over in (("0,0,0,0;9;0,0,0,0;9;S", "draw"), ("0,0,0,0;10;0,0,0,0;8;N", "South wins")):
        assert game.render(game.parse_position(text)).splitlines()[5] == f"game over: {over}"
