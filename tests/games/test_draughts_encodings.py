"""Draughts encodings: widths, values at the start, and the side-to-move symmetry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.games.draughts import engine
from mindgames.games.draughts.encodings import SAMUEL, samuel_values, side_features
from mindgames.games.draughts.rules import Checkers
from mindgames.registry import get_registry

WIDTHS = {
    "raw32": 32,
    "raw32:piece_sum=true": 33,
    "binary3": 96,
    "binary4": 128,
    "binary4k": 128,
    "binary5": 160,
    "gac11": 33,
    "ll-features": 40,
    "samuel": 37,
    "material": 2,
}


def rotate(mask: int) -> int:
    """The mask with every square s moved to 33 - s (the board turned round)."""
    return sum(engine.SQ[33 - s] for s in range(1, 33) if mask & engine.SQ[s])


@pytest.mark.parametrize("game_name", ["checkers", "giveaway"])
@pytest.mark.parametrize("spec", sorted(WIDTHS))
def test_widths_and_batches(registry, game_name, spec):
    game = registry.game(game_name)
    enc = registry.encoding(game, spec)
    assert enc.width == WIDTHS[spec] == len(set(enc.columns))
    states = [game.initial_state(), game.play_text(game.initial_state(), "11-15")]
    batch = enc.encode_batch(states)
    assert batch.shape == (2, enc.width)
    assert np.array_equal(batch[1], enc.encode(states[1]))
    assert enc.encode_batch([]).shape == (0, enc.width)


def test_values_at_the_start(registry):
    game = registry.game("checkers")
    start = game.initial_state()
    raw = registry.encoding(game, "raw32:king=3,piece_sum=true").encode(start)
    assert list(raw[:12]) == [1] * 12 and list(raw[20:32]) == [-1] * 12 and raw[32] == 0
    assert list(registry.encoding(game, "material").columns) == ["men_diff", "kings_diff"]
    assert list(registry.encoding(game, "material").encode(start)) == [0, 0]
    b, w, k, _ = engine.START
    assert side_features(b, w, k, 0) == (12, 0, 12, 6, 0, 6, 4, 0, 4, 72, 0)
    after = game.play_text(start, "11-15")  # White to move: White is "mine"
    enc = registry.encoding(game, "binary5")
    x = enc.encode(after).reshape(32, 5)  # my king, my man, empty, their man, their king
    assert x[:12, 1].sum() == 12 and x[20:, 3].sum() == 11 and x[:, 2].sum() == 8


def test_kings_and_material():
    game = Checkers()
    state = game.parse_position("W:WK1,K2,9:B5,K30")
    reg = get_registry()
    assert list(reg.encoding(game, "material").encode(state)) == [0, 1]
    raw = reg.encoding(game, "raw32").encode(state)
    assert sorted(raw[raw != 0]) == [-2, -1, 1, 2, 2]
    values = dict(zip([n for n, _ in SAMUEL], samuel_values(state), strict=True))
    assert values["piece_advantage"] == 1 and values["piece_disadvantage"] == 0


@settings(max_examples=60)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_encodings_see_the_board_from_the_movers_side(x, y, z):
    """A position and its colour-reversed, turned-round twin encode identically."""
    sq = engine.SQ
    b = sum(sq[s + 1] for s in range(32) if x >> s & 1 and not y >> s & 1)
    w = sum(sq[s + 1] for s in range(32) if y >> s & 1 and not x >> s & 1)
    k = (b | w) & (
        sum(sq[s + 1] for s in range(32) if z >> s & 1) | engine.PROMO[0] | engine.PROMO[1]
    )
    registry = get_registry()
    game = registry.game("checkers")
    one = game.make_state(b, w, k, 0)
    twin = game.make_state(rotate(w), rotate(b), rotate(k), 1)
    for info in registry.encodings_for("checkers"):
        enc = registry.encoding(game, info.name)
        assert np.array_equal(enc.encode(one), enc.encode(twin)), info.name


def test_gac11_features_by_hand():
    game = Checkers()
    state = game.parse_position("B:WK1,28:B5,K10,17")
    b, w, k, _ = state[0], state[1], state[2], state[3]
    # Black: men 5 (edge, row 1) and 17 (row 4), king 10; every piece can step; 29-32 empty
    assert side_features(b, w, k, 0) == (2, 1, 3, 1, 0, 1, 2, 1, 3, 6 + 3, 4)
    # White: man 28 (edge, row 6), king 1 (edge, can step to 6 only); 1 of 1-4 taken
    assert side_features(b, w, k, 1) == (1, 1, 2, 1, 1, 2, 1, 1, 2, 6, 3)
    x = get_registry().encoding(game, "gac11").encode(state).reshape(11, 3)
    assert list(x[:, 2]) == [1, 0, 1, 0, -1, -1, 1, 0, 1, 3, 1]  # mine - theirs, Black to move
    ll = get_registry().encoding(game, "ll-features").encode(state)
    assert list(ll[32:]) == [1, 0, 0, -1, 1, 0, 3, 1]
