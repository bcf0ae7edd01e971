"""Matches: two agents in game pairs, optionally stopped by SPRT, with results in one JSON
Lines file that is locked while it is written and resumed like a tournament's."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import ConfigError
from mindgames.files import lock_file, make_directory, read_jsonl
from mindgames.game import opening_books_of
from mindgames.interrupts import stop_on_signals
from mindgames.limits import MAX_GAMES, MAX_OPENINGS, at_most
from mindgames.play.openings import parse_openings
from mindgames.play.report import build_report
from mindgames.play.results import Outcome, Record, export_records, play_into, typed_records
from mindgames.play.task import foreign_record
from mindgames.play.tournament import Plan, TournamentConfig, plan, schedule
from mindgames.registry import Registry


def match_plan(
    registry: Registry,
    game: str,
    first: str,
    second: str,
    *,
    games: int,
    seed: int,
    openings: str | None = None,
    max_plies: int = 400,
    where: str = "match",
) -> Plan:
    """A two-agent plan of ``games`` games (rounded up to whole game pairs); ``where`` names the
    command in its errors.

    The default openings are the game's first opening book when it has one (the ACF ballots for
    checkers), else two random plies; openings are reused, with new seeds, as rounds.
    """
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    at_most("--games", games, MAX_GAMES)
    names = [first, second] if first != second else [f"{first}#1", f"{second}#2"]
    if openings is None:
        books = opening_books_of(registry.game(game))
        openings = f"book:name={next(iter(books))}" if books else "random:plies=2"
    pairs = (games + 1) // 2
    opening_config = parse_openings(openings, where=where)
    fewer = opening_config.kind == "random" and opening_config.count is None
    if fewer:  # as many distinct openings as there are, up to one per game pair
        opening_config = attrs.evolve(opening_config, count=min(pairs, MAX_OPENINGS))
    config = TournamentConfig(
        game=game,
        agents={names[0]: first, names[1]: second},
        seed=seed,
        max_plies=max_plies,
        openings=attrs.asdict(opening_config),
    )
    base = plan(config, registry, seed=seed, where=where, fewer_openings=fewer)
    count = len(base.openings)
    rounds = -(-pairs // count)
    config = attrs.evolve(config, rounds=rounds)
    full = schedule(config, [(names[0], names[1])], base.openings, seed)[: 2 * pairs]
    return Plan(config, base.game, base.openings, tuple(full), seed)


def sprt_counts(records: Sequence[Record], agent: str) -> list[int]:
    """Pentanomial counts of ``agent`` over the complete game pairs in ``records``."""
    from mindgames.play.sprt import pentanomial

    by_pair: dict[int, list[Record]] = {}
    for r in records:
        by_pair.setdefault(r.pair, []).append(r)
    scores = []
    for rs in by_pair.values():
        if len(rs) == 2:
            scores.append(sum(r.score if r.first == agent else 1 - r.score for r in rs))
    return pentanomial(scores)


def run_match(
    plan_: Plan,
    out: str | Path | None,
    *,
    sprt: Any = None,
    resume: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    registry: Registry | None = None,
    on_record: Callable[[Record], None] | None = None,
) -> Outcome:
    """Play a match plan, stopping early when ``sprt`` (a sprt.Sprt) reaches a verdict.

    ``out`` (a JSON Lines file) follows the tournament's rules: a file holding results is
    refused unless ``resume`` is set, and resuming checks that its games are this match's.
    """
    agent = plan_.agents[0]

    def stop(kept: list[Record]) -> bool:
        if sprt is None or len(kept) % 2:
            return False
        return bool(sprt.verdict(sprt_counts(kept, agent)) != "continue")

    path = Path(out) if out is not None else None
    with contextlib.ExitStack() as stack:
        have: list[Record] = []
        if path is not None:
            make_directory(path.parent)
            stack.enter_context(lock_file(path.parent / f".{path.name}.lock", str(path)))
            have = _previous(plan_, path, resume)
        stack.enter_context(stop_on_signals(graceful=False))
        done = {r.index for r in have}
        todo = [t for t in plan_.tasks if t.index not in done]
        if sprt is not None and have and stop(have):
            todo = []
        played = play_into(
            todo,
            path,
            workers=workers,
            scheduler=scheduler,
            registry=registry,
            on_record=on_record,
            stop=(lambda kept: stop([*have, *kept])) if sprt is not None else None,
        )
    records = sorted([*have, *played], key=lambda r: r.index)
    extra: dict[str, Any] = {
        "game": plan_.config.game,
        "format": "match",
        "seed": plan_.seed,
        "scheduled": len(plan_.tasks),
    }
    if path is not None:
        export_records(plan_.game, records, path.with_suffix(""))
    if sprt is not None:
        extra["sprt"] = sprt.as_dict(sprt_counts(records, agent))
    report = build_report(plan_.agents, records, anchor=plan_.agents[1], extra=extra)
    return Outcome(report, path.parent if path else Path("."), len(played), tuple(records))


def _previous(plan_: Plan, path: Path, resume: bool) -> list[Record]:
    """The records already in ``path``: refused without ``resume`` or from another match."""
    records = read_jsonl(path) if path.exists() else []
    if not resume:
        if records:
            raise ConfigError(
                f"{path}: already holds {len(records)} match games; use --resume to continue "
                "the same match or another --out"
            )
        return []
    if not path.exists():
        raise ConfigError(f"{path}: nothing to resume (no such file)")
    number = foreign_record(records, plan_.tasks)
    if number is not None:
        raise ConfigError(
            f"{path}: holds games of another match (record {number} differs); resume with "
            "the same agents, game, seed, openings and --max-plies, or use another --out"
        )
    return typed_records(records, path)
