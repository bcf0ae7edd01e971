"""Tournaments and matches: configs, the schedule of game tasks, running them, resuming.

Config (TOML; documented in docs/tournaments.md)::

    game = "kalah:pits=6,seeds=4"
    format = "round-robin"        # or "gauntlet" (champion meets every other agent)
    champion = "ab3"              # gauntlet only
    rounds = 1                    # times each opening is played (distinct game seeds)
    max_plies = 400               # move cap: a game still going after this many plies is drawn
    seed = 1                      # --seed overrides
    anchor = "random"             # agent rated Elo 0 (default: the mean is 0)
    openings = "random:plies=2,count=4"   # or an [openings] table (core/openings.py)

    [agents]
    random = "random"
    ab2 = "alphabeta:depth=2,eval=material"
    ab3 = { searcher = "alphabeta", depth = 3, eval = "material" }

Every pairing plays each opening twice with colours swapped (a game pair). Game seeds are
derived from the master seed and the game's index up front, so the results do not depend on the
executor or the number of workers. The run directory holds ``config.json`` (the config and seed
that define the games), ``results.jsonl`` (one record per finished game, appended with fsync),
and ``report.json`` / ``report.md``; ``resume`` plays only the games not yet in the results.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path
from typing import IO, Any

import attrs

from mindgames.agent import build_agent
from mindgames.config import load_toml, located, structure
from mindgames.errors import ConfigError
from mindgames.executors import SerialExecutor, default_workers, open_executor
from mindgames.files import append_jsonl, atomic_write, drop_torn_tail, lock_run, read_jsonl
from mindgames.game import Game, export_games_of
from mindgames.interrupts import stop_on_signals
from mindgames.limits import MAX_GAMES, at_most, max_workers
from mindgames.match import GameTask, foreign_record, game_seeds, play_task
from mindgames.openings import Opening, OpeningsConfig, make_openings, parse_openings
from mindgames.registry import Registry, get_registry
from mindgames.report import build_report, markdown

FORMATS = ("round-robin", "gauntlet")
CONFIG_FILE = "config.json"
RESULTS_FILE = "results.jsonl"
REPORT_JSON = "report.json"
REPORT_MD = "report.md"

Record = dict[str, Any]


@attrs.frozen
class TournamentConfig:
    """The top level of a tournament config (see the module docstring)."""

    game: str
    agents: dict[str, Any]
    format: str = "round-robin"
    champion: str | None = None
    rounds: int = attrs.field(default=1, validator=attrs.validators.ge(1))
    max_plies: int = attrs.field(default=400, validator=attrs.validators.ge(1))
    seed: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    anchor: str | None = None
    openings: Any = None
    workers: int | None = None
    scheduler: str | None = None


@attrs.frozen
class Plan:
    """A checked tournament: the game, agent specs, openings and every game task."""

    config: TournamentConfig
    game: Game
    openings: tuple[Opening, ...]
    tasks: tuple[GameTask, ...]
    seed: int

    @property
    def agents(self) -> list[str]:
        return list(self.config.agents)

    def identity(self) -> dict[str, Any]:
        """What defines the games (not how they are run): stored in and checked against the run."""
        d = attrs.asdict(self.config)
        d.pop("workers")
        d.pop("scheduler")
        d["seed"] = self.seed
        return json.loads(json.dumps(d))


def load_config(path: str | Path, **overrides: Any) -> TournamentConfig:
    """Read a tournament config file; ``overrides`` that are not None replace its keys."""
    raw = load_toml(path)
    raw.update({k: v for k, v in overrides.items() if v is not None})
    return structure(raw, TournamentConfig, where=str(path))


def plan(
    config: TournamentConfig,
    registry: Registry,
    *,
    seed: int | None = None,
    where: str = "tournament",
    base: Path | None = None,
    fewer_openings: bool = False,
) -> Plan:
    """Check the config and build every task, before any game is played.

    Builds the game and each agent once (an unknown agent, searcher or model fails here) and
    checks the openings are playable; ``fewer_openings`` takes fewer distinct random openings
    than asked for when no more exist (``make_openings``). The number of games is checked
    against ``MAX_GAMES`` before any task is made.
    """
    seed = config.seed if seed is None else seed
    if config.format not in FORMATS:
        raise ConfigError(
            f"{where}: format: unknown {config.format!r} (known: {', '.join(FORMATS)})"
        )
    names = list(config.agents)
    if len(names) < 2:
        raise ConfigError(f"{where}: agents: a tournament needs at least two agents")
    if config.rounds < 1 or config.max_plies < 1:
        raise ConfigError(f"{where}: rounds and max_plies must be at least 1")
    if config.anchor is not None and config.anchor not in names:
        raise ConfigError(f"{where}: anchor {config.anchor!r} is not one of the agents")
    with located(f"{where}: game"):
        game = registry.game(config.game)
    for name, spec in config.agents.items():
        if not isinstance(spec, (str, Mapping)):
            raise ConfigError(f"{where}: agents.{name}: expected a spec string or a table")
        with located(f"{where}: agents.{name}"):
            build_agent(registry, game, spec, name=name)
    if config.format == "gauntlet":
        if config.champion not in names:
            raise ConfigError(
                f"{where}: champion: a gauntlet needs champion = one of {', '.join(names)}"
            )
        pairings = [(config.champion, b) for b in names if b != config.champion]
    else:
        pairings = list(itertools.combinations(names, 2))
    opening_config: OpeningsConfig = parse_openings(config.openings, where=where)
    openings = make_openings(
        game, opening_config, seed, base=base, where=where, fewer=fewer_openings
    )
    games = config.rounds * len(openings) * len(pairings) * 2
    at_most(
        f"{where}: games (rounds × openings × pairings × 2 colours)",
        games,
        MAX_GAMES,
        f"{config.rounds} rounds, {len(openings)} openings, {len(pairings)} pairings",
    )
    tasks = schedule(config, pairings, openings, seed)
    return Plan(config, game, tuple(openings), tuple(tasks), seed)


def schedule(
    config: TournamentConfig,
    pairings: Sequence[tuple[str, str]],
    openings: Sequence[Opening],
    seed: int,
) -> list[GameTask]:
    """Every game, in index order: rounds, then openings, then pairings, then colours."""
    tasks: list[GameTask] = []
    pair = 0
    seeds = game_seeds(seed, config.rounds * len(openings) * len(pairings) * 2)
    for rnd in range(config.rounds):
        for opening in openings:
            for a, b in pairings:
                for first, second in ((a, b), (b, a)):
                    index = len(tasks)
                    tasks.append(
                        GameTask(
                            index=index,
                            game=config.game,
                            first=first,
                            second=second,
                            first_spec=config.agents[first],
                            second_spec=config.agents[second],
                            opening=opening,
                            pair=pair,
                            round=rnd,
                            seed=seeds[index],
                            max_plies=config.max_plies,
                        )
                    )
                pair += 1
    return tasks


def run_tasks(
    tasks: Sequence[GameTask],
    executor: Executor,
    out: IO[str] | None,
    *,
    registry: Registry | None = None,
    on_record: Callable[[Record], None] | None = None,
    stop: Callable[[list[Record]], bool] | None = None,
    window: int = 16,
) -> list[Record]:
    """Play ``tasks`` on ``executor``; append each record to ``out`` as it finishes.

    With ``stop``, records are written in index order and ``stop`` is asked after each one
    with the records so far; when it says so the remaining tasks are cancelled (so the games
    kept never depend on the executor). A SerialExecutor plays with ``registry`` (test plugins
    work); other executors rebuild it in the worker.
    """
    todo = deque(sorted(tasks, key=lambda t: t.index))
    inflight: dict[Future[Record], GameTask] = {}
    order = [t.index for t in todo]
    finished: dict[int, Record] = {}
    kept: list[Record] = []
    cursor = 0
    serial = isinstance(executor, SerialExecutor)
    if serial:
        window = 1  # play and write one game at a time
    stopped = False

    def emit(record: Record) -> None:
        if out is not None:
            append_jsonl(out, record)
        kept.append(record)
        if on_record is not None:
            on_record(record)

    # On an error or a signal the owner of the executor stops it (open_executor terminates a
    # pool's workers); futures are cancelled here only when ``stop`` ends the run early.
    while (todo or inflight) and not stopped:
        while todo and len(inflight) < window:
            task = todo.popleft()
            args: tuple[Any, ...] = (task.as_dict(), registry) if serial else (task.as_dict(),)
            inflight[executor.submit(play_task, *args)] = task
        done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
        for future in sorted(done, key=lambda f: inflight[f].index):
            inflight.pop(future)
            record = future.result()
            if stop is None:
                emit(record)
            else:
                finished[record["index"]] = record
        while stop is not None and cursor < len(order) and order[cursor] in finished:
            emit(finished.pop(order[cursor]))
            cursor += 1
            if stop(kept):
                stopped = True
                break
    for future in inflight:
        future.cancel()
    return kept


@attrs.frozen
class Outcome:
    """What ``run_tournament`` did: the report, the run directory, and games played now."""

    report: dict[str, Any]
    directory: Path
    played: int
    records: tuple[Record, ...]


def run_tournament(
    plan_: Plan,
    directory: str | Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    registry: Registry | None = None,
    on_record: Callable[[Record], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Play every game of ``plan_`` not yet in ``directory``'s results; write the reports."""
    out_dir = Path(directory)
    with lock_run(out_dir), stop_on_signals(graceful=False):
        done = _prepare(out_dir, plan_.identity(), resume, plan_.tasks)
        fresh = not (out_dir / CONFIG_FILE).exists()
        with atomic_write(out_dir / CONFIG_FILE, "w") as fh:
            fh.write(json.dumps(plan_.identity(), indent=2, sort_keys=True) + "\n")
        have = {int(r["index"]): r for r in done}
        todo = [t for t in plan_.tasks if t.index not in have]
        if on_start is not None:
            on_start(len(have), len(todo))
        workers = plan_.config.workers if workers is None else workers
        try:
            played = play_into(
                todo,
                out_dir / RESULTS_FILE,
                workers=workers,
                scheduler=scheduler or plan_.config.scheduler,
                registry=registry,
                on_record=on_record,
            )
        except BaseException:
            if fresh and not read_jsonl(out_dir / RESULTS_FILE):
                _forget(out_dir)  # failed before its first game (a --scheduler not reached)
            raise
        return _finish(plan_, out_dir, [*have.values(), *played], len(played))


