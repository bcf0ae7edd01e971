"""The conformance suite's kernel check: a game's compiled kernels equal its Python rules.

For a game whose ``kernels()`` is not None (``mindgames.kernels``), at every position of the
suite's random playouts and each of its children:

* ``to_row`` gives an int64 row of ``width`` columns and ``from_row`` gives the state back;
* ``children`` writes as many rows as ``Game.children`` has successors (at most
  ``max_children``), each the same state in the same order, and returns -1 when the buffers
  have one row too few; its move codes are one to one with the moves over the whole run
  (equal moves, equal codes, in any position);
* ``is_terminal``, ``result`` (a finished game's returns for the side to move), ``to_move``,
  ``move_count``, ``capture_pending`` and ``progress`` equal the ``Game`` methods;
* ``key`` is the same for states with the same ``search_key``;
* ``perft`` equals ``Game.perft`` (the declared counts, and depths 1-3 from the start);
* every encoding checked whose name the kernels list gives the Python encoding's numbers
  (within ``KERNEL_TOLERANCE``: kernels may sum in another order).

It imports the game's kernel module by name, so it is the one part of the suite that loads
numba, and only for a game that has kernels.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from types import ModuleType

import numpy as np

from mindgames.errors import ConformanceError
from mindgames.game import Encoding, Game, HasMargin, State
from mindgames.kernels import KERNEL_FUNCTIONS, GameKernels

KERNEL_CHECK = "kernels equal the Python rules"
#: how far a kernel encoding's value may differ from the Python encoding's
KERNEL_TOLERANCE = 1e-12


def _where(game: Game, state: State) -> str:
    try:
        return game.position_text(state)
    except Exception:
        return repr(state)


class KernelChecker:
    """Checks one game's kernels position by position (``check`` per playout)."""

    def __init__(self, game: Game, kernels: GameKernels, encodings: list[Encoding]) -> None:
        self.game = game
        self.kernels = kernels
        self.module = self._module()
        self.params = np.ascontiguousarray(kernels.params, dtype=np.int64)
        self.out = np.zeros((kernels.max_children, kernels.width), dtype=np.int64)
        self.moves = np.zeros(kernels.max_children, dtype=np.int64)
        #: move -> code and code -> move, over every position checked
        self.codes_of: dict[Hashable, int] = {}
        self.moves_of: dict[int, Hashable] = {}
        #: (encoding, its code, its kernel options) of each encoding the kernels compute
        self.codes = [
            (enc, kernels.encodings[enc.name], np.array(enc.kernel_options, dtype=np.float64))
            for enc in encodings
            if enc.name in kernels.encodings and enc.kernel_options is not None
        ]
        #: search key -> kernel key, over every state checked
        self.keys: dict[Hashable, int] = {}
        self.positions = 0

    def _module(self) -> ModuleType:
        name = self.kernels.module
        try:
            module = importlib.import_module(name)
        except Exception as exc:
            raise self._error(f"kernel module {name!r} does not import ({exc})") from None
        declared = (*KERNEL_FUNCTIONS, *(("margin",) if self.kernels.margin else ()))
        missing = [f for f in declared if not hasattr(module, f)]
        if missing:
            raise self._error(f"kernel module {name!r} lacks {', '.join(missing)}")
        return module

    def _error(self, what: str, state: State | None = None) -> ConformanceError:
        where = "" if state is None else f" (position {_where(self.game, state)})"
        return ConformanceError(f"{self.game.spec()}: kernels: {what}{where}")

    def row(self, state: State) -> np.ndarray:
        """The state's row, checked: its type, its width and the way back."""
        row = self.kernels.to_row(state)
        if (
            not isinstance(row, np.ndarray)
            or row.dtype != np.int64
            or row.shape != (self.kernels.width,)
        ):
            raise self._error(f"to_row gave no int64 row of {self.kernels.width} columns", state)
        if self.kernels.from_row(row) != state:
            raise self._error("from_row(to_row(state)) is another state", state)
        return row

    def check(self, states: list[State]) -> None:
        """Every check at each state of a playout."""
        for state in states:
            self.check_state(state)

    def check_state(self, state: State) -> None:
        """The checks at one position (and the key and the round trip of its children)."""
        game, m, params = self.game, self.module, self.params
        self.positions += 1
        row = self.row(state)
        pairs = list(game.children(state))
        kids = [child for _, child in pairs]
        n = m.children(params, row, self.out, self.moves)
        if n != len(kids):
            raise self._error(f"children gave {n} successors, Game.children {len(kids)}", state)
        got = [self.kernels.from_row(self.out[i]) for i in range(n)]
        if got != kids:
            first = next(i for i, (a, b) in enumerate(zip(got, kids, strict=True)) if a != b)
            raise self._error(f"child {first} differs from Game.children's (order or state)",
                              state)  # fmt: skip
        for (move, _), code in zip(pairs, self.moves[:n].tolist(), strict=True):
            if self.codes_of.setdefault(move, code) != code:
                raise self._error(f"move {move!r} has two codes", state)
            if self.moves_of.setdefault(code, move) != move:
                raise self._error(f"moves {move!r} and {self.moves_of[code]!r} share a code", state)
        if n:
            short = np.zeros((n - 1, self.kernels.width), dtype=np.int64)
            if m.children(params, row, short, self.moves) != -1:
                raise self._error("children did not return -1 for a buffer too small", state)
            if m.children(params, row, self.out, self.moves[: n - 1]) != -1:
                raise self._error("children did not return -1 for a move buffer too small",
                                  state)  # fmt: skip
        terminal = game.is_terminal(state)
        side = game.to_move(state)
        checks: tuple[tuple[str, object, object], ...] = (
            ("is_terminal", bool(m.is_terminal(params, row)), terminal),
            ("to_move", int(m.to_move(params, row)), side),
            ("move_count", int(m.move_count(params, row)), game.move_count(state)),
            ("capture_pending", bool(m.capture_pending(params, row)), game.capture_pending(state)),
            ("progress", int(m.progress(params, row)), game.progress(state)),
        )
        if self.kernels.margin:
            want_margin = game.margin(state) if isinstance(game, HasMargin) else None
            checks += (("margin", int(m.margin(params, row)), want_margin),)
        if terminal:
            returns = float(game.returns(state)[side])
            checks += (("result", float(m.result(params, row)), returns),)
        for name, value, want in checks:
            if value != want:
                raise self._error(f"{name} is {value!r}, the Python rules say {want!r}", state)
        for enc, code, options in self.codes:
            out = np.full(enc.width, np.nan)
            m.encode(params, code, options, row, out)
            want = np.asarray(enc.encode(state), dtype=float)
            if not np.allclose(out, want, rtol=0.0, atol=KERNEL_TOLERANCE):
                col = int(np.flatnonzero(~np.isclose(out, want, rtol=0.0,
                                                     atol=KERNEL_TOLERANCE))[0])  # fmt: skip
                raise self._error(
                    f"encoding {enc.name!r} column {enc.columns[col]!r} is {out[col]!r}, "
                    f"the Python encoding's {want[col]!r}",
                    state,
                )
        for s, r in ((state, row), *((k, self.out[i]) for i, k in enumerate(kids))):
            self._check_key(s, int(m.key(params, r)))

    def check_perft(self) -> None:
        """``perft`` equals the game's: its declared counts and depths 1-3 from the start."""
        game, m = self.game, self.module
        cases = [(game.initial_state(), d, game.perft(game.initial_state(), d)) for d in (1, 2, 3)]
        for text, counts in game.known_perft():
            state = game.initial_state() if text is None else game.parse_position(text)
            cases += [(state, d, want) for d, want in enumerate(counts, 1)]
        for state, depth, want in cases:
            got = int(m.perft(self.params, self.kernels.to_row(state), depth))
            if got != want:
                raise self._error(f"perft {depth} is {got}, the Python rules' {want}", state)

    def _check_key(self, state: State, key: int) -> None:
        search = self.game.search_key(state)
        seen = self.keys.setdefault(search, key)
        if seen != key:
            raise self._error("key differs between two states with the same search_key", state)


def kernel_checker(game: Game, encodings: list[Encoding]) -> KernelChecker | None:
    """The checker for ``game``'s kernels, or None when it has none."""
    from mindgames.kernels import kernels_of

    kernels = kernels_of(game)
    return None if kernels is None else KernelChecker(game, kernels, encodings)
