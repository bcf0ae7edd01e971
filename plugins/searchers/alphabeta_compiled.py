"""Alpha-beta on the compiled path: ``AlphaBeta.search`` hands a search here when the game, the
encoding and the model all have kernels (``plan``), and gets the same result as the Python path.

The deepening loop stays in Python (it is one call per depth); each iteration is one call of the
compiled ``root`` (alphabeta_kernel.py, bound to the game's and the model's kernel modules), which
keeps the table, the counters and the buffers in arrays that live for the whole search. The node
budget stops a search inside an iteration, as in Python; a time budget is looked at between
iterations. Moves come back as codes and are turned into the game's moves by replaying them
(the root's children, then the principal variation's).

``random_order`` shuffles with CPython's generator ported to numba (pyrandom_kernel.py), so the
shuffles are the Python path's; ``eval_cache``
only changes the speed of the Python path, so the compiled search ignores it; ``batch`` is
searched as Python searches it (the same counts), its values from the compiled model.
"""

from __future__ import annotations

import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mindgames.errors import MindgamesError
from mindgames.game import Encoding, Game, Move, State
from mindgames.kernels import GameKernels, ModelKernels, kernels_of, model_kernels_of
from mindgames.model import Evaluator
from mindgames.plugins.searchers.common import PROVEN, TIE, make_stats
from mindgames.search import SearchResult

if TYPE_CHECKING:
    from mindgames.plugins.searchers.alphabeta import AlphaBeta

TEMPLATE = Path(__file__).with_name("alphabeta_kernel.py")
#: the template's globals, bound to the game's kernels and to the model's ``value``
GAME_NAMES = (
    "capture_pending",
    "children",
    "encode",
    "is_terminal",
    "key",
    "move_count",
    "progress",
    "result",
    "to_move",
)
UNBOUND = "mindgames.compiled.unbound"
#: the port of Python's shuffle (bound like the kernels, so the digest covers its source)
SHUFFLE_MODULE = "mindgames.plugins.searchers.pyrandom_kernel"
#: the encoding code of the core's progress encoding (alphabeta_kernel.PROGRESS)
PROGRESS_CODE = -1


@attrs.frozen(eq=False)
class Plan:
    """What a compiled search needs: the kernels, the encoding as data, the model as data."""

    game: GameKernels
    ev: np.ndarray  # per encoding part: code, start, end, first option, end of options
    eopts: np.ndarray
    width: int  # the encoded vector's length
    model: ModelKernels | None


def _encoding_plan(gk: GameKernels, encoding: Encoding) -> tuple[np.ndarray, np.ndarray] | None:
    """The encoding's parts as kernel codes and options, or None when a part has no kernel."""
    rows: list[tuple[int, int, int, int, int]] = []
    options: list[float] = []
    start = 0
    for part in encoding.parts or (encoding,):
        if part.kernel_options is None:
            return None
        if part.name == "progress":
            code = PROGRESS_CODE
        elif part.name in gk.encodings:
            code = gk.encodings[part.name]
        else:
            return None
        first = len(options)
        options.extend(float(v) for v in part.kernel_options)
        rows.append((code, start, start + part.width, first, len(options)))
        start += part.width
    return np.array(rows, dtype=np.int64).reshape(-1, 5), np.array(options, dtype=np.float64)


def plan(options: AlphaBeta, game: Game, evaluator: Evaluator | None) -> Plan | None:
    """The compiled plan of a search, or None when it must take the Python path."""
    gk = kernels_of(game)
    if gk is None:
        return None
    from mindgames import compiled

    if not compiled.enabled():
        return None
    if evaluator is None or options.null:
        return Plan(gk, np.zeros((0, 5), np.int64), np.zeros(0), 0, None)
    encoded = _encoding_plan(gk, evaluator.encoding)
    mk = model_kernels_of(evaluator.model)
    if encoded is None or mk is None:
        return None
    return Plan(gk, encoded[0], encoded[1], evaluator.encoding.width, mk)


def _kernel_module(p: Plan) -> ModuleType:
    from mindgames.compiled.specialise import bind

    bindings = {f"g_{name}": (p.game.module, name) for name in GAME_NAMES}
    model = (p.model.module, "value") if p.model is not None else (UNBOUND, "value")
    bindings["m_value"] = model
    bindings["shuffle"] = (SHUFFLE_MODULE, "shuffle")
    return bind(TEMPLATE, bindings)


