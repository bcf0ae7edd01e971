"""A binary or non-UTF-8 file where a command expects text is one error line, not a traceback."""

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
