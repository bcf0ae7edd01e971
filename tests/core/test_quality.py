"""Solved positions and ``mindgames quality`` on small Kalah boards, with real solving."""

from __future__ import annotations

import collections
import itertools
import json

import attrs
import pytest

from mindgames import Searcher, SearcherInfo, SearchResult, hookimpl
from mindgames.data.solved import Sampling, build, candidates, read_file, solve_moves
from mindgames.errors import CapabilityError, MindgamesError
from mindgames.executors import SerialExecutor, open_executor
from mindgames.games.kalah.solver import solve
from mindgames.measure.quality import choose, report, wilson
from mindgames.registry import get_registry, registry_with

from support.cli import one_line_error
from support.cli import run as mindgames

GAME = "kalah:pits=3,seeds=3"


@attrs.frozen
class Perfect(Searcher):
    """A test searcher that plays a move of the best exact value (Game.solve of each child)."""

    name = "perfect"
    needs_evaluator = False

    def search(self, game, state, evaluator, rng):
        values = solve_moves(game, state)
        best = max(values, key=values.__getitem__)
        return SearchResult(game.parse_move(state, best), float(values[best]))


class PerfectPlugin:
    @hookimpl
    def mindgames_searchers(self):
        return [SearcherInfo("perfect", Perfect, "test searcher: exact values")]


@pytest.fixture(scope="module")
def game():
    return get_registry().game(GAME)


@pytest.fixture(scope="module")
def solved(game):
    return build(game, Sampling(count=40, seed=1, max_pieces=12), SerialExecutor())


def test_every_stored_value_agrees_with_the_solver_and_asks_a_decision(game, solved):
    assert len(solved) == 40
    for item in solved:
        state = game.parse_position(item.position)
        assert game.pieces(state) <= 12 and len(set(item.values.values())) > 1
        exact = solve(game, state)
        assert item.best == exact.value
        optimal = {move for move, value in item.values.items() if value == item.best}
        assert optimal == {str(move) for move in exact.best_moves}


def test_the_set_depends_on_the_seed_alone_not_on_the_executor(game, solved):
    with open_executor(2) as pool:
        again = build(game, Sampling(count=40, seed=1, max_pieces=12), pool, window=3)
    assert again == solved
    other = build(game, Sampling(count=40, seed=2, max_pieces=12), SerialExecutor())
    assert [s.position for s in other] != [s.position for s in solved]


def test_a_perfect_agent_is_always_optimal_and_a_random_one_is_not(game, solved):
    registry = registry_with(("perfect", PerfectPlugin()))
    perfect = choose(game, "perfect", solved, SerialExecutor(), registry=registry)
    best = report("perfect", solved, perfect)
    assert best["optimal_share"] == 1.0 and best["mean_loss"] == 0 and best["max_loss"] == 0
    chosen = choose(game, "random", solved, SerialExecutor(), seed=3, registry=registry)
    worst = report("random", solved, chosen)
    assert worst["optimal"] < 40 and worst["mean_loss"] > 0
    assert worst["optimal_low"] <= worst["optimal_share"] <= worst["optimal_high"]
    assert chosen == choose(game, "random", solved, SerialExecutor(), seed=3, registry=registry)


def test_wilson_interval_matches_hand_values():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), pytest.approx(1.0))


class Counting(SerialExecutor):
    """A serial executor that counts the tasks it runs."""

    def __init__(self):
        self.tasks = 0

    def submit(self, fn, /, *args, **kwargs):
        self.tasks += 1
        return super().submit(fn, *args, **kwargs)


def test_a_killed_build_resumes_from_its_partial_file_without_solving_again(game, tmp_path):
    out = tmp_path / "set.jsonl"
    sampling = Sampling(count=12, seed=4, max_pieces=12)
    seen = []

    def kill(item, kept):
        seen.append(item)
        if len(seen) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(game, sampling, SerialExecutor(), write=out, on_solved=kill)
    assert not out.exists()
    partial = tmp_path / "set.jsonl.partial"
    assert len(partial.read_text().splitlines()) == 1 + 7
    executor, fresh = Counting(), Counting()
    resumed = build(game, sampling, executor, write=out)
    whole = build(game, sampling, fresh)
    assert resumed == whole and not partial.exists()
    assert executor.tasks == fresh.tasks - 7  # the 7 solved before the kill are not solved again
    assert read_file(out, game)[1] == whole


