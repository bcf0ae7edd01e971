"""``mindgames match`` and the tournament CLI: plans, SPRT early stops, JSON output, errors."""

import json

import pytest
from click.testing import CliRunner

from mindgames.cli.main import cli
from mindgames.errors import ConfigError
from mindgames.play.match import match_plan, run_match
from mindgames.play.sprt import Sprt
from mindgames.play.task import comparable
from mindgames.registry import get_registry

STRONG = "alphabeta:depth=2,eval=material"


def test_a_match_plan_plays_whole_game_pairs():
    registry = get_registry()
    p = match_plan(registry, "kalah:pits=4,seeds=3", STRONG, "random", games=7, seed=1)
    assert len(p.tasks) == 8
    assert {(t.first, t.second) for t in p.tasks} == {(STRONG, "random"), ("random", STRONG)}
    assert len({t.opening for t in p.tasks}) == 4  # one random opening per pair
    # checkers defaults to its opening book, the ACF ballots, reused as rounds when exhausted
    c = match_plan(registry, "checkers", "random", "random", games=4, seed=1)
    assert [t.opening.label for t in c.tasks] == ["ballot 1"] * 2 + ["ballot 2"] * 2
    assert c.agents == ["random#1", "random#2"]
    with pytest.raises(ConfigError, match="--games"):
        match_plan(registry, "kalah", "random", "random", games=0, seed=1)


def test_sprt_stops_early_at_the_same_game_whatever_the_executor(tmp_path):
    registry = get_registry()
    p = match_plan(registry, "kalah:pits=4,seeds=3", STRONG, "random", games=200, seed=2)
    test = Sprt(0, 100, 0.05, 0.05)
    serial = run_match(p, tmp_path / "s.jsonl", sprt=test, workers=1)
    pooled = run_match(p, tmp_path / "p.jsonl", sprt=test, workers=2)
    s = serial.report["sprt"]
    assert s["verdict"] == "H1" and s["llr"] >= s["upper"]
    assert 2 <= serial.report["games"] < 200 and serial.report["games"] % 2 == 0
    assert [comparable(r) for r in serial.records] == [comparable(r) for r in pooled.records]
    written = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert [comparable(r) for r in written] == [comparable(r) for r in serial.records]


def test_sprt_accepts_h0_for_equal_agents():
    p = match_plan(get_registry(), "kalah:pits=4,seeds=3", "random", "random", games=400, seed=3)
    out = run_match(p, None, sprt=Sprt(100, 200), workers=1)
    assert out.report["sprt"]["verdict"] == "H0"
    assert out.report["games"] < 400


def test_match_command_prints_json_with_the_standings_shape(tmp_path):
    result = CliRunner().invoke(
        cli,
        [
            "match",
            STRONG,
            "random",
            "--game",
            "kalah:pits=4,seeds=3",
            "--games",
            "6",
            "--seed",
            "4",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "m.jsonl"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 6
    row = report["standings"][0]
    assert list(row) == [
        "agent",
        "games",
        "wins",
        "draws",
        "losses",
        "score_games",
        "score_clashes",
        "elo",
        "elo_low",
        "elo_high",
    ]
    assert len((tmp_path / "m.jsonl").read_text().splitlines()) == 6


def test_match_command_with_sprt_reports_the_verdict():
    result = CliRunner().invoke(
        cli,
        [
            "match",
            STRONG,
            "random",
            "--game",
            "kalah:pits=4,seeds=3",
            "--games",
            "100",
            "--workers",
            "1",
            "--sprt",
            "0,100,0.1,0.1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "SPRT elo0=0 elo1=100: LLR" in result.output and "-> H1" in result.output


def test_tournament_command_runs_a_config_and_resumes(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "kalah:pits=4,seeds=3"\nopenings = "random:plies=1,count=2"\n'
        '[agents]\nr = "random"\ng = "greedy:eval=material"\n'
    )
    args = ["tournament", str(config), "--out", str(tmp_path / "run"), "--workers", "1"]
    first = CliRunner().invoke(cli, [*args, "--seed", "2"])
    assert first.exit_code == 0, first.output
    assert "agent" in first.output and "4 games (4 played now)" in first.output
    again = CliRunner().invoke(cli, [*args, "--seed", "2", "--resume", "--json"])
    assert json.loads(again.output)["games"] == 4
    other = CliRunner().invoke(cli, [*args, "--seed", "3"])
    assert other.exit_code == 2
    assert (
        other.output.startswith("mindgames: error: ") and "another config or seed" in other.output
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "random", "randm", "--game", "kalah"], "unknown searcher 'randm'"),
        (["match", "random", "random", "--game", "kala"], "unknown game 'kala'"),
        (["match", "random", "random", "--game", "kalah", "--sprt", "5,0"], "elo0 must be below"),
        (
            ["match", "random", "random", "--game", "kalah", "--openings", "file:path=/nope"],
            "no such opening file",
        ),
        (["tournament", "/no/such.toml"], "no such file"),
    ],
)
def test_command_errors_are_one_line(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.output.startswith("mindgames: error: ") and message in result.output
    assert result.output.count("\n") == 1
