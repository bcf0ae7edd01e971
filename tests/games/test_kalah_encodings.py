"""Kalah encodings: widths, hand-checked values, and the side-to-move view."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.errors import ConfigError
from mindgames.games.kalah.rules import Kalah
from mindgames.registry import get_registry


def encoding(game: Kalah, spec: str):
    return get_registry().encoding(game, spec)


@pytest.mark.parametrize(
    "spec,width,width3",
    [
        ("kalah14", 14, 8),
        ("kalah14:scale=2", 14, 8),
        ("kalah-features", 28, 16),
        ("kalah-counts", 12 * 14, 6 * 8),
        ("kalah-counts:levels=5", 12 * 5, 6 * 5),
        ("kalah-moves", 4 * 6 + 2, 4 * 3 + 2),
        ("material", 1, 1),
    ],
)
def test_widths_and_batches(spec, width, width3):
    game = Kalah()
    enc = encoding(game, spec)
    assert enc.width == width == len(set(enc.columns))
    states = [game.initial_state(), game.play(game.initial_state(), 1)]
    batch = enc.encode_batch(states)
    assert batch.shape == (2, width) and np.array_equal(batch[1], enc.encode(states[1]))
    assert encoding(Kalah(pits=3), spec).width == width3


def test_kalah14_is_from_the_movers_side_and_scales():
    game = Kalah(pits=3, seeds=2)
    state = game.parse_position("1,0,3;2;0,4,1;1;N")
    x = encoding(game, "kalah14").encode(state)
    assert list(x * 12) == [0, 4, 1, 1, 1, 0, 3, 2]  # North's pits and store first
    assert np.allclose(encoding(game, "kalah14:scale=2").encode(state), 2 * x)
    assert list(encoding(game, "material").encode(state)) == [-1.0]


def test_features_by_hand():
    game = Kalah(pits=3, seeds=2)
    # South to move: pits 1,0,3 store 2; North pits 0,4,1 store 1 (12 seeds in all).
    state = game.parse_position("1,0,3;2;0,4,1;1;S")
    enc = encoding(game, "kalah-features")
    x = dict(zip(enc.columns, enc.encode(state), strict=True))
    assert x["store_diff"] == pytest.approx(1 / 12)
    # S1 (1 seed) faces N3 (1 seed), S3 (3 seeds) faces N1 (empty): S3 is vulnerable
    assert [x[f"my_vulnerable{i}"] for i in (1, 2, 3)] == [0, 0, 1]
    # North's pit 1 is empty and faces S3; N2 faces the empty S2: N2 is vulnerable
    assert [x[f"their_vulnerable{i}"] for i in (1, 2, 3)] == [0, 1, 0]
    # S1 sows into the empty S2, capturing N2 (4 seeds): North's pit 2 is attackable now
    assert [x[f"their_attackable{i}"] for i in (1, 2, 3)] == [0, 1, 0]
    # North to move could play N3 (1 seed) into its store; N1 is empty: nothing of mine falls
    assert [x[f"my_attackable{i}"] for i in (1, 2, 3)] == [0, 0, 0]
    assert x["seed_diff"] == pytest.approx((2 + 4 - 1 - 5) / 12)
    assert (x["my_seeds_left"], x["their_seeds_left"]) == pytest.approx((4 / 12, 5 / 12))


def test_counts_by_hand():
    game = Kalah(pits=3, seeds=2)
    state = game.parse_position("1,0,3;2;0,4,1;1;S")
    x = dict(
        zip(*(lambda e: (e.columns, e.encode(state)))(encoding(game, "kalah-counts")), strict=True)
    )
    hot = {name for name, value in x.items() if value == 1.0}
    assert hot == {
        "my_pit1=1",
        "my_pit2=0",
        "my_pit3=3",
        "their_pit1=0",
        "their_pit2=4",
        "their_pit3=1",
    }
    enc = encoding(game, "kalah-counts:levels=3")  # 0, 1, then "2 or more"
    x = dict(zip(enc.columns, enc.encode(state), strict=True))
    assert x["my_pit3>=2"] == x["their_pit2>=2"] == x["their_pit3=1"] == 1.0
    assert sum(enc.encode(state)) == 6  # one level a pit
    with pytest.raises(ConfigError, match="'levels' must be >= 2: 1"):
        encoding(game, "kalah-counts:levels=1")


def test_moves_by_hand():
    game = Kalah(pits=3, seeds=2)
    state = game.parse_position("1,0,3;2;0,4,1;1;S")
    enc = encoding(game, "kalah-moves")
    x = {k: v * 4 for k, v in zip(enc.columns, enc.encode(state), strict=True)}  # gains / 2n
    # S1 (1 seed) ends in the empty S2 and captures it with N2's 4 seeds: 5 into my store;
    # S3 (3 seeds) passes my store once and ends in N2
    assert [x[f"my_gain{i}"] for i in (1, 2, 3)] == [5, 0, 1]
    assert [x[f"my_extra{i}"] for i in (1, 2, 3)] == [0, 0, 0]
    # were North to move: N2 (4 seeds) passes its store, N3 (1 seed) ends there (extra turn)
    assert [x[f"their_gain{i}"] for i in (1, 2, 3)] == [0, 1, 1]
    assert [x[f"their_extra{i}"] / 4 for i in (1, 2, 3)] == [0, 0, 1]
    assert (x["my_best_gain"], x["their_best_gain"]) == (5, 1)
    # S1 ends in the empty S2 facing the empty N2: a capture of its own seed only with the
    # empty-capture rule
    bare = "1,0,2;0;1,0,2;0;S"
    for rules, gain in ((game, 0), (Kalah(pits=3, seeds=2, empty_capture=True), 1)):
        y = dict(
            zip(
                enc.columns,
                encoding(rules, "kalah-moves").encode(rules.parse_position(bare)),
                strict=True,
            )
        )
        assert y["my_gain1"] * 4 == gain


def mirrored(game: Kalah, state):
    """The same position with the sides' roles swapped (South's fields become North's)."""
    m = game.pits
    f = game.t.unpack(state[0])
    return (game.t.pack(f[m + 1 :] + f[: m + 1]), 1 - state[1], state[2])


