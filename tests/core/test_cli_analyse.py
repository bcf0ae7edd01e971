"""``mindgames analyse`` through a real subprocess: text, JSON, files of positions, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

#: the statistics every search reports (their values are checked elsewhere; times vary by run)
STATS_FIELDS = {"seconds", "nodes_per_second", "branching", "pruning"}


def mindgames(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    code = "from mindgames.cli.main import main; main()"
    env = dict(os.environ, MINDGAMES_STRICT_PLUGINS="1", OPENBLAS_NUM_THREADS="1")
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        input=stdin,
    )


def test_analyse_json_from_the_start():
    out = mindgames("analyse", "checkers", "--agent", "alphabeta:depth=4,eval=material", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == {"move", "value", "pv", "stats"}
    assert report["pv"][0] == report["move"] and len(report["pv"]) == 4
    assert report["move"] in {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    assert -1.0 <= report["value"] <= 1.0
    stats = report["stats"]
    assert stats["depth"] == 4 and stats["nodes"] > 0 and stats["leaves"] > 0
    assert set(stats) >= STATS_FIELDS


def test_analyse_text_output_with_a_position():
    out = mindgames(
        "analyse",
        "checkers",
        "--agent",
        "alphabeta:depth=1,extend_captures=true,eval=material",
        "--position",
        "B:W20,K32:B12",
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["move:", "12-16"]
    assert lines[2].split() == ["pv:", "12-16", "20x11"]
    assert float(lines[1].split()[1]) < -1.5  # a proven loss
    assert lines[3].startswith("depth 1,")


def test_analyse_positions_one_json_object_a_line_and_errors_per_line(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text("B:W29:BK1\nnot a position\n\nB:WK1:B\nW:W21,22:B10,11\n", encoding="utf-8")
    agent = "alphabeta:depth=3,random_ties=true,eval=material"
    out = mindgames("analyse", "checkers", "--agent", agent, "--positions", str(path))
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 5  # one output line per input line, the blank one included
    assert rows[0]["move"] in {"1-5", "1-6"} and rows[0]["stats"]["depth"] >= 1
    assert rows[1] == {"error": rows[1]["error"], "line": 2} and "FEN" in rows[1]["error"]
    assert rows[2]["line"] == 3 and "error" in rows[2]
    assert rows[3]["line"] == 4 and "over" in rows[3]["error"]
    assert rows[4]["move"].split("-")[0] in {"21", "22"}
    # stdin gives the same lines, and the seed makes the run repeatable
    again = mindgames(
        "analyse",
        "checkers",
        "--agent",
        agent,
        "--positions",
        "-",
        stdin=path.read_text(encoding="utf-8"),
    )
    assert [moves_or_error(json.loads(x)) for x in again.stdout.splitlines()] == [
        moves_or_error(r) for r in rows
    ]


def moves_or_error(row: dict) -> object:
    return row.get("error") or (row["move"], row["value"], row["pv"], row["stats"]["nodes"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("checkers", "--agent", "alphabeta:depth=2"), "needs eval"),
        (("checkers", "--agent", "nosuch:depth=2"), "unknown searcher 'nosuch'"),
        (("checkers", "--agent", "random", "--position", "X:1"), "bad FEN"),
    ],
)
def test_analyse_user_errors_are_one_line(args, message):
    out = mindgames("analyse", *args)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and message in out.stderr, out.stderr


def test_analyse_kalah_and_endgame_without_evaluator():
    out = mindgames("analyse", "kalah:pits=3,seeds=2", "--agent", "endgame:depth=30", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert abs(report["value"]) > 1.5 or report["value"] == 0.0  # solved: a proven result
