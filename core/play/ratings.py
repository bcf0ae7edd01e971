"""Ratings from game results: Bradley-Terry Elo with intervals, and LOS.

Pure functions on plain numbers, so they are checked against hand-computed values.

* **Elo** is a Bradley-Terry maximum-likelihood fit over all games (a draw counts half a win
  for each side), on the logistic Elo scale ``P(i beats j) = 1 / (1 + 10^((r_j - r_i)/400))``.
  It is anchored on a named agent (rated 0) or on the mean (ratings sum to 0). The 95% interval
  is the Wald interval from the inverse Fisher information at the optimum (with the mean anchor,
  its pseudo-inverse, the covariance of the centred ratings), scaled by the games' dispersion:
  the model treats a game's score as a win or a loss, whose variance p(1 - p) a draw lowers, so
  the covariance is multiplied by sum (score - p)^2 / sum p(1 - p) over the games (Pearson's
  quasi-likelihood factor). For two agents this is the interval from the games' observed
  variance that cutechess reports; without draws it then changes nothing (among more agents,
  next to nothing). Games that are all drawn get an interval of width 0, as in cutechess.
* When some agent is never beaten (or never scores) the maximum does not exist; the fit then
  adds one virtual draw to every pair that met and says so (``regularised``); its interval is
  not scaled (the virtual draws would make a one-sided record's dispersion small).
* **LOS** (likelihood of superiority) is ``Phi((w - l) / sqrt(w + l))`` from wins and losses.

The sequential test of a match (pentanomial counts, SPRT) is ``core/play/sprt.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs
import numpy as np

from mindgames.errors import ConfigError

#: natural-log rating units to Elo points
ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


def elo_from_score(score: float) -> float:
    """Elo difference that a mean score in (0, 1) stands for (logistic scale)."""
    if not 0.0 < score < 1.0:
        return math.inf if score >= 1.0 else -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic scale)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def los(wins: float, losses: float) -> float:
    """Likelihood of superiority: the chance the winner of the head-to-head is really stronger."""
    if wins + losses <= 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


@attrs.frozen
class EloFit:
    """Ratings with 95% intervals, in the order of ``agents``."""

    agents: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    anchor: str | None  # None: the mean is 0
    regularised: bool

    def as_dict(self) -> dict[str, dict[str, float]]:
        return {
            a: {"elo": e, "elo_low": lo, "elo_high": hi}
            for a, e, lo, hi in zip(self.agents, self.elo, self.low, self.high, strict=True)
        }


def _strongly_connected(score: np.ndarray, games: np.ndarray) -> bool:
    """Whether every agent reaches every other through "scored at least a draw against" edges.

    This is Zermelo's condition for the Bradley-Terry maximum to exist and be unique.
    """
    n = len(score)
    if n <= 1:
        return True
    edge = score > 0  # i -> j when i took points from j

    def reach(adj: np.ndarray) -> set[int]:
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in np.flatnonzero(adj[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    todo.append(int(j))
        return seen

    return len(reach(edge)) == n and len(reach(edge.T)) == n


def fit_elo(
    agents: Sequence[str],
    results: Mapping[tuple[str, str], tuple[float, float, float]],
    *,
    anchor: str | None = None,
    iterations: int = 100,
) -> EloFit:
    """Bradley-Terry Elo from ``{(a, b): (wins of a, draws, losses of a)}`` over all games.

    Pairs may appear in either order (or both); ``anchor`` names the agent rated 0, or None
    for a zero mean.
    """
    names = tuple(agents)
    index = {a: i for i, a in enumerate(names)}
    if anchor is not None and anchor not in index:
        raise ConfigError(f"rating anchor {anchor!r} is not an agent (agents: {', '.join(names)})")
    n = len(names)
    score = np.zeros((n, n))  # score[i, j]: points of i against j (draw = 1/2)
    games = np.zeros((n, n))
    outcomes = []  # (i, j, wins of i, draws, losses of i)
    for (a, b), (won, drawn, lost) in results.items():
        i, j = index[a], index[b]
        outcomes.append((i, j, won, drawn, lost))
        score[i, j] += won + 0.5 * drawn
        score[j, i] += lost + 0.5 * drawn
        games[i, j] += won + drawn + lost
        games[j, i] += won + drawn + lost
    regularised = not _strongly_connected(score, games)
    if regularised:
        met = games > 0
        score = score + 0.5 * met  # one virtual draw per pair that met
        games = games + 1.0 * met
    r = np.zeros(n)
    keep = np.array([i for i in range(n) if names[i] != anchor]) if anchor else np.arange(n)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j] = P(i beats j)
        grad = (score - games * p).sum(axis=1)
        w = games * p * p.T
        info = np.diag(w.sum(axis=1)) - w
        step = _solve(info, grad, keep)
        r = r + step
        if anchor is None:
            r -= r.mean()
        if np.max(np.abs(step)) < 1e-12:
            break
    p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))
    w = games * p * p.T
    info = np.diag(w.sum(axis=1)) - w
    cov = _covariance(info, keep, anchor is None)
    if not regularised:  # virtual draws would make the dispersion of a one-sided record small
        cov = cov * _dispersion(p, outcomes)
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None)) * ELO_PER_NAT
    elo = r * ELO_PER_NAT
    return EloFit(
        names,
        tuple(float(x) for x in elo),
        tuple(float(x) for x in elo - Z95 * sd),
        tuple(float(x) for x in elo + Z95 * sd),
        anchor,
        regularised,
    )


def _dispersion(p: np.ndarray, outcomes: Sequence[tuple[int, int, float, float, float]]) -> float:
    """Pearson's factor: the games' squared residuals over their variance as wins and losses
    (1 without draws between two agents, less with draws)."""
    residual = variance = 0.0
    for i, j, won, drawn, lost in outcomes:
        q = p[i, j]
        residual += won * (1.0 - q) ** 2 + drawn * (0.5 - q) ** 2 + lost * q**2
        variance += (won + drawn + lost) * q * (1.0 - q)
    return residual / variance if variance > 0 else 1.0


def _solve(info: np.ndarray, grad: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Newton step for the free ratings (the anchor stays at 0; a mean anchor uses pinv)."""
    step = np.zeros(len(grad))
    if len(keep) == len(grad):
        step = np.linalg.pinv(info) @ grad
    elif len(keep):
        sub = info[np.ix_(keep, keep)]
        step[keep] = np.linalg.lstsq(sub, grad[keep], rcond=None)[0]
    return step


def _covariance(info: np.ndarray, keep: np.ndarray, mean_anchor: bool) -> np.ndarray:
    n = len(info)
    if mean_anchor:
        return np.linalg.pinv(info)
    cov = np.zeros((n, n))
    if len(keep):
        cov[np.ix_(keep, keep)] = np.linalg.pinv(info[np.ix_(keep, keep)])
    return cov
