"""``mindgames show`` as a real subprocess: tournament results, saved games and PDN, stepped
through a pipe or printed at once."""

from __future__ import annotations

import json

import pytest

from support.cli import one_line_error, run

TOURNAMENT = """\
game = "kalah:pits=3,seeds=2"
format = "round-robin"
seed = 3
openings = "random:plies=1,count=2"

[agents]
random = "random"
greedy = "greedy:eval=material,random_ties=true"
"""

PDN = """\
[Event "two games"]
[Black "Ann"]
[White "Bob"]
[Result "*"]
1. 11-15 22-18 2. 15x22 25x18 *

[Event "give-away"]
[GameType "21"]
[Variant "giveaway"]
[Result "*"]
1. 11-15 22-18 2. 15x22 *
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    base = tmp_path_factory.mktemp("show")
    config = base / "t.toml"
    config.write_text(TOURNAMENT, encoding="utf-8")
    done = run("tournament", config, "--out", base / "run", "--workers", "1")
    assert done.returncode == 0, done.stderr
    return base / "run"


def records(run_dir):
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    return sorted((json.loads(line) for line in lines), key=lambda r: r["index"])


def test_all_prints_every_ply_of_the_chosen_tournament_game(run_dir):
    record = records(run_dir)[2]
    done = run("show", run_dir, "--number", "3", "--all")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"game 3: kalah:pits=3,seeds=2, {record['first']} (South) vs ")
    assert f": {record['result']}, " in first and f"opening {record['opening']}" in first
    opening = len(record["opening_moves"])
    assert opening and f", {record['plies']} plies after {opening} opening plies; " in first
    plies = len(record["opening_moves"]) + len(record["moves"])
    assert done.stdout.count("\nply ") == plies
    assert f"ply {plies}/{plies}: " in done.stdout and done.stdout.endswith(
        f"end: {record['result']}\n"
    )
    assert "pit   1  2  3   South" in done.stdout  # Kalah's board, its pits numbered


def test_json_gives_the_moves_and_every_position(run_dir):
    record = records(run_dir)[0]
    done = run("show", run_dir / "results.jsonl", "--json")
    shown = json.loads(done.stdout)
    assert shown["moves"] == record["opening_moves"] + record["moves"]
    assert shown["opening_plies"] == len(record["opening_moves"])
    assert shown["positions"][-1] == record["final_position"]
    assert len(shown["positions"]) == len(shown["moves"]) + 1


def test_a_pipe_steps_one_ply_a_line_back_and_to_a_ply(run_dir):
    done = run("show", run_dir, stdin="\n\np\n3\nq\nnever\n")
    assert done.returncode == 0, done.stderr
    steps = [line.split(":")[0] for line in done.stdout.splitlines() if line.startswith("ply ")]
    total = steps[0].split("/")[1]
    assert steps == [f"ply {n}/{total}" for n in (1, 2, 1, 3)]
    assert done.stdout.count("\nstart\n") == 1


def test_a_pipe_that_ends_stops_cleanly(run_dir):
    done = run("show", run_dir, stdin="\n")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.count("\nply ") == 1


def test_list_names_every_game(run_dir):
    done = run("show", run_dir, "--list")
    assert len(done.stdout.splitlines()) == len(records(run_dir))


def test_pdn_games_replay_with_their_rules_found(tmp_path):
    path = tmp_path / "g.pdn"
    path.write_text(PDN, encoding="utf-8")
    checkers = run("show", path, "--all")
    assert checkers.stdout.startswith("game 1: checkers, Ann (Black) vs Bob (White): *, 4 plies")
    assert "moves: 1.11-15 2.22-18 3.15x22 [4.25x18]" in checkers.stdout
    listed = run("show", path, "--list").stdout.splitlines()  # checkers: game 1 only replays
    assert listed[1] == "game 2: does not replay as checkers: a giveaway game"
    giveaway = run("show", path, "--game", "giveaway", "--list")  # reads both as give-away
    assert giveaway.stdout.splitlines()[1] == (
        "game 2: giveaway, ? (Black) vs ? (White): *, 3 plies; Event give-away"
    )
    only = path.with_name("only.pdn")
    only.write_text(PDN.split("\n\n")[1], encoding="utf-8")
    assert run("show", only, "--list").stdout.startswith("game 1: giveaway, ")


THREE = (
    PDN
    + """