@settings(max_examples=60)
@given(st.integers(1, 5), st.integers(1, 4), st.booleans(), st.integers(0, 2**32 - 1))
def test_every_encoding_sees_the_board_from_the_movers_side(pits, seeds, empty_capture, seed):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(int(rng.integers(0, 30))):
        if game.is_terminal(state):
            break
        moves = game.legal_moves(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    twin = mirrored(game, state)
    for info in get_registry().encodings_for("kalah"):
        enc = encoding(game, info.name)
        a, b = enc.encode(state), enc.encode(twin)
        assert a.shape == (enc.width,) and np.all(np.isfinite(a))
        assert np.array_equal(a, b), info.name


@settings(max_examples=25)
@given(st.integers(1, 16), st.integers(1, 32), st.integers(0, 2**32 - 1), st.integers(1, 40))
def test_fields_batch_equals_fields_from_mover_both_ways(pits, seeds, seed, count):
    """Few states take the Python path, many the numpy unpacking: both give the fields."""
    game = Kalah(pits=pits, seeds=seeds)
    rng = np.random.default_rng(seed)
    states, state = [], game.initial_state()
    while len(states) < count:
        states.append(state)
        kids = game.children(state)
        state = game.initial_state() if not kids else kids[int(rng.integers(len(kids)))][1]
    expected = np.array([game.fields_from_mover(s) for s in states])
    for part in (states[:3], states):
        assert np.array_equal(game.fields_batch(part), expected[: len(part)])
    x = encoding(game, "kalah14").encode_batch(states)
    assert np.array_equal(x, np.array([encoding(game, "kalah14").encode(s) for s in states]))
