"""``mindgames.compiled.warmup``: every step of a family runs (each checks its own search took the
compiled path, or its perft count), and an unknown family is refused in one line."""

from __future__ import annotations

import pytest

from mindgames.compiled.warmup import run


def test_the_kalah_family_runs_every_step_compiled():
    out = run(["kalah"])
    names = ["kalah alphabeta material", "kalah endgame", "kalah perft", "kalah td mlp"]
    assert list(out) == [*names, "total"]


def test_an_unknown_family_is_refused():
    with pytest.raises(SystemExit, match="unknown family 'chess' \\(known: draughts, kalah\\)"):
        run(["chess"])
