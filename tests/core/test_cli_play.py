"""``mindgames play`` driven through a pipe, as a real subprocess: moves, undo, hint, refusals,
save and reload, resign, and the end of input."""

from __future__ import annotations

import json

import pytest

from support.cli import one_line_error, run

START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
AGENT = "alphabeta:depth=2,eval=material"


def play(*args: str, stdin: str):
    return run("play", *args, "--no-board", stdin=stdin)


def final(done) -> str:
    assert done.returncode == 0, done.stderr
    assert "Aborted" not in done.stdout + done.stderr
    return done.stdout.rsplit("final position: ", 1)[1].strip()


def test_undo_takes_back_the_persons_move_and_the_agents_reply():
    done = play("checkers", "human", AGENT, stdin="11-15\nundo\nquit\n")
    assert "  1. Black: 11-15" in done.stdout and "  2. White: " in done.stdout
    assert "took back 2 plies" in done.stdout
    assert final(done) == START
    assert "result: unfinished after 0 plies" in done.stdout


def test_undo_with_nothing_to_take_back_says_so_and_goes_on():
    done = play("kalah:pits=4,seeds=3", "human", AGENT, stdin="undo\n2\n")
    assert "nothing to undo" in done.stdout
    assert "  1. South: 2" in done.stdout


def test_undo_over_an_agents_extra_turns_goes_back_to_the_persons_move():
    # South's 3 in Kalah(4,3); North answers with two sowings (an extra turn): three plies back
    done = play("kalah:pits=4,seeds=3", "human", AGENT, stdin="3\nundo\n")
    assert "  3. North: " in done.stdout and "took back 3 plies" in done.stdout
    assert final(done) == "3,3,3,3;0;3,3,3,3;0;S"


def test_hint_gives_a_legal_move_and_its_line():
    done = play("checkers", "human", AGENT, stdin="hint\nmoves\n")
    hint = next(line for line in done.stdout.splitlines() if "hint:" in line)
    legal = next(line for line in done.stdout.splitlines() if "legal moves:" in line)
    move = hint.split("hint: ")[1].split()[0]
    assert move in legal.split(": ")[1].split()
    line = hint.split("line ")[1].rstrip(")").split()
    assert line[0] == move and len(line) >= 2  # alpha-beta's principal variation
    assert final(done) == START  # a hint plays nothing


def test_hint_between_two_people_needs_an_agent():
    done = play("checkers", "human", "human", stdin="hint\n")
    assert "no agent to ask: start with --hint SPEC" in done.stdout
    asked = play("checkers", "human", "human", "--hint", AGENT, stdin="hint\n")
    assert "hint: " in asked.stdout


@pytest.mark.parametrize(
    "game, typed, message",
    [
        ("checkers", "foo", "bad draughts move 'foo'"),
        ("checkers", "22-18", "'22-18' is not legal in"),
        ("checkers", "11-15-19", "'11-15-19' is not legal"),
        ("kalah:pits=4,seeds=3", "9", "pit 9 is not a legal move (legal: 1, 2, 3, 4)"),
        ("kalah:pits=4,seeds=3", "two", "bad kalah move 'two'"),
    ],
)
def test_illegal_and_malformed_moves_are_refused_with_the_legal_moves(game, typed, message):
    done = play(game, "human", "human", stdin=f"{typed}\nmoves\n")
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if message in line)
    assert "legal" in lines[at] + lines[at + 1]
    assert "1. " not in done.stdout  # nothing was played
    assert final(done) in (START, "3,3,3,3;0;3,3,3,3;0;S")


def test_end_of_input_ends_the_game_cleanly():
    done = play("checkers", "human", AGENT, stdin="11-15\n")
    assert done.stderr == ""
    assert "result: unfinished after 2 plies" in done.stdout
    final(done)


def test_resign_gives_the_game_to_the_other_side():
    done = play("checkers", "human", AGENT, stdin="resign\nthis line is never read\n")
    assert "result: White wins (Black resigned)" in done.stdout
    assert "never read" not in done.stdout


def test_help_lists_every_command():
    done = play("kalah", "human", "human", stdin="help\n")
    for command in ("undo", "hint", "save FILE", "resign", "quit", "moves", "board"):
        assert f"  {command}" in done.stdout


@pytest.mark.parametrize("name", ["g.pdn", "g.json"])
def test_a_saved_game_reloads_where_it_stopped(tmp_path, name):
    path = tmp_path / name
    done = play("checkers", "human", AGENT, stdin=f"11-15\n9-13\nsave {path}\n")
    assert f"saved 4 plies to {path}" in done.stdout
    stopped = final(done)
    again = play("checkers", "human", "human", "--load", str(path), stdin="")
    assert final(again) == stopped
    assert "unfinished after 4 plies" in again.stdout
    if name.endswith(".json"):
        record = json.loads(path.read_text())
        assert record["moves"][0] == "11-15" and record["result"] == "*"
        assert record["final_position"] == stopped
    else:
        assert path.read_text().startswith('[Event "mindgames play"]')


