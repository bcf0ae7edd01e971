"""Alpha-beta on the compiled path: ``AlphaBeta.search`` hands a search here when the game, the
encoding and the model all have kernels (``plan``), and gets the same result as the Python path.

The deepening is one call of the compiled ``deepen`` (alphabeta_kernel.py, bound to the game's
and the model's kernel modules), which comes back here after an iteration only when this loop
must choose (a random tie-break), look at the clock (a time budget), or end the search; the table,
the counters and the buffers are arrays that live for the whole search (the table and the
buffers for the thread). The node budget stops a search inside an iteration, as in Python; a
time budget is looked at between iterations. Moves come back as child indices in generation
order, turned into the game's moves by ``Game.children`` (the root's, then the principal
variation's positions': only when the line is first read, ``search.Line``).

``random_order`` shuffles with CPython's generator ported to numba (pyrandom_kernel.py), so the
shuffles are the Python path's; ``eval_cache`` remembers leaf values within a search as the
Python path does, on by default for the larger MLPs (``REMEMBER_FROM``), and changes only the
speed (``alphabeta_kernel.remembered``); ``batch`` is searched as Python
searches it (the same counts), its values from the compiled model.
"""

from __future__ import annotations

import functools
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import attrs
import numpy as np

from mindgames.errors import MindgamesError
from mindgames.game import Encoding, Game, Move, State
from mindgames.kernels import GameKernels, ModelKernels, kernels_of, model_kernels_of
from mindgames.model import Evaluator
from mindgames.plugins.searchers.common import PROVEN, TIE, make_stats, paused_gc
from mindgames.search import Line, SearchResult

if TYPE_CHECKING:
    from mindgames.plugins.searchers.alphabeta import AlphaBeta


#: the one-ply searcher ``greedy`` runs as, by (quick_wins, null): one object each, so that
#: ``_memo_options`` finds its options vector made (a playout asks every move)
_greedy: dict[tuple[bool, bool], AlphaBeta] = {}


def _greedy_options(quick_wins: bool, null: bool) -> AlphaBeta:
    o = _greedy.get((quick_wins, null))
    if o is None:
        from mindgames.plugins.searchers.alphabeta import AlphaBeta

        o = _greedy[quick_wins, null] = AlphaBeta(depth=1, quick_wins=quick_wins, null=null)
    return o


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
    #: leaf values remembered within a search (``AlphaBeta.eval_cache``, as the Python path)
    remember: bool = False


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


#: ``_encoding_plan`` of the encodings seen lately, by the ids of (kernels, encoding); both
#: objects are kept and compared, so an id is never taken for another object's (an encoding is
#: frozen: its plan cannot change)
_encoded: dict[
    tuple[int, int], tuple[GameKernels, Encoding, tuple[np.ndarray, np.ndarray] | None]
] = {}


def _encoding_plan_of(gk: GameKernels, encoding: Encoding) -> tuple[np.ndarray, np.ndarray] | None:
    """``_encoding_plan``, made once per (kernels, encoding) pair (a search asks every time)."""
    memo = (id(gk), id(encoding))
    hit = _encoded.get(memo)
    if hit is not None and hit[0] is gk and hit[1] is encoding:
        return hit[2]
    if len(_encoded) >= 256:
        _encoded.clear()
    made = _encoding_plan(gk, encoding)
    _encoded[memo] = (gk, encoding, made)
    return made


#: ``kernels_of`` of the games seen lately, by id (the game kept and compared, as ``_encoded``)
_games: dict[int, tuple[Game, GameKernels | None]] = {}


def _game_kernels(game: Game) -> GameKernels | None:
    """``kernels_of(game)``, asked once per game (a search asks every time it starts)."""
    hit = _games.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    if len(_games) >= 256:
        _games.clear()
    made = kernels_of(game)
    _games[id(game)] = (game, made)
    return made


#: the model parameters from which a compiled search remembers its leaf values by default
#: (``eval_cache`` unset): below, an MLP's value costs less than the table's hash, probes and
#: stores (measured on checkers, stop 49: 341 and 1,741 weights 15-23% slower with the table,
#: 2,601 even, 4,321-6,471 3-13% faster; a co-evolution search repeats about 11% of its leaves)
REMEMBER_FROM = 2_500


