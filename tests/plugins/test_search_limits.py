"""Long searches through the real CLI: an absurd depth is refused in one line that names the
escape (``time=``/``nodes=``), which works, and ``solve`` gives up at its ``--time`` limit."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import one_line_error, run


@pytest.mark.parametrize("searcher", ["alphabeta", "minimax", "endgame"])
def test_an_absurd_depth_is_refused_naming_the_budget_options(searcher):
    done = run("analyse", "kalah", "--agent", f"{searcher}:depth=1000,eval=material")
    one_line_error(done, "'depth' must be <= 64: 1000", "time=SECONDS or nodes=N")


@pytest.mark.parametrize("budget", ["time=0.2", "nodes=500"])
def test_a_budget_ends_a_search_that_has_no_depth(budget):
    done = run("analyse", "checkers", "--agent", f"alphabeta:{budget},eval=material", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stats"]["depth"] >= 1


def test_solve_gives_up_at_its_time_limit():
    done = run("solve", "kalah:pits=6,seeds=4", "--time", "0.3")
    one_line_error(done, "solve kalah:pits=6,seeds=4: no answer within 0.3 s", "--time")
