"""docs/python.md stays true: its Python blocks run in order, as one script, in an empty folder."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_the_python_page_runs_as_one_script(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6, "the page lost its examples"
    monkeypatch.chdir(tmp_path)
    names: dict = {}
    exec(compile("\n".join(blocks), str(PAGE), "exec"), names)  # the page's own code
    printed = capsys.readouterr().out
    # what the page says each block gives
    assert names["game"].spec().startswith("kalah")
    assert {row["agent"] for row in names["report"]["standings"]} == {
        "alphabeta:depth=3,eval=material",
        "random",
    }
    assert (tmp_path / "strong-vs-random.jsonl").is_file()
    assert names["trained"].model_path == Path("runs/td-s1/model.npz")
    assert (tmp_path / "runs" / "td-s1" / "curve.jsonl").is_file()
    assert [line["games"] for line in names["lines"]] == [0, 20, 40]
    summary = names["summary"]
    assert len(summary.runs) == 3 and summary.low < summary.mean < summary.high
    assert "over 3 runs" in printed
    assert "unknown game 'chess'" in printed and "not a legal move" in printed