def test_a_kalah_game_saves_as_a_result_record_and_reloads(tmp_path):
    path = tmp_path / "k.pdn"  # Kalah has no record format of its own: JSON whatever the name
    done = play("kalah:pits=4,seeds=3", "human", "human", stdin=f"1\n2\nsave {path}\n")
    assert "(a result record)" in done.stdout
    assert json.loads(path.read_text())["game"] == "kalah:pits=4,seeds=3"
    again = play("kalah:pits=4,seeds=3", "human", "human", "--load", str(path), stdin="undo\n")
    assert "took back 1 plies" in again.stdout  # the loaded moves are the game's history
    assert final(again) == final(play("kalah:pits=4,seeds=3", "human", "human", "--moves", "1",
                                      stdin=""))  # fmt: skip


def test_moves_start_the_game_from_a_line():
    done = play("checkers", "human", "human", "--moves", "11-15 22-18", stdin="15x22\n")
    assert "  3. Black: 15x22" in done.stdout


def test_a_finished_game_reports_its_result():
    done = play("kalah:pits=1,seeds=3", "human", "human", stdin="1\n")
    assert "result: South wins" in done.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--moves", "11-15 11-15"], "move 2 of the line ('11-15')"),
        (["--load", "missing.json"], "missing.json: no such file"),
        (["--load", "x.json", "--position", START], "give --load or --position, not both"),
        (["--hint", "nosuch"], "--hint 'nosuch': unknown searcher 'nosuch'"),
        (["--number", "2"], "--number picks a game of the --load file: give --load FILE"),
    ],
)
def test_bad_options_are_one_line(args, message):
    one_line_error(run("play", "checkers", "human", "human", *args, stdin=""), message)


def test_a_bad_agent_names_the_side_it_was_to_play():
    one_line_error(run("play", "kalah", "human", "alphabeta", stdin=""), "SECOND 'alphabeta': ")
    one_line_error(run("play", "kalah", "nosuch", "human", stdin=""), "FIRST 'nosuch': unknown")


FILE = """\
[Event "one"]
[Result "*"]
1. 11-15 22-18 *

[Event "give-away"]
[Variant "giveaway"]
[Result "*"]
1. 11-15 *

[Event "three"]
[Result "*"]
1. 9-13 22-18 2. 13-17 *
"""


def test_load_game_n_goes_on_from_the_nth_game_of_the_file(tmp_path):
    path = tmp_path / "three.pdn"
    path.write_text(FILE, encoding="utf-8")
    done = play("checkers", "human", "human", "--load", str(path), "--number", "3", stdin="")
    same = play("checkers", "human", "human", "--moves", "9-13 22-18 13-17", stdin="")
    assert final(done) == final(same) and "unfinished after 3 plies" in done.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "three.pdn: the file holds 3 games: pick one with --number N"),
        (["--number", "2"], "three.pdn: game 2 does not replay as checkers: a giveaway game"),
        (["--number", "4"], "three.pdn: no game 4 (the file holds 3)"),
    ],
)
def test_load_of_a_file_of_several_games_needs_a_game_that_replays(tmp_path, args, message):
    path = tmp_path / "three.pdn"
    path.write_text(FILE, encoding="utf-8")
    done = run("play", "checkers", "human", "human", "--load", path, *args, stdin="")
    one_line_error(done, message)


def test_load_reads_a_tournament_run_directory_as_show_does(tmp_path):
    game = "kalah:pits=3,seeds=2"
    records = [{"index": i, "game": game, "moves": moves} for i, moves in enumerate([["1"], ["2"]])]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    done = play(game, "human", "human", "--load", str(tmp_path), "--number", "2", stdin="")
    assert final(done) == final(play(game, "human", "human", "--moves", "2", stdin=""))
    one_line_error(
        run("play", game, "human", "human", "--load", tmp_path, stdin=""),
        f"{tmp_path / 'results.jsonl'}: the file holds 2 games: pick one with --number N",
    )


def test_a_saved_game_of_another_game_is_refused(tmp_path):
    path = tmp_path / "k.json"
    play("kalah:pits=4,seeds=3", "human", "human", stdin=f"1\nsave {path}\n")
    done = run("play", "kalah", "human", "human", "--load", str(path), stdin="")
    one_line_error(done, "a game of 'kalah:pits=4,seeds=3', not 'kalah'")


def test_save_into_a_missing_place_is_one_line_and_the_game_goes_on(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    done = play("kalah", "human", "human", stdin=f"save {blocker}/g.json\n1\n")
    assert "cannot" in done.stdout and "  1. South: 1" in done.stdout