def plan(options: AlphaBeta, game: Game, evaluator: Evaluator | None) -> Plan | None:
    """The compiled plan of a search, or None when it must take the Python path."""
    gk = _game_kernels(game)
    if gk is None:
        return None
    from mindgames import compiled

    if not compiled.enabled():
        return None
    if evaluator is None or options.null:
        return Plan(gk, np.zeros((0, 5), np.int64), np.zeros(0), 0, None)
    encoded = _encoding_plan_of(gk, evaluator.encoding)
    mk = model_kernels_of(evaluator.model)
    if encoded is None or mk is None:
        return None
    remember = options.eval_cache
    if remember is None:  # when a compiled value costs more than its remembering
        remember = not evaluator.fast and mk.params.size >= REMEMBER_FROM
    return Plan(gk, encoded[0], encoded[1], evaluator.encoding.width, mk, bool(remember))


#: the bound kernel module of each (game kernel module, model kernel module)
_modules: dict[tuple[str, str | None], ModuleType] = {}


#: the model module a search without a model (``null``, ``endgame``) is bound to: it never calls
#: it, and the built-in models' module makes it the same bound module as a search with one (one
#: compile of the template per game, not two: 21 CPU s for Kalah's)
NULL_MODEL = "mindgames.evaluators.kernels"


def _kernel_module(p: Plan) -> ModuleType:
    memo = (p.game.module, NULL_MODEL if p.model is None else p.model.module)
    module = _modules.get(memo)
    if module is None:
        module = _modules[memo] = _bind(p)
    return module


def _bind(p: Plan) -> ModuleType:
    from mindgames.compiled.specialise import bind

    bindings = {f"g_{name}": (p.game.module, name) for name in GAME_NAMES}
    model = (p.model.module if p.model is not None else NULL_MODEL, "value")
    bindings["m_value"] = model
    bindings["shuffle"] = (SHUFFLE_MODULE, "shuffle")
    return bind(TEMPLATE, bindings)


#: the options vector and extension budgets of the searchers seen lately, by (id, no model,
#: turns alternate, leaves remembered); the searcher (frozen) is kept and compared, so an id is
#: never taken for another object's
_opts: dict[tuple[int, bool, bool, bool], tuple[AlphaBeta, np.ndarray, np.ndarray]] = {}


