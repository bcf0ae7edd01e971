"""What ``mindgames plot`` draws, as plain data: no matplotlib here, so it is tested without it.

Three kinds of input, told apart by their files:

* a training run (``history.jsonl``, ``core/training.py``): one panel per group of history
  columns (errors, scores, game length, results, schedules, data sizes, TD's saturation, the rest)
  against the row's work count (``generation``, else ``games``, ``epoch`` or ``phase``), with
  events as markers: clones (TD's cloning regime: rows with ``cloned`` true), a new ``stage``
  (Layered Learning) and early stopping's best epoch;
* a learning curve (``curve.jsonl``, ``core/measure/curve.py``): Elo with its 95% interval and the
  score against the games trained (or the curve's ``unit``: generation, playouts);
* a tournament (``report.json``, ``core/play/report.py``): the crosstable's scores as a heat map and
  the standings' Elo with intervals.

A run directory that holds both a history and a curve is drawn as one figure with both.
Several learning curves (``comparison_panels``) share one figure, a line each, so that runs of
different seeds, configs or learners are compared on one Elo axis against the same reference.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import MindgamesError
from mindgames.files import read_jsonl
from mindgames.training import CONFIG_FILE, TIMING_COLUMNS

HISTORY = "history.jsonl"
CURVE = "curve.jsonl"
REPORT = "report.json"
#: the x axis of curves of different learners: the training time each point's history row recorded
TIME_AXIS = "training seconds"
#: the work counts a history row may be drawn against, in order of preference
X_KEYS = ("generation", "games", "epoch", "phase")
#: bookkeeping columns that are never drawn as series (counts, times, events, ranges)
SKIP = frozenset(
    {
        *X_KEYS,
        *TIMING_COLUMNS,
        "best_epoch",
        "cloned",
        "clones",
        "kept",
        "stage",
        "stage_generation",
        "plies",
    }
)


@attrs.frozen
class Series:
    """One line of a panel: its label and (x, y) points."""

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...] | None = None  # an interval around y (curve Elo), when known
    high: tuple[float, ...] | None = None


@attrs.frozen
class Panel:
    """One axes of the figure: a title, axis labels and its series (or a matrix)."""

    title: str
    xlabel: str
    ylabel: str
    series: tuple[Series, ...] = ()
    events: tuple[tuple[float, str], ...] = ()  # vertical markers: (x, what)
    kind: str = "lines"  # "lines", "heatmap" or "intervals"
    matrix: tuple[tuple[float | None, ...], ...] = ()  # heatmap: row's score against column
    cells: tuple[tuple[str, ...], ...] = ()  # heatmap: the text of each cell
    names: tuple[str, ...] = ()  # heatmap rows and columns; intervals: one name per row


def _words(*words: str) -> Callable[[str], bool]:
    return lambda key: any(word in key for word in words)


#: the history panels: title, y label, which columns belong (first match wins)
GROUPS: tuple[tuple[str, str, Callable[[str], bool]], ...] = (
    (
        "error",
        "error",
        lambda k: _words("mse", "mae", "error")(k) or "loss" in k.split("_"),
    ),
    (
        "scores",
        "points",
        lambda k: k in {"best", "mean", "gate"} or _words("score", "fitness", "accuracy")(k),
    ),
    ("game length", "per game", lambda k: k in {"mean_plies", "mean_pieces"}),
    ("data", "positions", lambda k: k in {"train", "test", "positions"}),
    ("results", "games", lambda k: k in {"first_wins", "draws", "first_losses"}),
    (
        "schedule",
        "value",
        lambda k: (
            k in {"lambda", "epsilon", "temperature", "alpha", "alpha_scale", "king"}
            or k.startswith("sigma")
        ),
    ),
    ("saturation", "share of positions", lambda k: k == "saturated"),
    ("other", "value", lambda k: True),
)


def _number(value: Any) -> float | None:
    """A history value as one number: a list of points (TD's ``test``) is summed."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
        return float(sum(value))
    return None


def x_key(rows: Sequence[Mapping[str, Any]], where: str) -> str:
    """The work count the rows are drawn against."""
    for key in X_KEYS:
        if rows and all(isinstance(r.get(key), (int, float)) for r in rows):
            return key
    raise MindgamesError(f"{where}: no work count ({', '.join(X_KEYS)}) in every history row")


def history_panels(rows: Sequence[Mapping[str, Any]], where: str = HISTORY) -> list[Panel]:
    """The panels of a training history: one per group of columns that has data."""
    if not rows:
        raise MindgamesError(f"{where}: no history rows to plot")
    xk = x_key(rows, where)
    columns = sorted({k for r in rows for k in r if k not in SKIP and _number(r[k]) is not None})
    grouped: dict[str, list[str]] = {}
    for key in columns:
        listed = any(isinstance(r.get(key), list) for r in rows)  # TD's test-game points
        title = "scores" if listed else next(t for t, _, belongs in GROUPS if belongs(key))
        grouped.setdefault(title, []).append(key)
    panels = []
    for title, ylabel, _ in GROUPS:
        if title not in grouped:
            continue
        series = []
        for key in grouped[title]:
            points = [(float(r[xk]), _number(r.get(key))) for r in rows]
            kept = [(x, y) for x, y in points if y is not None]
            label = "test points (both games)" if title == "scores" and key == "test" else key
            series.append(Series(label, tuple(x for x, _ in kept), tuple(y for _, y in kept)))
        panels.append(Panel(title, xk, ylabel, tuple(series), _events(rows, xk)))
    return panels


def _events(rows: Sequence[Mapping[str, Any]], xk: str) -> tuple[tuple[float, str], ...]:
    """Clones, a gate that made the learning net the best, the first row of each new stage,
    early stopping's best epoch."""
    events = [(float(r[xk]), "clone") for r in rows if r.get("cloned") is True]
    events += [(float(r[xk]), "gate: new best net") for r in rows if r.get("kept") is True]
    for before, row in pairwise(rows):
        if "stage" in row and row["stage"] != before.get("stage"):
            events.append((float(row[xk]), "new stage"))
    best = [r["best_epoch"] for r in rows if isinstance(r.get("best_epoch"), int)]
    if best and xk == "epoch":
        events.append((float(best[-1]), "best epoch"))
    return tuple(events)


def curve_panels(lines: Sequence[Mapping[str, Any]], where: str = CURVE) -> list[Panel]:
    """Elo with its 95% interval and the score of each snapshot, against the games trained (or
    the run's ``unit``: generation, playouts)."""
    known = [line for line in lines if isinstance(line.get("games"), int)]
    if not known:
        raise MindgamesError(f"{where}: no curve points with a games count to plot")
    try:
        xs = tuple(float(line["games"]) for line in known)
        elo = Series(
            f"Elo vs {known[0]['vs']}",
            xs,
            tuple(float(line["elo"]) for line in known),
            tuple(float(line["elo_low"]) for line in known),
            tuple(float(line["elo_high"]) for line in known),
        )
        score = Series("score", xs, tuple(float(line["score"]) for line in known))
    except (KeyError, TypeError, ValueError) as exc:
        raise MindgamesError(f"{where}: not a learning curve (a line lacks {exc})") from None
    unit = str(known[0].get("unit") or "games")  # what the curve's "games" count
    return [
        Panel("Elo over training (95% interval)", unit, "Elo", (elo,)),
        Panel("score against the reference", unit, "score", (score,)),
    ]


def comparison_panels(sources: Sequence[str | Path]) -> list[Panel]:
    """The learning curves of several runs on shared axes: Elo with its 95% interval, and score.

    The curves must be measured against the same reference (``vs``), or their Elo would not
    share a zero. Runs of one learner counting one unit (games, generation, playouts) are drawn
    against it; runs of different learners -- or whose learner is unknown (a curve file away
    from its run's ``config.json``) -- are drawn against training seconds, the one axis on which
    different learners compare fairly, since one learner's game or generation is not another's.
    """
    curves = [(str(source), _curve_lines(source)) for source in sources]
    refs = sorted({str(line.get("vs")) for _, lines in curves for line in lines})
    if len(refs) > 1:
        raise MindgamesError(
            f"the curves are measured against different references ({', '.join(refs)}): "
            "their Elo do not share a zero; measure them against one --vs"
        )
    units = {str(line.get("unit") or "games") for _, lines in curves for line in lines}
    learners = {_learner_of(source) for source in sources}
    if len(units) == 1 and len(learners) == 1 and None not in learners:
        key, unit = "games", units.pop()
    else:
        key, unit = "seconds", TIME_AXIS
    elo, score = [], []
    for name, lines in curves:
        if any(not isinstance(line.get(key), int | float) for line in lines):
            what = "training time (its learner records no elapsed)" if key == "seconds" else "count"
            raise MindgamesError(
                f"{name}: a curve point has no {what}, so it cannot share an axis with the "
                "other runs"
            )
        try:
            xs = tuple(float(line[key]) for line in lines)
            elo.append(
                Series(
                    name,
                    xs,
                    tuple(float(line["elo"]) for line in lines),
                    tuple(float(line["elo_low"]) for line in lines),
                    tuple(float(line["elo_high"]) for line in lines),
                )
            )
            score.append(Series(name, xs, tuple(float(line["score"]) for line in lines)))
        except (KeyError, TypeError, ValueError) as exc:
            raise MindgamesError(f"{name}: not a learning curve (a line lacks {exc})") from None
    return [
        Panel(f"Elo vs {refs[0]} over training (95% intervals)", unit, "Elo", tuple(elo)),
        Panel("score against the reference", unit, "score", tuple(score)),
    ]


def _learner_of(source: str | Path) -> str | None:
    """The learner that trained the run ``source`` (its directory's ``config.json``), if known."""
    p = Path(source)
    config = (p if p.is_dir() else p.parent) / CONFIG_FILE
    try:
        learner = json.loads(config.read_text(encoding="utf-8"))["config"]["learner"]["name"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return learner if isinstance(learner, str) else None


def _curve_lines(source: str | Path) -> list[dict[str, Any]]:
    """The lines of a learning curve: ``RUN_DIR/curve.jsonl``, or a curve file itself."""
    p = Path(source)
    path = p / CURVE if p.is_dir() else p
    if not path.is_file():
        what = (
            f"no {CURVE} (measure it with mindgames curve)"
            if p.is_dir()
            else "no such file or directory"
        )
        if (p / REPORT).is_file():
            what = "a tournament: several sources are drawn only as learning curves"
        raise MindgamesError(f"{p}: {what}")
    lines = read_jsonl(path)
    if not lines or not all("elo" in line and "model" in line for line in lines):
        raise MindgamesError(f"{path}: not a learning curve (mindgames curve writes them)")
    return lines


def tournament_panels(report: Mapping[str, Any], where: str = REPORT) -> list[Panel]:
    """The crosstable as a heat map of scores and the standings' Elo with intervals."""
    try:
        standings = report["standings"]
        names = tuple(str(s["agent"]) for s in standings)
        table = report["crosstable"]
        matrix, cells = [], []
        for a in names:
            row: list[float | None] = []
            texts = []
            for b in names:
                c = table.get(a, {}).get(b)
                if c is None:
                    row.append(None)
                    texts.append("")
                    continue
                n = c["wins"] + c["draws"] + c["losses"]
                row.append((c["wins"] + c["draws"] / 2) / n if n else None)
                texts.append(f"{c['wins']}-{c['draws']}-{c['losses']}")
            matrix.append(tuple(row))
            cells.append(tuple(texts))
        elo = Series(
            "Elo",
            tuple(float(s["elo"]) for s in standings),
            tuple(float(i) for i in range(len(names))),
            tuple(float(s["elo_low"]) for s in standings),
            tuple(float(s["elo_high"]) for s in standings),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise MindgamesError(f"{where}: not a tournament report (missing {exc})") from None
    anchor = report.get("anchor") or "the mean"
    return [
        Panel(
            "crosstable: row's score against column (W-D-L)",
            "opponent",
            "agent",
            kind="heatmap",
            matrix=tuple(matrix),
            cells=tuple(cells),
            names=names,
        ),
        Panel(
            f"standings: Elo (anchored on {anchor}) with 95% interval",
            "Elo",
            "",
            (elo,),
            kind="intervals",
            names=names,
        ),
    ]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MindgamesError(f"{path}: not JSON: {exc}") from None


def panels_for(path: str | Path) -> tuple[str, list[Panel]]:
    """What ``path`` holds (``training run``, ``curve``, ``tournament``) and its panels.

    A directory is a tournament (``report.json``) or a training run (``history.jsonl``, with
    its ``curve.jsonl`` when there is one); a file is read by its name.
    """
    p = Path(path)
    if p.is_dir():
        if (p / REPORT).is_file():
            return "tournament", tournament_panels(_read_json(p / REPORT), str(p / REPORT))
        history, curve = p / HISTORY, p / CURVE
        if history.is_file():
            panels = history_panels(read_jsonl(history), str(history))
            if curve.is_file() and read_jsonl(curve):
                panels += curve_panels(read_jsonl(curve), str(curve))
            return "training run", panels
        if curve.is_file():
            return "curve", curve_panels(read_jsonl(curve), str(curve))
        raise MindgamesError(
            f"{p}: nothing to plot: no {REPORT} (a tournament), {HISTORY} (a training run) "
            f"or {CURVE} (a learning curve)"
        )
    if not p.exists():
        raise MindgamesError(f"{p}: no such file or directory")
    if p.name == REPORT or p.suffix == ".json":
        return "tournament", tournament_panels(_read_json(p), str(p))
    rows = read_jsonl(p)
    if rows and "elo" in rows[0] and "model" in rows[0]:
        return "curve", curve_panels(rows, str(p))
    return "training run", history_panels(rows, str(p))
