"""Kalah states as rows (games/kalah/rows.py): the successors of many rows at once equal
``children`` state by state, and the ``kalah14`` encoding of the rows equals its batch."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.game import StateRows
from mindgames.games.kalah.encodings import Kalah14Options, kalah14
from mindgames.games.kalah.rules import Kalah


def positions(game: Kalah, rng: np.random.Generator, count: int) -> list:
    """Positions of seeded random games at random plies, finished ones included."""
    out = []
    for _ in range(count):
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 80))):
            kids = game.children(state)
            if not kids:
                break
            state = kids[int(rng.integers(len(kids)))][1]
        out.append(state)
    return out


@settings(max_examples=40)
@given(st.integers(1, 7), st.integers(1, 6), st.booleans(), st.integers(0, 2**32 - 1))
def test_row_children_equal_children_state_by_state(pits, seeds, empty_capture, seed):
    game = Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture)
    assert isinstance(game, StateRows)
    states = positions(game, np.random.default_rng(seed), 12)
    rows = game.state_rows(states)
    assert [game.row_state(row) for row in rows] == states
    assert game.rows_over(rows).tolist() == [game.is_terminal(s) for s in states]
    assert game.row_sides(rows).tolist() == [game.to_move(s) for s in states]
    live = [s for s in states if not game.is_terminal(s)]
    kids, legal, over, passes = game.row_children(game.state_rows(live))
    assert kids.shape[:2] == legal.shape == over.shape == passes.shape == (len(live), pits)
    for r, state in enumerate(live):
        want = game.children(state)
        slots = np.flatnonzero(legal[r])
        assert [j + 1 for j in slots] == [move for move, _ in want]  # slot j is pit j + 1
        assert [game.row_state(kids[r, j]) for j in slots] == [child for _, child in want]
        assert over[r, slots].tolist() == [game.is_terminal(c) for _, c in want]
        assert passes[r, slots].astype(bool).tolist() == [c[1] != state[1] for _, c in want]
        # a child's row is the row of its state (the turn count's parity is the side)
        again = game.state_rows([child for _, child in want])
        made = kids[r, slots].copy()
        made[:, game.t.fields] &= 1
        assert (made == again).all()


def test_kalah14_of_rows_equals_its_batch():
    game = Kalah(pits=6, seeds=4)
    states = positions(game, np.random.default_rng(3), 30)
    encoding = kalah14(game, Kalah14Options(scale=2.0))
    assert encoding.encode_rows is not None
    assert np.array_equal(
        encoding.encode_rows(game.state_rows(states)), encoding.encode_batch(states)
    )


def test_the_conformance_suite_catches_wrong_row_successors():
    import attrs
    import pytest

    from mindgames.conformance import check_game
    from mindgames.errors import ConformanceError

    @attrs.frozen
    class Misrowed(Kalah):
        def row_children(self, rows):
            kids, legal, over, passes = super().row_children(rows)
            kids[:, :, 0] += legal  # a seed from nowhere in every successor's first pit
            return kids, legal, over, passes

    assert check_game(Kalah(pits=3, seeds=2), [], playouts=2).positions > 5
    with pytest.raises(ConformanceError, match="row successors differ from children"):
        check_game(Misrowed(pits=3, seeds=2), [], playouts=2)