def _memo_options(
    o: AlphaBeta, no_model: bool, alternate: bool, remember: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``alphabeta_kernel``'s options vector (``opt``, read only) and the extension budget of
    each depth (``budgets``) of a search, made once per searcher (a search asks every time)."""
    memo = (id(o), no_model, alternate, remember)
    hit = _opts.get(memo)
    if hit is not None and hit[0] is o:
        return hit[1], hit[2]
    if len(_opts) >= 256:
        _opts.clear()
    extensions = o.extend_forced or o.extend_captures
    opt = np.array(
        [
            o.extend_forced,
            o.extend_captures,
            o.extension,
            o.null or no_model,
            o.quick_wins,
            o.tt,
            o.ordering,
            o.pvs,
            -1 if o.nodes is None else o.nodes,
            alternate,
            not extensions,
            o.batch and not (o.null or no_model),
            o.random_order,
            remember and not (o.null or no_model),
        ],
        dtype=np.int64,
    )
    budgets = np.array([o.extension_budget(d) for d in range(o.max_depth() + 1)], dtype=np.int64)
    _opts[memo] = (o, opt, budgets)
    return opt, budgets


def _options(o: AlphaBeta, no_model: bool, alternate: bool, remember: bool) -> np.ndarray:
    """The options vector of ``_memo_options``."""
    return _memo_options(o, no_model, alternate, remember)[0]


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
        scratch = _scratch(size * room, gk.width)
        self.kids = scratch["kids"][: size * room]
        self.kmoves = scratch["kmoves"][: size * room]
        self.korder = scratch["korder"][: size * room]
        self.sv = scratch["sv"][: size * room]
        self.skind = scratch["skind"][: size * room]
        self.mt = mt
        small = _per_search(size, max(p.width, 1))
        self.killers = small["killers"]
        self.pvt = small["pvt"]
        self.pvlen = small["pvlen"]
        self.fi = small["fi"]
        self.ff = small["ff"]
        self.x = small["x"]
        self.c = small["c"]
        self.opt = _options(o, p.model is None, alternate, p.remember)
        self.table = table
        self.leaves = _leaf_cache(max(p.width, 1))
        self.mmeta = p.model.meta if p.model is not None else np.zeros(1, np.int64)
        self.mparams = p.model.params if p.model is not None else np.zeros(1)

    def arrays(self, p: Plan) -> tuple[np.ndarray, ...]:
        """The search's arrays in the order ``alphabeta_kernel.SEARCH`` names them."""
        head = (p.game.params, p.ev, p.eopts, self.x, self.mmeta, self.mparams, self.opt, self.c)
        ply = (self.kids, self.kmoves, self.korder, self.killers, self.pvt, self.pvlen)
        tail = (self.sv, self.skind, self.mt, self.fi, self.ff, *self.leaves)
        return (*head, *self.table, *ply, *tail)


#: slots of the transposition table: more than twice the Python table's limit of entries
#: (alphabeta.TT_LIMIT, cleared when reached), so open addressing never fills it
TABLE_SLOTS = 1 << 22
#: the slots a search starts with (256 KB: stays in the cache). Each doubling (``grow``) moves
#: the table's entries: from 1,024 slots, a depth-8 checkers search grew three times and took
#: 12% longer (stop 49; 2-3% for Kalah's depth 10 and give-away's depth 6, searches of a few
#: hundred nodes the same within 2%)
FIRST_SLOTS = 1 << 12
#: each thread's own table and buffers (serve searches in threads), made once and reused:
#: zeroed pages cost nothing until written, and a new generation empties the table at once
_local = threading.local()


def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """This thread's transposition table, emptied for a new search."""
    tables = getattr(_local, "table", None)
    if tables is None:
        # one 64-byte row a slot (alphabeta_kernel.T_*): six integer fields, the key, the
        # value's bits; a probe then reads one cache line, not three
        rows = np.zeros((TABLE_SLOTS, 8), dtype=np.int64)
        tables = _local.table = (
            rows[:, 6],
            rows[:, :6],
            rows.view(np.float64)[:, 7],
            np.zeros(3, dtype=np.int64),
        )
    tkey, tint, tval, tgen = tables
    tgen[0] += 1  # a new generation: every slot is empty
    tgen[1] = 0
    tgen[2] = FIRST_SLOTS - 1  # the slots in use (alphabeta_kernel.grow doubles them)
    return tkey, tint, tval, tgen


#: slots of the leaf values a search remembers (``eval_cache``): filled to half at most (a
#: search of depth 4 on checkers evaluates a few thousand leaves; once full, the later ones are
#: evaluated, not remembered)
LEAF_SLOTS = 1 << 12


def _leaf_cache(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """This thread's table of remembered leaf values for encodings ``width`` wide
    (``alphabeta_kernel``'s ``lint``, ``lval``, ``lx``, ``lgen``), emptied for a new search."""
    made = getattr(_local, "leaves", None)
    if made is None:
        made = _local.leaves = {}
    have = made.get(width)
    if have is None:
        have = made[width] = (
            np.zeros((LEAF_SLOTS, 3), dtype=np.int64),
            np.zeros(LEAF_SLOTS),
            np.zeros((LEAF_SLOTS, width)),
            np.array([0, 0, LEAF_SLOTS - 1], dtype=np.int64),
        )
    lgen = have[3]
    lgen[0] += 1  # a new generation: nothing remembered (generations start at 1)
    lgen[1] = 0
    return have


def _per_search(size: int, width: int) -> dict[str, np.ndarray]:
    """This thread's small arrays of a search ``size`` plies deep with an encoding ``width``
    wide, reused from search to search: the kernels write each before reading it (``root``
    resets the killers and the lines), except the counters, zeroed here."""
    made = getattr(_local, "per_search", None)
    if made is None:
        made = _local.per_search = {}
    have = made.get((size, width))
    if have is None:
        have = made[(size, width)] = {
            "killers": np.full((size, 2), -1, dtype=np.int64),
            "pvt": np.zeros((size, size), dtype=np.int64),  # C-contiguous, as compiled
            "pvlen": np.zeros(size, dtype=np.int64),
            "fi": np.zeros((size, 16), dtype=np.int64),  # node's frames (alphabeta_kernel.F_*)
            "ff": np.zeros((size, 5), dtype=np.float64),
            "x": np.zeros(width, dtype=np.float64),
            "c": np.zeros(9, dtype=np.int64),
        }
    have["c"][:] = 0
    return have


def _scored(n: int, size: int) -> tuple[np.ndarray, ...]:
    """This thread's arrays of what the iterations of a search with ``n`` root moves and
    ``size`` plies scored and saved (``alphabeta_kernel.deepen``: ``scored_v``, ``scored_i``,
    ``scored_pv``, ``scored_len``, ``saved``, ``saved_v``, ``saved_pv``), reused from search to
    search: ``root`` writes the scored ones before they are read, ``deepen`` the saved ones."""
    made = getattr(_local, "scored", None)
    if made is None:
        made = _local.scored = {}
    have = made.get((n, size))
    if have is None:
        have = made[(n, size)] = (
            np.zeros(n),
            np.zeros(n, dtype=np.int64),
            np.zeros((n, size + 1), dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.zeros(4, dtype=np.int64),  # alphabeta_kernel.SAVED_*
            np.zeros(1),
            np.zeros(size + 1, dtype=np.int64),
        )
    return have


def _scratch(rows: int, width: int) -> dict[str, np.ndarray]:
    """This thread's per-ply buffers of at least that shape (written before they are read)."""
    have = getattr(_local, "scratch", None)
    if have is None or have["kids"].shape[0] < rows or have["kids"].shape[1] != width:
        have = _local.scratch = {
            "kids": np.empty((rows, width), dtype=np.int64),
            "kmoves": np.empty(rows, dtype=np.int64),
            "korder": np.empty(rows, dtype=np.int64),
            "sv": np.empty(rows, dtype=np.float64),
            "skind": np.empty(rows, dtype=np.int64),
        }
    return have


def search(
    o: AlphaBeta,
    game: Game,
    state: State,
    canon: list[tuple[Move, State]],
    order: list[int],
    p: Plan,
    rng: np.random.Generator,
    start: float,
) -> SearchResult:
    """``AlphaBeta.search`` on the compiled path; ``canon`` are the root's children in generation
    order and ``order`` the order the Python path tries them in (``common.root_order``)."""
    kernel = _kernel_module(p)
    gk = p.game
    rootrow = np.ascontiguousarray(gk.to_row(state), dtype=np.int64)
    perm = np.array(order, dtype=np.int64)
    deadline = None if o.time is None else start + o.time
    table = _table()
    from mindgames.plugins.searchers.pyrandom_kernel import seeded  # numba: only when searching

    # ``random_order`` draws its Python generator's seed here, where the Python path does
    mt = seeded(int(rng.integers(0, 2**63 - 1))) if o.random_order else np.zeros(1, np.int64)
    result: tuple[int, float, list[int]] | None = None
    partial: tuple[int, float, list[int]] | None = None
    reached = 0
    last = o.max_depth()
    size = last + o.extension_budget(last) + 4  # the deepest iteration's (the Python pv's size)
    buffers = _Buffers(p, o, size, game.turns_alternate, table, mt)
    b = buffers
    n = len(canon)
    scored_v, scored_i, scored_pv, scored_len, saved, saved_v, saved_pv = _scored(n, b.size)
    arrays = b.arrays(p)
    tie = TIE if o.random_ties else 0.0
    budgets = _memo_options(o, p.model is None, game.turns_alternate)[1]
    # the kernel deepens alone while each iteration's choice is the first best move; a random
    # tie-break or the clock is looked at here after every iteration
    stride = o.random_ties or deadline is not None
    with paused_gc():  # as the Python path: the collector's scans find nothing here
        depth = 1
        while depth <= last:
            depth = kernel.deepen(
                rootrow, perm, depth, depth if stride else last, budgets, tie, arrays,
                scored_v, scored_i, scored_pv, scored_len, saved, saved_v, saved_pv,
            )  # fmt: skip
            if saved[0]:  # the last iteration completed in the kernel (not ``depth``)
                reached = int(saved[0])
                result = (int(saved[2]), float(saved_v[0]), saved_pv[: saved[3]].tolist())
            count = int(saved[1])
            if b.c[7]:
                if b.c[8] != n:
                    raise MindgamesError(
                        f"game {game.spec()!r}: its kernels give {b.c[8]} moves where the rules "
                        f"give {n} in {game.position_text(state)} (check-game compares them)"
                    )
                raise MindgamesError(
                    f"game {game.spec()!r}: a position has more moves than its kernels' bound "
                    f"max_children={gk.max_children}"
                )
            values = scored_v[:count].tolist()  # the moves that raised the bar, in order
            if values:
                best = max(values)
                k = values.index(best)
                partial = (int(scored_i[k]), best, scored_pv[k, : scored_len[k]].tolist())
            if b.c[6]:
                if result is None:
                    first = int(perm[0])
                    result = partial if partial is not None else (first, 0.0, [first])
                    reached = 0
                break
            reached = depth
            best = max(values)
            if o.random_ties:
                ties = [k for k, v in enumerate(values) if v >= best - TIE]
                k = ties[int(rng.integers(len(ties)))] if len(ties) > 1 else ties[0]
            else:
                k = values.index(best)
            v, i = values[k], int(scored_i[k])
            result = (i, v, scored_pv[k, : scored_len[k]].tolist())
            if b.c[4] == 0 or abs(v) > PROVEN or depth >= last:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            perm = np.array([i, *[j for j in perm.tolist() if j != i]], dtype=np.int64)
            depth += 1
        assert result is not None and buffers is not None
        index, value, pv_indices = result
        c = buffers.c
    pv = Line(functools.partial(_replay, game, canon, pv_indices))  # made when first read
    seconds = time.perf_counter() - start
    stats = make_stats(int(c[0]), int(c[1]), reached, seconds, int(c[2]), path="compiled")
    return SearchResult(canon[index][0], value, pv, stats)


def _replay(game: Game, canon: list[tuple[Move, State]], indices: list[int]) -> tuple[Move, ...]:
    """The moves of a principal variation given as child indices, from the root's children
    (``canon``): one ``children`` call a further move, none for a one-move line."""
    pv: list[Move] = []
    kids = canon
    for i in indices:
        if not 0 <= i < len(kids):
            break
        move, child = kids[i]
        pv.append(move)
        if len(pv) < len(indices):
            kids = list(game.children(child))
    return tuple(pv)


def greedy_values(
    game: Game, state: State, evaluator: Evaluator | None, null: bool, quick_wins: bool
) -> list[float] | None:
    # (values in generation order: ``Greedy.search`` places them by ``common.root_order``)
    """The ``greedy`` searcher's child values (generation order) on the compiled path, or None
    when the game, the encoding or the model has no kernels (the Python path then)."""
    options = _greedy_options(quick_wins, null)
    p = plan(options, game, None if null else evaluator)
    if p is None:
        return None
    kernel = _kernel_module(p)
    gk = p.game
    size = 1
    b = _Buffers(p, options, size, game.turns_alternate, _table(), np.zeros(1, np.int64))
    arrays = b.arrays(p)
    values = np.zeros(gk.max_children)
    rootrow = np.ascontiguousarray(gk.to_row(state), dtype=np.int64)
    n = kernel.greedy(rootrow, arrays, values)
    if n < 0:
        raise MindgamesError(
            f"game {game.spec()!r}: a position has more moves than its kernels' bound "
            f"max_children={gk.max_children}"
        )
    return values[:n].tolist()


def whole_game(
    o: AlphaBeta,
    game: Game,
    state: State,
    evaluators: tuple[Evaluator | None, Evaluator | None],
    max_plies: int,
) -> tuple[float, int, State] | None:
    """A whole game from ``state`` between ``evaluators`` (side 0's, side 1's), each move this
    searcher's, in one compiled call (alphabeta_kernel.play): side 0's score (0.5 when cut at
    ``max_plies``), the plies and the final state, as ``task.play_game`` would give with two
    agents of this searcher. None when the game must be played move by move: a random choice
    (``random_ties``, ``random_order``), a clock, or a side without kernels."""
    if not _unattended(o):
        return None
    p0, p1 = plan(o, game, evaluators[0]), plan(o, game, evaluators[1])
    if p0 is None or p1 is None:
        return None
    if (p0.model is None) != (p1.model is None) or (
        p0.model is not None and p1.model is not None and p0.model.module != p1.model.module
    ):
        return None
    kernel = _kernel_module(p0)
    gk = p0.game
    last = o.max_depth()
    size = last + o.extension_budget(last) + 4
    table = _table()
    s0 = _Buffers(p0, o, size, game.turns_alternate, table, np.zeros(1, np.int64)).arrays(p0)
    s1 = _Buffers(p1, o, size, game.turns_alternate, table, np.zeros(1, np.int64)).arrays(p1)
    row = np.array(gk.to_row(state), dtype=np.int64)
    out = np.zeros(1)
    with paused_gc():
        plies = kernel.play(row, max_plies, last, _budgets(o), s0, s1, *_choice(gk, size), out)
    if plies < 0:
        _overflow(game, gk)
    return float(out[0]), int(plies), gk.from_row(row)


def _unattended(o: AlphaBeta) -> bool:
    """Whether a search needs nothing from Python between its iterations: no random choice
    (``random_ties``, ``random_order``) and no clock."""
    return not (o.random_ties or o.random_order or o.time is not None)


def _budgets(o: AlphaBeta) -> np.ndarray:
    """The extension budget of each depth of the deepening (read only)."""
    return _memo_options(o, False, False)[1]


def _choice(gk: GameKernels, size: int) -> tuple[np.ndarray, ...]:
    """The arrays of ``alphabeta_kernel.move_of`` and its callers: the position's children and
    their codes, the root's order, what the iterations scored and saved."""
    room = gk.max_children
    return (
        np.empty((room, gk.width), np.int64), np.empty(room, np.int64),
        np.zeros(room, np.int64), np.zeros(room), np.zeros(room, np.int64),
        np.zeros((room, size + 1), np.int64), np.zeros(room, np.int64),
        np.zeros(4, np.int64), np.zeros(2), np.zeros(size + 1, np.int64),
    )  # fmt: skip


def _overflow(game: Game, gk: GameKernels) -> None:
    raise MindgamesError(
        f"game {game.spec()!r}: a position has more moves than its kernels' bound "
        f"max_children={gk.max_children} (or its kernels disagree with its rules: "
        "check-game compares them)"
    )


def search_values(
    o: AlphaBeta, game: Game, states: list[State], evaluator: Evaluator | None
) -> list[float] | None:
    """The value of this search at each unfinished position of ``states`` (what ``search``
    returns as ``SearchResult.value``), all in one compiled call (alphabeta_kernel.values);
    None when a search needs Python between its iterations or a side has no kernels."""
    p = plan(o, game, evaluator) if _unattended(o) else None
    if p is None:
        return None
    kernel = _kernel_module(p)
    gk = p.game
    last = o.max_depth()
    size = last + o.extension_budget(last) + 4
    s = _Buffers(p, o, size, game.turns_alternate, _table(), np.zeros(1, np.int64)).arrays(p)
    rows = np.zeros((len(states), gk.width), dtype=np.int64)
    for r, state in enumerate(states):
        rows[r] = gk.to_row(state)
    out = np.zeros(len(states))
    with paused_gc():
        bad = kernel.values(rows, last, _budgets(o), s, *_choice(gk, size), out)
    if bad >= 0:
        _overflow(game, gk)
    return out.tolist()
