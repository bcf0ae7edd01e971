"""The ``kalah-solver`` searcher: exact moves once a position solves within the node budget,
alpha-beta before; the budget stops both solvers at the same node."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_agent
from mindgames.errors import CapabilityError
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import CHECK_EVERY, OverBudget, solve_compiled, solve_python
from mindgames.registry import get_registry
from tests.games.test_kalah_solver_kernels import late_positions


def test_the_python_check_interval_is_the_kernels():
    from mindgames.games.kalah.solverkernels import CHECK_EVERY as KERNEL

    assert CHECK_EVERY == KERNEL


@pytest.mark.parametrize("solver", [solve_python, solve_compiled])
def test_a_budget_stops_a_solve_at_the_same_node_on_both_paths(solver):
    """A solve of N nodes stops iff the budget is below the last multiple of 4096 it reaches."""
    game = Kalah(pits=4, seeds=3)
    state = game.initial_state()
    whole = solve_python(game, state)
    last = whole.nodes // (CHECK_EVERY + 1) * (CHECK_EVERY + 1)
    assert last > 0, whole.nodes
    with pytest.raises(OverBudget):
        solver(game, state, budget=last - 1)
    got = solver(game, state, budget=last)
    assert (got.value, got.best_moves, got.nodes) == (whole.value, whole.best_moves, whole.nodes)


def agent(spec: str, game: Kalah):
    return build_agent(get_registry(), game, spec)


def test_a_position_that_solves_gets_a_best_move_and_its_result():
    game = Kalah(pits=4, seeds=3)
    solver = agent("kalah-solver:eval=material", game)
    for state in late_positions(game, 5, 20, 10):
        exact = solve_python(game, state)
        result = solver.choose(game, state, np.random.default_rng(0))
        assert result.move == exact.best_moves[0]
        assert result.value == np.sign(exact.value)


def test_random_ties_pick_among_the_best_moves_only():
    game = Kalah(pits=4, seeds=3)
    solver = agent("kalah-solver:eval=material,random_ties=true", game)
    for state in late_positions(game, 6, 10, 10):
        best = solve_python(game, state).best_moves
        chosen = {solver.choose(game, state, np.random.default_rng(s)).move for s in range(6)}
        assert chosen <= set(best)


def test_over_the_budget_it_plays_the_alpha_beta_move():
    game = Kalah(pits=6, seeds=4)
    state = game.initial_state()
    solver = agent("kalah-solver:nodes=1,depth=3,eval=material", game)
    searcher = agent("alphabeta:depth=3,eval=material", game)
    rng = np.random.default_rng
    got = solver.choose(game, state, rng(1))
    want = searcher.choose(game, state, rng(1))
    assert (got.move, got.value) == (want.move, want.value)


def test_it_plays_kalah_only():
    game = get_registry().game("checkers")
    solver = agent("kalah-solver:eval=material", game)
    with pytest.raises(CapabilityError, match="plays kalah"):
        solver.choose(game, game.initial_state(), np.random.default_rng(0))


def test_an_absurd_fallback_depth_is_refused_when_the_agent_is_built():
    from tests.support.cli import one_line_error, run

    done = run("analyse", "kalah", "--agent", "kalah-solver:depth=1000,eval=material")
    one_line_error(done, "'depth' must be <= 64: 1000")


def test_above_max_seeds_it_plays_the_alpha_beta_move_though_the_position_solves():
    game = Kalah(pits=4, seeds=3)
    capped = agent("kalah-solver:max_seeds=5,depth=2,eval=material", game)
    uncapped = agent("kalah-solver:max_seeds=0,depth=2,eval=material", game)
    searcher = agent("alphabeta:depth=2,eval=material", game)
    rng = np.random.default_rng
    differs = 0
    states = [s for s in late_positions(game, 7, 20, 10) if game.pieces(s) > 5]
    assert len(states) >= 5
    for state in states:
        got = capped.choose(game, state, rng(1))
        want = searcher.choose(game, state, rng(1))
        assert (got.move, got.value) == (want.move, want.value)
        exact = uncapped.choose(game, state, rng(1))
        assert exact.value == np.sign(solve_python(game, state).value)
        differs += (exact.move, exact.value) != (got.move, got.value)
    assert differs > 0  # the cap changed some answers: the solver was not asked


def test_at_or_below_max_seeds_it_asks_the_solver():
    game = Kalah(pits=4, seeds=3)
    solver = agent("kalah-solver:max_seeds=10,eval=material", game)
    for state in late_positions(game, 8, 8, 10):
        assert game.pieces(state) <= 10
        exact = solve_python(game, state)
        result = solver.choose(game, state, np.random.default_rng(0))
        assert (result.move, result.value) == (exact.best_moves[0], np.sign(exact.value))


def test_a_negative_max_seeds_is_refused():
    from tests.support.cli import one_line_error, run

    done = run("analyse", "kalah", "--agent", "kalah-solver:max_seeds=-1,eval=material")
    one_line_error(done, "'max_seeds' must be >= 0: -1")