def test_cli_writes_a_set_and_judges_from_it_without_solving(tmp_path):
    out = tmp_path / "new" / "set.jsonl"  # its directory is made, as match --out makes one
    made = mindgames(
        "quality", GAME, "--agent", "greedy:eval=material", "--count", "20", "--seed", "5",
        "--max-pieces", "10", "--write", str(out), "--workers", "2", "--json",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    first = json.loads(made.stdout)
    head, *lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert head["format"] == "mindgames-solved-positions" and head["version"] == 1
    assert head["game"] == GAME and head["positions"] == 20 == len(lines)
    assert head["sampling"] == {"count": 20, "seed": 5, "max_pieces": 10, "min_plies": 0}
    assert all(line["best"] == max(line["values"].values()) for line in lines)
    assert not list(out.parent.glob("*.partial")) and not list(out.parent.glob(".*.tmp"))
    again = mindgames(
        "quality", GAME, "--agent", "greedy:eval=material", "--positions", str(out),
        "--seed", "5", "--workers", "1", "--json",
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert {**json.loads(again.stdout), "file": None} == {**first, "file": None}
    assert first["positions"] == 20 and 0 <= first["optimal"] <= 20


def test_an_unsolvable_game_and_a_bad_positions_file_are_one_line_errors(game, solved, tmp_path):
    one_line_error(
        mindgames("quality", "checkers", "--agent", "random"),
        "game 'checkers' cannot solve positions exactly",
    )
    path = tmp_path / "bad.jsonl"
    from mindgames.data.solved import header, write_file

    write_file(path, header(game, Sampling(count=2)), list(solved[:2]))
    lines = path.read_text().splitlines()
    record = json.loads(lines[2])
    record["values"].popitem()
    path.write_text("\n".join([*lines[:2], json.dumps(record)]) + "\n")
    one_line_error(
        mindgames("quality", GAME, "--agent", "random", "--positions", str(path)),
        f"{path}:3: the values name moves",
    )
    wrong = r"bad.jsonl:1: positions of game 'kalah:pits=3,seeds=3', not 'kalah'"
    with pytest.raises(MindgamesError, match=wrong):
        read_file(path, get_registry().game("kalah"))
    path.write_text(lines[0] + "\n{not json\n")
    one_line_error(
        mindgames("quality", GAME, "--agent", "random", "--positions", str(path)),
        f"{path}:2: not a JSON record",
    )


def test_a_game_that_solves_but_counts_no_pieces_needs_another_bound(game):
    from mindgames.data.solved import require_solvable

    class Uncounted:  # solvable (the Solvable protocol), without CountsPieces
        def solve(self, state):
            return 0

        def spec(self):
            return "uncounted"

    with pytest.raises(CapabilityError, match="does not count pieces"):
        require_solvable(Uncounted(), Sampling())
    require_solvable(Uncounted(), Sampling(max_pieces=None))


def test_the_shipped_kalah_set_reads_and_its_values_are_exact():
    from pathlib import Path

    path = Path(__file__).parents[2] / "examples" / "quality" / "kalah64-late-1000.jsonl"
    game = get_registry().game("kalah:pits=6,seeds=4")
    head, solved = read_file(path, game)
    assert head["sampling"] == {"count": 1000, "seed": 1, "max_pieces": 18, "min_plies": 0}
    assert len(solved) == 1000 and all(item.decisive for item in solved)
    small = sorted(solved, key=lambda item: game.pieces(game.parse_position(item.position)))
    for item in small[:: len(small) // 8][:8]:
        assert solve_moves(game, game.parse_position(item.position)) == item.values


def test_the_shipped_whole_game_set_spreads_its_2000_positions_and_its_best_moves_are_exact():
    """Issue 35's acceptance set (best-moves judge): candidates drawn in turn at every seed count
    of 3-36, those whose moves are all best dropped (more of them at few seeds), and the best
    moves of its smaller positions re-solved exactly."""
    from pathlib import Path

    from mindgames.data.solved import solve_best_moves

    path = (
        Path(__file__).parents[2] / "examples" / "quality" / "kalah64-spread-3-36-seed35-2000.jsonl"
    )
    game = get_registry().game("kalah:pits=6,seeds=4")
    head, solved = read_file(path, game)
    assert head["sampling"]["spread"] == [3, 36] and head["sampling"]["seed"] == 35
    assert len(solved) == 2000
    states = [game.parse_position(item.position) for item in solved]
    counts = collections.Counter(game.pieces(state) for state in states)
    assert set(counts) == set(range(3, 37))
    assert max(counts.values()) <= 67 and min(counts.values()) >= 20  # 2,277 candidates / 34
    assert min(counts[n] for n in range(20, 37)) >= 60
    small = [(i, s) for i, s in zip(solved, states, strict=True) if game.pieces(s) <= 14]
    for item, state in small[:: len(small) // 12][:12]:
        assert solve_best_moves(game, state) == item.values


def test_sigint_keeps_the_solved_positions_and_a_rerun_with_another_count_goes_on(tmp_path):
    import signal

    from support.cli import lines, start, wait_for

    out = tmp_path / "set.jsonl"
    partial = tmp_path / "set.jsonl.partial"
    args = ("quality", "kalah", "--count", "400", "--seed", "2", "--write", str(out))
    proc = start(*args, "--workers", "2")
    wait_for(lambda: lines(partial) >= 6, proc)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    done = type("Done", (), {"returncode": proc.returncode, "stderr": proc.stderr.read()})
    one_line_error(
        done,
        "interrupted by SIGINT; the positions solved so far are kept: run the same command",
        code=130,
    )
    assert not out.exists()
    solved = {r["index"]: r for r in map(json.loads, partial.read_text().splitlines()[1:])}
    assert len(solved) >= 5
    prefix = next(i for i in range(len(solved) + 1) if i not in solved)  # solved in a row
    in_order = [solved[i] for i in range(prefix)]
    decisive = [r["position"] for r in in_order if len(set(r["values"].values())) > 1]
    rerun = mindgames(*args[:2], "--count", "3", *args[4:], "--workers", "1")
    assert rerun.returncode == 0, rerun.stderr
    head, *kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert head["positions"] == 3 and not partial.exists()
    assert [r["position"] for r in kept][: len(decisive)] == decisive[:3]  # taken, not re-drawn


def test_a_spread_set_covers_every_piece_count_of_its_band_evenly(game):
    sampling = Sampling(count=60, seed=3, max_pieces=None, spread=(4, 13))
    candidates_ = [text for text, _ in itertools.islice(candidates(game, sampling), 40)]
    counts = [game.pieces(game.parse_position(text)) for text in candidates_]
    assert counts == [4 + k % 10 for k in range(40)]  # candidate k has exactly 4 + k mod 10
    solved_ = build(game, sampling, SerialExecutor())
    kept = collections.Counter(game.pieces(game.parse_position(s.position)) for s in solved_)
    assert len(solved_) == 60 and set(kept) <= set(range(4, 14)) and len(kept) >= 8
    assert sampling.as_dict()["spread"] == [4, 13] and "spread" not in Sampling().as_dict()
    with pytest.raises(MindgamesError, match="0 <= lo <= hi"):
        Sampling(spread=(5, 4))


def test_cli_spread_writes_its_band_and_refuses_max_pieces_beside_it(tmp_path):
    out = tmp_path / "spread.jsonl"
    made = mindgames(
        "quality", GAME, "--count", "12", "--seed", "4", "--spread", "4-13", "--write", str(out),
        "--workers", "1",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    head = json.loads(out.read_text().splitlines()[0])
    assert head["sampling"] == {
        "count": 12, "seed": 4, "max_pieces": None, "min_plies": 0, "spread": [4, 13]
    }  # fmt: skip
    one_line_error(
        mindgames("quality", GAME, "--spread", "3-14", "--max-pieces", "10", "--write", str(out)),
        "give --max-pieces or --spread, not both",
    )
    one_line_error(
        mindgames("quality", GAME, "--spread", "9-3", "--write", str(out)),
        "expected LO-HI with 0 <= LO <= HI",
    )
