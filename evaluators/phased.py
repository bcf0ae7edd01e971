"""``phased``: the non-linear give-away heuristics of Kusiak, Walędzik and Mańdziuk -- a list of
components, each ``IF [NOT](cond AND/OR cond ...) THEN linear combination``.

A condition is ``column BETWEEN lo AND hi`` (inclusive; an unset bound is open). A component has
one logical operator (``and``/``or``) over its conditions and may negate the whole condition; a
component without conditions always holds (an ELSE). Components are tried in order and the first
that holds gives the value squash(scale * w . x[columns]); if none holds the value is 0. The
conditions are fixed; the weights (one flat vector, components in order) evolve.

Presets over the draughts ``gac11`` columns (my reading of the papers; see docs/evaluators.md):
``8F`` and ``10F`` are one unconditional linear component; ``3Ph`` has the phases ending (a side
has at most 3 pieces), beginning (no kings) and kings (else); ``5Ph`` splits the kings phase into
only mine, only theirs, both. Every phase combines the ``8F`` columns.

A component written by hand in TOML::

    [[eval.components]]
    name = "ending"
    op = "or"
    when = [{column = "pieces_mine", hi = 3}, {column = "pieces_theirs", hi = 3}]
    columns = ["men_diff", "kings_diff"]
    weights = [1.0, 1.5]          # optional; drawn from init otherwise
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.errors import ConfigError
from mindgames.evaluators.common import (
    KERNELS,
    PHASED_CODE,
    check_squash,
    column_indices,
    float_array,
    squash,
    squash_batch,
    uniform_range,
)
from mindgames.kernels import ModelKernels
from mindgames.model import PARAMETRIC, Model

INF = float("inf")


@attrs.frozen
class Condition:
    """``column BETWEEN lo AND hi``; an unset bound is open."""

    column: str
    lo: float | None = None
    hi: float | None = None


@attrs.frozen
class Component:
    """``IF [NOT](when[0] op when[1] ...) THEN w . x[columns]``; no conditions: always."""

    columns: list[str]
    when: list[Condition] = attrs.Factory(list)
    op: str = "and"
    negate: bool = False
    weights: list[float] | None = None
    name: str = ""


@attrs.frozen
class PhasedConfig:
    """Either a ``preset`` (8F, 10F, 3Ph, 5Ph) or ``components``; ``output``: none, tanh or
    soft applied to ``scale`` times the sum; ``init``: uniform range of unset weights."""

    preset: str | None = None
    components: list[Component] = attrs.Factory(list)
    output: str = "soft"
    scale: float = attrs.field(default=1.0, converter=float)
    init: tuple[float, float] = (-1.0, 1.0)


F8 = tuple(
    f"{f}_diff"
    for f in (
        "men",
        "kings",
        "safe_men",
        "safe_kings",
        "moveable_men",
        "moveable_kings",
        "distance",
        "promotion_free",
    )
)
F10 = (*F8, "pieces_mine", "pieces_theirs")


def _phases(split_kings: bool) -> list[Component]:
    cols = list(F8)
    ending = Component(
        cols,
        [Condition("pieces_mine", hi=3), Condition("pieces_theirs", hi=3)],
        "or",
        name="ending",
    )
    beginning = Component(
        cols,
        [Condition("kings_mine", hi=0), Condition("kings_theirs", hi=0)],
        "and",
        name="beginning",
    )
    if not split_kings:
        return [ending, beginning, Component(cols, name="kings")]
    return [
        ending,
        beginning,
        Component(cols, [Condition("kings_theirs", hi=0)], name="kings_mine_only"),
        Component(cols, [Condition("kings_mine", hi=0)], name="kings_theirs_only"),
        Component(cols, name="kings_both"),
    ]


PRESETS: dict[str, list[Component]] = {
    "8F": [Component(list(F8), name="linear")],
    "10F": [Component(list(F10), name="linear")],
    "3Ph": _phases(False),
    "5Ph": _phases(True),
}


def _bound(value: Any, default: float) -> float:
    return default if value is None else float(value)


class _Compiled:
    """A component with its column indices, as plain Python values for the scalar path."""

    __slots__ = ("cols", "cond", "cond_index", "conj", "hi", "lo", "negate", "size", "spec")

    def __init__(self, spec: Component, columns: Sequence[str], error: type[Exception]) -> None:
        where = f"model 'phased' component {spec.name or '?'!r}"
        if spec.op not in ("and", "or"):
            raise error(f"{where}: op must be 'and' or 'or', got {spec.op!r}")
        if not spec.columns:
            raise error(f"{where}: columns is empty")
        if spec.negate and not spec.when:
            raise error(f"{where}: negate needs conditions")
        self.spec = spec
        self.cols = [int(i) for i in column_indices(spec.columns, columns, where, error)]
        self.cond_index = [
            int(i) for i in column_indices([c.column for c in spec.when], columns, where, error)
        ]
        self.lo = [_bound(c.lo, -INF) for c in spec.when]
        self.hi = [_bound(c.hi, INF) for c in spec.when]
        self.cond = list(zip(self.cond_index, self.lo, self.hi, strict=True))
        self.conj = spec.op == "and"
        self.negate = spec.negate
        self.size = len(self.cols)

    def holds(self, xs: list[float]) -> bool:
        if not self.cond:
            return True
        if self.conj:
            r = all(lo <= xs[i] <= hi for i, lo, hi in self.cond)
        else:
            r = any(lo <= xs[i] <= hi for i, lo, hi in self.cond)
        return r != self.negate

    def holds_batch(self, xs: np.ndarray) -> np.ndarray:
        if not self.cond:
            return np.ones(len(xs), dtype=bool)
        sub = xs[:, self.cond_index]
        inside = (sub >= np.array(self.lo)) & (sub <= np.array(self.hi))
        r = inside.all(axis=1) if self.conj else inside.any(axis=1)
        return r != self.negate


class Phased(Model):
    """First matching ``IF condition THEN linear combination`` component, squashed."""

    name = "phased"
    capabilities = frozenset({PARAMETRIC})

    def __init__(
        self,
        components: Sequence[Component],
        params: np.ndarray,
        columns: Sequence[str],
        *,
        output: str,
        scale: float,
        preset: str | None = None,
        error: type[Exception] = ConfigError,
    ) -> None:
        if not components:
            raise error("model 'phased': give a preset or at least one component")
        self.components = list(components)
        self.output = output
        self.scale = float(scale)
        self.preset = preset
        self._comps = [_Compiled(c, columns, error) for c in self.components]
        #: the kernels' meta and the params after the weights (``kernels``), made on demand
        self._layout: tuple[np.ndarray, np.ndarray] | None = None
        size = sum(c.size for c in self._comps)
        self._p = np.array(params, dtype=float)
        if self._p.shape != (size,):
            raise error(f"model 'phased': {size} weights expected, got {self._p.size}")
        self._refresh()

    def _refresh(self) -> None:
        self._w: list[list[float]] = []
        start = 0
        for c in self._comps:
            self._w.append([float(v) for v in self._p[start : start + c.size]])
            start += c.size

    def phase(self, x: np.ndarray) -> int:
        """Index of the component that values ``x`` (-1 when none holds)."""
        xs = np.asarray(x, dtype=float).tolist()
        for k, c in enumerate(self._comps):
            if c.holds(xs):
                return k
        return -1

    def value(self, x: np.ndarray) -> float:
        xs = x.tolist()
        for c, w in zip(self._comps, self._w, strict=True):
            if c.holds(xs):
                a = sum(map(operator.mul, w, [xs[i] for i in c.cols]))
                return squash(self.output, self.scale * a)
        return 0.0

    def value_batch(self, xs: np.ndarray) -> np.ndarray:
        xs = np.asarray(xs, dtype=float)
        a = np.zeros(len(xs))
        left = np.ones(len(xs), dtype=bool)
        start = 0
        for c in self._comps:
            take = left & c.holds_batch(xs)
            if take.any():
                a[take] = xs[np.ix_(take, c.cols)] @ self._p[start : start + c.size]
            left &= ~take
            start += c.size
        return squash_batch(self.output, self.scale * a)

    def kernels(self) -> ModelKernels:
        """The compiled path's description (evaluators/kernels.py): the components' columns and
        conditions as integers, the weights, the scale and the bounds as floats (the layout
        made once: HG asks it for every specimen it scores)."""
        layout = self._layout
        if layout is None:
            output = {"none": 0, "tanh": 1, "soft": 2}[self.output]
            meta = [PHASED_CODE, output, len(self._comps), self._p.size]
            bounds: list[float] = []
            for c in self._comps:
                meta += [c.size, len(c.cond), int(c.conj), int(c.negate), *c.cols, *c.cond_index]
                bounds += [v for pair in zip(c.lo, c.hi, strict=True) for v in pair]
            layout = self._layout = (
                np.array(meta, dtype=np.int64),
                np.array([self.scale, *bounds]),
            )
        params = np.concatenate((self._p, layout[1]))
        return ModelKernels(KERNELS, layout[0], params)

    # --- capabilities ----------------------------------------------------------------------
    def get_params(self) -> np.ndarray:
        return self._p.copy()

    def set_params(self, params: np.ndarray) -> None:
        params = np.asarray(params, dtype=float)
        if params.shape != self._p.shape:
            raise ConfigError(f"model 'phased' has {self._p.size} weights, got {params.size}")
        self._p[:] = params
        self._refresh()

    def param_groups(self) -> list[tuple[str, int, int]]:
        """One group per component: ``(name, weights, weights)``."""
        return [
            (c.spec.name or f"component{k + 1}", c.size, c.size) for k, c in enumerate(self._comps)
        ]

    # --- files -----------------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        comps = []
        for c in self.components:
            comps.append(
                {
                    "name": c.name,
                    "columns": list(c.columns),
                    "when": [{"column": w.column, "lo": w.lo, "hi": w.hi} for w in c.when],
                    "op": c.op,
                    "negate": c.negate,
                }
            )
        return {
            "preset": self.preset,
            "output": self.output,
            "scale": self.scale,
            "components": comps,
        }

    def arrays(self) -> dict[str, np.ndarray]:
        return {"weights": self._p.copy()}

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> Phased:
        from mindgames.config import structure

        comps = [
            structure(c, Component, where="model 'phased' component") for c in config["components"]
        ]
        output = str(config["output"])
        if output not in ("none", "tanh", "soft"):
            raise ValueError(f"unknown output {output!r}")
        size = sum(len(c.columns) for c in comps)
        return cls(
            comps,
            float_array(arrays, "weights", (size,)),
            columns,
            output=output,
            scale=float(config["scale"]),
            preset=config.get("preset"),
            error=ValueError,
        )


def create(config: PhasedConfig, columns: Sequence[str], rng: np.random.Generator) -> Phased:
    """A phased model from a preset or hand-written components; unset weights from ``init``."""
    where = "model 'phased'"
    check_squash(config.output, where)
    lo, hi = uniform_range(config.init, where)
    preset = None
    if config.preset is not None:
        if config.components:
            raise ConfigError(f"{where}: give either preset or components, not both")
        names = {k.lower(): k for k in PRESETS}
        preset = names.get(config.preset.lower())
        if preset is None:
            raise ConfigError(
                f"{where}: unknown preset {config.preset!r} (known: {', '.join(PRESETS)})"
            )
        comps = PRESETS[preset]
        needed = sorted(
            {n for c in comps for n in [*c.columns, *(w.column for w in c.when)]} - set(columns)
        )
        if needed:
            raise ConfigError(
                f"{where}: preset {preset!r} needs the draughts gac11 columns; this encoding "
                f"lacks {', '.join(needed)}"
            )
    else:
        comps = list(config.components)
    parts = []
    for c in comps:
        if c.weights is None:
            parts.append(rng.uniform(lo, hi, len(c.columns)))
        elif len(c.weights) != len(c.columns):
            raise ConfigError(
                f"{where} component {c.name or '?'!r}: {len(c.weights)} weights for "
                f"{len(c.columns)} columns"
            )
        else:
            parts.append(np.asarray(c.weights, dtype=float))
    params = np.concatenate(parts) if parts else np.zeros(0)
    stripped = [attrs.evolve(c, weights=None) for c in comps]
    return Phased(
        stripped, params, columns, output=config.output, scale=config.scale, preset=preset
    )
