"""Learning curves: every snapshot of a training run played against one fixed reference agent.

A run directory (``core/training.py``) holds ``snapshots/<games>.npz`` and ``model.npz``. Each of
them plays a match of paired games (``match.match_plan``: the same openings and game seeds
for every snapshot, so the points differ by the model alone) as
``alphabeta:depth=D,eval=@SNAPSHOT`` (or any searcher spec with ``eval=@SNAPSHOT`` added: the
search a run trained with, say) against the reference, on one executor for the whole curve,
and is rated by the match report (``report.build_report``, Elo anchored on the reference).
A long run's snapshots can be thinned to a number of points spread evenly over it.
One JSON line per point goes to ``curve.jsonl`` as its match ends; a rerun with the same
settings skips the points already there, so a killed curve run resumes. Core code: it never
imports a concrete game, model or learner.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import ConfigError
from mindgames.executors import default_workers, open_executor
from mindgames.files import append_jsonl, drop_torn_tail, lock_file, make_directory, read_jsonl
from mindgames.interrupts import stop_on_signals
from mindgames.modelfile import read_model_file
from mindgames.play.match import match_plan
from mindgames.play.report import build_report
from mindgames.play.results import window
from mindgames.play.task import play_tasks
from mindgames.recordtypes import GameRecord
from mindgames.registry import Registry, get_registry
from mindgames.spec import format_spec, parse_spec
from mindgames.training import MODEL_FILE, TRAINED_FOR, read_history, snapshots

CURVE_FILE = "curve.jsonl"
#: the keys of a curve line that say how it was measured; a resume must use the same ones
SETTINGS = ("vs", "depth", "search", "match_games", "seed", "max_plies")


@attrs.frozen
class CurveSettings:
    """How each point is measured: the reference agent, the snapshot's search (``search``, a
    searcher spec without ``eval``, else ``alphabeta`` at ``depth``), games, seed."""

    vs: str
    match_games: int = 200
    depth: int | None = 2
    seed: int = 0
    max_plies: int = 400
    search: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def searcher(self) -> str:
        """The spec each model plays with, before its ``eval=@MODEL``."""
        return self.search or f"alphabeta:depth={self.depth}"


@attrs.frozen
class Point:
    """One model of a run: the work trained (None if unknown), its file, whether it's final."""

    games: int | None  # the count, in ``unit``
    path: Path
    final: bool
    unit: str = "games"  # what the run's snapshots are named by: games, generation, playouts


def points(directory: str | Path) -> list[Point]:
    """The snapshots of a run, then its ``model.npz`` unless the last snapshot already is it.

    The final model counts as already snapshotted when the last snapshot has the count of the
    run's last history row (in the snapshots' unit, else its ``games``).
    """
    run = Path(directory)
    kept = snapshots(run)
    unit = "games"  # snapshots saved before they named their unit counted games
    if kept:
        unit = str(read_model_file(kept[-1][1])[0]["provenance"].get("unit", unit))
    found = [Point(count, path, False, unit) for count, path in kept]
    final = run / MODEL_FILE
    if final.exists():
        history = read_history(run)
        count = _count(history[-1], unit) if history else None
        if not (found and count is not None and found[-1].games == count):
            found.append(Point(count, final, True, unit))
    if not found:
        raise ConfigError(f"{run}: no snapshots and no {MODEL_FILE}: not a training run")
    return found


def spread(found: Sequence[Point], at_most: int | None) -> list[Point]:
    """At most ``at_most`` of a run's points, evenly spaced by their order, the first and the
    last always among them (all of them when they are that few, or ``at_most`` is None)."""
    if at_most is None or len(found) <= at_most:
        return list(found)
    if at_most < 2:
        raise ConfigError(f"--points {at_most}: at least 2 (the first model and the last)")
    last = len(found) - 1
    return [found[round(i * last / (at_most - 1))] for i in range(at_most)]


def _count(row: Mapping[str, Any], unit: str) -> int | None:
    """A history row's count in ``unit`` (Layered Learning's rows call its playouts games)."""
    value = row.get(unit, row.get("games"))
    return value if isinstance(value, int) else None


def training_seconds(directory: str | Path, unit: str = "games") -> dict[int, float]:
    """Training time so far at each history row's count (``elapsed``), when recorded; 0 at a
    count of 0 that no row holds (the initial model: nothing trained yet)."""
    out = {0: 0.0}
    for row in read_history(directory):
        count = _count(row, unit)
        if count is not None and isinstance(row.get(TRAINED_FOR), (int, float)):
            out[count] = float(row[TRAINED_FOR])
    return out


def game_spec(path: Path, registry: Registry) -> str:
    """The spec string of the game a model file was trained for."""
    record = read_model_file(path)[0]["game"]
    game = registry.game_from(record["name"], record.get("params", {}), where=f"{path}: game")
    return game.spec()


