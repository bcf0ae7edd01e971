"""``mindgames.compiled.warmup``: every step of a part runs (each checks its own search took the
compiled path, or its perft count), and an unknown family is refused in one line."""

from __future__ import annotations

import pytest

from mindgames.compiled.warmup import run


def test_the_learning_part_runs_every_step_compiled():
    out = run(["learning"])
    assert list(out) == ["giveaway td linear gac11", "kalah td mlp", "total"]


def test_an_unknown_part_is_refused():
    with pytest.raises(SystemExit, match="unknown part 'chess' \\(known: search, learning\\)"):
        run(["chess"])