def _forget(directory: Path) -> None:
    """Remove what a run wrote before its first game, so the directory takes a new run."""
    for name in (CONFIG_FILE, RESULTS_FILE):
        (directory / name).unlink(missing_ok=True)


def play_into(
    todo: Sequence[GameTask],
    results: Path | None,
    *,
    workers: int | None,
    scheduler: str | None,
    registry: Registry | None,
    on_record: Callable[[Record], None] | None,
    stop: Callable[[list[Record]], bool] | None = None,
) -> list[Record]:
    """Play ``todo`` on a fresh executor, appending each record to ``results`` when given (after
    cutting a torn last line that a killed run left)."""
    if workers is not None:
        at_most("workers", workers, max_workers(), "eight per core of this machine, at least 64")
    if not todo:
        return []
    n = min(workers or default_workers(), len(todo))
    with contextlib.ExitStack() as stack:
        fh = None
        if results is not None:
            drop_torn_tail(results)
            fh = stack.enter_context(results.open("a", encoding="utf-8"))
        executor = stack.enter_context(open_executor(n, scheduler))
        return run_tasks(
            todo,
            executor,
            fh,
            registry=registry or get_registry(),
            on_record=on_record,
            stop=stop,
            window=max(16, 4 * n),
        )


def _finish(plan_: Plan, out_dir: Path, records_: list[Record], played: int) -> Outcome:
    """Write the report and the game records of a tournament run directory."""
    records = sorted(records_, key=lambda r: r["index"])
    report = build_report(
        plan_.agents,
        records,
        anchor=plan_.config.anchor,
        extra={
            "game": plan_.config.game,
            "format": plan_.config.format,
            "seed": plan_.seed,
            "openings": len(plan_.openings),
            "scheduled": len(plan_.tasks),
        },
    )
    export_records(plan_.game, records, out_dir / "games")
    with atomic_write(out_dir / REPORT_JSON, "w") as fh:
        fh.write(json.dumps(report, indent=2) + "\n")
    with atomic_write(out_dir / REPORT_MD, "w") as fh:
        fh.write(markdown(report, title=f"Tournament: {plan_.config.game}"))
    return Outcome(report, out_dir, played, tuple(records))