def done_points(out: Path, settings: CurveSettings) -> dict[str, dict[str, Any]]:
    """The curve lines already in ``out`` by model; refuses lines measured with other settings."""
    done = {}
    wanted = settings.as_dict()
    for number, line in enumerate(read_jsonl(out), 1):
        if {k: line.get(k) for k in SETTINGS} != wanted:
            raise ConfigError(
                f"{out}:{number}: measured with other settings "
                f"({', '.join(f'{k}={line.get(k)!r}' for k in SETTINGS)}); "
                "give the same ones to resume, or another --out"
            )
        done[str(line["model"])] = line
    return done


def measure(
    directory: str | Path,
    settings: CurveSettings,
    *,
    out: str | Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    registry: Registry | None = None,
    at_most: int | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    on_point: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play every point of the run (``at_most`` of them, ``spread``) not yet in ``out``;
    return all lines in ``out``, fewest games first."""
    run = Path(directory)
    registry = registry or get_registry()
    out_path = Path(out) if out is not None else run / CURVE_FILE
    every_point = points(run)
    todo_points = spread(every_point, at_most)
    _plan(run, todo_points[0], settings, registry)  # a bad --vs is named before any file is read
    make_directory(out_path.parent)
    with (
        lock_file(out_path.parent / f".{out_path.name}.lock", str(out_path)),
        stop_on_signals(graceful=False),
    ):
        done = done_points(out_path, settings)
        todo = [p for p in todo_points if _label(run, p) not in done]
        matches = [(p, _plan(run, p, settings, registry)) for p in todo]
        if on_start is not None:
            on_start(len(done), sum(len(plan.tasks) for _, plan in matches))
        seconds = training_seconds(run, todo_points[0].unit)
        if matches:
            n = min(workers or default_workers(), max(len(plan.tasks) for _, plan in matches))
            drop_torn_tail(out_path)
            with (
                out_path.open("a", encoding="utf-8") as fh,
                open_executor(n, scheduler) as executor,
            ):
                for point, plan in matches:
                    records: list[GameRecord] = []
                    played = play_tasks(plan.tasks, executor, registry=registry, window=window(n))
                    with contextlib.closing(played):  # cancels what is in flight on an error
                        for record in played:
                            records.append(record)
                            if on_game is not None:
                                on_game(record)
                    line = _line(run, point, settings, plan.agents, records, seconds)
                    append_jsonl(fh, line)
                    done[line["model"]] = line
                    if on_point is not None:
                        on_point(line)
    order = {_label(run, p): i for i, p in enumerate(every_point)}
    return sorted(done.values(), key=lambda line: order.get(line["model"], len(order)))


def _label(run: Path, point: Point) -> str:
    return point.path.relative_to(run).as_posix()


def _plan(run: Path, point: Point, settings: CurveSettings, registry: Registry) -> Any:
    spec = settings.searcher()
    name, options = parse_spec(spec)
    if "eval" in options:
        raise ConfigError(f"--search {spec!r}: leave out eval (each model is the evaluator)")
    registry.searcher(name, options, where=f"--search {spec!r}")
    agent = format_spec(name, {**options, "eval": f"@{point.path.resolve()}"})
    return match_plan(
        registry,
        game_spec(point.path, registry),
        agent,
        settings.vs,
        games=settings.match_games,
        seed=settings.seed,
        max_plies=settings.max_plies,
    )


def _line(
    run: Path,
    point: Point,
    settings: CurveSettings,
    agents: Sequence[str],
    records: Sequence[GameRecord],
    seconds: dict[int, float],
) -> dict[str, Any]:
    """The curve line of one point: its training games and time, W/D/L, Elo and interval."""
    report = build_report(agents, records, anchor=agents[1])
    pairing = report.pairings[0]
    rating = next(s for s in report.standings if s.agent == agents[0])
    return {
        "model": _label(run, point),
        "games": point.games,
        "unit": point.unit,
        "final": point.final,
        "seconds": seconds.get(point.games) if point.games is not None else None,
        "played": report.games,
        "wins": pairing.wins,
        "draws": pairing.draws,
        "losses": pairing.losses,
        "score": pairing.score / max(1, pairing.games),
        "elo": rating.elo,
        "elo_low": rating.elo_low,
        "elo_high": rating.elo_high,
        "los": pairing.los,
        "pentanomial": pairing.pentanomial,
        "elo_regularised": report.elo_regularised,
        **settings.as_dict(),
    }


def table(lines: Sequence[dict[str, Any]]) -> str:
    """A plain-text table of a curve: games (or the run's unit), seconds, W-D-L, score, Elo."""
    unit = str(lines[0].get("unit") or "games") if lines else "games"  # older lines: games
    rows = [f"{unit:>10}  {'seconds':>8}  {'W-D-L':>13}  {'score':>5}  elo [95%]"]
    for line in lines:
        games = "?" if line["games"] is None else str(line["games"])
        if line["final"]:
            games += "*"
        secs = "" if line["seconds"] is None else f"{line['seconds']:.1f}"
        wdl = f"{line['wins']}-{line['draws']}-{line['losses']}"
        rows.append(
            f"{games:>10}  {secs:>8}  {wdl:>13}  {line['score']:>5.3f}  "
            f"{line['elo']:+.0f} [{line['elo_low']:+.0f}, {line['elo_high']:+.0f}]"
        )
    return "\n".join(rows)
