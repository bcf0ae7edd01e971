"""A match's sequential test: pentanomial counts of game pairs and the SPRT that stops a match.

**SPRT** is the generalised SPRT on the logistic Elo scale (Van den Bergh's normal approximation
used by fishtest and fastchess), on trinomial or pentanomial counts. Pure functions on plain
numbers, checked against hand-computed values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np

from mindgames.errors import ConfigError
from mindgames.play.ratings import score_from_elo


# --- paired games ------------------------------------------------------------------------------
def pentanomial(pair_scores: Sequence[float]) -> list[int]:
    """Counts of game-pair scores 0, 1/2, 1, 3/2, 2 (a win 1, a draw 1/2) for one side."""
    counts = [0, 0, 0, 0, 0]
    for s in pair_scores:
        k = round(2 * s)
        if not 0 <= k <= 4 or abs(2 * s - k) > 1e-9:
            raise ValueError(f"a game pair scores 0..2 in halves, got {s}")
        counts[k] += 1
    return counts


# --- SPRT --------------------------------------------------------------------------------------
@attrs.frozen
class Sprt:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ConfigError(f"sprt: alpha and beta must lie in (0, 1), got {self}")
        if self.elo0 >= self.elo1:
            raise ConfigError(f"sprt: elo0 must be below elo1, got {self.elo0} and {self.elo1}")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        """Log-likelihood ratio of trinomial (L, D, W) or pentanomial (0..2 pair) counts."""
        return sprt_llr(counts, self.elo0, self.elo1)

    def verdict(self, counts: Sequence[float]) -> str:
        """``H1`` (elo1 holds), ``H0`` (elo0 holds) or ``continue``."""
        value = self.llr(counts)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return "continue"

    def as_dict(self, counts: Sequence[float]) -> dict[str, float | str]:
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "llr": self.llr(counts),
            "lower": self.lower,
            "upper": self.upper,
            "verdict": self.verdict(counts),
        }


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio, normal approximation, from outcome counts.

    ``counts`` has 3 entries (losses, draws, wins: scores 0, 1/2, 1) or 5 (game pairs scoring
    0, 1/2, 1, 3/2, 2, normalised to 0..1). Each outcome gets half a virtual observation, so a
    one-sided stream has a finite variance and the test stops after a sensible number of games.
    """
    k = len(counts)
    if k not in (3, 5):
        raise ValueError(f"SPRT counts are trinomial or pentanomial, got {k} entries")
    if sum(counts) <= 0:
        return 0.0
    c = np.asarray(counts, dtype=float) + 0.5
    x = np.linspace(0.0, 1.0, k)
    n = c.sum()
    mean = float((c * x).sum() / n)
    var = float((c * (x - mean) ** 2).sum() / n)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    # the observations are games (trinomial) or game pairs (pentanomial); only real ones count
    return float(sum(counts)) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
