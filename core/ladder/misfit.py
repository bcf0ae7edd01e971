"""How far a ladder's ratings miss its own neighbouring head-to-heads: each rung's misfit.

A ladder's Elo is one Bradley-Terry fit over the whole round robin, and the rungs of a board
game are not transitive: a net that crushes the weak rungs is rated higher than its results
against its neighbours alone say (checkers' ``td4`` scores 47% against ``ab6``, rated 12 below
it). A gauntlet meets only the rungs near the rated agent, so its rating moves with which of
them it met; the interval of ``rate`` must carry that, or two seeds disagree beyond it.

A rung's misfit is the Elo standard deviation of that disagreement: for each pairing with a
neighbouring rung (next in Elo order), the residual ``(observed score - predicted) / p(1 - p)``
in Elo, squared, less its sampling variance (the spread of the pairing's game-pair scores
about their mean: pentanomial counts),
averaged over the rung's neighbours and floored at 0. ``rate`` adds it to the rating's
variance in quadrature, weighted by the share of the rating's information each rung gave.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from mindgames.play.ratings import ELO_PER_NAT


def pairing_residual(elo_a: float, elo_b: float, pairing: Mapping[str, Any]) -> tuple[float, float]:
    """The residual of one pairing in Elo (``a``'s side) and its sampling variance (Elo²)."""
    p = 1.0 / (1.0 + math.exp(-(elo_a - elo_b) / ELO_PER_NAT))
    games = int(pairing["games"])
    observed = (pairing["wins"] + pairing["draws"] / 2) / games
    slope = ELO_PER_NAT / (p * (1.0 - p))
    counts = list(pairing.get("pentanomial") or [])
    pairs = sum(counts)
    if pairs > 1:  # game pairs: the variance of the mean from the pairs' spread about it
        mean = 2 * observed
        square = sum(c * (k / 2 - mean) ** 2 for k, c in enumerate(counts))
        spread = square / (pairs * (pairs - 1)) / 4
    else:  # single games
        w, d, lo = pairing["wins"], pairing["draws"], pairing["losses"]
        square = w * (1 - observed) ** 2 + d * (0.5 - observed) ** 2 + lo * observed**2
        spread = square / (games * (games - 1)) if games > 1 else 0.0
    return (observed - p) * slope, spread * slope**2


def rung_misfits(
    ratings: Mapping[str, float], pairings: Sequence[Mapping[str, Any]]
) -> dict[str, float]:
    """Each rung's misfit in Elo from its ratings and the round robin's pairings (a report's
    ``pairings``: ``agents``, ``games``, ``wins``, ``draws``, ``losses``, ``pentanomial``)."""
    order = sorted(ratings, key=lambda n: (ratings[n], n))
    met = {tuple(p["agents"]): p for p in pairings if int(p["games"]) > 0}
    excess: dict[str, list[float]] = {n: [] for n in order}
    for a, b in itertools.pairwise(order):
        if (a, b) in met:
            resid, var = pairing_residual(ratings[a], ratings[b], met[(a, b)])
        elif (b, a) in met:
            resid, var = pairing_residual(ratings[b], ratings[a], met[(b, a)])
        else:
            continue
        excess[a].append(resid**2 - var)
        excess[b].append(resid**2 - var)
    return {
        n: round(math.sqrt(max(0.0, sum(e) / len(e))), 1) if e else 0.0 for n, e in excess.items()
    }
