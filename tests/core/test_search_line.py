"""``search.Line``: a principal variation made when first read, equal to the tuple of its moves
wherever a tuple would be used (comparisons, hashing, iteration, other processes)."""

from __future__ import annotations

import pickle

import numpy as np

from mindgames.agent import build_agent
from mindgames.search import Line, SearchResult


def counted(moves: tuple) -> tuple[Line, list[int]]:
    calls: list[int] = []

    def make() -> tuple:
        calls.append(1)
        return moves

    return Line(make), calls


def test_a_line_is_made_once_and_only_when_read():
    line, calls = counted(((9, 13), (22, 18)))
    result = SearchResult((9, 13), 0.5, line)
    assert calls == []
    assert result.pv[1] == (22, 18) and len(result.pv) == 2
    assert list(result.pv) == [(9, 13), (22, 18)] and result.pv[:1] == ((9, 13),)
    assert calls == [1]


def test_a_line_equals_and_hashes_as_its_tuple():
    moves = ((9, 13), (22, 18))
    line = counted(moves)[0]
    assert line == moves and moves == line and (1, line) == (1, moves)
    assert line == counted(moves)[0] and line != moves[:1] and line != list(moves)
    assert hash(line) == hash(moves) and {line: 1}[moves] == 1
    assert repr(line) == repr(moves)
    assert SearchResult(moves[0], 0.0, line) == SearchResult(moves[0], 0.0, moves)


def test_a_line_goes_to_another_process_as_a_tuple():
    moves = ((9, 13), (22, 18))
    copy = pickle.loads(pickle.dumps(SearchResult(moves[0], 0.0, counted(moves)[0])))
    assert type(copy.pv) is tuple and copy.pv == moves


def test_a_compiled_search_leaves_its_line_to_be_made(registry, monkeypatch):
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "0")
    game = registry.game("checkers")
    agent = build_agent(registry, game, "alphabeta:depth=4,eval=material")
    found = agent.searcher.search(
        game, game.initial_state(), agent.evaluator, np.random.default_rng(1)
    )
    assert found.stats.path == "compiled" and isinstance(found.pv, Line)
    assert found.pv[0] == found.move and len(found.pv) == 4
    state = game.initial_state()
    for move in found.pv:  # a legal line from the root
        state = dict(game.children(state))[move]
