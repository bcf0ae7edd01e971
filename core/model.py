"""Models and evaluators: a model maps an encoding's vector to a value; an evaluator binds a
model to a game's encoding.

A model never knows a game: it sees only the vector and the encoding's column names. Models
declare capabilities, which learners check before they start:

* ``parametric``     -- a flat parameter vector to get and set (evolution);
* ``differentiable`` -- the value and its gradient with respect to that vector (TD, RPROP);
* ``fittable``       -- a supervised fit on a matrix X and targets y.

Fast path: a model may also offer ``value_py(x: Sequence[float]) -> float``, the value of one
position from a tuple of Python floats without numpy (equal to ``value`` up to rounding). When
the encoding has ``encode_py`` too, ``Evaluator.evaluate`` uses the pair: for small models a
numpy call per position costs more than the arithmetic (search leaves are scored one at a time).
With ``encode_py`` but no ``value_py``, ``evaluate`` feeds ``value`` one array built from
``encode_py`` (the same vector, made faster than a numpy encoding of one state).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from mindgames.errors import CapabilityError
from mindgames.game import Encoding, State

PARAMETRIC = "parametric"
DIFFERENTIABLE = "differentiable"
FITTABLE = "fittable"
CAPABILITIES = frozenset({PARAMETRIC, DIFFERENTIABLE, FITTABLE})


class Model(ABC):
    """A value function over encoded positions, with values in [-1, 1] for the side to move."""

    #: registry name of the model class ("mlp", "linear", ...): the ``ModelInfo`` name
    name: ClassVar[str]
    #: capabilities this model offers (a subset of CAPABILITIES); a class attribute, which a
    #: composite model (``staged``: what its members share) sets per instance
    capabilities: frozenset[str] = frozenset()

    @abstractmethod
    def value(self, x: np.ndarray) -> float:
        """Value of one encoded position (a 1-D vector)."""

    def value_batch(self, xs: np.ndarray) -> np.ndarray:
        """Values of a 2-D batch, one row per position; models override with one matmul."""
        return np.array([self.value(x) for x in xs], dtype=float)

    @abstractmethod
    def config(self) -> dict[str, Any]:
        """JSON-able description of the model's shape and options (saved in model files)."""

    @abstractmethod
    def arrays(self) -> dict[str, np.ndarray]:
        """The model's numeric state as named arrays (saved in model files)."""

    @classmethod
    @abstractmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> Model:
        """Rebuild a model from what ``config`` and ``arrays`` returned."""

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Accept the old spelling for one release: a model class written with ``kind = "..."``
        (before ``name`` replaced it) gets that as its ``name``."""
        super().__init_subclass__(**kwargs)
        old = cls.__dict__.get("kind")
        if isinstance(old, str) and "name" not in cls.__dict__:
            cls.name = old


@runtime_checkable
class Parametric(Protocol):
    """The ``parametric`` capability: one flat float vector to read and write (evolution)."""

    def get_params(self) -> np.ndarray: ...
    def set_params(self, params: np.ndarray) -> None: ...


@runtime_checkable
class Differentiable(Protocol):
    """The ``differentiable`` capability: the value and its gradient over ``get_params()``."""

    def get_params(self) -> np.ndarray: ...
    def set_params(self, params: np.ndarray) -> None: ...
    def value_and_grad(self, x: np.ndarray) -> tuple[float, np.ndarray]: ...


@runtime_checkable
class Fittable(Protocol):
    """The ``fittable`` capability: a supervised fit of values ``ys`` to encoded rows ``xs``."""

    def fit(self, xs: np.ndarray, ys: np.ndarray) -> None: ...


@runtime_checkable
class GroupedParams(Protocol):
    """A parametric model whose vector splits into named groups (optional; TD asks for it).

    ``param_groups()`` returns ``[(name, size, fan_in), ...]`` in ``get_params()`` order, the
    sizes summing to the vector's length; TD gives each group its own step size (``1/fan_in``
    unless configured), so a hidden layer and an output layer learn at matching rates.
    """

    def param_groups(self) -> Sequence[tuple[str, int, int]]: ...


@runtime_checkable
class BatchDifferentiable(Protocol):
    """A differentiable model that values a batch with its gradients in one call (optional).

    ``value_and_grad_batch(xs)`` returns values ``(n,)`` and gradients ``(n, parameters)``,
    row ``i`` equal to ``value_and_grad(xs[i])``; TD's 1-ply self-play and lockstep games use
    it to value every successor at once.
    """

    def value_and_grad_batch(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


@runtime_checkable
class RowsGrads(Protocol):
    """A batch-differentiable model that values a batch now and differentiates some of its rows
    later (optional): ``values_and_rows_grads(xs)`` returns ``value_batch(xs)`` and a function
    of row indices giving ``value_and_grad_batch(xs[rows])[1]``; TD's lockstep values every
    successor and differentiates the chosen ones without a second forward pass."""

    def values_and_rows_grads(
        self, xs: np.ndarray
    ) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]: ...


@runtime_checkable
class RowGrads(RowsGrads, Protocol):
    """``RowsGrads`` for one row (optional): ``values_and_row_grad(xs)`` returns the values
    ``(n,)`` and a function giving row ``k``'s gradient, equal to ``value_and_grad_batch(xs)[1]
    [k]``. A special case of ``RowsGrads`` (a model offering it offers that too), kept as its
    own method because it is the hot path of TD's 1-ply move choice, where the MLP inlines one
    row's backward pass (faster than ``values_and_rows_grads`` with one index, and bit-equal to
    the batch's row, on which TD's recorded runs depend)."""

    def values_and_row_grad(
        self, xs: np.ndarray
    ) -> tuple[np.ndarray, Callable[[int], np.ndarray]]: ...


@runtime_checkable
class WeightedGrads(Protocol):
    """A model that values a batch now and gives later the gradient of a weighted sum of those
    values (optional): ``values_and_weighted_grad(xs)`` returns ``value_batch(xs)`` and a
    function of weights ``c`` (n,) giving ``c @ value_and_grad_batch(xs)[1]`` (parameters,),
    equal within rounding (the sum runs in another order). The squared-error fitters use it:
    one back-propagation of the batch's errors instead of a gradient row per pattern."""

    def values_and_weighted_grad(
        self, xs: np.ndarray
    ) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]: ...


