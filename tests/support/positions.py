"""Seeded random positions of any game: the evaluator tests' and the example tests' inputs."""

from __future__ import annotations

import numpy as np


def random_positions(game, n: int, seed: int, max_plies: int = 80) -> list:
    """``n`` non-terminal positions from seeded random playouts (varied lengths)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        state = game.initial_state()
        for _ in range(int(rng.integers(0, max_plies))):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, moves[int(rng.integers(len(moves)))])
        if not game.is_terminal(state):
            out.append(state)
    return out
