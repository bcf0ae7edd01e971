"""Building a ladder: a round robin of the rungs in game pairs, rated with Elo anchored at random.

The games are a tournament's (core/play/tournament.py): the same plan, run directory, results file
and resume; only the schedule is cut so that every pairing plays ``games`` games (whole pairs,
each opening once with each colour), as a match does. The ladder file is written atomically once
every game is played. Each rung keeps its misfit (core/ladder/misfit.py): how far its
neighbouring head-to-heads stray from the fit, which ``rate`` adds to a rating's interval.
"""

from __future__ import annotations

import itertools
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from mindgames.errors import ConfigError
from mindgames.game import opening_books_of
from mindgames.ladder.file import Ladder, Rung, write_ladder
from mindgames.ladder.misfit import rung_misfits
from mindgames.limits import MAX_OPENINGS
from mindgames.play.openings import parse_openings
from mindgames.play.tournament import Plan, TournamentConfig, plan, run_tournament, schedule
from mindgames.recordtypes import GameRecord
from mindgames.registry import Registry

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
#: the rung rated 0 when no --anchor is given
ANCHOR = "random"


def parse_rungs(texts: Sequence[str]) -> dict[str, str]:
    """``NAME=SPEC`` or ``SPEC`` (then named by its spec) for each ``--rung``, in order."""
    rungs: dict[str, str] = {}
    for text in texts:
        head, eq, rest = text.partition("=")
        if eq and _NAME.match(head.strip()) and rest.strip():
            name, spec = head.strip(), rest.strip()
        else:
            name = spec = text.strip()
        if name in rungs:
            raise ConfigError(f"--rung {text!r}: a rung named {name!r} is given twice")
        rungs[name] = spec
    if len(rungs) < 2:
        raise ConfigError("a ladder needs at least two --rung agents")
    return rungs


def default_anchor(rungs: Mapping[str, str]) -> str:
    """The rung named ``random``, else the one whose spec is ``random``."""
    for name, spec in rungs.items():
        if name == ANCHOR or spec == ANCHOR:
            return name
    raise ConfigError(
        "a ladder is anchored at random = 0: add --rung random, or name the rung rated 0 "
        "with --anchor NAME"
    )


def default_openings(registry: Registry, game_spec: str) -> str:
    """The game's first opening book when it has one (checkers: the ACF ballots), else two
    random plies: what a match starts from."""
    books = opening_books_of(registry.game(game_spec))
    return f"book:name={next(iter(books))}" if books else "random:plies=2"


def ladder_plan(
    registry: Registry,
    game_spec: str,
    rungs: Mapping[str, str],
    *,
    games: int,
    seed: int,
    openings: str,
    max_plies: int,
    anchor: str,
) -> Plan:
    """A round robin in which every pairing plays ``games`` games (rounded up to pairs).

    Random openings without a count take one line per game pair (as few as exist); openings are
    reused as rounds with new seeds when there are fewer than pairs.
    """
    if games < 2:
        raise ConfigError(f"--games must be at least 2 (one game pair), got {games}")
    if anchor not in rungs:
        raise ConfigError(f"--anchor {anchor!r} is not a rung ({', '.join(rungs)})")
    pairs = (games + 1) // 2
    opening_config = parse_openings(openings, where="ladder")
    fewer = opening_config.kind == "random" and opening_config.count is None
    if fewer:
        opening_config = attrs.evolve(opening_config, count=min(pairs, MAX_OPENINGS))
    config = TournamentConfig(
        game=game_spec,
        agents=dict(rungs),
        seed=seed,
        max_plies=max_plies,
        anchor=anchor,
        openings=attrs.asdict(opening_config),
    )
    base = plan(config, registry, seed=seed, where="ladder", fewer_openings=fewer)
    config = attrs.evolve(config, rounds=-(-pairs // len(base.openings)))
    pairings = list(itertools.combinations(list(rungs), 2))
    # index order is rounds, openings, pairings, colours: a cut at whole opening slots gives
    # every pairing the same openings
    tasks = schedule(config, pairings, base.openings, seed)[: 2 * pairs * len(pairings)]
    return Plan(config, base.game, base.openings, tuple(tasks), seed)


def commit() -> str:
    """The git commit of the mindgames source when it is a checkout, ``-dirty`` appended when
    tracked files differ from it; ``unknown`` otherwise (an installed package)."""
    here = str(Path(__file__).resolve().parent)

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", here, *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    if not head:
        return "unknown"
    return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def build_ladder(
    plan_: Plan,
    run_dir: str | Path,
    out: str | Path,
    *,
    openings: str,
    command: str,
    note: str | None = None,
    resume: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    registry: Registry | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> tuple[Ladder, int]:
    """Play (or resume) the round robin in ``run_dir`` and write the ladder to ``out``; return
    it and the games played now."""
    from mindgames import __version__

    source = commit()  # the code that plays the games: a later edit of the tree is not theirs
    outcome = run_tournament(
        plan_,
        run_dir,
        resume=resume,
        workers=workers,
        scheduler=scheduler,
        registry=registry,
        on_record=on_record,
        on_start=on_start,
    )
    report = outcome.report
    agents = plan_.config.agents
    misfit = rung_misfits(
        {s["agent"]: float(s["elo"]) for s in report["standings"]}, report["pairings"]
    )
    rungs = sorted(
        (
            Rung(
                s["agent"],
                str(agents[s["agent"]]),
                round(float(s["elo"]), 1),
                round(float(s["elo_low"]), 1),
                round(float(s["elo_high"]), 1),
                int(s["games"]),
                misfit[s["agent"]],
            )
            for s in report["standings"]
        ),
        key=lambda r: (r.elo, r.name),
    )
    pairings = len(rungs) * (len(rungs) - 1) // 2
    provenance: dict[str, Any] = {
        "command": command,
        "seed": plan_.seed,
        "commit": source,
        "mindgames": __version__,
        "games": report["games"],
        "games_per_pairing": report["games"] // pairings,
        "openings_used": plan_.config.openings,
        "regularised": report["elo_regularised"],
        "run": str(run_dir),
    }
    if note:
        provenance["note"] = note
    ladder = Ladder(
        game=plan_.game.spec(),
        openings=openings,
        max_plies=plan_.config.max_plies,
        anchor=str(plan_.config.anchor),
        rungs=tuple(rungs),
        provenance=provenance,
    )
    write_ladder(out, ladder)
    return ladder, outcome.played
