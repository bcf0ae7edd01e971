"""The TD(lambda) update: negamax traces, a step size per weight, momentum, and schedules.

Over the positions a learner sees, P_t = V(s_t), s = +1 when s_{t+1} has the same side to move
as s_t and -1 otherwise; each step, with the weights as they are::

    delta_t = gamma * s * P_{t+1} - P_t        (the final step: reward - P_t)
    w      += alpha * delta_t * e_t            (alpha per weight; momentum below)
    e_{t+1} = grad P_{t+1} + gamma * lambda * s * e_t,   e_0 = grad P_0
"""

from __future__ import annotations

import numpy as np

from mindgames.errors import ConfigError, MindgamesError
from mindgames.model import AddParams, Model, as_parametric, param_groups_of


class TDUpdate:
    """Online TD(lambda) over one game at a time: negamax traces, per-weight alpha, momentum."""

    def __init__(
        self,
        model: Model,
        alpha: np.ndarray,
        lam: float,
        gamma: float = 1.0,
        momentum: float = 0.0,
        direction_check: bool = True,
    ) -> None:
        self.model = model
        #: the model as the parameter vector it updates (TD needs ``parametric``)
        self.params = as_parametric(model)
        self.alpha = alpha
        self.lam = lam
        self.gamma = gamma
        self.momentum = momentum
        self.direction_check = direction_check
        self.velocity = np.zeros_like(alpha)
        self.p = 0.0
        self.trace = np.zeros_like(alpha)
        #: the model's in-place addition when it has one (``AddParams``), else None
        self._add = model.add_params if isinstance(model, AddParams) else None
        self._buffer: np.ndarray | None = None  # ``step``'s change, reused

    def begin(self, value: float, grad: np.ndarray) -> None:
        """The first position of a game: the trace restarts at its gradient."""
        self.p = value
        self.trace = np.array(grad, dtype=float)

    def step(self, value: float, grad: np.ndarray, same_side: bool) -> None:
        """The next position: learn from the TD error, then extend the trace."""
        s = 1.0 if same_side else -1.0
        trace = self.trace
        if self.momentum or self._add is None:
            self._apply(self.gamma * s * value - self.p)
        else:  # hot path (a call a ply): ``apply`` in a buffer, the same numbers
            change = self._buffer
            if change is None or change.shape != trace.shape:
                change = self._buffer = np.empty_like(trace)
            np.multiply(trace, self.gamma * s * value - self.p, out=change)
            change *= self.alpha
            self._add(change)
        trace *= self.gamma * self.lam * s
        trace += grad
        self.p = value

    def finish(self, reward: float) -> None:
        """The game is over: ``reward`` is for the side to move in the last position."""
        self._apply(reward - self.p)

    def _apply(self, delta: float) -> None:
        self.apply(delta * self.trace)

    def apply(self, direction: np.ndarray) -> None:
        """Add ``alpha * direction`` (delta times trace, summed over games) plus momentum."""
        change = self.alpha * direction
        if self.momentum:
            carry = self.momentum * self.velocity
            if self.direction_check:
                carry = np.where(np.sign(carry) == np.sign(change), carry, 0.0)
            change = change + carry
            self.velocity = change
        if self._add is not None:
            self._add(change)
        else:
            self.params.set_params(self.params.get_params() + change)


def alpha_vector(model: Model, inputs: int, alpha: float | list[float] | None) -> np.ndarray:
    """One step size per parameter.

    A model that exposes ``param_groups()`` -- ``[(name, size, fan_in), ...]`` in
    ``get_params()`` order -- gets one alpha per group, ``1/fan_in`` when unset; other models get
    one alpha, ``1/inputs`` when unset.
    """
    n = len(as_parametric(model).get_params())
    groups = param_groups_of(model)  # the GroupedParams protocol
    if groups is None:
        groups = [("all", n, inputs)]
    if sum(int(g[1]) for g in groups) != n:
        raise MindgamesError(f"model {model.name!r}: param_groups() do not cover its parameters")
    if isinstance(alpha, list):
        if len(alpha) == 1:
            alpha = alpha[0]
        elif len(alpha) != len(groups):
            names = ", ".join(str(g[0]) for g in groups)
            raise ConfigError(
                f"alpha has {len(alpha)} values but model {model.name!r} has {len(groups)} "
                f"parameter groups ({names})"
            )
    parts = []
    for i, (_, size, fan_in) in enumerate(groups):
        if alpha is None:
            a = 1.0 / max(int(fan_in), 1)
        elif isinstance(alpha, list):
            a = float(alpha[i])
        else:
            a = float(alpha)
        parts.append(np.full(int(size), a))
    return np.concatenate(parts) if parts else np.zeros(0)


def decay(start: float, end: float | None, fraction: float) -> float:
    """Linear schedule from ``start`` to ``end`` over training (constant when ``end`` unset)."""
    if end is None:
        return start
    return start + (end - start) * min(max(fraction, 0.0), 1.0)
