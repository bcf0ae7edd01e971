"""One comparison replicated over independent runs: each run's match Elo, and an interval over runs.

A learner's result is a draw from the runs it could have given: two seeds of one config can
differ by more than one match's interval. So a method is measured by several runs, each
reduced to one number -- the Elo of its match between the same two roles (say a run's final
net against its generation 0) -- and by a Student t-interval over those numbers, whose unit
is the run. Each match is a results file of ``mindgames match --out``: agent A (the match's
first agent) is the one that opens the even-numbered games.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import MindgamesError
from mindgames.files import read_jsonl
from mindgames.measure.tdist import t_quantile
from mindgames.play.report import build_report

#: the keys a game record must hold to be counted
_NEEDED = {"index": int, "pair": int, "first": str, "second": str, "game": str}
_SCORES = (0.0, 0.5, 1.0)


@attrs.frozen
class Run:
    """One run's match, from agent A's side: its results and Elo [95%] against agent B."""

    path: str
    game: str
    agent: str  # the match's first agent (A), whose side the figures are from
    opponent: str
    wins: int
    draws: int
    losses: int
    elo: float
    elo_low: float
    elo_high: float
    #: one side scored nothing (no win, no draw), so the fit added a virtual draw: a finite Elo
    #: that grows with the match's length rather than a measurement of it (``ratings.fit_elo``)
    elo_regularised: bool = False

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@attrs.frozen
class Summary:
    """The runs' Elo: mean, standard deviation and the t-interval at ``level`` over the runs."""

    runs: tuple[Run, ...]
    level: float
    mean: float
    sd: float | None  # None: one run has no spread
    low: float | None
    high: float | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "runs": [{**attrs.asdict(r), "games": r.games} for r in self.runs],
            "level": self.level,
            "mean": self.mean,
            "sd": self.sd,
            "low": self.low,
            "high": self.high,
            "df": len(self.runs) - 1,
        }


def read_run(path: str | Path) -> Run:
    """The match in the results file ``path``: exactly two agents, A opening the even games."""
    if not Path(path).is_file():
        raise MindgamesError(f"{path}: no such file")
    records = read_jsonl(path)
    if not records:
        raise MindgamesError(f"{path}: no games in the file")
    for number, record in enumerate(records, 1):
        wrong = [k for k, kind in _NEEDED.items() if not isinstance(record.get(k), kind)]
        if wrong or record.get("score") not in _SCORES:
            what = ", ".join(wrong) if wrong else "score"
            raise MindgamesError(f"{path}:{number}: not a game record of a match (no valid {what})")
    indices = [r["index"] for r in records]
    if len(set(indices)) < len(indices):
        twice = next(i for i in indices if indices.count(i) > 1)
        raise MindgamesError(
            f"{path}: game {twice} is in the file twice: one match, each game once"
        )
    agents = sorted({r["first"] for r in records} | {r["second"] for r in records})
    games = {r["game"] for r in records}
    if len(agents) != 2 or len(games) != 1:
        held = f"{len(agents)} agents" if len(agents) != 2 else f"{len(games)} games"
        raise MindgamesError(f"{path}: not one match of two agents ({held})")
    even = sorted((r["index"], r["first"]) for r in records if r["index"] % 2 == 0)
    if not even:
        raise MindgamesError(
            f"{path}: no even-numbered game, so the match's first agent is unknown"
        )
    agent = even[0][1]
    opponent = agents[1] if agents[0] == agent else agents[0]
    report = build_report([agent, opponent], records, anchor=opponent)
    row = next(s for s in report.standings if s.agent == agent)
    return Run(
        path=str(path),
        game=games.pop(),
        agent=agent,
        opponent=opponent,
        wins=row.wins,
        draws=row.draws,
        losses=row.losses,
        elo=row.elo,
        elo_low=row.elo_low,
        elo_high=row.elo_high,
        elo_regularised=report.elo_regularised,
    )


def summarise(runs: Sequence[Run], level: float = 0.95) -> Summary:
    """Mean, SD and the ``level`` t-interval of the runs' Elo (n - 1 degrees of freedom)."""
    if not runs:
        raise MindgamesError("no runs to summarise")
    if not 0.0 < level < 1.0:
        raise MindgamesError(f"level must be between 0 and 1, got {level}")
    games = sorted({r.game for r in runs})
    if len(games) > 1:
        raise MindgamesError(f"the runs are matches of different games: {', '.join(games)}")
    firsts = {r.agent: r.path for r in runs}
    for run in runs:
        if run.opponent in firsts:
            raise MindgamesError(
                f"{run.path}: its second agent {run.opponent} is the first agent of "
                f"{firsts[run.opponent]}: "
                "give each run's match its two roles in the same order"
            )
    seen: dict[str, str] = {}
    for run in runs:
        key = str(Path(run.path).resolve())
        if key in seen:
            raise MindgamesError(f"{run.path}: given twice (as {seen[key]}): each run counts once")
        seen[key] = run.path
    values = [r.elo for r in runs]
    if not all(math.isfinite(v) for v in values):
        bad = next(r.path for r in runs if not math.isfinite(r.elo))
        raise MindgamesError(f"{bad}: its Elo is not finite; play more games")
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Summary(tuple(runs), level, mean, None, None, None)
    sd = statistics.stdev(values)
    half = t_quantile(0.5 + level / 2, len(values) - 1) * sd / math.sqrt(len(values))
    return Summary(tuple(runs), level, mean, sd, mean - half, mean + half)


def text(summary: Summary) -> str:
    """A table of the runs and one line over them, for the terminal."""
    runs = summary.runs
    width = max(4, *(len(r.path) for r in runs))
    lines = [
        "Elo of each run's first agent against its second, then over the runs",
        f"{'#':>2}  {'run':<{width}}  {'games':>5}  {'W':>4} {'D':>4} {'L':>4}  elo [95%]",
    ]
    for number, r in enumerate(runs, 1):
        lines.append(
            f"{number:>2}  {r.path:<{width}}  {r.games:>5}  {r.wins:>4} {r.draws:>4} {r.losses:>4}"
            f"  {r.elo:+.0f} [{r.elo_low:+.0f}, {r.elo_high:+.0f}]"
            + (" *" if r.elo_regularised else "")
        )
    if any(r.elo_regularised for r in runs):
        lines.append(
            "* one side scored nothing: its Elo holds a virtual draw and grows with the match's "
            "length; play more games for a measurement"
        )
    pct = f"{100 * summary.level:g}%"
    if summary.sd is None:
        lines.append(f"one run: Elo {summary.mean:+.0f}; an interval over runs needs two or more")
    else:
        df = len(runs) - 1
        lines.append(
            f"over {len(runs)} runs: mean {summary.mean:+.0f}, sd {summary.sd:.0f}, "
            f"{pct} t-interval [{summary.low:+.0f}, {summary.high:+.0f}] "
            f"({df} degree{'s' if df > 1 else ''} of freedom)"
        )
    return "\n".join(lines)
