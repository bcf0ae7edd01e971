"""The compiled draughts kernels equal the Python rules (games/draughts/kernels*.py).

Rows both ways, children in order with the same successors and move codes, the predicates,
keys and every kernel encoding over seeded random playouts and random positions (FENs and a
few random plies from them, so kings, histories and repetitions occur); perft 1-9; the bound
on children recomputed; numba kept out of the rules' import; a part run with the JIT off.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.conformance import check_game
from mindgames.conformance.kernels import KERNEL_CHECK
from mindgames.errors import ConformanceError
from mindgames.games.draughts import engine, kernel_spec
from mindgames.games.draughts.rules import Checkers, Draughts, DraughtsState, Giveaway
from mindgames.kernels import GameKernels
from mindgames.registry import get_registry

PUBLISHED = (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680)
GAMES = (
    Checkers(),
    Giveaway(),
    Checkers(no_progress=4),  # no-progress draws and short histories, often
    Giveaway(repetition=False, max_plies=80),
    Checkers(no_progress=0, max_plies=120),  # the history bounded by the length cap
)

#: no options: the code's own (the encodings as their codes say)
NO_OPTIONS = np.zeros(0)


class Compiled:
    """One game's kernels, module and buffers, and the comparison at a state."""

    def __init__(self, game: Draughts) -> None:
        kernels = game.kernels()
        assert kernels is not None
        self.game, self.k = game, kernels
        self.m = importlib.import_module(kernels.module)
        self.out = np.zeros((kernels.max_children, kernels.width), dtype=np.int64)
        self.moves = np.zeros(kernels.max_children, dtype=np.int64)
        registry = get_registry()
        names = [*kernels.encodings, "raw32:king=1.5", "raw32:king=2.718281828459045",
                 "raw32:king=1.3,piece_sum=true", "ll-features:king=2.9"]  # fmt: skip
        self.encodings = [(registry.encoding(game, n), kernels.encodings[n]) for n in names]
        self.keys: dict[tuple, int] = {}
        self.compared = 0

    def compare(self, state: DraughtsState) -> list[DraughtsState]:
        """Every kernel answer at ``state`` equals the Python rules'; returns the children."""
        game, k, m, params = self.game, self.k, self.m, self.k.params
        row = k.to_row(state)
        assert row.dtype == np.int64 and row.shape == (k.width,)
        assert k.from_row(row) == state
        pairs = game.children(state)
        n = m.children(params, row, self.out, self.moves)
        assert n == len(pairs), game.position_text(state)
        kids = [child for _, child in pairs]
        assert [k.from_row(self.out[i]) for i in range(n)] == kids, game.position_text(state)
        assert self.moves[:n].tolist() == [kernel_spec.move_code(mv) for mv, _ in pairs]
        assert m.is_terminal(params, row) == game.is_terminal(state)
        assert m.to_move(params, row) == game.to_move(state)
        assert m.move_count(params, row) == game.move_count(state)
        assert m.capture_pending(params, row) == game.capture_pending(state)
        assert m.progress(params, row) == game.progress(state)
        if game.is_terminal(state):
            assert m.result(params, row) == game.returns(state)[state[3]]
        for enc, code in self.encodings:
            got = np.full(enc.width, np.nan)
            m.encode(params, code, NO_OPTIONS, row, got)
            want = enc.encode(state)
            if enc.name.startswith("raw32") and "piece_sum" in enc.name:
                # the sum: sequential here, pairwise in numpy
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
            else:
                np.testing.assert_array_equal(got, want, err_msg=enc.name)
        for s, r in ((state, row), *((c, self.out[i]) for i, c in enumerate(kids))):
            assert self.keys.setdefault(s[:4], int(m.key(params, r))) == int(m.key(params, r))
        self.compared += 1
        return kids


