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


def solved_positions(folder, spec: str, plies: tuple[int, int], count: int, scale: float):
    """``count`` positions of game ``spec`` from seeded random playouts at ``plies``, labelled
    exactly (linear squash by ``scale``): ``folder/solved.npz``, a supervised learner's data."""
    from mindgames.data.labelling import Labeller, run_labelling
    from mindgames.data.playouts import generate
    from mindgames.data.sets import write_dataset
    from mindgames.executors import SerialExecutor
    from mindgames.registry import get_registry

    game = get_registry().game(spec)
    data = generate(game, plies[0], plies[1], count, np.random.default_rng(3))
    write_dataset(folder / "raw.npz", data)
    labeller = Labeller("solve", game.spec(), squash="linear", scale=scale)
    run_labelling(data, labeller, folder / "solved.npz", SerialExecutor())
    return folder / "solved.npz"
