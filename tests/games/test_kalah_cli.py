"""The Kalah CLI forms: moves (single, JSON, batch), perft and the solve command."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mindgames.cli.main import cli
from mindgames.games.kalah.rules import Kalah

OPENSPIEL_PERFT = [6, 35, 185, 942, 4690, 23233]


#: fields of the solver's JSON besides the value and best moves (times vary by run)
SOLVE_FIELDS = {"nodes", "seconds"}


def run(*args: str, stdin: str | None = None):
    """Invoke the real ``mindgames`` command group in-process (stdout and stderr apart)."""
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_moves_and_json():
    out = run("moves", "kalah")
    assert out.exit_code == 0, out.output
    assert out.stdout.split() == ["1", "2", "3", "4", "5", "6"]
    some = run("moves", "kalah:pits=4,seeds=3", "--position", "0,3,0,2;4;3,3,3,3;0;N", "--json")
    assert json.loads(some.stdout) == ["1", "2", "3", "4"]
    south = run("moves", "kalah:pits=4,seeds=3", "--position", "0,3,0,2;4;3,3,3,3;0;S", "--json")
    assert json.loads(south.stdout) == ["2", "4"]


def test_batch_moves_with_a_bad_line(tmp_path):
    lines = ["4,4,4,4,4,4;0;4,4,4,4,4,4;0;S", "4,4;0;4,4;0;S", "0,0,0,0,0,9;20;1,0,0,0,0,0;18;N"]
    out = run("moves", "kalah", "--positions", "-", stdin="\n".join(lines) + "\n")
    assert out.exit_code == 0, out.output
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert rows[0] == ["1", "2", "3", "4", "5", "6"]
    assert rows[1]["line"] == 2 and "6 pits a side" in rows[1]["error"]
    assert rows[2] == ["1"]


def test_perft_json_matches_openspiel_mancala():
    out = run("perft", "kalah", "--depth", "6", "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["counts"] == OPENSPIEL_PERFT


def test_solve_prints_value_best_moves_nodes_and_time():
    out = run("solve", "kalah:pits=3,seeds=3", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["value"] == 2 and data["best_moves"] == [1, 2]
    assert data["nodes"] > 0 and set(data) >= SOLVE_FIELDS
    text = run("solve", "kalah:pits=2,seeds=2")
    assert "value (South's final margin): -2" in text.stdout and "nodes" in text.stdout
    # from a position with North to move, the value is still South's margin
    game = Kalah(pits=3, seeds=3)
    after = game.position_text(game.play(game.initial_state(), 2))
    north = json.loads(run("solve", "kalah:pits=3,seeds=3", "--position", after, "--json").stdout)
    assert north["position"].endswith(";N") and north["value"] == -north["mover_value"]


def test_solve_errors_are_one_line():
    for args in (
        ("solve", "checkers"),
        ("solve", "kalah:pits=2,seeds=2", "--position", "0,0;4;0,0;4;S"),
        ("solve", "kalah", "--position", "1,2;3"),
    ):
        out = run(*args)
        assert out.exit_code == 2, args
        assert out.stderr.startswith("mindgames: error: ") and out.stderr.count("\n") == 1
    # no default game: Kalah(6,4) from the start would use up the 300 s limit and then fail
    assert "Missing argument 'GAME'" in run("solve").stderr
