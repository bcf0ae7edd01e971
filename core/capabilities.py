"""Optional capabilities: one mechanism for games, models and learners.

Every optional capability is a ``runtime_checkable`` ``typing.Protocol`` declared in core: a game
has ``Solvable`` when it defines ``solve``, a model has ``BatchDifferentiable`` when it defines
``value_and_grad_batch``. Nothing else declares a capability -- no flags beside the methods, no
base-class defaults that refuse or answer "nothing". Code that uses a capability asks for it by
its protocol:

* ``require(obj, Protocol, what=...)`` returns ``obj`` typed as the protocol, or raises
  ``CapabilityError`` naming both sides (who needs it, and what lacks it);
* ``isinstance(obj, Protocol)`` where the capability only speeds something up.

The tables below list the capabilities by name, for the places that show or prove them:
``mindgames describe`` prints a game's and a model's capabilities from them, and the conformance
suite (``check-game``) checks each declared game capability it can check. A model's *core*
capabilities (``parametric``, ``differentiable``, ``fittable``) are also declared by name in
``Model.capabilities``, because a composite model (``staged``) has the methods but offers them
only when all its members do; ``mindgames.model.check_declared`` proves such a declaration with
the same protocols.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import attrs

from mindgames.board import DrawsBoard
from mindgames.errors import CapabilityError
from mindgames.game import (
    CountsPieces,
    DeclaresMaterial,
    ExportsGames,
    Game,
    HasMargin,
    HasOpeningBooks,
    ImportsGames,
    Solvable,
    SolvesBestMoves,
    SolvesMany,
    StateRows,
)
from mindgames.kernels import HasKernels, HasModelKernels
from mindgames.learner import MeasuresInputs, PlansWork
from mindgames.model import (
    AddParams,
    BatchDifferentiable,
    Differentiable,
    FastValue,
    Fittable,
    GroupedParams,
    HasMembers,
    Model,
    Parametric,
    RowGrads,
    RowsGrads,
    WeightedGrads,
)

T = TypeVar("T")


@attrs.frozen
class Capability:
    """One optional capability: its name (as ``describe`` prints it) and its protocol."""

    name: str
    protocol: type
    #: what it is for, in a few words
    summary: str


#: a game's optional capabilities
GAME_CAPABILITIES: tuple[Capability, ...] = (
    Capability("solvable", Solvable, "exact values of positions (solve)"),
    Capability("imports-games", ImportsGames, "reads game records in its own format"),
    Capability("exports-games", ExportsGames, "writes game records in its own format"),
    Capability("opening-books", HasOpeningBooks, "named standard openings"),
    Capability("counts-pieces", CountsPieces, "pieces left on the board"),
    Capability("material-weights", DeclaresMaterial, "its material model's weights"),
    Capability("margin", HasMargin, "the first player's score minus the second's"),
    Capability("state-rows", StateRows, "states as rows of one integer array"),
    Capability("board", DrawsBoard, "a board picture and move clicks (serve)"),
    Capability("kernels", HasKernels, "the compiled path (numba kernels)"),
    Capability("solves-best-moves", SolvesBestMoves, "every best move from one solve"),
    Capability("solves-many", SolvesMany, "a batch of positions solved for less (data solve)"),
)

#: a model's optional capabilities (the first three are also declared by name)
MODEL_CAPABILITIES: tuple[Capability, ...] = (
    Capability("parametric", Parametric, "a flat parameter vector to get and set"),
    Capability("differentiable", Differentiable, "the value and its gradient"),
    Capability("fittable", Fittable, "a supervised fit"),
    Capability("grouped-params", GroupedParams, "named parameter groups"),
    Capability("batch-gradients", BatchDifferentiable, "values and gradients of a batch"),
    Capability("rows-gradients", RowsGrads, "a batch's values, some rows' gradients later"),
    Capability("row-gradient", RowGrads, "a batch's values, one row's gradient later"),
    Capability(
        "weighted-gradient", WeightedGrads, "a batch's values, a weighted sum's gradient later"
    ),
    Capability("add-params", AddParams, "adds a change to its parameters in place"),
    Capability("fast-value", FastValue, "the pure-Python single-position value"),
    Capability("members", HasMembers, "member models by stage (staged)"),
    Capability("value-kernel", HasModelKernels, "the compiled path (a numba value kernel)"),
)

#: a learner's optional capabilities
LEARNER_CAPABILITIES: tuple[Capability, ...] = (
    Capability("planned", PlansWork, "its work known beforehand (the progress bar's length)"),
    Capability("measures-inputs", MeasuresInputs, "measures the encoding before training"),
)


def has_capability(obj: object, capability: Capability) -> bool:
    """Whether ``obj`` -- an instance, or a model class -- offers ``capability``."""
    if isinstance(obj, type):
        declared = set(dir(obj))
        for klass in obj.__mro__:
            declared |= set(getattr(klass, "__annotations__", {}))
        return _members(capability.protocol) <= declared
    return isinstance(obj, capability.protocol)


def capabilities_of(obj: object, table: Sequence[Capability]) -> list[str]:
    """The names of the capabilities of ``table`` that ``obj`` offers, in the table's order.

    ``obj`` may be a model class (``describe`` shows a model kind before any is built): a class
    offers a capability when it defines (or, for an attribute, annotates) every member of the
    protocol."""
    return [cap.name for cap in table if has_capability(obj, cap)]


def require(obj: object, protocol: type[T], *, what: str) -> T:
    """``obj`` typed as ``protocol``; CapabilityError naming both sides when it lacks it.

    ``what`` names who needs it (``"learner 'td'"``); the message names the capability, the
    methods it takes and the object that lacks them (``game 'checkers'``, ``model 'linear'``).
    """
    if isinstance(obj, protocol):
        return obj
    members = ", ".join(sorted(_members(protocol)))
    raise CapabilityError(
        f"{what} needs {_capability_name(protocol)} ({members}), but {_named(obj)} does not "
        "offer it"
    )


def _capability_name(protocol: type) -> str:
    for cap in (*GAME_CAPABILITIES, *MODEL_CAPABILITIES, *LEARNER_CAPABILITIES):
        if cap.protocol is protocol:
            return f"the {cap.name!r} capability"
    return protocol.__name__


def _named(obj: object) -> str:
    """How a message names ``obj``: its spec for a game, its kind for a model."""
    if isinstance(obj, Game):
        return f"game {obj.spec()!r}"
    if isinstance(obj, Model):
        return f"model {obj.name!r}"
    return f"{type(obj).__name__} {obj!r}"[:80]


def _members(protocol: type) -> set[str]:
    """The names a protocol declares (methods and attributes), its protocol bases' included."""
    names: set[str] = set()
    for klass in protocol.__mro__:
        if klass in (object, Protocol) or not getattr(klass, "_is_protocol", False):
            continue
        names |= {n for n in vars(klass) if not n.startswith("_")}
        names |= set(getattr(klass, "__annotations__", {}))
    return names
