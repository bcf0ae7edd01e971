"""Draughts notation through the real CLI: strict input refuses what the lenient PDN reader
repairs with a warning (a capture sign on a quiet move, a man on its own crowning row), FENs
are checked for piece counts without echoing huge text, and ``pdn convert`` of a file it
cannot read writes nothing."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import one_line_error, run

HUGE = "B:W" + ",".join(str(i % 32 + 1) for i in range(20_000)) + ":B1"


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("W:W20-32:B1", "White has 13 pieces (at most 12)"),
        ("B:WK1:B17-29", "Black has 13 pieces (at most 12)"),
        ("B:W1:B32", "a man on the far row must be a king"),
        (HUGE, "characters): square 1 given twice"),
    ],
)
def test_a_bad_fen_is_one_short_line(fen, expected):
    line = one_line_error(run("moves", "checkers", "--position", fen), expected)
    assert len(line) < 400


def test_play_refuses_a_capture_sign_on_a_quiet_move():
    done = run("play", "checkers", "human", "human", "--no-board", "--max-plies", "2",
               stdin="11-15\n22x18\n22-18\n")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "'22x18': a capture sign on a quiet move (write 22-18)" in done.stdout
    assert "2. White: 22-18" in done.stdout


GAMES = """\
[Event "sloppy separator"]
1. 11-15 22x18 15x22 *

[Event "man on its crowning row"]
[SetUp "1"]
[FEN "W:W1,18:B14,K28"]
1. 18x9 *
"""


def test_the_lenient_reader_repairs_both_with_a_warning(tmp_path):
    path = tmp_path / "g.pdn"
    path.write_text(GAMES, encoding="utf-8")
    done = run("pdn", "check", path, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    first, second = json.loads(done.stdout)["games"]
    assert first["plies"] == 3 and any("22x18 read as 22-18" in w for w in first["warnings"])
    assert second["plies"] == 1 and second["error"] is None
    assert any("man on 1 stands on its crowning row; crowned" in w for w in second["warnings"])


@pytest.mark.parametrize("content", [b"\x00\x01garbage", b"hello world\n", b""])
def test_pdn_convert_of_an_unreadable_file_writes_nothing(content, tmp_path):
    path = tmp_path / "bad.pdn"
    path.write_bytes(content)
    out = tmp_path / "out.pdn"
    one_line_error(run("pdn", "convert", path, "-o", out), "no PDN game could be read")
    assert not out.exists()


@pytest.mark.parametrize("content", ["", "% a comment only\n"])
def test_pdn_check_and_extract_of_a_file_without_a_game_are_one_line(content, tmp_path):
    path = tmp_path / "none.pdn"
    path.write_text(content, encoding="utf-8")
    one_line_error(run("pdn", "check", path), f"{path}: no PDN game in it")
    out = tmp_path / "none.npz"
    one_line_error(run("pdn", "extract", path, "-o", out), f"{path}: no PDN game in it")
    assert not out.exists()


def test_pdn_convert_into_a_missing_directory_is_refused(tmp_path):
    path = tmp_path / "g.pdn"
    path.write_text(GAMES, encoding="utf-8")
    out = tmp_path / "missing" / "out.pdn"
    one_line_error(run("pdn", "convert", path, "-o", out), "no such directory")
    assert not out.parent.exists()
