"""``staged``: one sub-model per game stage, as Layered Learning's per-stage evaluators.

A model sees only the encoded vector, so the stage is a function of it: a progress *measure* of
named columns (``by``; all when empty), ``sum`` or ``abssum`` (sum of absolute values: pieces
left on a ``raw32`` board, seeds left in Kalah pits), split at ascending ``bounds`` into
``len(bounds) + 1`` stages: stage k holds measures in [bounds[k-1], bounds[k]). Each stage has its
own sub-model (``member`` for all, or ``members`` one table per stage), built through the registry
like any other model. The ensemble offers the capabilities that all its sub-models share;
parameters are the sub-models' vectors concatenated in stage order.

    [eval]
    model = "staged"
    encoding = "raw32"
    bounds = [8, 16]                       # stages: < 8 pieces, 8-15, >= 16
    member = {model = "mlp", hidden = [10]}
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.config import structure
from mindgames.errors import CapabilityError, ConfigError
from mindgames.evaluators.common import column_indices
from mindgames.model import (
    CAPABILITIES,
    DIFFERENTIABLE,
    FITTABLE,
    PARAMETRIC,
    BatchDifferentiable,
    Model,
    as_differentiable,
    as_fittable,
    as_parametric,
    param_groups_of,
)

MEASURES = ("sum", "abssum")


@attrs.frozen
class StagedConfig:
    """``bounds`` split the measure of the ``by`` columns into stages; ``member`` is the model
    table used for every stage unless ``members`` gives one per stage."""

    bounds: list[float]
    member: dict[str, Any] | None = None
    members: list[dict[str, Any]] = attrs.Factory(list)
    by: list[str] = attrs.Factory(list)
    measure: str = "abssum"


def _registry() -> Any:
    from mindgames.registry import get_registry

    return get_registry()


class Staged(Model):
    """Routes each position to the sub-model of its stage."""

    name = "staged"
    #: the most an ensemble can offer; each instance offers what its members share
    capabilities = CAPABILITIES
    # the ``HasMembers`` capability (Layered Learning's per-stage evaluators read it):
    #: the member models in stage order
    members: list[Model]
    #: the columns whose sum (``measure``) picks the stage, and the stages' bounds
    by: list[str]
    measure: str
    bounds: list[float]

    def __init__(
        self,
        members: Sequence[Model],
        bounds: Sequence[float],
        by: Sequence[str],
        measure: str,
        columns: Sequence[str],
        error: type[Exception] = ConfigError,
    ) -> None:
        where = "model 'staged'"
        self.bounds = [float(b) for b in bounds]
        if any(b >= c for b, c in zip(self.bounds, self.bounds[1:], strict=False)):
            raise error(f"{where}: bounds must be strictly ascending, got {list(bounds)!r}")
        if len(members) != len(self.bounds) + 1:
            raise error(
                f"{where}: {len(self.bounds)} bounds make {len(self.bounds) + 1} stages, "
                f"but {len(members)} sub-models were given"
            )
        if measure not in MEASURES:
            raise error(f"{where}: measure must be sum or abssum, got {measure!r}")
        self.members = list(members)
        self.by = list(by)
        self.measure = measure
        self._index = column_indices(self.by, columns, where, error) if self.by else None
        self._abs = measure == "abssum"
        self._width = len(columns)
        shared = frozenset.intersection(*(frozenset(m.capabilities) for m in self.members))
        self.capabilities = shared
        self._sizes = (
            [len(as_parametric(m).get_params()) for m in self.members]
            if PARAMETRIC in shared
            else []
        )

    # --- stages ----------------------------------------------------------------------------
    def stage(self, x: np.ndarray) -> int:
        """The stage of one encoded position."""
        part = x if self._index is None else x[self._index]
        m = float(np.abs(part).sum()) if self._abs else float(part.sum())
        return bisect.bisect_right(self.bounds, m)

    def stages(self, xs: np.ndarray) -> np.ndarray:
        """The stage of each row."""
        part = xs if self._index is None else xs[:, self._index]
        m = np.abs(part).sum(axis=1) if self._abs else part.sum(axis=1)
        return np.searchsorted(np.asarray(self.bounds), m, side="right")

    def value(self, x: np.ndarray) -> float:
        return self.members[self.stage(x)].value(x)

    def value_batch(self, xs: np.ndarray) -> np.ndarray:
        xs = np.asarray(xs, dtype=float)
        out = np.zeros(len(xs))
        if not len(xs):
            return out
        st = self.stages(xs)
        for k, member in enumerate(self.members):
            rows = st == k
            if rows.any():
                out[rows] = member.value_batch(xs[rows])
        return out

    # --- capabilities ----------------------------------------------------------------------
    def _need(self, capability: str) -> None:
        if capability not in self.capabilities:
            kinds = ", ".join(m.name for m in self.members)
            raise CapabilityError(
                f"model 'staged' is not {capability}: not all of its sub-models ({kinds}) are"
            )

    def get_params(self) -> np.ndarray:
        self._need(PARAMETRIC)
        parts = [as_parametric(m).get_params() for m in self.members]
        return np.concatenate(parts) if parts else np.zeros(0)

    def set_params(self, params: np.ndarray) -> None:
        self._need(PARAMETRIC)
        params = np.asarray(params, dtype=float)
        if params.shape != (sum(self._sizes),):
            raise ConfigError(
                f"model 'staged' has {sum(self._sizes)} parameters, got {params.size}"
            )
        start = 0
        for m, size in zip(self.members, self._sizes, strict=True):
            as_parametric(m).set_params(params[start : start + size])
            start += size

    def param_groups(self) -> list[tuple[str, int, int]]:
        """The members' groups (or one group per member), prefixed with the stage."""
        self._need(PARAMETRIC)
        groups = []
        for k, (m, size) in enumerate(zip(self.members, self._sizes, strict=True)):
            own = param_groups_of(m)
            for name, n, fan_in in [("all", size, self._width)] if own is None else own:
                groups.append((f"stage{k + 1}/{name}", n, fan_in))
        return groups

    def value_and_grad(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        self._need(DIFFERENTIABLE)
        k = self.stage(x)
        v, g = as_differentiable(self.members[k]).value_and_grad(x)
        grad = np.zeros(sum(self._sizes))
        start = sum(self._sizes[:k])
        grad[start : start + self._sizes[k]] = g
        return float(v), grad

    def value_and_grad_batch(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values (n,) and gradients (n, parameters); a row's gradient is its stage's block."""
        self._need(DIFFERENTIABLE)
        xs = np.asarray(xs, dtype=float)
        values = np.zeros(len(xs))
        grads = np.zeros((len(xs), sum(self._sizes)))
        st = self.stages(xs)
        start = 0
        for k, (m, size) in enumerate(zip(self.members, self._sizes, strict=True)):
            rows = np.flatnonzero(st == k)
            if len(rows):
                if isinstance(m, BatchDifferentiable):
                    v, g = m.value_and_grad_batch(xs[rows])
                else:
                    pairs = [as_differentiable(m).value_and_grad(x) for x in xs[rows]]
                    v = np.array([p[0] for p in pairs])
                    g = np.array([p[1] for p in pairs])
                values[rows] = v
                grads[rows, start : start + size] = g
            start += size
        return values, grads

    def fit(self, xs: np.ndarray, ys: np.ndarray) -> None:
        """Fit each stage's sub-model on the rows of its stage (stages without rows unchanged)."""
        self._need(FITTABLE)
        xs = np.asarray(xs, dtype=float)
        ys = np.asarray(ys, dtype=float).reshape(-1)
        st = self.stages(xs)
        for k, m in enumerate(self.members):
            rows = st == k
            if rows.any():
                as_fittable(m).fit(xs[rows], ys[rows])

    # --- files -----------------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        return {
            "bounds": list(self.bounds),
            "by": list(self.by),
            "measure": self.measure,
            "members": [{"kind": m.name, "config": m.config()} for m in self.members],
        }

    def arrays(self) -> dict[str, np.ndarray]:
        out = {}
        for k, m in enumerate(self.members):
            for name, a in m.arrays().items():
                out[f"s{k}/{name}"] = a
        return out

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> Staged:
        registry = _registry()
        members = []
        for k, record in enumerate(config["members"]):
            prefix = f"s{k}/"
            own = {n[len(prefix) :]: a for n, a in arrays.items() if n.startswith(prefix)}
            info = registry.model_info(str(record["kind"]))
            members.append(info.cls.from_saved(record["config"], own, columns))
        return cls(
            members, config["bounds"], config["by"], str(config["measure"]), columns, ValueError
        )


def create(config: StagedConfig, columns: Sequence[str], rng: np.random.Generator) -> Staged:
    """An ensemble of ``len(bounds) + 1`` fresh sub-models built through the registry."""
    where = "model 'staged'"
    stages = len(config.bounds) + 1
    if config.members:
        tables = list(config.members)
        if config.member is not None:
            raise ConfigError(f"{where}: give either member or members, not both")
        if len(tables) != stages:
            raise ConfigError(
                f"{where}: {len(config.bounds)} bounds make {stages} stages, but members "
                f"lists {len(tables)}"
            )
    elif config.member is not None:
        tables = [config.member] * stages
    else:
        raise ConfigError(f"{where}: give member = {{model = ...}} or one table per stage")
    registry = _registry()
    members = []
    for k, table in enumerate(tables):
        options = dict(table)
        kind = options.pop("model", None)
        if not isinstance(kind, str):
            raise ConfigError(f"{where}: stage {k + 1}: expected 'model = NAME' in its table")
        if kind == "staged":
            raise ConfigError(f"{where}: stage {k + 1}: a staged model cannot nest another")
        info = registry.model_info(kind)
        sub = structure(options, info.config, where=f"{where} stage {k + 1} ({kind})")
        members.append(info.create(sub, columns, rng))
    return Staged(members, config.bounds, config.by, config.measure, columns)
