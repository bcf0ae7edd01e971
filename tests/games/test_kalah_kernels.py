"""Kalah's compiled kernels (games/kalah/kernels.py) against the Python rules and encodings, the
oracle: rows both ways, children in order, the predicates, keys, margins, every encoding and
perft, over seeded random playouts of several sizes and both capture rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.games.kalah import kernels as k
from mindgames.games.kalah.engine import sweep
from mindgames.games.kalah.kernelinfo import EncodingCodes, encoding_code
from mindgames.games.kalah.rules import Kalah, KalahState
from mindgames.kernels import GameKernels, HasKernels, kernels_of
from mindgames.registry import get_registry

#: ``Kalah.perft`` from the start of Kalah(6,4), depths 1-10, by the Python engine: computed once
#: with ``[Kalah(6, 4, empty_capture=ec).perft(Kalah(6, 4).initial_state(), d) for d in
#: range(1, 11)]`` (about 8 CPU s a rule at depth 10). The default rule's equal OpenSpiel's
#: ``mancala`` (docs/kalah.md).
PERFT_6_4 = {
    False: (6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490, 13519607),
    True: (6, 35, 185, 942, 4685, 23169, 113959, 559885, 2743126, 13394138),
}

#: the encodings compared (canonical names, options included)
ENCODINGS = (
    "kalah14",
    "kalah14:scale=2.0",
    "kalah14:scale=0.3",
    "kalah-features",
    "kalah-moves",
    "kalah-counts",
    "kalah-counts:levels=5",
    "material",
)


def playout_states(game: Kalah, seed: int, count: int) -> list[KalahState]:
    """``count`` states of seeded random games: every state of each game, the end included."""
    rng = np.random.default_rng(seed)
    out: list[KalahState] = []
    while len(out) < count:
        state = game.initial_state()
        out.append(state)
        while not game.is_terminal(state) and len(out) < count:
            kids = game.children(state)
            state = kids[int(rng.integers(len(kids)))][1]
            out.append(state)
    return out


def check_states(game: Kalah, states: Sequence[KalahState]) -> None:
    """Every kernel of ``game`` equals the Python rules and encodings on every state."""
    gk = game.kernels()
    params = gk.params
    out = np.zeros((gk.max_children, gk.width), dtype=np.int64)
    moves = np.zeros(gk.max_children, dtype=np.int64)
    registry = get_registry()
    encodings = [registry.encoding(game, name) for name in ENCODINGS]
    codes = [gk.encodings[e.name] for e in encodings]
    options = [np.array(e.kernel_options, dtype=np.float64) for e in encodings]
    keys: dict[object, int] = {}
    for state in states:
        row = gk.to_row(state)
        assert row.dtype == np.int64 and row.shape == (gk.width,)
        assert gk.from_row(row) == state
        n = k.children(params, row, out, moves)
        want = game.children(state)
        assert n == len(want)
        assert moves[:n].tolist() == [move for move, _ in want]
        assert [gk.from_row(out[i]) for i in range(n)] == [child for _, child in want]
        if n:  # the rows ``StateRows`` makes, turn counts included
            kids, legal, _, _ = game.row_children(row[None, :])
            assert (kids[0, legal[0]] == out[:n]).all()
        over = game.is_terminal(state)
        assert k.is_terminal(params, row) == over
        assert k.to_move(params, row) == game.to_move(state)
        assert k.move_count(params, row) == game.move_count(state) == n
        assert k.capture_pending(params, row) == game.capture_pending(state)
        assert k.progress(params, row) == game.progress(state)
        assert k.margin(params, row) == game.margin(state)
        if over:
            assert k.result(params, row) == game.returns(state)[game.to_move(state)]
        h = int(k.key(params, row))
        assert keys.setdefault(game.search_key(state), h) == h
        for encoding, code, opts in zip(encodings, codes, options, strict=True):
            got = np.full(encoding.width, np.nan)
            k.encode(params, code, opts, row, got)
            assert np.array_equal(got, encoding.encode(state)), (encoding.name, state)
    assert len(set(keys.values())) == len(keys)  # no two search keys share a hash here


def test_kalah_declares_kernels_for_every_size_and_rule():
    game = Kalah(pits=5, seeds=3, empty_capture=True)
    assert isinstance(game, HasKernels)
    gk = kernels_of(game)
    assert isinstance(gk, GameKernels)
    assert gk.module == "mindgames.games.kalah.kernels" and gk.max_children == 5
    assert gk.width == 16 and gk.params.dtype == np.int64 and gk.params.ndim == 1
    assert gk.params[:5].tolist() == [5, 3, 1, 30, 16]
    assert set(gk.encodings) == {
        "kalah14",
        "kalah-features",
        "kalah-moves",
        "kalah-counts",
        "material",
    }
    assert len(gk.encodings) == 5 and gk.encodings["kalah14:scale=2.0"] == gk.encodings["kalah14"]
    for bad in ("raw32", "progress", "kalah14:", "1x"):
        assert bad not in gk.encodings
    assert encoding_code("kalah-counts:levels=5") == 3 and "EncodingCodes" in repr(EncodingCodes())
    registry = get_registry()
    for name in ENCODINGS:  # every Kalah encoding declares its kernel options
        assert registry.encoding(game, name).kernel_options is not None


@pytest.mark.parametrize("empty_capture", [False, True])
def test_kernels_equal_python_on_kalah_6_4_playouts(empty_capture):
    game = Kalah(empty_capture=empty_capture)
    check_states(game, playout_states(game, 11 + empty_capture, 4000))


@pytest.mark.parametrize(
    ("pits", "seeds"), [(1, 1), (1, 5), (2, 3), (3, 2), (4, 3), (5, 6), (8, 2), (16, 32)]
)
@pytest.mark.parametrize("empty_capture", [False, True])
def test_kernels_equal_python_on_other_sizes(pits, seeds, empty_capture):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    check_states(game, playout_states(game, pits * 100 + seeds, 1500))


def test_kernel_rows_round_trip_study_positions():
    game = Kalah(pits=4, seeds=3)
    for text in ("0,3,0,2;4;3,3,3,3;0;S", "0,0,0,1;10;0,0,0,0;13;N", "1,0,0,0;0;0,0,0,2;0;N"):
        state = game.parse_position(text)
        assert game.kernels().from_row(game.kernels().to_row(state)) == state
    check_states(game, [game.parse_position("0,3,0,2;4;3,3,3,3;0;S")])


def test_children_refuse_a_small_buffer():
    game = Kalah(pits=6, seeds=4)
    gk = game.kernels()
    row = gk.to_row(game.initial_state())
    small = np.zeros((5, gk.width), dtype=np.int64)
    moves = np.zeros(6, dtype=np.int64)
    assert k.children(gk.params, row, small, moves) == -1
    assert (small == 0).all()
    out = np.zeros((6, gk.width), dtype=np.int64)
    assert k.children(gk.params, row, out, np.zeros(5, dtype=np.int64)) == -1
    assert k.children(gk.params, row, np.zeros((6, gk.width - 1), dtype=np.int64), moves) == -1
    assert k.children(gk.params, row, out, moves) == 6


@pytest.mark.parametrize("empty_capture", [False, True])
def test_perft_1_to_10_of_kalah_6_4(empty_capture):
    game = Kalah(empty_capture=empty_capture)
    gk = game.kernels()
    row = gk.to_row(game.initial_state())
    got = tuple(int(k.perft(gk.params, row, d)) for d in range(1, 11))
    assert got == PERFT_6_4[empty_capture]
    assert [game.perft(game.initial_state(), d) for d in range(1, 6)] == list(got[:5])
    assert k.perft(gk.params, row, 0) == 1


@pytest.mark.parametrize(
    ("pits", "seeds", "depth"), [(1, 3, 8), (2, 2, 10), (3, 3, 9), (4, 1, 10), (5, 5, 6)]
)
@pytest.mark.parametrize("empty_capture", [False, True])
def test_perft_of_other_sizes_and_positions(pits, seeds, depth, empty_capture):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    gk = game.kernels()
    for state in playout_states(game, depth, 40)[::7]:
        row = gk.to_row(state)
        want = [game.perft(state, d) for d in range(1, depth + 1)]
        assert [k.perft(gk.params, row, d) for d in range(1, depth + 1)] == want


@st.composite
def positions(draw: st.DrawFn) -> tuple[Kalah, KalahState]:
    """Any position of any small Kalah: random seeds in the pits and stores (at most the game's
    total), either side to move, any plies; a side without seeds is swept (as parsed)."""
    pits = draw(st.integers(1, 7))
    seeds = draw(st.integers(1, 6))
    game = Kalah(pits=pits, seeds=seeds, empty_capture=draw(st.booleans()))
    t = game.t
    fields = draw(st.lists(st.integers(0, t.total), min_size=t.fields, max_size=t.fields))
    while sum(fields) > t.total:
        i = fields.index(max(fields))
        fields[i] //= 2
    pos = t.pack(fields)
    if not pos & t.pit_mask[0] or not pos & t.pit_mask[1]:
        pos = sweep(t, pos)
    return game, (pos, draw(st.integers(0, 1)), draw(st.integers(0, 500)))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_kernels_equal_python_on_random_positions(case):
    game, state = case
    check_states(game, [state])
    gk = game.kernels()
    row = gk.to_row(state)
    assert [k.perft(gk.params, row, d) for d in range(1, 4)] == [
        game.perft(state, d) for d in range(1, 4)
    ]


def test_encode_refuses_a_short_vector_and_knows_every_width():
    game = Kalah(pits=3, seeds=2)
    gk = game.kernels()
    row = gk.to_row(game.initial_state())
    for name in ENCODINGS:
        encoding = get_registry().encoding(game, name)
        code, opts = gk.encodings[encoding.name], np.array(encoding.kernel_options, dtype=float)
        assert k.encoding_width(gk.params, code, opts) == encoding.width
        with pytest.raises(ValueError, match="shorter"):
            k.encode(gk.params, code, opts, row, np.zeros(encoding.width - 1))
    assert k.encoding_width(gk.params, 15, np.zeros(0)) == 0


def test_to_row_refuses_more_seeds_than_the_game_has():
    game = Kalah(pits=2, seeds=1)
    state = (game.t.pack([3, 0, 1, 0, 1, 0]), 0, 0)
    with pytest.raises(ValueError, match="5 seeds, more than 4"):
        game.kernels().to_row(state)


#: run with the JIT disabled: the kernels and the solver's as plain Python still equal the rules
NO_JIT_SCRIPT = textwrap.dedent(
    """
    import json
    import numba
    import numpy as np
    from mindgames.games.kalah import kernels as k
    from mindgames.games.kalah.rules import Kalah
    assert numba.config.DISABLE_JIT
    assert not hasattr(k.children, "py_func")  # plain Python functions
    found = []
    for ec in (False, True):
        game = Kalah(pits=4, seeds=3, empty_capture=ec)
        gk = game.kernels()
        out = np.zeros((gk.max_children, gk.width), dtype=np.int64)
        moves = np.zeros(gk.max_children, dtype=np.int64)
        rng = np.random.default_rng(5)
        state, ok = game.initial_state(), True
        while not game.is_terminal(state):
            row = gk.to_row(state)
            n = k.children(gk.params, row, out, moves)
            want = game.children(state)
            ok &= [gk.from_row(out[i]) for i in range(n)] == [c for _, c in want]
            ok &= moves[:n].tolist() == [m for m, _ in want]
            for name in ("kalah14:scale=2.0", "kalah-features", "kalah-moves", "kalah-counts"):
                from mindgames.registry import get_registry
                e = get_registry().encoding(game, name)
                x = np.zeros(e.width)
                opts = np.array(e.kernel_options, dtype=np.float64)
                k.encode(gk.params, gk.encodings[e.name], opts, row, x)
                ok &= bool(np.array_equal(x, e.encode(state)))
            k.key(gk.params, row)
            state = want[int(rng.integers(len(want)))][1]
        row = gk.to_row(game.initial_state())
        perft = [int(k.perft(gk.params, row, d)) for d in range(1, 6)]
        want = [game.perft(game.initial_state(), d) for d in range(1, 6)]
        found.append([bool(ok), perft == want])
    from mindgames.games.kalah.solver import solve_compiled, solve_python
    game = Kalah(pits=3, seeds=2, empty_capture=True)
    a, b = solve_compiled(game, game.initial_state()), solve_python(game, game.initial_state())
    found.append([(a.value, a.best_moves, a.nodes) == (b.value, b.best_moves, b.nodes)])
    print(json.dumps(found))
    """
)


def test_kernels_are_valid_python_with_the_jit_disabled():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", NO_JIT_SCRIPT], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[True, True], [True, True], [True]]


def test_rules_and_plugin_do_not_import_numba():
    code = (
        "import sys; import mindgames.games.kalah.rules, mindgames.games.kalah.plugin; "
        "from mindgames.games.kalah.rules import Kalah; Kalah().kernels(); "
        "print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
