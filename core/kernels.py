"""The compiled path's contract: what a game declares to be searched and played in numba.

A game with kernels (the optional capability ``HasKernels``) describes itself to compiled code
as a module of ``@njit(cache=True)`` functions over one fixed-width int64 **row** per state, plus
the exact conversions between rows and its Python states. Nothing here imports numba: commands
that never search must not pay for it (``mindgames.compiled`` imports it, on demand).

The kernel module named by ``GameKernels.module`` defines these functions; ``params`` is
``GameKernels.params`` (the game's parameters as kernels read them), ``row`` one state's row,
``out`` a 2-D int64 buffer of ``max_children`` rows of ``width`` columns:

* ``children(params, row, out, moves) -> int``: writes the successors of ``row`` into
  ``out[0:n]``, in the order of ``Game.children`` (so child ``i`` is the ``i``-th legal move),
  and into the int64 vector ``moves[0:n]`` a code of each move: equal codes for equal moves, in
  any position (the searcher's killer moves and the table's best move are compared by it;
  draughts: the path's squares packed, Kalah: the pit); returns ``n`` (0 when the state is
  terminal), or -1 when ``out`` or ``moves`` has too few rows, never writing past them;
* ``is_terminal(params, row) -> bool``;
* ``result(params, row) -> float``: a terminal state's result for the side to move (+1, 0, -1);
* ``to_move(params, row) -> int``: 0 or 1;
* ``move_count(params, row) -> int`` and ``capture_pending(params, row) -> bool``: as the
  ``Game`` methods of the same names (the search extensions ask them);
* ``key(params, row) -> int``: a 64-bit hash of what decides the game's future (the compiled
  transposition table's key: equal for states with equal ``Game.search_key``);
* ``progress(params, row) -> int``: ``Game.progress``;
* ``perft(params, row, depth) -> int``: ``Game.perft`` (every leaf made: the engine benchmark);
* ``encode(params, code, options, row, out) -> None``: the encoding numbered ``code`` (the
  values of ``GameKernels.encodings``) of ``row`` into the float64 vector ``out``: the same
  numbers as the Python encoding, from the side to move's point of view. ``options`` (float64)
  is the Python encoding's ``Encoding.kernel_options``: the encoding's factory sets them (e.g.
  raw32's king value) and thereby declares that the kernel computes it with those options; an
  encoding whose ``kernel_options`` is None runs on the Python path only. The core's
  ``progress`` encoding needs no code (the searchers use the ``progress`` kernel);
* ``margin(params, row) -> int``: only when ``GameKernels.margin`` declares it, as
  ``Game.margin`` (``HasMargin``; TD's margin outcome reads it in compiled self-play).

The conformance suite (``check-game``) proves a game's kernels equal to its Python rules:
conversions both ways, children in order, the predicates, the keys and the encodings, over
seeded random playouts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

import attrs
import numpy as np

from mindgames.game import State

#: the functions a kernel module must define (the module docstring says what each does)
KERNEL_FUNCTIONS = (
    "children",
    "is_terminal",
    "result",
    "to_move",
    "move_count",
    "capture_pending",
    "key",
    "progress",
    "encode",
    "perft",
)


@attrs.frozen(eq=False)
class GameKernels:
    """One game instance's compiled description (module docstring)."""

    #: importable module path of the ``@njit`` kernels, e.g. ``mindgames.games.kalah.kernels``
    module: str
    #: the game's parameters as the kernels read them (int64, 1-D)
    params: np.ndarray
    #: columns of a state row
    width: int
    #: a proven bound on the number of children of one state (the buffers' rows)
    max_children: int
    #: a state as its row (int64, ``width`` columns); exact: ``from_row(to_row(s)) == s``
    to_row: Callable[[State], np.ndarray]
    #: the state a row stands for
    from_row: Callable[[np.ndarray], State]
    #: encodings with kernels: encoding name -> the ``code`` that ``encode`` takes
    encodings: Mapping[str, int] = attrs.field(factory=dict)
    #: the module also defines ``margin`` (module docstring)
    margin: bool = False


@runtime_checkable
class HasKernels(Protocol):
    """A game that can run compiled (optional). ``kernels()`` returns None for parameter values
    its kernels do not cover (the Python path then serves that game instance)."""

    def kernels(self) -> GameKernels | None: ...


def kernels_of(game: object) -> GameKernels | None:
    """The game's kernels, or None when it has none (or none for these parameters)."""
    kernels = getattr(game, "kernels", None)  # ``HasKernels``, tested as its isinstance would be,
    return kernels() if callable(kernels) else None  # at a tenth of the cost (once a search)


@attrs.frozen(eq=False)
class ModelKernels:
    """A model's compiled description: the module whose njit ``value(meta, params, x,
    progress) -> float`` values an encoded position as ``Model.value`` does, and the model as
    data for it (an integer layout and the parameters, read when a search starts)."""

    module: str
    meta: np.ndarray
    params: np.ndarray


@runtime_checkable
class HasModelKernels(Protocol):
    """A model that can be evaluated compiled (optional); None for options it does not cover."""

    def kernels(self) -> ModelKernels | None: ...


def model_kernels_of(model: object) -> ModelKernels | None:
    """The model's kernels, or None when it has none."""
    kernels = getattr(model, "kernels", None)  # ``HasModelKernels`` (as ``kernels_of``)
    return kernels() if callable(kernels) else None
