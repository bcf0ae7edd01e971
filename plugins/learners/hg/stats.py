"""The statistics the HG/SHG study reported, kept per generation: effective crossovers (children
kept) over all crossovers, each gene's interval length (max - min over the population) and
variance, and the share of the logged best specimens that had been mutated."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np


@attrs.define
class Tally:
    """Counters over a whole run (kept in the checkpoint)."""

    crossovers: int = 0
    kept: int = 0
    mutations: int = 0
    logged: int = 0
    logged_mutated: int = 0

    def as_dict(self) -> dict[str, int]:
        return attrs.asdict(self)


def gene_spread(population: np.ndarray) -> dict[str, list[float]]:
    """Per gene: the interval length (max - min) and the variance over the population."""
    return {
        "gene_range": [round(float(v), 6) for v in np.ptp(population, axis=0)],
        "gene_var": [round(float(v), 6) for v in np.var(population, axis=0)],
    }


def row(
    tally: Tally, before: Tally, population: np.ndarray, best: int, mutated: np.ndarray
) -> dict[str, Any]:
    """The statistics of one generation (``before``: the tally at its start); logs the best."""
    tally.logged += 1
    tally.logged_mutated += int(bool(mutated[best]))
    crossovers = tally.crossovers - before.crossovers
    kept = tally.kept - before.kept
    return {
        "crossovers": crossovers,
        "children_kept": kept,
        "effective": round(kept / crossovers, 6) if crossovers else 0.0,
        "effective_total": round(tally.kept / tally.crossovers, 6) if tally.crossovers else 0.0,
        "mutations": tally.mutations - before.mutations,
        "best_mutated": bool(mutated[best]),
        "best_mutated_share": round(tally.logged_mutated / tally.logged, 6),
        **gene_spread(population),
    }
