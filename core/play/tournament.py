"""Tournaments: configs, the plan of game tasks, a run directory played and resumed.

Config (TOML; documented in docs/tournaments.md)::

    game = "kalah:pits=6,seeds=4"
    format = "round-robin"        # or "gauntlet" (champion meets every other agent)
    champion = "ab3"              # gauntlet only
    rounds = 1                    # times each opening is played (distinct game seeds)
    max_plies = 400               # move cap: a game still going after this many plies is drawn
    seed = 1                      # --seed overrides
    anchor = "random"             # agent rated Elo 0 (default: the mean is 0)
    openings = "random:plies=2,count=4"   # or an [openings] table (core/play/openings.py)

    [agents]
    random = "random"
    ab2 = "alphabeta:depth=2,eval=material"
    ab3 = { searcher = "alphabeta", depth = 3, eval = "material" }

Every pairing plays each opening twice with colours swapped (a game pair). Game seeds are
derived from the master seed and the game's index up front, so the results do not depend on the
executor or the number of workers. The run directory holds ``config.json`` (the config and seed
that define the games), ``results.jsonl`` (one record per finished game, ``core/play/results.py``)
and ``report.json`` / ``report.md``; ``resume`` plays only the games not yet in the results.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.agent import build_agent
from mindgames.config import load_toml, located, structure
from mindgames.errors import ConfigError
from mindgames.files import atomic_write, lock_run, read_jsonl
from mindgames.game import Game
from mindgames.interrupts import stop_on_signals
from mindgames.limits import MAX_GAMES, at_most
from mindgames.play.openings import Opening, OpeningsConfig, make_openings, parse_openings
from mindgames.play.report import build_report, markdown
from mindgames.play.results import Outcome, Record, export_records, play_into, typed_records
from mindgames.play.task import GameTask, foreign_record, game_seeds
from mindgames.registry import Registry

FORMATS = ("round-robin", "gauntlet")
CONFIG_FILE = "config.json"
RESULTS_FILE = "results.jsonl"
REPORT_JSON = "report.json"
REPORT_MD = "report.md"


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
        have = {r.index: r for r in done}
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
                # failed before its first game (a --scheduler not reached): forget the run
                for name in (CONFIG_FILE, RESULTS_FILE):
                    (out_dir / name).unlink(missing_ok=True)
            raise
        return _finish(plan_, out_dir, [*have.values(), *played], len(played))


def _finish(plan_: Plan, out_dir: Path, records_: list[Record], played: int) -> Outcome:
    """Write the report and the game records of a tournament run directory."""
    records = sorted(records_, key=lambda r: r.index)
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
        fh.write(json.dumps(report.json(), indent=2) + "\n")
    with atomic_write(out_dir / REPORT_MD, "w") as fh:
        fh.write(markdown(report, title=f"Tournament: {plan_.config.game}"))
    return Outcome(report, out_dir, played, tuple(records))


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
    return typed_records(records, directory / RESULTS_FILE)