class _Buffers:
    """The arrays one search lives in (alphabeta_kernel's module docstring)."""

    def __init__(
        self,
        p: Plan,
        o: AlphaBeta,
        size: int,
        alternate: bool,
        table: tuple[np.ndarray, ...],
        mt: np.ndarray,
    ) -> None:
        gk = p.game
        room = gk.max_children
        self.size = size
        self.kids = np.zeros((size * room, gk.width), dtype=np.int64)
        self.kmoves = np.zeros(size * room, dtype=np.int64)
        self.korder = np.zeros(size * room, dtype=np.int64)
        self.sv = np.zeros(size * room, dtype=np.float64)
        self.skind = np.zeros(size * room, dtype=np.int64)
        self.mt = mt
        self.killers = np.full((size, 2), -1, dtype=np.int64)
        self.pvt = np.zeros((size, size), dtype=np.int64)
        self.pvlen = np.zeros(size, dtype=np.int64)
        self.x = np.zeros(max(p.width, 1), dtype=np.float64)
        self.c = np.zeros(8, dtype=np.int64)
        extensions = o.extend_forced or o.extend_captures
        self.opt = np.array(
            [
                o.extend_forced,
                o.extend_captures,
                o.extension,
                o.null or p.model is None,
                o.quick_wins,
                o.tt,
                o.ordering,
                o.pvs,
                -1 if o.nodes is None else o.nodes,
                alternate,
                not extensions,
                o.batch and not (o.null or p.model is None),
                o.random_order,
            ],
            dtype=np.int64,
        )
        self.table = table
        self.mmeta = p.model.meta if p.model is not None else np.zeros(1, np.int64)
        self.mparams = p.model.params if p.model is not None else np.zeros(1)


#: slots of the transposition table: more than twice the Python table's limit of entries
#: (alphabeta.TT_LIMIT, cleared when reached), so open addressing never fills it
TABLE_SLOTS = 1 << 22
_tables: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []


