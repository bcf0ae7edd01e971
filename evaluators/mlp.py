"""``mlp``: a multi-layer perceptron with tanh output, optional direct input-to-output links.

Shape: inputs -> hidden layers (``hidden`` sizes; ``tanh`` or ``sigmoid`` units) -> one tanh
output unit, value = tanh(w_o . h + b_o [+ d . x]). ``direct = true`` adds the links ``d`` from
every input straight to the output, as NeuroDraughts used.

All weights live in one flat vector (``get_params`` order below); the layers are views into it,
so ``set_params`` is one copy and the value path allocates little::

    layer1: W (h1 x inputs, row-major), b (h1); layer2: W (h2 x h1), b (h2); ...;
    output: w_o (h_last), b_o (1); direct: d (inputs)      [only when direct]

``param_groups()`` names those groups with their fan-in (the TD learner gives each its own
step size, 1/fan-in by default). Gradients are analytic (back-propagation), one row per
position in ``value_and_grad_batch``.

Masked first layer (``groups``): hidden unit i of the first layer sees only the columns of
group i (Chellapilla and Fogel's spatial layer: one unit per sub-square of the board). The
masked-out weights stay zero in the stored vector and are left out of ``get_params``, its
gradient and ``param_groups``. ``input_sum`` adds the sum of the inputs to the output's
pre-activation with no weight (their piece differential).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.config import shorten
from mindgames.errors import ConfigError
from mindgames.evaluators.common import (
    KERNELS,
    MLP_CODE,
    column_indices,
    construct,
    float_array,
    uniform_range,
)
from mindgames.kernels import ModelKernels
from mindgames.limits import MAX_PARAMETERS, at_most
from mindgames.model import DIFFERENTIABLE, PARAMETRIC, Model

ACTIVATIONS = ("tanh", "sigmoid")


@attrs.frozen
class MLPConfig:
    """``hidden``: hidden layer sizes; ``activation``: tanh or sigmoid hidden units;
    ``direct``: input-to-output links; ``init``: uniform range of every initial weight;
    ``groups``: the columns each first-layer unit sees (a mask; None: all); ``input_sum``: add
    the inputs' sum to the output unweighted."""

    hidden: list[int] = attrs.Factory(lambda: [10])
    activation: str = "tanh"
    direct: bool = False
    init: tuple[float, float] = (-0.1, 0.1)
    groups: list[list[str]] | None = None
    input_sum: bool = False


def layout(inputs: int, hidden: Sequence[int], direct: bool) -> list[tuple[str, int, int]]:
    """``(group, size, fan_in)`` of each parameter group in flat order."""
    groups = []
    fan_in = inputs
    for i, h in enumerate(hidden):
        groups.append((f"layer{i + 1}", h * fan_in + h, fan_in))
        fan_in = h
    groups.append(("output", fan_in + 1, fan_in))
    if direct:
        groups.append(("direct", inputs, inputs))
    return groups


