"""The genetic operators of HG and SHG (Kusiak, Walędzik, Mańdziuk): tournament selection, the
crossover per linear combination, per-gene mutation, fitness sharing, the regeneration of the
worst at a phase change, and normalisation. Pure functions of arrays and one generator.

Genotype: the model's flat parameter vector, split into linear combinations (``gene_groups``:
the model's ``param_groups``, e.g. one per phase of ``phased``; a single group otherwise).

* **crossover** of parents a and b, per group of genes g_1..g_m: a random cut c; the genes
  before c come from one parent, those after c from the other (which one is drawn), and gene c
  is drawn uniformly from the interval between a_c and b_c;
* **mutation**, per gene with probability ``rate``: x2, /2 or a sign change, with odds 2:2:1;
* **sharing**: f'_i = f_i / sum_j exp(-d_ij^2), d the Euclidean distance of the genotypes (the
  sum includes j = i, so it is at least 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mindgames.model import Model, param_groups_of

#: the odds of the mutation operations x2, /2 and sign change (``_FACTORS``): 2:2:1
ODDS = np.array([2.0, 2.0, 1.0]) / 5.0
_FACTORS = np.array([2.0, 0.5, -1.0])


def gene_groups(model: Model, size: int) -> list[slice]:
    """The linear combinations of a genotype of ``size`` genes: the model's parameter groups,
    or one group of all genes when it declares none."""
    groups = param_groups_of(model)
    if not groups:
        return [slice(0, size)]
    out, start = [], 0
    for _, count, _ in groups:
        out.append(slice(start, start + count))
        start += count
    if start != size:
        raise ValueError(f"parameter groups cover {start} genes, the genotype has {size}")
    return out


def tournament(
    size: int, k: int, rng: np.random.Generator, exclude: tuple[int, ...] = ()
) -> np.ndarray:
    """``k`` distinct specimens drawn at random from ``size`` (fewer if the population is
    smaller), none of ``exclude`` unless nothing else is left."""
    pool = np.setdiff1d(np.arange(size), np.asarray(exclude, dtype=int))
    if len(pool) == 0:
        pool = np.arange(size)
    return rng.choice(pool, size=min(k, len(pool)), replace=False)


def crossover(
    a: np.ndarray, b: np.ndarray, groups: list[slice], rng: np.random.Generator
) -> np.ndarray:
    """One child of ``a`` and ``b`` (module docstring): per group, a cut, a head from one
    parent, a tail from the other, and the cut gene between the parents' values."""
    child = np.empty_like(a, dtype=float)
    for group in groups:
        pa, pb = a[group], b[group]
        if rng.random() < 0.5:
            pa, pb = pb, pa
        cut = int(rng.integers(len(pa)))
        part = child[group]
        part[:cut] = pa[:cut]
        part[cut + 1 :] = pb[cut + 1 :]
        lo, hi = sorted((float(pa[cut]), float(pb[cut])))
        part[cut] = rng.uniform(lo, hi) if hi > lo else lo
    return child


def mutate(genes: np.ndarray, rate: float, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Each gene with probability ``rate``: x2, /2 or negated (odds 2:2:1); the new genotype
    and the number of genes changed."""
    hit = rng.random(genes.size) < rate
    operation = rng.choice(len(ODDS), size=genes.size, p=ODDS)
    factors = np.where(hit, _FACTORS[operation], 1.0)
    return genes * factors, int(np.count_nonzero(hit))


def niche_counts(population: np.ndarray) -> np.ndarray:
    """sum_j exp(-d_ij^2) for each specimen i (rows), d the Euclidean distance."""
    squares = np.sum(population * population, axis=1)
    d2 = np.maximum(squares[:, None] + squares[None, :] - 2.0 * population @ population.T, 0.0)
    return np.exp(-d2).sum(axis=1)


def niche_count(genes: np.ndarray, population: np.ndarray) -> float:
    """sum_j exp(-d_j^2) of one genotype against the rows of ``population`` (plus itself)."""
    d2 = np.sum((population - genes) ** 2, axis=1)
    return 1.0 + float(np.exp(-d2).sum())


def shared(fitness: np.ndarray, population: np.ndarray) -> np.ndarray:
    """Fitness divided by the niche counts (module docstring)."""
    return np.asarray(fitness, dtype=float) / niche_counts(population)


def worst(values: np.ndarray, share: float) -> np.ndarray:
    """Indices of the worst ``share`` of ``values`` (rounded down; ties: the earlier first)."""
    count = int(share * len(values))
    order = np.argsort(np.asarray(values, dtype=float), kind="stable")
    return order[:count]


def random_genotypes(
    count: int, size: int, init: tuple[Any, Any], rng: np.random.Generator
) -> np.ndarray:
    """``count`` genotypes with genes uniform in ``init`` (two floats, or two arrays of one
    bound per gene)."""
    return rng.uniform(init[0], init[1], (count, size))


def normalise(genes: np.ndarray) -> np.ndarray:
    """The genotype scaled to unit Euclidean length (unchanged when it is all zeros)."""
    norm = float(np.linalg.norm(genes))
    return genes / norm if norm > 0 else genes.astype(float)
