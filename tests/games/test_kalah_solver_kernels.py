"""The compiled exact solver (games/kalah/solverkernels.py) against the Python solver, its
reference: the same value, best moves and node count on late positions of random games of
several sizes and both capture rules; ``solve`` takes it unless MINDGAMES_PYTHON_PATH is set."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.errors import TimeLimitError
from mindgames.games.kalah import solver
from mindgames.games.kalah.rules import Kalah, KalahState
from mindgames.games.kalah.solver import (
    solve,
    solve_all,
    solve_all_compiled,
    solve_compiled,
    solve_python,
)
from mindgames.interrupts import time_limit


def late_positions(game: Kalah, seed: int, count: int, max_seeds: int) -> list[KalahState]:
    """``count`` positions of seeded random games, each the first with at most ``max_seeds``
    seeds in the pits (a game that ends before gives none)."""
    rng = np.random.default_rng(seed)
    out: list[KalahState] = []
    while len(out) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and game.pieces(state) > max_seeds:
            kids = game.children(state)
            state = kids[int(rng.integers(len(kids)))][1]
        if not game.is_terminal(state):
            out.append(state)
    return out


def same_search(game: Kalah, state: KalahState) -> None:
    py, compiled = solve_python(game, state), solve_compiled(game, state)
    assert (compiled.value, compiled.south_margin, compiled.best_moves, compiled.nodes) == (
        py.value,
        py.south_margin,
        py.best_moves,
        py.nodes,
    ), game.position_text(state)


@pytest.mark.parametrize("empty_capture", [False, True])
@pytest.mark.parametrize(
    ("pits", "seeds", "count", "max_seeds"),
    [(6, 4, 60, 12), (5, 4, 60, 14), (4, 3, 60, 16), (3, 5, 40, 18), (2, 2, 20, 8)],
)
def test_compiled_solver_equals_python_on_late_positions(
    pits, seeds, count, max_seeds, empty_capture
):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    for state in late_positions(game, pits * 10 + seeds + empty_capture, count, max_seeds):
        same_search(game, state)


def test_compiled_solver_equals_python_from_the_start_of_small_sizes():
    for pits, seeds in [(1, 1), (1, 4), (2, 3), (3, 3), (4, 2)]:
        for empty_capture in (False, True):
            game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
            same_search(game, game.initial_state())


def test_a_finished_position_solves_to_its_margin():
    game = Kalah(pits=3, seeds=2)
    state = game.parse_position("0,0,0;7;0,0,0;5;N")
    sol = solve_compiled(game, state)
    assert (sol.value, sol.south_margin, sol.best_moves, sol.nodes) == (-2, 2, (), 2)
    same_search(game, state)  # MTD(f) from 0 needs two probes of the finished position


def test_a_game_deeper_than_the_frames_starts_again_with_more(monkeypatch):
    game = Kalah(pits=4, seeds=3)
    state = late_positions(game, 7, 1, 20)[0]
    want = solve_python(game, state)
    monkeypatch.setattr(solver, "FIRST_DEPTH", 1)
    got = solve_compiled(game, state)
    assert (got.value, got.best_moves, got.nodes) == (want.value, want.best_moves, want.nodes)


def test_table_growth_keeps_every_entry():
    # Kalah(4,4) from the start: about 1.1 M nodes, the table doubles from 4,096 rows many times
    game = Kalah(pits=4, seeds=4)
    sol = solve_compiled(game, game.initial_state())
    assert (sol.value, sol.best_moves, sol.nodes) == (2, (1,), 449099)  # docs/kalah.md


def test_solve_takes_the_compiled_path_unless_python_is_forced(monkeypatch):
    game = Kalah(pits=3, seeds=2)
    state = game.initial_state()
    calls: list[str] = []
    monkeypatch.setattr(solver, "solve_compiled", lambda g, s, **_: calls.append("compiled"))
    monkeypatch.setattr(solver, "solve_python", lambda g, s, **_: calls.append("python"))
    for value, path in [(None, "compiled"), ("0", "compiled"), ("1", "python"), ("", "compiled")]:
        if value is None:
            monkeypatch.delenv("MINDGAMES_PYTHON_PATH", raising=False)
        else:
            monkeypatch.setenv("MINDGAMES_PYTHON_PATH", value)
        solver.solve(game, state)
        assert calls.pop() == path


def test_kalah_solve_is_the_compiled_value():
    game = Kalah(pits=4, seeds=3, empty_capture=True)
    assert game.solve(game.initial_state()) == solve(game, game.initial_state()).value == 8


def test_the_kernel_stops_at_a_node_budget_or_when_told():
    from mindgames.games.kalah.solverkernels import BUDGET, DONE, STOPPED, solve_row

    game = Kalah(pits=4, seeds=3)
    gk = game.kernels()
    row = gk.to_row(game.initial_state())
    for control, outcome in [([5000, 0, 1 << 20], BUDGET), ([0, 1, 1 << 20], STOPPED)]:
        got = solve_row(gk.params, row, 64, np.array(control, dtype=np.int64))
        assert got[0] == outcome and got[2] == 4096 * (2 if outcome == BUDGET else 1)
    assert solve_row(gk.params, row, 64, np.array([0, 0, 1 << 20]))[:3] == (DONE, 6, 22399)


def test_a_kernel_error_in_the_solving_thread_reaches_the_caller(monkeypatch):
    from mindgames.games.kalah import solverkernels

    def broken(*args: object) -> None:
        raise RuntimeError("broken kernel")

    monkeypatch.setattr(solverkernels, "solve_row_with", broken)
    with pytest.raises(RuntimeError, match="broken kernel"):
        solve_compiled(Kalah(pits=2, seeds=2), Kalah(pits=2, seeds=2).initial_state())


def test_a_capped_table_replaces_entries_and_keeps_the_value():
    game = Kalah(pits=4, seeds=3)
    for state in [game.initial_state(), *late_positions(game, 3, 5, 20)]:
        want = solve_python(game, state)
        got = solve_compiled(game, state, max_rows=1 << 6)
        assert (got.value, got.best_moves) == (want.value, want.best_moves)
        assert got.nodes >= want.nodes


def positions_with_successors(game: Kalah, seed: int, count: int) -> list[KalahState]:
    """Positions from the whole game, each followed by its unfinished successors (the groups
    of ``data generate --successors``)."""
    out = []
    for k, state in enumerate(late_positions(game, seed, count, 4 * game.pits)):
        kids = [child for _, child in game.children(state) if not game.is_terminal(child)]
        out += [state, *kids] if k % 2 else [*kids, state]  # the parent first and last
    return out


@pytest.mark.parametrize("forced", ["0", "1"])
def test_one_table_carried_across_solves_keeps_every_value_and_saves_nodes(monkeypatch, forced):
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", forced)
    for game in (Kalah(pits=4, seeds=3), Kalah(pits=5, seeds=3, empty_capture=True)):
        states = positions_with_successors(game, 11, 8)
        alone = [solve(game, state) for state in states]
        carried = solve_all(game, states)
        assert [(s.value, s.best_moves) for s in carried] == [
            (s.value, s.best_moves) for s in alone
        ]
        assert sum(s.nodes for s in carried) < sum(s.nodes for s in alone)
        assert game.solve_many(states) == [s.value for s in alone]


def test_a_carried_table_at_its_cap_keeps_every_value():
    game = Kalah(pits=4, seeds=3)
    states = positions_with_successors(game, 5, 6)
    got = solve_all_compiled(game, states, max_rows=1 << 6)
    assert [(s.value, s.best_moves) for s in got] == [
        (s.value, s.best_moves) for s in map(lambda state: solve_python(game, state), states)
    ]


def test_a_time_limit_stops_a_compiled_solve():
    game = Kalah(pits=6, seeds=4)  # far beyond a second
    with pytest.raises(TimeLimitError, match="no answer within 0.3 s"), time_limit(0.3, "solve"):
        solve_compiled(game, game.initial_state())


def test_data_solve_and_a_spread_quality_set_are_the_same_on_both_paths(monkeypatch):
    """What ``data solve`` (``label_chunk``) and ``quality --spread`` (``build``) store, run
    compiled and with the Python solver forced, over positions from the whole game."""
    from mindgames.data.labelling import Labeller, label_chunk
    from mindgames.data.solved import Sampling, build
    from mindgames.executors import SerialExecutor

    game = Kalah(pits=4, seeds=3)
    sampling = Sampling(count=24, seed=7, max_pieces=None, spread=(3, 20))
    labeller = Labeller("solve", game.spec(), squash="linear", scale=24.0).as_dict()
    answers = []
    for forced in ("0", "1"):
        monkeypatch.setenv("MINDGAMES_PYTHON_PATH", forced)
        solved = build(game, sampling, SerialExecutor())
        items = list(enumerate(s.position for s in solved))
        answers.append((solved, label_chunk(labeller, items)))
    assert answers[0] == answers[1]
    counts = {game.pieces(game.parse_position(s.position)) for s in answers[0][0]}
    assert len(answers[0][0]) == 24 and len(counts) >= 12 and max(counts) >= 18