def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The process's transposition table, emptied for a new search: its arrays are made once
    (zeroed pages cost nothing until written) and a new generation empties it at once."""
    if not _tables:
        _tables.append(
            (
                np.zeros(TABLE_SLOTS, dtype=np.int64),
                np.zeros((TABLE_SLOTS, 7), dtype=np.int64),
                np.zeros(TABLE_SLOTS, dtype=np.float64),
                np.zeros(2, dtype=np.int64),
            )
        )
    tkey, tint, tval, tgen = _tables[0]
    tgen[0] += 1
    tgen[1] = 0
    return tkey, tint, tval, tgen


def search(
    o: AlphaBeta,
    game: Game,
    state: State,
    kids: list[tuple[Move, State]],
    p: Plan,
    rng: np.random.Generator,
    start: float,
) -> SearchResult:
    """``AlphaBeta.search`` on the compiled path; ``kids`` are the root's children in the order
    the Python path would try them (shuffled already when ties are broken at random)."""
    kernel = _kernel_module(p)
    gk = p.game
    rootrow = np.ascontiguousarray(gk.to_row(state), dtype=np.int64)
    codes, canon = _root_codes(kernel, gk, rootrow, game, state)
    code_of = {i: codes[i] for i in range(len(codes))}
    index_of_move = {id(m): i for i, (m, _) in enumerate(canon)}
    moves_in_order = [m for m, _ in canon]
    perm = np.array([_index(moves_in_order, m, index_of_move) for m, _ in kids], dtype=np.int64)
    deadline = None if o.time is None else start + o.time
    buffers: _Buffers | None = None
    table = _table()
    from mindgames.plugins.searchers.pyrandom_kernel import seeded  # numba: only when searching

    # ``random_order`` draws its Python generator's seed here, where the Python path does
    mt = seeded(int(rng.integers(0, 2**63 - 1))) if o.random_order else np.zeros(1, np.int64)
    result: tuple[int, float, list[int]] | None = None
    partial: tuple[int, float, list[int]] | None = None
    reached = 0
    for depth in range(1, o.max_depth() + 1):
        size = depth + o.extension_budget(depth) + 4
        if buffers is None or buffers.size < size:
            old = buffers
            buffers = _Buffers(p, o, size, game.turns_alternate, table, mt)
            if old is not None:
                buffers.c = old.c
        b = buffers
        n = len(kids)
        scored_v = np.zeros(n)
        scored_i = np.zeros(n, dtype=np.int64)
        scored_pv = np.zeros((n, b.size + 1), dtype=np.int64)
        scored_len = np.zeros(n, dtype=np.int64)
        arrays = (gk.params, p.ev, p.eopts, b.x, b.mmeta, b.mparams, b.opt, b.c, *b.table)
        arrays += (b.kids, b.kmoves, b.korder, b.killers, b.pvt, b.pvlen, b.sv, b.skind, b.mt)
        tie = TIE if o.random_ties else 0.0
        count = kernel.root(
            rootrow, perm, depth, o.extension_budget(depth), tie, arrays,
            scored_v, scored_i, scored_pv, scored_len,
        )  # fmt: skip
        if b.c[7]:
            raise MindgamesError(
                f"game {game.spec()!r}: a position has more moves than its kernels' bound "
                f"max_children={gk.max_children}"
            )
        scored = [
            (float(scored_v[k]), int(scored_i[k]), scored_pv[k, : scored_len[k]].tolist())
            for k in range(count)
        ]
        if scored:
            best = max(v for v, _, _ in scored)
            partial = next((i, v, pv) for v, i, pv in scored if v == best)
        if b.c[6]:
            if result is None:
                first = int(perm[0])
                result = partial if partial is not None else (first, 0.0, [code_of[first]])
                reached = 0
            break
        reached = depth
        best = max(v for v, _, _ in scored)
        if o.random_ties:
            ties = [s for s in scored if s[0] >= best - TIE]
            v, i, pv = ties[int(rng.integers(len(ties)))] if len(ties) > 1 else ties[0]
        else:
            v, i, pv = next(s for s in scored if s[0] == best)
        result = (i, v, pv)
        perm = np.array([i, *[j for j in perm.tolist() if j != i]], dtype=np.int64)
        if b.c[4] == 0 or abs(v) > PROVEN:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    assert result is not None and buffers is not None
    index, value, pv_codes = result
    c = buffers.c
    pv = _replay(kernel, gk, game, state, pv_codes)
    seconds = time.perf_counter() - start
    stats = make_stats(int(c[0]), int(c[1]), reached, seconds, int(c[2]), path="compiled")
    return SearchResult(canon[index][0], value, pv, stats)


def _index(moves: list[Move], move: Move, by_id: dict[int, int]) -> int:
    i = by_id.get(id(move))
    return i if i is not None else moves.index(move)


def _root_codes(
    kernel: ModuleType, gk: GameKernels, row: np.ndarray, game: Game, state: State
) -> tuple[list[int], list[tuple[Move, State]]]:
    """The move codes of a position's children and its children, in generation order."""
    out = np.zeros((gk.max_children, gk.width), dtype=np.int64)
    codes = np.zeros(gk.max_children, dtype=np.int64)
    n = _children(gk, row, out, codes)
    canon = list(game.children(state))
    if n != len(canon):
        raise MindgamesError(
            f"game {game.spec()!r}: its kernels give {n} moves where the rules give "
            f"{len(canon)} in {game.position_text(state)} (check-game compares them)"
        )
    return codes[:n].tolist(), canon


def _children(gk: GameKernels, row: np.ndarray, out: np.ndarray, codes: np.ndarray) -> int:
    import importlib

    module: Any = importlib.import_module(gk.module)
    return int(module.children(gk.params, row, out, codes))


def _replay(
    kernel: ModuleType, gk: GameKernels, game: Game, state: State, codes: list[int]
) -> tuple[Move, ...]:
    """The moves that a principal variation's codes stand for, played from ``state``."""
    pv: list[Move] = []
    for code in codes:
        if game.is_terminal(state):
            break
        row = np.ascontiguousarray(gk.to_row(state), dtype=np.int64)
        here, canon = _root_codes(kernel, gk, row, game, state)
        if code not in here:
            break
        move, state = canon[here.index(code)]
        pv.append(move)
    return tuple(pv)
