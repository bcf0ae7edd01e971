"""Files that are not what a command reads (binary, non-UTF-8, lines that are not records): one
error line naming the file, exit 2, never a traceback."""

from __future__ import annotations

import pytest

from support.cli import one_line_error, run

#: not UTF-8 (a zip header and a stray continuation byte), as a model file given by mistake
BINARY = b"PK\x03\x04\x14\x00\x00\x00\xcf\xc9\xff\xfe\x00\x01"


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["show", "{d}/x.jsonl"], "x.jsonl"),
        (["show", "{d}"], "results.jsonl"),
        (["plot", "{d}/history.jsonl", "-o", "{d}/p.png"], "history.jsonl"),
        (["plot", "{d}/report.json", "-o", "{d}/p.png"], "report.json"),
        (["play", "kalah", "human", "human", "--load", "{d}/x.jsonl"], "x.jsonl"),
        (
            ["match", "random", "random", "--game", "kalah", "--out", "{d}/x.jsonl", "--resume"],
            "x.jsonl",
        ),
        (["moves", "kalah", "--positions", "{d}/x.jsonl"], "x.jsonl"),
        (["analyse", "kalah", "--agent", "random", "--positions", "{d}/x.jsonl"], "x.jsonl"),
        (["tournament", "{d}/t.toml", "--out", "{d}", "--resume"], "config.json"),
    ],
)
def test_a_file_that_is_not_utf8_text_is_one_line(tmp_path, args, culprit):
    for name in ("x.jsonl", "results.jsonl", "history.jsonl", "report.json", "config.json"):
        (tmp_path / name).write_bytes(BINARY)
    (tmp_path / "t.toml").write_text('game = "kalah"\n[agents]\na = "random"\nb = "random"\n')
    done = run(*(a.format(d=tmp_path) for a in args), stdin="")
    one_line_error(done, culprit, "utf-8")


@pytest.mark.parametrize("line", ["[1, 2]", "3", "{}"])
@pytest.mark.parametrize(
    "args",
    [
        ["match", "random", "random", "--game", "kalah", "--out", "{d}/results.jsonl", "--resume"],
        ["plot", "{d}/results.jsonl", "-o", "{d}/p.png"],
        ["tournament", "{d}/t.toml", "--out", "{d}", "--resume"],
    ],
)
def test_a_results_line_that_is_not_a_game_record_is_one_line(tmp_path, line, args):
    (tmp_path / "t.toml").write_text('game = "kalah"\n[agents]\na = "random"\nb = "random"\n')
    assert (
        run("tournament", tmp_path / "t.toml", "--out", tmp_path, "--workers", "1").returncode == 0
    )
    (tmp_path / "results.jsonl").write_text(line + "\n")
    done = run(*(a.format(d=tmp_path) for a in args))
    if line == "{}" and args[0] == "plot":
        one_line_error(done, "no work count")  # an empty row is a history row without a count
    else:
        one_line_error(done, "results.jsonl")


def test_a_tournament_resumes_only_with_records_of_its_own_games(tmp_path):
    (tmp_path / "t.toml").write_text('game = "kalah"\n[agents]\na = "random"\nb = "random"\n')
    assert (
        run("tournament", tmp_path / "t.toml", "--out", tmp_path, "--workers", "1").returncode == 0
    )
    results = tmp_path / "results.jsonl"
    first, second = results.read_text().splitlines()[:2]
    for kept in ([first, '{"index": 1}'], [first, first], [first, second.replace('"b"', '"c"')]):
        results.write_text("\n".join(kept) + "\n")
        done = run("tournament", tmp_path / "t.toml", "--out", tmp_path, "--resume")
        one_line_error(done, "results.jsonl: record 2 is not a finished game of this tournament")
    results.write_text(first + "\n")
    assert run("tournament", tmp_path / "t.toml", "--out", tmp_path, "--resume").returncode == 0