def playouts(game: Draughts, seed: int, count: int) -> Iterator[DraughtsState]:
    """Every state of ``count`` seeded random games."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state = game.initial_state()
        while True:
            yield state
            kids = game.children(state)
            if not kids:
                break
            state = kids[int(rng.integers(len(kids)))][1]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: g.spec())
def compiled(request: pytest.FixtureRequest) -> Compiled:
    return Compiled(request.param)


def test_random_playouts_agree(compiled: Compiled) -> None:
    """Several thousand positions per game (the acceptance run, ``check-game`` style, is
    ``mindgames check-game checkers --playouts 300``: over 20,000)."""
    count = 40 if compiled.game.no_progress == 40 and compiled.game.max_plies is None else 12
    states = list(playouts(compiled.game, 7, count))
    for state in states:
        compiled.compare(state)
    assert compiled.compared >= (2500 if count == 40 else 600)


def test_the_encodings_listed() -> None:
    codes = Checkers().kernels().encodings  # type: ignore[union-attr]
    listed = ("raw32", "raw32:piece_sum=true", "binary3", "binary4", "binary4k", "binary5")
    listed += ("samuel", "gac11", "ll-features", "material", "progress")
    assert set(codes) == set(listed)
    registry = get_registry()
    on_offer = {e.name for e in registry.encodings_for("checkers")}
    assert on_offer <= set(codes) | {"raw32"}
    assert codes["raw32:king=1.0"] != codes["raw32"] != codes["ll-features"]
    missing = ("raw32:king=0.1", "raw32:king=-1.0", "raw32:king=20.0", "kalah14")
    missing += ("material:x=1", "raw32+progress", "raw32:piece_sum=1")
    assert not any(name in codes for name in missing)


# --- random positions --------------------------------------------------------------------------
squares = st.lists(st.integers(1, 32), min_size=2, max_size=24, unique=True)


@st.composite
def fens(draw: st.DrawFn) -> str:
    """A random legal FEN: up to 12 pieces a side, men off their crowning row, kings often."""
    cells = draw(squares)
    split = draw(st.integers(1, len(cells) - 1))
    black, white = cells[:split][:12], cells[split:][:12]

    def piece(s: int, colour: str) -> str:
        far = s >= 29 if colour == "B" else s <= 4
        return f"K{s}" if far or draw(st.booleans()) else str(s)

    side = draw(st.sampled_from("BW"))
    w = ",".join(piece(s, "W") for s in white)
    b = ",".join(piece(s, "B") for s in black)
    return f"{side}:W{w}:B{b}"


@pytest.fixture(scope="module")
def small() -> list[Compiled]:
    """Checkers and give-away with short draw limits: random walks reach repetitions."""
    return [Compiled(Checkers(no_progress=6)), Compiled(Giveaway())]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fen=fens(), walk=st.lists(st.integers(0, 1000), max_size=30))
def test_random_positions_agree(small: list[Compiled], fen: str, walk: list[int]) -> None:
    for c in small:
        state = c.game.parse_position(fen)
        for pick in walk:
            kids = c.compare(state)
            if not kids:
                break
            state = kids[pick % len(kids)]
        c.compare(state)
        for depth in (1, 2, 3):
            row = c.k.to_row(state)
            want = c.game.perft(state, depth)
            assert c.m.perft(c.k.params, row, depth) == want
            assert c.m.perft_counted(c.k.params, row, depth) == want


def test_repetition_draws_agree() -> None:
    """Kings shuffling: the third occurrence draws in both paths, history by history."""
    game = Checkers()
    c = Compiled(game)
    state = game.parse_position("B:WK29:BK1")
    for move in [(1, 6), (29, 25), (6, 1), (25, 29)] * 3:
        c.compare(state)
        if game.is_terminal(state):
            break
        state = game.play(state, move)
    assert game.is_terminal(state) and len(state[6]) >= 8
    c.compare(state)


# --- perft ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", [Checkers(), Giveaway()], ids=["checkers", "giveaway"])
def test_perft_1_to_9_published(game: Draughts) -> None:
    c = Compiled(game)
    row = c.k.to_row(game.initial_state())
    made = [c.m.perft(c.k.params, row, d) for d in range(1, 10)]
    counted = [c.m.perft_counted(c.k.params, row, d) for d in range(1, 10)]
    assert tuple(made) == tuple(counted) == PUBLISHED
    assert [game.perft(game.initial_state(), d) for d in range(1, 7)] == list(PUBLISHED[:6])


def test_giveaway_perft_equals_python_from_midgame() -> None:
    game = Giveaway()
    c = Compiled(game)
    for fen in ("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "B:W5,6,7,K26:B14,15,K30"):
        state = game.parse_position(fen)
        row = c.k.to_row(state)
        for depth in range(1, 6):
            want = engine.perft(*state[:4], depth)
            assert c.m.perft(c.k.params, row, depth) == want
            assert c.m.perft_counted(c.k.params, row, depth) == want


# --- rows, parameters and bounds ------------------------------------------------------------------
def test_rows_and_parameters() -> None:
    assert Checkers(no_progress=0).kernels() is None  # repetition with no bound on the history
    assert Checkers().kernels().width == 7 + 3 * 80  # type: ignore[union-attr]
    assert Checkers(repetition=False).kernels().width == 7  # type: ignore[union-attr]
    assert Checkers(no_progress=0, max_plies=50).kernels().width == 7 + 3 * 50  # type: ignore[union-attr]
    assert Checkers(no_progress=0, repetition=False).kernels() is not None
    kernels = Giveaway(max_plies=30).kernels()
    assert isinstance(kernels, GameKernels)
    assert kernels.params.dtype == np.int64
    assert kernels.params.tolist() == [1, 80, 30, 1, 30]
    game = Checkers(no_progress=2)
    state = game.parse_position("B:WK29:BK1")
    state = game.play(game.play(game.play(state, (1, 6)), (29, 25)), (6, 1))
    assert len(state[6]) == 3 and game.kernels().from_row(game.kernels().to_row(state)) == state  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="history"):
        Checkers(no_progress=1).kernels().to_row(state)  # type: ignore[union-attr]


def _full_tree(sq: int, opp: int, table: list, stop: int) -> tuple[int, int]:
    """Leaves and depth (jumps) of the jump tree from bit ``sq`` with ``opp`` to take and every
    landing square empty."""
    leaves, depth = 0, 0
    for over, land, nsq in table[sq]:
        if over & opp:
            if land & stop:
                leaves, depth = leaves + 1, max(depth, 1)
            else:
                n, d = _full_tree(nsq, opp ^ over, table, stop)
                leaves, depth = leaves + n, max(depth, d + 1)
    return leaves or 1, depth


def _parity(s: int) -> tuple[int, int]:
    """A square's (row, column) parity class: a king's jumps stay in it."""
    r, c = engine.coords(s)
    return r % 2, c % 2


def test_the_bound_on_children_and_move_codes() -> None:
    """``MAX_CHILDREN``: the twelve largest full jump trees (the ``kernels`` docstring's
    argument), and more than 48 simple moves; paths of at most 10 squares (60-bit codes)."""
    from mindgames.games.draughts import kernels_rules

    bounds, depths = [], []
    for s in range(1, 33):
        sq = engine.BIT[s]
        same = sum(engine.SQ[t] for t in range(1, 33) if _parity(t) == _parity(s))
        opp = engine.BOARD ^ same
        king, kd = _full_tree(sq, opp, engine.KING_JUMPS, 0)
        for side in (0, 1):
            man, _ = _full_tree(sq, opp, engine.MAN_JUMPS[side], engine.PROMO[side])
            assert man <= king
        bounds.append(king)
        depths.append(kd)
    bound = max(sum(sorted(bounds)[-12:]), 12 * 4)
    assert bound == kernels_rules.MAX_CHILDREN == kernel_spec.MAX_CHILDREN == 184
    assert max(depths) + 1 <= 10 and kernels_rules.MOVE_BITS * 10 <= 63


# --- planted differences make the conformance suite fail -----------------------------------------
@attrs.frozen
class Planted(Checkers):
    """Checkers whose kernels are ``support.broken_draughts_kernels`` with bug ``bug``."""

    bug: int = 0

    def kernels(self) -> GameKernels | None:
        real = Checkers.kernels(self)
        assert real is not None
        params = np.append(real.params, np.int64(self.bug))
        return attrs.evolve(real, module="support.broken_draughts_kernels", params=params)


def test_check_game_runs_the_kernel_check() -> None:
    registry = get_registry()
    game = Checkers()
    encodings = [registry.encoding(game, e.name) for e in registry.encodings_for("checkers")]
    report = check_game(game, encodings, playouts=2, seed=3)
    assert KERNEL_CHECK in report.checks
    assert check_game(Planted(bug=0), [], playouts=1).positions > 10  # the copy itself is sound


@pytest.mark.parametrize(("bug", "message"), [(1, "child 0 differs"), (2, "encoding 'material'")])
def test_a_planted_difference_fails_check_game(bug: int, message: str) -> None:
    game = Planted(bug=bug)
    material = get_registry().encoding(game, "material")
    with pytest.raises(ConformanceError, match=message):
        check_game(game, [material], playouts=2, seed=0)


# --- imports and the JIT switched off -----------------------------------------------------------
def test_numba_stays_out_of_commands_that_do_not_search() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from mindgames.cli.main import cli\n"
        "import mindgames.games.draughts.rules, mindgames.games.draughts.plugin\n"
        "from mindgames.games.draughts.rules import Checkers\n"
        "assert Checkers().kernels() is not None\n"
        "for args in (['plugins'], ['describe', 'checkers']):\n"
        "    r = CliRunner().invoke(cli, args)\n"
        "    assert r.exit_code == 0, r.output\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


_NO_JIT = """
import json, warnings
import numpy as np
from mindgames.games.draughts.rules import Checkers
from mindgames.registry import get_registry
import mindgames.games.draughts.kernels as m
warnings.simplefilter("ignore")  # the key's multiplications wrap, as in int64
game = Checkers()
k = game.kernels()
registry = get_registry()
out = np.zeros((k.max_children, k.width), np.int64)
moves = np.zeros(k.max_children, np.int64)
state = game.parse_position("B:W18,19,23,K26:B10,14,15,K27")
found = {"perft": [int(m.perft(k.params, k.to_row(game.initial_state()), d)) for d in (1, 2, 3)]}
rows = []
for _ in range(6):
    row = k.to_row(state)
    n = m.children(k.params, row, out, moves)
    assert [k.from_row(out[i]) for i in range(n)] == [c for _, c in game.children(state)]
    values = []
    for name, code in k.encodings.items():
        enc = registry.encoding(game, name)
        got = np.zeros(enc.width)
        m.encode(k.params, code, np.zeros(0), row, got)
        assert np.allclose(got, enc.encode(state), rtol=0, atol=1e-12), name
        values.append(got.tolist())
    rows.append([int(m.key(k.params, row)), int(m.move_count(k.params, row)), values])
    state = game.children(state)[-1][1]
found["rows"] = rows
print(json.dumps(found))
"""


def test_the_kernels_run_as_python_with_the_jit_disabled() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _NO_JIT], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["perft"] == [7, 49, 302]
    # the same numbers compiled
    import warnings

    from mindgames.games.draughts import kernels as m

    game = Checkers()
    k = game.kernels()
    assert k is not None
    state = game.parse_position("B:W18,19,23,K26:B10,14,15,K27")
    registry = get_registry()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, count, values in found["rows"]:
            row = k.to_row(state)
            assert int(m.key(k.params, row)) == key and m.move_count(k.params, row) == count
            for (name, code), want in zip(k.encodings.items(), values, strict=True):
                got = np.zeros(registry.encoding(game, name).width)
                m.encode(k.params, code, NO_OPTIONS, row, got)
                assert got.tolist() == want
            state = game.children(state)[-1][1]
