"""The game session behind ``play``: moves, undo, hints, resignation and its record."""

from __future__ import annotations

import json

import pytest

from mindgames.agent import build_agent
from mindgames.errors import MindgamesError
from mindgames.play.replays import read_games
from mindgames.play.session import Session, natural_order
from mindgames.registry import get_registry

AGENT = "alphabeta:depth=2,eval=material,random_ties=true"


def session(spec: str, first: str | None, second: str | None, seed: int = 0) -> Session:
    registry = get_registry()
    game = registry.game(spec)
    agents = [None if s is None else build_agent(registry, game, s) for s in (first, second)]
    names = [s or "human" for s in (first, second)]
    return Session(game, agents, names, seed=seed)


def test_between_two_people_undo_takes_back_one_ply_and_then_nothing():
    s = session("checkers", None, None)
    s.play("11-15")
    s.play("22-18")
    assert s.undo() == 1 and s.moves == ["11-15"]
    assert s.undo() == 1 and s.moves == [] and s.state == s.game.initial_state()
    with pytest.raises(MindgamesError, match="nothing to undo"):
        s.undo()


def test_a_refused_move_changes_nothing():
    s = session("kalah:pits=4,seeds=3", None, None)
    with pytest.raises(MindgamesError):
        s.play("5")
    assert s.moves == [] and len(s.states) == 1


def test_hints_do_not_change_the_agents_moves():
    quiet, curious = session("kalah", None, AGENT, 7), session("kalah", None, AGENT, 7)
    for text in ("1", "2", "3"):
        for s in (quiet, curious):
            if s.human_to_move() and text in s.legal():
                if s is curious:
                    s.hint(s.agents[1])
                s.play(text)
            while not s.over and not s.human_to_move():
                s.agent_move()
    assert quiet.moves == curious.moves


def test_a_hint_is_a_legal_line_starting_with_its_move():
    s = session("checkers", None, AGENT)
    hint = s.hint(s.agents[1])
    assert hint.line[0] == hint.move and hint.move in s.legal()
    state = s.state
    for text in hint.line:
        state = s.game.play_text(state, text)


def test_resigning_ends_the_game_for_the_other_side():
    s = session("checkers", None, AGENT)
    s.play("11-15")
    s.agent_move()
    s.resign()
    assert s.over and s.result() == "0-1" and s.termination() == "resignation"
    assert s.outcome() == "White wins (Black resigned)"
    with pytest.raises(MindgamesError, match="the game is over"):
        s.play("9-13")
    assert s.undo() == 2 and not s.over  # undo takes the resignation back too


def test_the_record_replays_to_the_same_position(tmp_path):
    s = session("kalah:pits=4,seeds=3", None, AGENT, 3)
    while not s.over:
        if s.human_to_move():
            s.play(s.legal()[0])
        else:
            s.agent_move()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(s.record()) + "\n")
    (replayed,) = read_games(path, get_registry())
    assert replayed.states[-1] == s.state and list(replayed.moves) == s.moves
    assert replayed.result == s.result() != "*"


def test_moves_sort_with_their_numbers_as_numbers():
    assert natural_order(["10", "9", "1", "15x22", "11-15", "9-13"]) == [
        "1", "9", "9-13", "10", "11-15", "15x22",
    ]  # fmt: skip
