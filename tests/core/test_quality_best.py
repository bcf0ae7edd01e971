"""The best-moves judge (``quality --judge best``): one solve a position, the same best moves as
solving every successor, a version-2 file whose missing values every reader handles."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.data.solved import (
    Sampling,
    build,
    candidates,
    read_file,
    solve_best_moves,
    solve_moves,
)
from mindgames.errors import CapabilityError, MindgamesError
from mindgames.executors import SerialExecutor
from mindgames.games.kalah.rules import Kalah
from mindgames.measure.quality import choose, report
from mindgames.registry import get_registry

from support.cli import one_line_error
from support.cli import run as mindgames

GAME = "kalah:pits=3,seeds=3"


def best_of(values):
    best = max(v for v in values.values() if v is not None)
    return best, {move for move, value in values.items() if value == best}


def random_state(game, seed, plies):
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        moves = game.legal_moves(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    return state


@settings(max_examples=60, deadline=None)
@given(
    pits=st.integers(2, 5),
    seeds=st.integers(1, 4),
    empty_capture=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 40),
)
def test_one_solve_finds_the_best_moves_that_solving_every_successor_finds(
    pits, seeds, empty_capture, seed, plies
):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    state = random_state(game, seed, plies)
    big = pits * seeds > 12 and game.pieces(state) > 14  # solve only what solves in a blink
    if big or game.is_terminal(state):
        return
    every = solve_moves(game, state)
    once = solve_best_moves(game, state)
    assert once.keys() == every.keys() == {str(m) for m in game.legal_moves(state)}
    assert best_of(once) == best_of(every)
    assert all(value is None for move, value in once.items() if move not in best_of(every)[1])


def test_a_judge_that_drops_a_best_move_is_caught_on_a_seeded_sample():
    """The comparison can fail: a planted judge that keeps only the first best move differs from
    the reference on the same sample (positions with two best moves are common enough)."""
    game = get_registry().game("kalah:pits=6,seeds=4")
    sampling = Sampling(seed=8, max_pieces=None, spread=(4, 18))
    texts = [text for text, _ in itertools.islice(candidates(game, sampling), 30)]
    states = [game.parse_position(text) for text in texts]
    reference = [best_of(solve_moves(game, s)) for s in states]
    assert [best_of(solve_best_moves(game, s)) for s in states] == reference

    def planted(state):
        value, best = game.solve_best(state)
        return value, best[:1]

    dropped = []
    for state in states:
        value, best = planted(state)
        texts = {game.move_text(state, m) for m in best}
        dropped.append((value, texts))
    assert dropped != reference


@pytest.fixture(scope="module")
def game():
    return get_registry().game(GAME)


def test_both_judges_keep_the_same_positions_with_the_same_best_moves(game, tmp_path):
    sampling = Sampling(count=30, seed=6, max_pieces=None, spread=(3, 14))
    values = build(game, sampling, SerialExecutor())
    out = tmp_path / "best.jsonl"
    best = build(game, sampling, SerialExecutor(), write=out, judge="best")
    assert [s.position for s in best] == [s.position for s in values]
    assert [(s.best, s.best_moves) for s in best] == [(s.best, s.best_moves) for s in values]
    assert any(None in s.values.values() for s in best)
    head, again = read_file(out, game)
    assert head["version"] == 2 and "null" in head["value"] and again == best
    chosen = choose(game, "greedy:eval=material", values, SerialExecutor(), seed=2)
    full, part = report("g", values, chosen), report("g", best, chosen)
    assert full["optimal"] == part["optimal"] < len(values)  # greedy misses some
    assert full["mean_loss"] > 0 and part["mean_loss"] is None and part["max_loss"] is None


def test_cli_judge_best_writes_nulls_and_reports_no_margin_lost(game, tmp_path):
    out = tmp_path / "best.jsonl"
    made = mindgames(
        "quality", GAME, "--agent", "random", "--count", "12", "--seed", "4", "--spread", "4-13",
        "--judge", "best", "--write", str(out), "--workers", "1",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "margin lost not in this set (best moves only)" in made.stdout
    head, *records = [json.loads(line) for line in out.read_text().splitlines()]
    assert head["version"] == 2 and len(records) == 12
    assert all(r["best"] == max(v for v in r["values"].values() if v is not None) for r in records)
    one_line_error(
        mindgames("quality", GAME, "--agent", "random", "--positions", str(out), "--judge", "best"),
        "--judge says how to solve a new set: not with --positions",
    )


def test_nulls_are_refused_in_a_version_1_file_and_a_record_needs_its_best(game, tmp_path):
    path = tmp_path / "set.jsonl"
    build(game, Sampling(count=3, seed=1, max_pieces=10), SerialExecutor(), write=path)
    head, *records = path.read_text().splitlines()
    record = json.loads(records[0])
    worst = min(record["values"], key=record["values"].get)
    record["values"][worst] = None
    path.write_text("\n".join([head, json.dumps(record)]) + "\n")
    with pytest.raises(MindgamesError, match=r"set.jsonl:2: every move value must be an integer$"):
        read_file(path, game)
    two = json.dumps({**json.loads(head), "version": 2})
    path.write_text("\n".join([two, json.dumps(record)]) + "\n")
    assert read_file(path, game)[1][0].values[worst] is None
    record["values"] = dict.fromkeys(record["values"])
    path.write_text("\n".join([two, json.dumps(record)]) + "\n")
    with pytest.raises(MindgamesError, match="set.jsonl:2: no move has a value"):
        read_file(path, game)


def test_a_best_set_does_not_resume_from_a_values_partial_and_needs_the_capability(game, tmp_path):
    out = tmp_path / "set.jsonl"
    sampling = Sampling(count=5, seed=1, max_pieces=10)

    def stop(item, kept):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(game, sampling, SerialExecutor(), write=out, on_solved=stop)
    with pytest.raises(MindgamesError, match="a partial set of other positions"):
        build(game, sampling, SerialExecutor(), write=out, judge="best")

    class SolvesOnly:  # Solvable without SolvesBestMoves
        def solve(self, state):
            return 0

        def spec(self):
            return "solves-only"

    from mindgames.data.solved import require_solvable

    with pytest.raises(CapabilityError, match="cannot find the best moves in one solve"):
        require_solvable(SolvesOnly(), judge="best")
    with pytest.raises(MindgamesError, match="unknown judge 'fast'"):
        require_solvable(game, judge="fast")
