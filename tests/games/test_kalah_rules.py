"""Kalah: rules, notation, perft against OpenSpiel's published counts, and the solver."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.errors import IllegalMoveError, NotationError
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import solve

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


@settings(max_examples=60, deadline=None)
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
        if game.is_terminal(state):
            break
        moves = game.legal_moves(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    assert game.is_terminal(state)
    assert abs(game.margin(state)) <= total


def brute_force(game: Kalah, state) -> int:
    """Plain exhaustive minimax of the mover's final margin (no pruning, no tables)."""
    return _brute_force_table(game)(state[0], state[1])


@functools.cache
def _brute_force_table(game: Kalah):
    """One memo per game, shared by every position the test asks about."""

    @functools.cache
    def value(packed: int, side: int) -> int:
        s = (packed, side, 0)
        if game.is_terminal(s):
            m = game.margin(s)
            return m if side == 0 else -m
        best = None
        for move in game.legal_moves(s):
            nxt = game.play(s, move)
            v = value(nxt[0], nxt[1])
            v = v if nxt[1] == side else -v
            best = v if best is None else max(best, v)
        return best

    return value


def reachable(game: Kalah) -> list:
    """Every non-terminal position reachable from the start, in a fixed order."""
    seen, order, frontier = set(), [], [game.initial_state()]
    while frontier:
        state = frontier.pop()
        key = state[:2]
        if key in seen or game.is_terminal(state):
            continue
        seen.add(key)
        order.append(state)
        frontier.extend(game.play(state, m) for m in game.legal_moves(state))
    return order


@pytest.mark.parametrize(
    "pits,seeds,sample", [(2, 1, 0), (2, 2, 0), (2, 3, 0), (3, 2, 0), (3, 3, 0), (4, 2, 400)]
)
@pytest.mark.parametrize("empty_capture", [False, True])
def test_solver_agrees_with_brute_force_on_reachable_positions(pits, seeds, sample, empty_capture):
    """Every reachable position of the tiny boards (a seeded sample of the larger one)."""
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    states = reachable(game)
    if sample:
        rng = np.random.default_rng(pits * 100 + seeds)
        picked = rng.choice(len(states), size=min(sample, len(states)), replace=False)
        states = [states[0]] + [states[int(i)] for i in picked]
    for state in states:
        sol = solve(game, state)
        assert sol.value == brute_force(game, state), game.position_text(state)
        for move in sol.best_moves:
            child = game.play(state, move)
            child_value = (
                brute_force(game, child)
                if not game.is_terminal(child)
                else (game.margin(child) * (1 if child[1] == 0 else -1))
            )
            assert (child_value if child[1] == state[1] else -child_value) == sol.value
    assert len(states) > 3


def test_known_small_values():
    # Kalah(1,3): South's one move sows store, North's pit and laps into its own empty pit,
    # capturing North's 4 seeds: South wins 6-0.
    game = Kalah(pits=1, seeds=3)
    assert solve(game, game.initial_state()).south_margin == 6
