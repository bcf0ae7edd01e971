"""Rating one agent on a ladder: an adaptive gauntlet, then an Elo fit with the rungs held fixed.

The gauntlet plays its games in a few steps of paired games (a match each, core/play/match.py,
with the ladder's openings and move cap). The first step meets the middle rung; after each step
the agent's Elo is fitted on every game so far and the next step meets the rung rated nearest
to it, where a game says most about the rating. Every step's seed derives from ``seed`` and the
step's number, and the rung chosen depends only on the results, so the run is reproducible
serial or parallel. One executor (a process pool, or the Dask client) serves every step.

The fit (``fit_fixed``) is the Bradley-Terry maximum likelihood of the one free rating against
opponents of known Elo. Its 95% interval counts game pairs (pentanomial: the two games of an
opening are not independent) and adds the misfit of the rungs met (core/ladder/misfit.py: which
rungs a gauntlet meets moves its rating by about that much). The rungs' own intervals are not
added: the rating is on that ladder's scale, whose rungs are taken as exact.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import attrs
import numpy as np

from mindgames.executors import default_workers, open_executor
from mindgames.interrupts import stop_on_signals
from mindgames.ladder.file import Ladder
from mindgames.play.match import match_plan
from mindgames.play.ratings import ELO_PER_NAT, Z95
from mindgames.play.task import play_tasks
from mindgames.play.tournament import schedule
from mindgames.recordtypes import GameRecord
from mindgames.registry import Registry

#: gauntlet steps at most (fewer when there are fewer game pairs)
STEPS = 4


@attrs.frozen
class FixedFit:
    """One rating against fixed opponents: Elo, 95% interval, and whether it was regularised
    (all games won or all lost: one virtual draw per opponent makes the maximum exist)."""

    elo: float
    low: float
    high: float
    regularised: bool


def fit_fixed(results: Sequence[tuple[float, float, Sequence[float]]]) -> FixedFit:
    """The Elo of one agent from ``(opponent Elo, its misfit, the agent's game-pair scores)``
    rows (a pair: one opening with each colour, scoring 0 to 2 in halves).

    The variance counts game pairs, not games: the two games of a pair share their opening,
    and with deterministic agents they are far from independent (the games of a draw-heavy
    pairing would otherwise look like many trials). It is the pair-clustered sandwich
    ``sum (pair score - 2p)^2 / info^2`` with the small-sample factor ``n / (n - 1)`` over ``n``
    pairs (the pentanomial variance for one opponent), plus each opponent's misfit weighted by
    its share of the information.
    """
    rows = [
        (e / ELO_PER_NAT, m / ELO_PER_NAT, np.asarray(s, float)) for e, m, s in results if len(s)
    ]
    if not rows:
        raise ValueError("no games to rate")
    opp = np.array([r[0] for r in rows])
    score = np.array([float(r[2].sum()) for r in rows])
    games = np.array([2.0 * len(r[2]) for r in rows])
    regularised = bool(score.sum() == 0 or score.sum() == games.sum())
    if regularised:
        score, games = score + 0.5, games + 1.0
    r = float(np.average(opp, weights=games))
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(opp - r))
        info = float((games * p * (1.0 - p)).sum())
        step = float((score - games * p).sum()) / info
        step = max(-2.0, min(2.0, step))  # a step of at most ~870 Elo keeps Newton stable
        r += step
        if abs(step) < 1e-12:
            break
    p = 1.0 / (1.0 + np.exp(opp - r))
    share = games * p * (1.0 - p)
    info = float(share.sum())
    pairs = sum(len(row[2]) for row in rows)
    if regularised or pairs < 2:
        variance = 1.0 / info
    else:
        spread = sum(float(((row[2] - 2.0 * q) ** 2).sum()) for row, q in zip(rows, p, strict=True))
        variance = spread / info**2 * pairs / (pairs - 1)
    variance += float(((share / info * np.array([row[1] for row in rows])) ** 2).sum())
    half = Z95 * math.sqrt(variance) * ELO_PER_NAT
    elo = r * ELO_PER_NAT
    return FixedFit(elo, elo - half, elo + half, regularised)


def step_pairs(games: int) -> list[int]:
    """Game pairs of each step: ``games`` rounded up to pairs, split evenly into steps."""
    pairs = (games + 1) // 2
    steps = min(STEPS, pairs)
    return [pairs // steps + (i < pairs % steps) for i in range(steps)]


def step_seed(seed: int, step: int) -> int:
    """The seed of a step's games, derived from the run's seed and the step's number."""
    return int(np.random.SeedSequence([seed, step]).generate_state(1, np.uint32)[0])


def nearest(ladder: Ladder, elo: float) -> int:
    """The index of the rung rated nearest ``elo`` (the weaker of two as near)."""
    return min(range(len(ladder.rungs)), key=lambda i: (abs(ladder.rungs[i].elo - elo), i))


def rate(
    registry: Registry,
    ladder: Ladder,
    spec: str,
    *,
    games: int,
    seed: int,
    workers: int | None = None,
    scheduler: str | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
) -> dict[str, Any]:
    """Play the gauntlet of ``spec`` against ``ladder`` and return the rating as a dict."""
    tally: dict[int, list[int]] = {}  # rung index -> the agent's wins, draws, losses
    pair_scores: dict[int, list[float]] = {}  # rung index -> the agent's game-pair scores
    path: list[str] = []
    at = len(ladder.rungs) // 2
    fit: FixedFit | None = None
    steps = step_pairs(games)
    n = min(workers or default_workers(), 2 * max(steps))
    with stop_on_signals(graceful=False), open_executor(n, scheduler) as executor:
        for step, pairs in enumerate(steps):
            at, fit = _step(
                registry,
                ladder,
                spec,
                executor,
                tally,
                pair_scores,
                path,
                at,
                pairs,
                step_seed(seed, step),
                on_record,
                window=max(16, 4 * n),
            )
    assert fit is not None
    opponents = []
    for i, (w, d, lo) in sorted(tally.items()):
        rung = ladder.rungs[i]
        opponents.append(
            {
                "rung": rung.name,
                "agent": rung.agent,
                "rung_elo": rung.elo,
                "games": w + d + lo,
                "wins": w,
                "draws": d,
                "losses": lo,
                "score": (w + d / 2) / (w + d + lo),
            }
        )
    return {
        "agent": spec,
        "game": ladder.game,
        "elo": fit.elo,
        "elo_low": fit.low,
        "elo_high": fit.high,
        "regularised": fit.regularised,
        "games": sum(o["games"] for o in opponents),
        "seed": seed,
        "steps": path,
        "opponents": opponents,
        "ladder": {
            "anchor": ladder.anchor,
            "rungs": len(ladder.rungs),
            "provenance": ladder.provenance,
        },
    }


def _step(
    registry: Registry,
    ladder: Ladder,
    spec: str,
    executor: Executor,
    tally: dict[int, list[int]],
    pair_scores: dict[int, list[float]],
    path: list[str],
    at: int,
    pairs: int,
    seed: int,
    on_record: Callable[[GameRecord], None] | None,
    *,
    window: int,
) -> tuple[int, FixedFit]:
    """One step of the gauntlet: ``pairs`` game pairs against rung ``at``, counted in ``tally``;
    the fit on every game so far and the rung the next step meets."""
    rung = ladder.rungs[at]
    plan_ = match_plan(
        registry,
        ladder.game,
        spec,
        rung.agent,
        games=2 * pairs,
        seed=seed,
        openings=ladder.openings,
        max_plies=ladder.max_plies,
        where="rate",
    )
    me = plan_.agents[0]
    tasks = plan_.tasks
    if len(plan_.openings) > pairs:
        # a book longer than the step: a seeded sample of its openings, not its first ones
        # (every step would meet the same few ballots, and a rating would rest on them)
        chosen = np.random.default_rng(seed).choice(len(plan_.openings), pairs, replace=False)
        picked = [plan_.openings[i] for i in sorted(chosen)]
        tasks = tuple(schedule(plan_.config, [(me, plan_.agents[1])], picked, seed))
    records = []
    played = play_tasks(tasks, executor, registry=registry, window=window)
    with contextlib.closing(played):
        for record in played:
            records.append(record)
            if on_record is not None:
                on_record(record)
    counts = tally.setdefault(at, [0, 0, 0])
    by_pair: dict[int, float] = {}
    for r in records:
        s = float(r["score"]) if r["first"] == me else 1.0 - float(r["score"])
        counts[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
        by_pair[int(r["pair"])] = by_pair.get(int(r["pair"]), 0.0) + s
    pair_scores.setdefault(at, []).extend(by_pair[k] for k in sorted(by_pair))
    path.append(rung.name)
    rows = [
        (ladder.rungs[i].elo, ladder.rungs[i].misfit, scores)
        for i, scores in sorted(pair_scores.items())
    ]
    fit = fit_fixed(rows)
    return nearest(ladder, fit.elo), fit
