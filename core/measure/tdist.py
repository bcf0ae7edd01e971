"""Student's t quantile without a statistics library: the multiplier of an interval over the
runs of a replicated comparison (``core/measure/replicates.py``)."""

from __future__ import annotations

import math


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``t_quantile(0.975, 3)``
    is 3.182): the multiplier of an interval over a few runs, without a statistics library."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        low, high = high, 2.0 * high
    for _ in range(200):  # bisection: the CDF is monotone, and 200 halvings reach float precision
        mid = 0.5 * (low + high)
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low <= 1e-12 * high:
            break
    return 0.5 * (low + high)


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for t >= 0: 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t^2).

    Near t = 0, x is within rounding of 1, so there the symmetric form 1 - I_y(1/2, df/2) with
    y = t^2 / (df + t^2) is used, y computed directly rather than as 1 - x."""
    a, b = df / 2.0, 0.5
    x, y = df / (df + t * t), t * t / (df + t * t)
    if x > (a + 1.0) / (a + b + 2.0):  # the fraction converges fast only below this point
        return 0.5 + 0.5 * _beta_fraction(y, b, a)
    return 1.0 - 0.5 * _beta_fraction(x, a, b)


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b) by its continued fraction (Lentz),
    for x at most (a + 1) / (a + b + 2), where the fraction converges quickly."""
    if x <= 0.0:
        return 0.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            value *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * value / a