@runtime_checkable
class HasMembers(Protocol):
    """A composite model of member models, one per stage of a measure (optional; ``staged``):
    ``members`` in stage order, the columns ``by`` whose ``measure`` (``"sum"``, ...) picks the
    stage, and the stages' ``bounds``. Layered Learning's per-stage evaluators train one member
    per stage."""

    members: list[Model]
    by: list[str]
    measure: str
    bounds: list[float]


@runtime_checkable
class AddParams(Protocol):
    """A parametric model that adds a change to its vector in place (optional): the same
    values as ``set_params(get_params() + change)`` without the copies (TD's update)."""

    def add_params(self, change: np.ndarray) -> None: ...


@runtime_checkable
class FastValue(Protocol):
    """A model with the pure-Python single-position path (optional; see the module docstring)."""

    def value_py(self, x: Sequence[float]) -> float: ...


def param_groups_of(model: Model) -> list[tuple[str, int, int]] | None:
    """The model's parameter groups, or None when it declares none (``GroupedParams``)."""
    if isinstance(model, GroupedParams):
        return [(str(name), int(size), int(fan_in)) for name, size, fan_in in model.param_groups()]
    return None


def as_parametric(model: Model) -> Parametric:
    """``model`` typed as ``Parametric``; CapabilityError when it lacks the methods."""
    if not isinstance(model, Parametric):
        raise CapabilityError(f"model {model.name!r} is not parametric (get_params/set_params)")
    return model


def as_fittable(model: Model) -> Fittable:
    """``model`` typed as ``Fittable``; CapabilityError when it lacks ``fit``."""
    if not isinstance(model, Fittable):
        raise CapabilityError(f"model {model.name!r} is not fittable (fit)")
    return model


