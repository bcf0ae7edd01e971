"""``mindgames replicates``: each run's match read from its results file; an interval over runs."""

from __future__ import annotations

import json
import math

import pytest

from mindgames.errors import MindgamesError
from mindgames.measure.replicates import Run, read_run, summarise, text
from mindgames.play.match import match_plan, run_match
from mindgames.registry import get_registry
from tests.core.test_cli import mindgames

GAME = "kalah:pits=4,seeds=3"
STRONG = "alphabeta:depth=2,eval=material"


def play(path, first=STRONG, second="random", seed=1, game=GAME, games=8):
    plan = match_plan(get_registry(), game, first, second, games=games, seed=seed)
    return run_match(plan, path, workers=1).report


def run_of(elo: float, path: str = "r.jsonl") -> Run:
    return Run(path, GAME, f"a@{path}", f"b@{path}", 1, 0, 0, elo, elo - 10, elo + 10)


def test_a_run_is_its_match_from_the_first_agents_side(tmp_path):
    report = play(tmp_path / "m.jsonl", first="random", second=STRONG)
    run = read_run(tmp_path / "m.jsonl")
    row = next(s for s in report["standings"] if s["agent"] == "random")
    assert (run.agent, run.opponent, run.game) == ("random", STRONG, GAME)
    assert (run.wins, run.draws, run.losses) == (row["wins"], row["draws"], row["losses"])
    assert (run.elo, run.elo_low, run.elo_high) == (row["elo"], row["elo_low"], row["elo_high"])
    assert run.games == 8 and run.elo < 0  # random loses to a 2-ply search


def test_the_interval_over_runs_is_students_t_on_the_runs_elo():
    # the four checkers co-evolution runs of docs/notes/coevolution-checkers.md:
    # mean +38, sd 63, [-62, +137]
    runs = [run_of(e, f"s{i}.jsonl") for i, e in enumerate([-35, 117, 23, 45], 1)]
    s = summarise(runs)
    assert s.mean == pytest.approx(37.5)
    assert s.sd == pytest.approx(62.83, abs=0.01)
    half = 3.182446 * s.sd / 2
    assert (s.low, s.high) == (pytest.approx(37.5 - half), pytest.approx(37.5 + half))
    assert "over 4 runs: mean +38, sd 63, 95% t-interval [-62, +137] (3 degrees" in text(s)
    wider = summarise(runs, level=0.99)
    assert wider.low < s.low and wider.high > s.high
    assert summarise(runs[:2]).high - summarise(runs[:2]).low > s.high - s.low  # fewer runs


def test_one_run_has_no_interval_over_runs():
    s = summarise([run_of(40.0)])
    assert (s.mean, s.sd, s.low, s.high) == (40.0, None, None, None)
    assert "needs two or more" in text(s)


def test_runs_of_another_game_swapped_roles_or_a_file_twice_are_refused(tmp_path):
    one, two = run_of(10, str(tmp_path / "1.jsonl")), run_of(20, str(tmp_path / "2.jsonl"))
    other = Run(str(tmp_path / "3.jsonl"), "checkers", "x", "y", 1, 0, 0, 0.0, -1.0, 1.0)
    with pytest.raises(MindgamesError, match="different games: checkers, kalah"):
        summarise([one, other])
    swapped = Run(two.path, GAME, one.opponent, one.agent, 0, 0, 1, -20.0, -30.0, -10.0)
    with pytest.raises(MindgamesError, match="roles in the same order"):
        summarise([one, swapped])
    with pytest.raises(MindgamesError, match="given twice"):
        summarise([one, run_of(10, str(tmp_path / "." / "1.jsonl"))])
    with pytest.raises(MindgamesError, match="not finite"):
        summarise([one, run_of(math.inf, str(tmp_path / "4.jsonl"))])


def test_files_that_are_not_one_match_of_two_agents_are_refused(tmp_path):
    path = tmp_path / "m.jsonl"
    play(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(MindgamesError, match="no games in the file"):
        read_run(tmp_path / "empty.jsonl")
    with pytest.raises(MindgamesError, match="no such file"):
        read_run(tmp_path / "missing.jsonl")
    third = json.loads(lines[0]) | {"second": "alphabeta:depth=1,eval=material", "index": 8}
    (tmp_path / "three.jsonl").write_text("\n".join([*lines, json.dumps(third)]) + "\n")
    with pytest.raises(MindgamesError, match="not one match of two agents \\(3 agents\\)"):
        read_run(tmp_path / "three.jsonl")
    (tmp_path / "twice.jsonl").write_text("\n".join([*lines, lines[3]]) + "\n")
    with pytest.raises(MindgamesError, match="game 3 is in the file twice"):
        read_run(tmp_path / "twice.jsonl")
    (tmp_path / "odd.jsonl").write_text("\n".join(lines[1::2]) + "\n")
    with pytest.raises(MindgamesError, match="no even-numbered game"):
        read_run(tmp_path / "odd.jsonl")
    scoreless = json.loads(lines[2]) | {"score": "won"}
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], json.dumps(scoreless)]) + "\n")
    with pytest.raises(MindgamesError, match="bad.jsonl:2: not a game record .*score"):
        read_run(tmp_path / "bad.jsonl")


def test_the_command_reads_match_files_and_prints_the_interval(tmp_path):
    paths = [tmp_path / f"run{seed}.jsonl" for seed in (1, 2, 3)]
    for seed, path in enumerate(paths, 1):
        play(path, seed=seed)
    out = mindgames("replicates", *map(str, paths), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [r["path"] for r in data["runs"]] == [str(p) for p in paths]
    assert data["df"] == 2 and data["low"] < data["mean"] < data["high"]
    assert data["mean"] == pytest.approx(sum(read_run(p).elo for p in paths) / 3)
    table = mindgames("replicates", *map(str, paths), "--level", "0.9")
    assert table.returncode == 0 and "90% t-interval" in table.stdout
    bad = mindgames("replicates", str(paths[0]), str(tmp_path / "nope.jsonl"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "nope.jsonl: no such file" in bad.stderr


def test_a_run_where_one_side_scored_nothing_is_marked_as_regularised(tmp_path):
    # a 2-ply search against random on Kalah(4,3), seed 5: it wins all 6 games
    play(tmp_path / "sweep.jsonl", games=6, seed=5)
    run = read_run(tmp_path / "sweep.jsonl")
    assert (run.wins, run.draws, run.losses) == (6, 0, 0)
    assert run.elo_regularised and math.isfinite(run.elo)
    shown = text(summarise([run, run_of(10.0, str(tmp_path / "other.jsonl"))]))
    assert " *" in shown.splitlines()[2] and "one side scored nothing" in shown
    assert "*" not in text(summarise([run_of(10.0, "x.jsonl"), run_of(20.0, "y.jsonl")]))
