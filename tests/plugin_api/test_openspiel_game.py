"""The OpenSpiel bridge (examples/openspiel-plugin, installed by ``make test``): the Game API.

The distribution is found through its real ``mindgames`` entry point; OpenSpiel is the real one.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mindgames_openspiel.game import SpielState

from mindgames.errors import IllegalMoveError, NotationError
from mindgames.registry import get_registry
from mindgames.spec import format_spec

#: OpenSpiel's perft of tic-tac-toe (sequences of exactly n plies; finished games stop counting)
TIC_TAC_TOE = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
#: OpenSpiel's perft of connect four from the start (7 ** n until a game can end at ply 7)
CONNECT_FOUR = [7, 49, 343, 2401, 16807, 117649]


def game(text: str = "tic_tac_toe"):
    return get_registry().game("openspiel", game=text)


def play(g, texts):
    state = g.initial_state()
    for text in texts:
        state = g.play_text(state, text)
    return state


def test_the_game_comes_from_the_installed_distribution():
    rows = {(r["name"], r["kind"]): r for r in get_registry().rows()}
    assert rows[("openspiel", "game")]["distribution"] == "mindgames-openspiel"
    assert rows[("openspiel/observation", "encoding")]["distribution"] == "mindgames-openspiel"


def test_a_won_game_has_returns_and_the_loser_to_move():
    g = game()
    state = play(g, ["x(0,0)", "o(1,0)", "x(0,1)", "o(1,1)", "x(0,2)"])
    assert g.is_terminal(state) and g.legal_moves(state) == []
    assert g.returns(state) == (1.0, -1.0)
    assert g.to_move(state) == 1  # the player who did not make the last move
    assert g.progress(state) == 5
    assert g.position_text(state) == "0 3 1 4 2"
    assert g.render(state) == "xxx\noo.\n..."


def test_position_text_is_the_action_history_and_round_trips():
    g = game("connect_four")
    start = g.initial_state()
    assert g.position_text(start) == "-" and g.parse_position("-") is start
    state = play(g, ["x3", "o3", "x4"])
    assert g.position_text(state) == "3 3 4"
    again = g.parse_position("3, 3, 4")  # OpenSpiel's own history_str form is read too
    assert again == state and hash(again) == hash(state)
    assert g.render(again) == g.render(state) == str(state.spiel)
    assert g.to_move(again) == g.to_move(state) == 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "bad connect_four position"),
        ("3 x", "expected action ids"),
        ("3 9", "action 9 is not legal after 3"),
    ],
)
def test_bad_position_text_is_a_notation_error(text, message):
    with pytest.raises(NotationError, match=message):
        game("connect_four").parse_position(text)


def test_moves_are_actions_named_by_the_games_own_strings():
    g = game("breakthrough(rows=6,columns=6)")
    state = g.initial_state()
    moves = g.legal_moves(state)
    assert moves == state.spiel.legal_actions()
    texts = [g.move_text(state, m) for m in moves]
    assert texts[:2] == ["a5a4", "a5b4"]
    assert [g.parse_move(state, t) for t in texts] == moves
    with pytest.raises(IllegalMoveError, match="'a1a2' is not a legal move"):
        g.parse_move(state, "a1a2")


def test_play_costs_one_child_and_leaves_its_input_alone():
    g = game("connect_four")
    state = play(g, ["x3"])
    before = state.spiel.history()
    child = g.play(state, 3)
    assert state.spiel.history() == before == [3]
    assert child.spiel.history() == [3, 3] and child.history == (3, 3)
    assert g.children(state) == [(m, g.play(state, m)) for m in g.legal_moves(state)]


def test_states_pickle_and_copy_by_their_history():
    g = game("breakthrough(rows=6,columns=6)")
    state = play(g, ["a5a4", "a2a3"])
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert isinstance(other, SpielState) and other == state and other.spiel is not state.spiel
        assert g.render(other) == g.render(state) and g.to_move(other) == g.to_move(state)
    assert pickle.loads(pickle.dumps(g)) == g


def test_the_game_string_is_kept_in_openspiels_canonical_form():
    a = get_registry().game('openspiel:game="breakthrough(rows=6,columns=6)"')
    b = get_registry().game("openspiel:game=breakthrough(columns=6,rows=6)")
    assert a == b and a.game == "breakthrough(columns=6,rows=6)"
    assert a.spec() == 'openspiel:game="breakthrough(columns=6,rows=6)"'
    assert get_registry().game(a.spec()) == a
    assert game().spec() == "openspiel"  # tic_tac_toe is the default


@pytest.mark.parametrize(
    "text", ["tic_tac_toe", "connect_four", "hex(board_size=5)", "mnk(k=3,m=4,n=4)", "oware"]
)
def test_a_spec_round_trips_through_the_registry_and_names_the_game_string(text):
    g = game(text)
    again = get_registry().game(g.spec())
    assert again == g and again.spec() == g.spec() and again.game == g.game
    if g.game != "tic_tac_toe":
        assert g.spec() == format_spec("openspiel", {"game": g.game})


def test_perft_of_tic_tac_toe():
    g = game()
    start = g.initial_state()
    assert [g.perft(start, d) for d in (1, 2, 3, 4, 5, 6)] == TIC_TAC_TOE[:6]
    # depths 7-9 (games ending early stop counting) by test_the_readme_commands_run_as_written


def test_perft_of_connect_four_through_children_equals_openspiels():
    g = game("connect_four")
    start = g.initial_state()
    assert [g.perft(start, d) for d in range(1, 6)] == CONNECT_FOUR[:5]
    assert sum(g.perft(child, 4) for _, child in g.children(start)) == CONNECT_FOUR[4]


def test_observation_columns_are_named_from_the_tensor_shape():
    registry = get_registry()
    g = game("connect_four")
    enc = registry.encoding(g, "observation")
    assert enc.width == 3 * 6 * 7
    assert enc.columns[:3] == ("obs_0_0_0", "obs_0_0_1", "obs_0_0_2")
    assert enc.columns[-1] == "obs_2_5_6"
    states = [g.initial_state(), play(g, ["x3"]), play(g, ["x3", "o4"])]
    batch = enc.encode_batch(states)
    for row, state in zip(batch, states, strict=True):
        assert np.array_equal(row, enc.encode(state))
        assert enc.encode_py(state) == tuple(row)
        assert list(row) == state.spiel.observation_tensor(g.to_move(state))
    side = registry.encoding(g, "observation+to_move")
    assert side.columns[-1] == "second_to_move"
    assert [side.encode(s)[-1] for s in states] == [0.0, 1.0, 0.0]


@settings(max_examples=25)
@given(st.lists(st.integers(0, 10_000), max_size=40))
def test_random_lines_of_play_round_trip_through_position_text(picks):
    g = game("connect_four")
    state = g.initial_state()
    for pick in picks:
        moves = g.legal_moves(state)
        if not moves:
            break
        state = g.play(state, moves[pick % len(moves)])
    again = g.parse_position(g.position_text(state))
    assert again == state
    assert g.is_terminal(again) == g.is_terminal(state) == bool(not g.legal_moves(state))
    assert g.to_move(again) == g.to_move(state)
    if g.is_terminal(state):
        assert sum(g.returns(state)) == 0.0