def export_records(game: Game, records: Sequence[Record], stem: Path) -> Path | None:
    """Write the games in the game's own record format (checkers: PDN) as ``stem + suffix``."""
    games = []
    for r in records:
        tags = {
            "Event": f"mindgames {r['game']}",
            "Round": str(r["index"] + 1),
            game.player_names[0]: r["first"],
            game.player_names[1]: r["second"],
            "Opening": r["opening"],
        }
        games.append(
            {
                "tags": tags,
                "position": r["opening_position"],
                "moves": [*r["opening_moves"], *r["moves"]],
                "result": r["result"],
            }
        )
    exported = export_games_of(game, games)
    if exported is None:
        return None
    suffix, text = exported
    path = stem.with_name(stem.name + suffix)
    with atomic_write(path, "w") as fh:
        fh.write(text)
    return path


def _prepare(
    directory: Path, identity: dict[str, Any], resume: bool, tasks: Sequence[GameTask]
) -> list[Record]:
    """The records already in ``directory``; refuses a run started with another config.

    Without ``resume`` a directory holding an unfinished run is refused; a finished run of the
    same config is kept (nothing is replayed) so ``make demo`` can be run twice.
    """
    saved = directory / CONFIG_FILE
    if not saved.exists():
        if resume:
            raise ConfigError(f"{directory}: nothing to resume (no {CONFIG_FILE})")
        if (directory / RESULTS_FILE).exists():
            raise ConfigError(f"{directory}: holds results but no {CONFIG_FILE}; use a new --out")
        return []
    try:
        before = json.loads(saved.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # JSONDecodeError, UnicodeDecodeError
        raise ConfigError(f"{saved}: cannot read the run's config: {exc}") from None
    if not isinstance(before, dict) or not {"game", "agents", "format"} <= set(before):
        raise ConfigError(
            f"{directory}: holds another kind of run (its {CONFIG_FILE} is not a tournament's: "
            "a training run?); use a new --out"
        )
    if before != identity:
        raise ConfigError(
            f"{directory}: the tournament there was started with another config or seed; "
            "use the same ones to resume or a new --out"
        )
    records = read_jsonl(directory / RESULTS_FILE)
    number = foreign_record(records, tasks)
    if number is not None:
        raise ConfigError(
            f"{directory / RESULTS_FILE}: record {number} is not a finished game of this "
            "tournament (an index repeated or not planned, other players or no result)"
        )
    if not resume and len(records) < len(tasks):
        raise ConfigError(
            f"{directory}: holds an unfinished tournament ({len(records)} of {len(tasks)} games); "
            "use --resume to continue it or a new --out"
        )
    return records