class MLP(Model):
    """Feed-forward net, one tanh output, values in (-1, 1) for the side to move."""

    name = "mlp"
    capabilities = frozenset({PARAMETRIC, DIFFERENTIABLE})

    def __init__(
        self,
        params: np.ndarray,
        inputs: int,
        hidden: Sequence[int],
        activation: str,
        direct: bool,
        *,
        groups: Sequence[Sequence[str]] | None = None,
        mask: np.ndarray | None = None,
        input_sum: bool = False,
    ) -> None:
        """``params`` is the full vector (masked-out weights included); ``mask`` (first hidden
        layer x inputs, bool) says which first-layer weights exist, ``groups`` names them."""
        self.inputs = int(inputs)
        self.groups = [list(g) for g in groups] if groups is not None else None
        self.input_sum = bool(input_sum)
        self.hidden = [int(h) for h in hidden]
        self.activation = activation
        self.direct = bool(direct)
        self._groups = layout(self.inputs, self.hidden, self.direct)
        size = sum(g[1] for g in self._groups)
        self._p = np.array(params, dtype=float)
        if self._p.shape != (size,):
            raise ValueError(f"mlp of this shape has {size} parameters, got {self._p.size}")
        self._sigmoid = activation == "sigmoid"
        # views into the flat vector: (W, b) per hidden layer, then output and direct links
        self._layers: list[tuple[np.ndarray, np.ndarray]] = []
        self._slices: list[tuple[slice, slice]] = []
        start, fan_in = 0, self.inputs
        for h in self.hidden:
            w_end = start + h * fan_in
            self._layers.append(
                (self._p[start:w_end].reshape(h, fan_in), self._p[w_end : w_end + h])
            )
            self._slices.append((slice(start, w_end), slice(w_end, w_end + h)))
            start, fan_in = w_end + h, h
        self._wo = self._p[start : start + fan_in]
        self._bo = self._p[start + fan_in : start + fan_in + 1]
        self._out = slice(start, start + fan_in)
        self._bias_at = start + fan_in
        start += fan_in + 1
        self._d = self._p[start : start + self.inputs] if self.direct else None
        self._dslice = slice(start, start + self.inputs)
        self._one = len(self._layers) == 1
        self._fast: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = None
        #: ``kernels``' meta, made on the first ask (the shape never changes)
        self._kmeta: np.ndarray | None = None
        #: indices of the parameters that exist (None: all), the first layer's mask applied
        self._live: np.ndarray | None = None
        self._mask = None if mask is None else np.array(mask, dtype=bool)
        if mask is not None:
            alive = np.ones(size, dtype=bool)
            alive[self._slices[0][0]] = np.asarray(mask, dtype=bool).ravel()
            self._p[~alive] = 0.0
            self._live = np.flatnonzero(alive)
            name, _, fan_in = self._groups[0]
            self._groups[0] = (name, int(np.count_nonzero(mask)) + self.hidden[0], fan_in)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the net from its vector: the layers are views into it,
        which ``copy.deepcopy`` and ``pickle`` would otherwise turn into detached arrays that a
        later ``set_params`` no longer reaches."""
        options = {"groups": self.groups, "mask": self._mask, "input_sum": self.input_sum}
        args = (self._p, self.inputs, self.hidden, self.activation, self.direct)
        return (construct, (type(self), args, options))

    # --- values ----------------------------------------------------------------------------
    def _prepare(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """Fold sigmoid(z) = (1 + tanh(z / 2)) / 2 of a one-hidden-layer net into scaled
        weights, so the scalar path makes the same few numpy calls for both activations; keep
        the result (``_fast``) and return it."""
        w, b = self._layers[0]
        if self._sigmoid:
            self._fast = (
                0.5 * w,
                0.5 * b,
                0.5 * self._wo,
                float(self._bo[0] + 0.5 * self._wo.sum()),
            )
        else:
            self._fast = (w, b, self._wo, float(self._bo[0]))
        return self._fast

    def kernels(self) -> ModelKernels:
        """The compiled path's description (evaluators/kernels.py): the flat vector (masked-out
        weights are zeros in it), the shape and, for a masked first layer, the units that see
        each input (the kernel multiplies only those: 854 of the 2,912 weights of the
        Chellapilla-Fogel net's sub-square layer). The shape is made once (a search asks for
        the kernels every time it starts); the vector is the model's own."""
        if self._kmeta is None:
            self._kmeta = self._kernel_meta()
        return ModelKernels(KERNELS, self._kmeta, self._p)

    def _kernel_meta(self) -> np.ndarray:
        """``kernels``' ``meta`` (read only): the net's shape and first-layer mask."""
        meta = [
            MLP_CODE,
            self.inputs,
            len(self.hidden),
            int(self._sigmoid),
            int(self.direct),
            int(self.input_sum),
            *self.hidden,
        ]
        if self._mask is None:
            meta.append(0)
        else:
            by_input = self._mask.T  # input j's row: the units that see it
            counts = by_input.sum(axis=1)
            meta.append(int(counts.sum()))
            meta.extend(np.concatenate(([0], np.cumsum(counts))).tolist())
            meta.extend((np.flatnonzero(by_input.ravel()) % self.hidden[0]).tolist())
        return np.array(meta, dtype=np.int64)

    # Products are ``ndarray.dot``, not ``@``: the same BLAS call and the same bits (checked on
    # random shapes), but on these small arrays ``@`` costs 0.4-0.8 us more per call.
    def value(self, x: np.ndarray) -> float:
        if self._one:  # the common case: one hidden layer, as few numpy calls as possible
            fast = self._fast
            if fast is None:
                fast = self._prepare()
            w, b, wo, bo = fast
            z = w.dot(x)
            z += b
            np.tanh(z, out=z)
            a = float(wo.dot(z)) + bo
        else:
            h = x
            for w, b in self._layers:
                h = w.dot(h)
                h += b
                h = self._act(h)  # in place for tanh
            a = float(self._wo.dot(h)) + float(self._bo[0])
        if self._d is not None:
            a += float(self._d.dot(x))
        if self.input_sum:
            a += float(x.sum())  # the method, not np.sum: its dispatch costs more than the sum
        return math.tanh(a)

    def _act(self, z: np.ndarray) -> np.ndarray:
        if self._sigmoid:
            return 0.5 * np.tanh(0.5 * z) + 0.5
        return np.tanh(z, out=z)

    def _forward(self, xs: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """Every layer's activations (inputs first) and the output pre-activations."""
        hs = [xs]
        h = xs
        for w, b in self._layers:
            z = h.dot(w.T)
            z += b
            h = self._act(z)
            hs.append(h)
        a = h.dot(self._wo) + self._bo[0]
        if self._d is not None:
            a += xs.dot(self._d)
        if self.input_sum:
            a += xs.sum(axis=1)
        return hs, a

    def value_batch(self, xs: np.ndarray) -> np.ndarray:
        xs = np.asarray(xs, dtype=float)
        if xs.shape[0] == 0:
            return np.zeros(0)
        return np.tanh(self._forward(xs)[1])

    # --- capabilities ----------------------------------------------------------------------
    def get_params(self) -> np.ndarray:
        return self._p.copy() if self._live is None else self._p[self._live]

    def set_params(self, params: np.ndarray) -> None:
        params = np.asarray(params, dtype=float)
        size = self._p.size if self._live is None else self._live.size
        if params.shape != (size,):
            raise ConfigError(f"model 'mlp' has {size} parameters, got {params.size}")
        if self._live is None:
            self._p[:] = params
        else:
            self._p[self._live] = params
        self._fast = None

    def add_params(self, change: np.ndarray) -> None:
        """``set_params(get_params() + change)`` in place (``AddParams``)."""
        if self._live is None:
            self._p += change
        else:
            self._p[self._live] += change
        self._fast = None

    def param_groups(self) -> list[tuple[str, int, int]]:
        """``(name, size, fan_in)`` per layer, in ``get_params`` order (per-layer step sizes)."""
        return list(self._groups)

    def _dact(self, h: np.ndarray) -> np.ndarray:
        return h * (1.0 - h) if self._sigmoid else 1.0 - h * h

    def value_and_grad(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        x = np.asarray(x, dtype=float)
        hs = [x]
        h = x
        for w, b in self._layers:
            h = self._act(w.dot(h) + b)
            hs.append(h)
        a = float(self._wo.dot(h)) + float(self._bo[0])
        if self._d is not None:
            a += float(self._d.dot(x))
        if self.input_sum:
            a += float(x.sum())
        v = math.tanh(a)
        dv = 1.0 - v * v
        grad = np.empty(self._p.size)
        np.multiply(h, dv, out=grad[self._out])
        grad[self._bias_at] = dv
        if self._d is not None:
            np.multiply(x, dv, out=grad[self._dslice])
        delta = (dv * self._wo) * self._dact(h)
        for i in range(len(self._layers) - 1, -1, -1):
            ws, bs = self._slices[i]
            w = self._layers[i][0]
            np.multiply.outer(delta, hs[i], out=grad[ws].reshape(w.shape))
            grad[bs] = delta
            if i:
                delta = delta.dot(w) * self._dact(hs[i])
        return v, (grad if self._live is None else grad[self._live])

    def value_and_grad_batch(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values (n,) and d value / d params (n, parameters), by back-propagation."""
        xs = np.asarray(xs, dtype=float)
        hs, a = self._forward(xs)
        v = np.tanh(a)
        return v, self._backward(hs, v)

    def _backward(self, hs: list[np.ndarray], v: np.ndarray) -> np.ndarray:
        """The gradients of values ``v`` whose layers' activations are ``hs`` (inputs first)."""
        n = v.shape[0]
        dv = 1.0 - v * v
        grads = np.empty((n, self._p.size))
        np.multiply(dv[:, None], hs[-1], out=grads[:, self._out])
        grads[:, self._bias_at] = dv
        if self._d is not None:
            grads[:, self._dslice] = dv[:, None] * hs[0]
        delta = dv[:, None] * self._wo[None, :] * self._dact(hs[-1])
        for i in range(len(self._layers) - 1, -1, -1):
            ws, bs = self._slices[i]
            below = hs[i]
            # the outer products written in place: a view of the rows' weight columns
            # (``copy=False`` raises rather than copy). ``einsum`` makes the same products as
            # ``np.multiply(delta[:, :, None], below[:, None, :])`` (a zero may lose its sign)
            # a fifth faster: the broadcast multiply loops over rows of ``below``'s width
            block = grads[:, ws].reshape(n, delta.shape[1], below.shape[1], copy=False)
            np.einsum("gi,gj->gij", delta, below, out=block)
            grads[:, bs] = delta
            if i:
                delta = delta.dot(self._layers[i][0]) * self._dact(below)
        return grads if self._live is None else grads[:, self._live]

    def values_and_weighted_grad(
        self, xs: np.ndarray
    ) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
        """``value_batch(xs)`` now and, on demand, ``c @ value_and_grad_batch(xs)[1]``
        (``WeightedGrads``): the errors back-propagated as one batch, each layer's weight
        gradient one matrix product, with no (patterns, parameters) array."""
        xs = np.asarray(xs, dtype=float)
        hs, a = self._forward(xs)
        v = np.tanh(a)

        def weighted(c: np.ndarray) -> np.ndarray:
            dv = np.asarray(c, dtype=float) * (1.0 - v * v)
            grad = np.empty(self._p.size)
            grad[self._out] = dv @ hs[-1]
            grad[self._bias_at] = dv.sum()
            if self._d is not None:
                grad[self._dslice] = dv @ hs[0]
            delta = dv[:, None] * self._wo[None, :] * self._dact(hs[-1])
            for i in range(len(self._layers) - 1, -1, -1):
                ws, bs = self._slices[i]
                grad[ws] = (delta.T @ hs[i]).ravel()
                grad[bs] = delta.sum(axis=0)
                if i:
                    delta = delta.dot(self._layers[i][0]) * self._dact(hs[i])
            return grad if self._live is None else grad[self._live]

        return v, weighted

    def values_and_rows_grads(
        self, xs: np.ndarray
    ) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
        """``value_batch(xs)`` now and, on demand, the gradients of some rows (``RowsGrads``):
        the same numbers as ``value_and_grad_batch(xs[rows])``, from this one forward pass."""
        xs = np.asarray(xs, dtype=float)
        hs, a = self._forward(xs)
        v = np.tanh(a)

        def rows(index: np.ndarray) -> np.ndarray:
            return self._backward([h.take(index, axis=0) for h in hs], v.take(index))

        return v, rows

    def values_and_row_grad(self, xs: np.ndarray) -> tuple[np.ndarray, Callable[[int], np.ndarray]]:
        """``value_and_grad_batch`` when only one row's gradient will be wanted (``RowGrads``):
        the values now, row ``k``'s gradient on demand, the same numbers as the batch's row."""
        xs = np.asarray(xs, dtype=float)
        if not self._one:  # a deeper net's rows (gemv) might differ in the last bits (gemm)
            v, grads = self.value_and_grad_batch(xs)
            return v, grads.__getitem__
        # hot path of TD's 1-ply choice: ``_forward`` and ``_act`` inlined, in place
        w, b = self._layers[0]
        h = xs.dot(w.T)
        h += b
        if self._sigmoid:  # 0.5 * tanh(0.5 * z) + 0.5, as ``_act``
            h *= 0.5
            np.tanh(h, out=h)
            h *= 0.5
            h += 0.5
        else:
            np.tanh(h, out=h)
        a = h.dot(self._wo)
        a += self._bo[0]
        if self._d is not None:
            a += xs.dot(self._d)
        if self.input_sum:
            a += xs.sum(axis=1)
        v = np.tanh(a, out=a)
        ws, bs = self._slices[0]
        shape, out, bias_at, wo, d, size = (
            w.shape,
            self._out,
            self._bias_at,
            self._wo,
            self._d,
            self._p.size,
        )
        sigmoid, live = self._sigmoid, self._live

        def row(k: int) -> np.ndarray:
            vk = float(v[k])
            dv = 1.0 - vk * vk
            x, hk = xs[k], h[k]
            grad = np.empty(size)
            np.multiply(hk, dv, out=grad[out])
            grad[bias_at] = dv
            if d is not None:
                np.multiply(x, dv, out=grad[self._dslice])
            delta = dv * wo
            delta *= hk * (1.0 - hk) if sigmoid else 1.0 - hk * hk
            np.multiply.outer(delta, x, out=grad[ws].reshape(shape))
            grad[bs] = delta
            return grad if live is None else grad[live]

        return v, row

    # --- files -----------------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        config: dict[str, Any] = {
            "hidden": list(self.hidden),
            "activation": self.activation,
            "direct": self.direct,
        }
        if self.groups is not None:
            config["groups"] = [list(g) for g in self.groups]
        if self.input_sum:
            config["input_sum"] = True
        return config

    def arrays(self) -> dict[str, np.ndarray]:
        return {"params": self._p.copy()}

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> MLP:
        hidden = [int(h) for h in config["hidden"]]
        activation = str(config["activation"])
        direct = bool(config["direct"])
        if activation not in ACTIVATIONS or not hidden or min(hidden) < 1:
            raise ValueError(f"bad mlp shape {dict(config)!r}")
        size = sum(g[1] for g in layout(len(columns), hidden, direct))
        groups = config.get("groups")
        mask = None if groups is None else group_mask(groups, hidden[0], columns, ValueError)
        return cls(
            float_array(arrays, "params", (size,)),
            len(columns),
            hidden,
            activation,
            direct,
            groups=groups,
            mask=mask,
            input_sum=bool(config.get("input_sum", False)),
        )


def group_mask(
    groups: Sequence[Sequence[str]],
    units: int,
    columns: Sequence[str],
    error: type[Exception] = ConfigError,
) -> np.ndarray:
    """The first layer's mask (units x columns, bool): unit i sees the columns of group i."""
    key = (tuple(map(tuple, groups)), units, tuple(columns))
    made = _masks.get(key)
    if made is None:
        made = _masks[key] = _group_mask(groups, units, columns, error)
    return made.copy()


#: the masks made so far (a net is rebuilt from its file data for every game it plays)
_masks: dict[tuple[Any, ...], np.ndarray] = {}


def _group_mask(
    groups: Sequence[Sequence[str]],
    units: int,
    columns: Sequence[str],
    error: type[Exception],
) -> np.ndarray:
    where = "model 'mlp': groups"
    if len(groups) != units:
        raise error(f"{where}: {len(groups)} groups for a first hidden layer of {units} units")
    mask = np.zeros((units, len(columns)), dtype=bool)
    position = {c: i for i, c in enumerate(columns)}
    for i, group in enumerate(groups):
        if not group:
            raise error(f"{where}: group {i} is empty")
        try:
            mask[i, [position[name] for name in group]] = True
        except KeyError:  # column_indices names what is missing
            column_indices(list(group), columns, where, error)
            raise
    return mask


def create(config: MLPConfig, columns: Sequence[str], rng: np.random.Generator) -> MLP:
    """A fresh MLP over ``columns``, every weight uniform in ``config.init``."""
    where = "model 'mlp'"
    if not config.hidden or any(h < 1 for h in config.hidden):
        raise ConfigError(
            f"{where}: hidden must list one or more layer sizes >= 1, got {config.hidden!r}"
        )
    if config.activation not in ACTIVATIONS:
        raise ConfigError(f"{where}: activation must be tanh or sigmoid, got {config.activation!r}")
    if not columns:
        raise ConfigError(f"{where}: the encoding has no columns")
    lo, hi = uniform_range(config.init, where)
    size = sum(g[1] for g in layout(len(columns), config.hidden, config.direct))
    at_most(f"{where}: hidden {shorten(str(config.hidden))}: weights", size, MAX_PARAMETERS)
    groups = config.groups
    mask = None if groups is None else group_mask(groups, config.hidden[0], columns)
    return MLP(
        rng.uniform(lo, hi, size),
        len(columns),
        config.hidden,
        config.activation,
        config.direct,
        groups=groups,
        mask=mask,
        input_sum=config.input_sum,
    )
