"""Typed records of the files that runs write: a game's record (``results.jsonl``), a report
(``report.json``) and a history row (``history.jsonl``).

attrs classes, read and written by one cattrs converter (the configs' strict one, except that a
number keeps its own type: an integer in a float field stays an integer), so the JSON on disk is
byte for byte what the dicts they replace wrote (``tests/core/test_record_types.py`` round-trips
files written before). Code reads their attributes; each is also a read-only ``Mapping`` with
the keys of its JSON (``record["score"]``), kept so that code written against the dicts, a
plugin's or a script's, keeps working. A history row types the columns every learner may
write (``games``, ``seconds``, ``elapsed``) and keeps the learner's own columns as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

import attrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from mindgames.config import StrictValueError, converter, structure

T = TypeVar("T", bound="Fields")

records = converter.copy()


def _number(value: Any, _: type) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StrictValueError(f"expected a number, got {value!r}")
    return value  # as it is: 2 stays 2 and 2.0 stays 2.0, as json wrote them


records.register_structure_hook(float, _number)


class Fields(Mapping[str, Any]):
    """Read access by JSON key, as the dicts these records replace gave it."""

    __slots__ = ()

    def json(self) -> dict[str, Any]:
        """The record as the JSON object its file holds."""
        out: dict[str, Any] = records.unstructure(self)
        return out

    @classmethod
    def from_json(cls: type[T], data: Mapping[str, Any], *, where: str = "record") -> T:
        """The record from its JSON object; a bad one is a ConfigError naming ``where``."""
        return structure(data, cls, where=where, using=records)

    def _view(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _names(type(self))}

    def __getitem__(self, key: str) -> Any:
        if key in _names(type(self)):
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._view())

    def __len__(self) -> int:
        return len(self._view())


@functools.cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in attrs.fields(cls))


@attrs.frozen(eq=False)
class GameRecord(Fields):
    """One finished game (``task.play_game``): who played, from where, the moves and result."""

    index: int
    pair: int  # the game pair (same opening, colours swapped)
    round: int
    game: str  # the game's spec
    first: str  # the agent moving first
    second: str
    opening: str  # the opening's label
    opening_position: str | None  # None: the game's initial position
    opening_moves: list[str]
    moves: list[str]  # the moves after the opening, as the game's move text
    result: str  # "1-0", "0-1" or "1/2-1/2"
    score: float  # the first agent's: 1, 0.5 or 0
    termination: str  # "rules" or "move cap"
    plies: int
    final_position: str
    seed: int
    max_plies: int
    seconds: float  # wall time: the one field that depends on the machine


@attrs.frozen(eq=False)
class Standing(Fields):
    """One agent's line of a report: its games, points and Elo with the 95% interval."""

    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    score_games: int  # 2 a win, 1 a draw
    score_clashes: int  # 2 a series won, 1 a series drawn
    elo: float
    elo_low: float
    elo_high: float


@attrs.frozen(eq=False)
class Tally(Fields):
    """A crosstable cell: the row agent's wins, draws and losses against the column agent."""

    wins: int
    draws: int
    losses: int


@attrs.frozen(eq=False)
class Pairing(Fields):
    """Two agents' games against each other, from the first agent's side."""

    agents: list[str]
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    draw_ratio: float
    los: float  # likelihood of superiority
    pentanomial: list[int]  # game pairs scoring 0, 1/2, 1, 3/2, 2


#: the keys of a report that ``Report`` types; any other is what the run added (``extra``)
REPORT_KEYS = (
    "games", "standings", "anchor", "elo_regularised", "crosstable", "pairings", "terminations",
)  # fmt: skip


@attrs.frozen(eq=False)
class Report(Fields):
    """A tournament's or match's report (``report.build_report``); ``extra`` holds what the run
    adds after the typed keys, in its order (game, format, seed, openings, scheduled, sprt)."""

    games: int
    standings: list[Standing]
    anchor: str | None  # the agent rated 0 (None: the mean is 0)
    elo_regularised: bool
    crosstable: dict[str, dict[str, Tally]]
    pairings: list[Pairing]
    terminations: dict[str, int]
    extra: dict[str, Any] = attrs.field(factory=dict)

    def json(self) -> dict[str, Any]:
        out = {key: records.unstructure(getattr(self, key)) for key in REPORT_KEYS}
        return {**out, **self.extra}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, where: str = "report") -> Report:
        typed = {key: value for key, value in data.items() if key in REPORT_KEYS}
        typed["extra"] = {key: value for key, value in data.items() if key not in REPORT_KEYS}
        return structure(typed, cls, where=where, using=records)

    def _view(self) -> dict[str, Any]:
        return {**{key: getattr(self, key) for key in REPORT_KEYS}, **self.extra}

    def __getitem__(self, key: str) -> Any:
        return self._view()[key]


#: history columns typed for every learner, when a row has them
HISTORY_COLUMNS: dict[str, Any] = {"games": int, "seconds": float, "elapsed": float}


@attrs.frozen(eq=False)
class HistoryRow(Fields):
    """One row of a learner's history: every column as the learner wrote it (its own ones
    included), with the columns any learner may write (``HISTORY_COLUMNS``) checked and typed."""

    columns: dict[str, Any]

    @property
    def games(self) -> int | None:
        """Training games so far, when the learner counts games."""
        value: int | None = self.columns.get("games")
        return value

    @property
    def seconds(self) -> float | None:
        """Seconds this row's work took."""
        value: float | None = self.columns.get("seconds")
        return value

    @property
    def elapsed(self) -> float | None:
        """Training seconds so far (``training.TRAINED_FOR``)."""
        value: float | None = self.columns.get("elapsed")
        return value

    def json(self) -> dict[str, Any]:
        return dict(self.columns)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, where: str = "history row") -> HistoryRow:
        """The row, its common columns checked: a wrong type is a ConfigError naming ``where``."""
        typed = {k: data[k] for k in HISTORY_COLUMNS if data.get(k) is not None}
        structure(typed, _Common, where=where, using=records)
        return cls(dict(data))

    def _view(self) -> dict[str, Any]:
        return self.columns

    def __getitem__(self, key: str) -> Any:
        return self.columns[key]


@attrs.frozen
class _Common:
    games: int | None = None
    seconds: float | None = None
    elapsed: float | None = None


# each record is also a Mapping, which cattrs would otherwise build and take apart as a dict
for _cls in (GameRecord, Standing, Tally, Pairing, Report, HistoryRow):
    records.register_structure_hook(
        _cls, make_dict_structure_fn(_cls, records, _cattrs_forbid_extra_keys=True)
    )
    records.register_unstructure_hook(_cls, make_dict_unstructure_fn(_cls, records))