[Event "illegal"]
[Result "*"]
1. 11-15 22-18 2. 15-19 *

[Event "four"]
[Black "Cy"]
[White "Di"]
[Result "*"]
1. 9-13 22-18 *
"""
)


def test_game_n_is_the_nth_game_of_the_file_when_earlier_games_do_not_replay(tmp_path):
    path = tmp_path / "g.pdn"
    path.write_text(THREE, encoding="utf-8")
    done = run("show", path, "--number", "4", "--all")
    assert done.stdout.startswith("game 4: checkers, Cy (Black) vs Di (White): *, 2 plies")
    assert "moves: 1.9-13 [2.22-18]" in done.stdout
    listed = run("show", path, "--list").stdout.splitlines()
    assert [line.split(":")[0] for line in listed] == ["game 1", "game 2", "game 3", "game 4"]
    assert listed[2].startswith("game 3: does not replay as checkers: line 15, column 19, ")


@pytest.mark.parametrize(
    "number, message",
    [
        ("2", "g.pdn: game 2 does not replay as checkers: a giveaway game"),
        ("3", "g.pdn: game 3 does not replay as checkers: line 15, column 19, move 2: 15-19 "),
        ("5", "g.pdn: no game 5 (the file holds 4)"),
    ],
)
def test_a_game_that_does_not_replay_is_one_line_naming_it(tmp_path, number, message):
    path = tmp_path / "g.pdn"
    path.write_text(THREE, encoding="utf-8")
    one_line_error(run("show", path, "--number", number), message)


def test_a_bad_result_record_spoils_only_its_own_game(tmp_path):
    path = tmp_path / "r.jsonl"
    good = '{"game": "kalah:pits=3,seeds=2", "moves": ["1"]}'
    path.write_text(f'{{"game": "kalah", "moves": ["9"]}}\n{good}\n', encoding="utf-8")
    assert run("show", path, "--number", "2", "--all").stdout.startswith(
        "game 2: kalah:pits=3,seeds=2, ? (South) vs ? (North): *, 1 plies"
    )
    one_line_error(run("show", path), "r.jsonl: game 1 does not replay: ply 1: pit 9 ")


def test_a_results_file_numbers_games_by_their_index_as_a_run_still_going_writes_them(tmp_path):
    path = tmp_path / "results.jsonl"
    game = "kalah:pits=3,seeds=2"
    records = [{"index": 2, "game": game, "moves": ["2"]}, {"index": 0, "game": game, "moves": []}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert run("show", tmp_path, "--number", "3", "--json").stdout.count('"moves": ["2"]') == 1
    listed = run("show", path, "--list").stdout.splitlines()
    assert [line.split(":")[0] for line in listed] == ["game 1", "game 3"]
    one_line_error(run("show", path, "--number", "2"), "no game 2 (the file holds 2: 1, 3)")


def test_a_game_saved_by_play_shows(tmp_path):
    saved = tmp_path / "k.json"
    run("play", "kalah:pits=4,seeds=3", "human", "human", "--no-board",
        stdin=f"1\n2\nsave {saved}\n")  # fmt: skip
    done = run("show", saved, "--all")
    assert "human (South) vs human (North): *, 2 plies" in done.stdout
    assert "moves: 1.1 [2.2]" in done.stdout


@pytest.mark.parametrize(
    "content, args, message",
    [
        ('{"game": "kalah", "moves": ["1"]}\n', ["--number", "2"], "no game 2 (the file holds 1)"),
        ('{"game": "kalah", "moves": ["1", "9"]}\n', [], "game 1 does not replay: ply 2: pit 9 "),
        ('{"game": "nosuch", "moves": []}\n', [], "game 1 does not replay: unknown game 'nosuch'"),
        ('{"result": "1-0"}\n', [], "record 1 is not a game result"),
        ("", [], "no installed game reads a game from it"),
        ("not a game at all\n", [], "game 1 does not replay as checkers: line 1, column 1, "),
        ('[Event "x"]\n1. 11-15 22-18 2. 15-19 *\n', [], "does not replay as checkers: line 2, "),
        ('[Event "x"]\n1. 11-15 *\n', ["--game", "kalah"], "cannot read game records"),
    ],
)
def test_bad_files_are_one_line(tmp_path, content, args, message):
    path = tmp_path / "f.txt"
    path.write_text(content, encoding="utf-8")
    one_line_error(run("show", path, *args), message)
