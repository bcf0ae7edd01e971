"""Typed records (core/recordtypes.py): files written while records were plain dicts are read
and written back byte for byte -- game records, reports and history rows -- and a report
rebuilt from old game records is the old report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mindgames.errors import ConfigError
from mindgames.files import append_jsonl
from mindgames.play.report import build_report
from mindgames.recordtypes import GameRecord, HistoryRow, Report

OLD = Path(__file__).parent / "data" / "old_records"


def _lines(name: str) -> list[str]:
    return (OLD / name).read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.mark.parametrize("name", ["tournament-results.jsonl", "match-results.jsonl"])
def test_old_game_records_come_back_byte_for_byte(name, tmp_path):
    records = [GameRecord.from_json(json.loads(line)) for line in _lines(name)]
    out = tmp_path / name
    with out.open("a", encoding="utf-8") as fh:
        for record in records:
            append_jsonl(fh, record.json())  # as results.play_into writes them
    assert out.read_bytes() == (OLD / name).read_bytes()
    first = records[0]
    assert isinstance(first.moves, list) and first.score in (0.0, 0.5, 1.0)
    assert first["moves"] == first.moves and dict(first) == json.loads(_lines(name)[0])


@pytest.mark.parametrize(
    ("name", "indent"), [("tournament-report.json", 2), ("match-report.json", None)]
)
def test_old_reports_come_back_byte_for_byte(name, indent):
    text = (OLD / name).read_text(encoding="utf-8")
    report = Report.from_json(json.loads(text))
    assert json.dumps(report.json(), indent=indent) + "\n" == text
    assert report.standings[0].agent == report["standings"][0]["agent"]
    assert report.pairings[0].games == report.pairings[0].wins + report.pairings[0].draws + (
        report.pairings[0].losses
    )


def test_old_match_report_keeps_its_sprt_after_the_typed_keys():
    report = Report.from_json(json.loads((OLD / "match-report.json").read_text()))
    assert list(report.extra) == ["game", "format", "seed", "scheduled", "sprt"]
    assert report.extra["sprt"]["verdict"] in ("H0", "H1", "continue")


def test_a_report_rebuilt_from_old_game_records_is_the_old_report():
    old = json.loads((OLD / "tournament-report.json").read_text(encoding="utf-8"))
    lines = _lines("tournament-results.jsonl")
    records = [GameRecord.from_json(json.loads(line)) for line in lines]
    extra = {k: old[k] for k in ("game", "format", "seed", "openings", "scheduled")}
    agents = ["random", "ab1", "ab2"]  # the tournament's (make.py), in its config's order
    report = build_report(agents, records, anchor=old["anchor"], extra=extra)
    # the same keys in the same order and the same numbers to 12 digits: the fixture's last
    # bits are those of the CPU that made it (numpy's SIMD kernels and BLAS round by CPU)
    assert json.dumps(_rounded(report.json()), indent=2) == json.dumps(_rounded(old), indent=2)


def _rounded(value: Any) -> Any:
    """``value`` (parsed JSON) with every float rounded to 12 significant digits."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


@pytest.mark.parametrize("learner", ["td", "coevolution", "shg"])
def test_old_history_rows_come_back_byte_for_byte(learner):
    lines = _lines(f"{learner}-history.jsonl")
    rows = [HistoryRow.from_json(json.loads(line)) for line in lines]
    assert [json.dumps(row.json(), sort_keys=True) + "\n" for row in rows] == lines
    assert all(isinstance(row.elapsed, float) and isinstance(row.games, int) for row in rows)
    assert rows[-1]["games"] == rows[-1].games  # the learner's own columns stay readable too


def test_a_record_of_the_wrong_shape_is_one_error_naming_where():
    good = json.loads(_lines("tournament-results.jsonl")[0])
    with pytest.raises(ConfigError, match=r"results.jsonl: record 3: .*plies"):
        GameRecord.from_json({**good, "plies": "ten"}, where="results.jsonl: record 3")
    with pytest.raises(ConfigError, match="games"):
        HistoryRow.from_json({"games": 1.5, "loss": 0.2})
