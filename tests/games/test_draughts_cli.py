"""The draughts CLI forms other tools rely on: moves (single, JSON, batch) and perft."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mindgames.cli.main import cli

START_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
LOOP = "B:W14,15,22,23:BK10"


#: the JSON shape of perft: leaf counts and the time taken (its value varies by run)
PERFT_FIELDS = {"counts", "seconds"}


def run(*args: str, stdin: str | None = None):
    """Invoke the real ``mindgames`` command group in-process (stdout and stderr apart)."""
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_moves_prints_one_pdn_move_a_line():
    out = run("moves", "checkers")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    )


@pytest.mark.parametrize("game", ["checkers", "giveaway"])
def test_moves_json_keeps_every_landing_square(game):
    out = run("moves", game, "--position", LOOP, "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == ["10x17x26x19x10", "10x19x26x17x10"]
    jump = run("moves", game, "--position", "W:W21:B17,10", "--json")
    assert json.loads(jump.stdout) == ["21x14x7"]


def test_batch_moves_one_json_line_per_position_and_errors_do_not_stop_the_run(tmp_path):
    lines = ["B:W21-32:B1-12", "B:W33:B1", LOOP, "nonsense", "W:W21-32:B1-12"]
    path = tmp_path / "fens.txt"
    path.write_text("\n".join(lines) + "\n")
    for source, stdin in ((str(path), None), ("-", "\n".join(lines) + "\n")):
        out = run("moves", "checkers", "--positions", source, stdin=stdin)
        assert out.exit_code == 0, out.output
        rows = [json.loads(x) for x in out.stdout.splitlines()]
        assert len(rows) == len(lines)
        assert rows[0] == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
        assert rows[1]["line"] == 2 and "1-32" in rows[1]["error"]
        assert rows[2] == ["10x17x26x19x10", "10x19x26x17x10"]
        assert rows[3]["line"] == 4 and "FEN" in rows[3]["error"]
        assert len(rows[4]) == 7 and all(isinstance(m, str) for m in rows[4])


@pytest.mark.parametrize("game", ["checkers", "giveaway"])
def test_perft_json_and_text(game):
    out = run("perft", game, "--depth", "5", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["counts"] == START_PERFT[:5] and set(data) == PERFT_FIELDS
    text = run("perft", game, "--depth", "2", "--position", LOOP)
    assert text.stdout.splitlines()[:2] == ["depth 1: 2", "depth 2: 0"]


def test_bad_fen_is_one_line_and_exit_2():
    out = run("moves", "checkers", "--position", "B:W1,1:B2")
    assert out.exit_code == 2
    assert out.stderr.startswith("mindgames: error: bad FEN") and out.stderr.count("\n") == 1