def as_differentiable(model: Model) -> Differentiable:
    """``model`` typed as ``Differentiable``; CapabilityError when it lacks the methods."""
    if not isinstance(model, Differentiable):
        raise CapabilityError(f"model {model.name!r} is not differentiable (value_and_grad)")
    return model


_PROTOCOLS: dict[str, type] = {
    PARAMETRIC: Parametric,
    DIFFERENTIABLE: Differentiable,
    FITTABLE: Fittable,
}


def check_declared(model: Model) -> None:
    """Prove a model's declared capabilities: each declared one has its methods."""
    for cap in model.capabilities:
        if cap not in _PROTOCOLS:
            raise CapabilityError(f"model {model.name!r} declares unknown capability {cap!r}")
        if not isinstance(model, _PROTOCOLS[cap]):
            raise CapabilityError(f"model {model.name!r} declares {cap!r} but lacks its methods")


def require(needs: Iterable[str], model: Model, *, who: str) -> None:
    """Refuse a pairing when ``model`` lacks a capability that ``who`` needs.

    A capability the model declares is proved too (``check_declared``): a model that claims
    ``differentiable`` without ``value_and_grad`` fails here, before any work starts, not deep
    inside training.
    """
    missing = sorted(set(needs) - set(model.capabilities))
    if missing:
        have = ", ".join(sorted(model.capabilities)) or "none"
        raise CapabilityError(
            f"{who} needs a {' and '.join(missing)} model, but model {model.name!r} is not "
            f"(it offers: {have})"
        )
    check_declared(model)


class Evaluator:
    """An encoding of a game plus a model: ``evaluate(state)`` in [-1, 1] for the side to move."""

    __slots__ = ("encoding", "evaluate", "fast", "model", "steps")

    #: value of one state for the side to move (the pure-Python path when there is one): a
    #: function made once here, so that a search leaf costs one call and no attribute look-ups
    evaluate: Callable[[State], float]
    #: ``(encode, value)`` with ``evaluate(state) == value(encode(state))``: the two calls that
    #: ``evaluate`` makes, for a search's leaves to make themselves (a Python frame less a leaf)
    steps: tuple[Callable[[State], Any], Callable[[Any], float]]

    def __init__(self, encoding: Encoding, model: Model) -> None:
        self.encoding = encoding
        self.model = model
        encode_py = encoding.encode_py
        value_py = model.value_py if isinstance(model, FastValue) else None
        #: whether ``evaluate`` takes the pure-Python path (``encode_py`` and ``value_py``)
        self.fast = encode_py is not None and value_py is not None
        value, encode = model.value, encoding.encode
        if encode_py is not None and value_py is not None:
            # the pure-Python single-position path (module docstring): same values, no numpy
            fast_value = value_py

            def evaluate(state: State) -> float:
                return fast_value(encode_py(state))

            self.steps = (encode_py, fast_value)
        elif encode_py is not None:
            # the model needs numpy, but one array from Python floats beats a numpy encoding
            array = np.array

            def evaluate(state: State) -> float:
                return value(array(encode_py(state), dtype=float))

            def value_of_row(x: Any) -> float:
                return value(array(x, dtype=float))

            self.steps = (encode_py, value_of_row)
        else:

            def evaluate(state: State) -> float:
                return value(encode(state))

            self.steps = (encode, value)
        self.evaluate = evaluate

    def __deepcopy__(self, memo: dict[int, Any]) -> Evaluator:
        """A copy with its own model, and ``evaluate`` made anew for that model: the function
        made in ``__init__`` holds the model's own methods, so a plain deep copy would keep
        evaluating with the original. The encoding, a stateless value, is shared."""
        return Evaluator(self.encoding, copy.deepcopy(self.model, memo))

    def evaluate_batch(self, states: Sequence[State]) -> np.ndarray:
        if not states:
            return np.zeros(0)
        return self.model.value_batch(self.encoding.encode_batch(states))

    def __repr__(self) -> str:
        return f"Evaluator({self.encoding.name!r}, {self.model.name!r})"
