"""The compiled alpha-beta on the built-in games equals the Python one (the oracle): the same
move, value, principal variation, nodes, leaves and depth on positions of seeded random games,
for option sets that exercise each game's kernels (extensions, draws, extra turns, encodings)."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_agent
from mindgames.registry import get_registry

MLP = {"model": "mlp", "encoding": "raw32", "hidden": [6], "seed": 2}
#: a hand-written phased model: a negated conjunction, a disjunction, an else; open bounds
PHASED = {
    "model": "phased",
    "encoding": "kalah14",
    "output": "none",
    "seed": 3,
    "components": [
        {"columns": ["my_store", "my_pit1"], "op": "and", "negate": True,
         "when": [{"column": "my_store", "hi": 10}, {"column": "my_pit2", "lo": 1.5}]},
        {"columns": ["their_store"], "op": "or",
         "when": [{"column": "their_pit1", "lo": 4}, {"column": "their_pit3", "hi": 0}]},
        {"columns": ["my_pit4", "their_pit4", "my_store"]},
    ],
}  # fmt: skip
CASES = [
    ("checkers", "alphabeta:depth=4,eval=material"),
    ("checkers", "alphabeta:depth=3,eval=material,extend_forced=true,extend_captures=true"),
    ("checkers", {"searcher": "alphabeta", "depth": 3, "eval": MLP}),
    ("checkers", "endgame:depth=5"),
    ("giveaway", "alphabeta:depth=4,eval=material,random_ties=true"),
    ("kalah", "alphabeta:depth=5,eval=material"),
    ("kalah:empty_capture=true", "alphabeta:depth=4,eval=material,batch=true"),
    (
        "kalah",
        {
            "searcher": "alphabeta",
            "depth": 3,
            "eval": {"model": "linear", "encoding": "kalah-features", "seed": 1},
        },
    ),
    ("kalah", "greedy:eval=material,random_ties=true"),
    (
        "giveaway",
        {
            "searcher": "alphabeta",
            "depth": 3,
            "nodes": 150,
            "eval": {"model": "phased", "encoding": "gac11", "preset": "3Ph", "seed": 1},
        },
    ),
    (
        "giveaway",
        {
            "searcher": "alphabeta",
            "depth": 3,
            "eval": {
                "model": "phased",
                "encoding": "gac11",
                "preset": "5Ph",
                "output": "tanh",
                "scale": 0.5,
                "seed": 2,
            },
        },
    ),
    ("kalah", {"searcher": "alphabeta", "depth": 3, "eval": PHASED}),
]


def positions(game, seed: int, count: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(out) < count:
            if rng.random() < 0.3:
                out.append(state)
            moves = game.legal_moves(state)
            state = game.play(state, moves[int(rng.integers(len(moves)))])
    return out


@pytest.mark.parametrize(("game_spec", "agent_spec"), CASES)
def test_compiled_equals_python_on_the_built_in_games(game_spec, agent_spec, monkeypatch):
    registry = get_registry()
    game = registry.game(game_spec)
    agent = build_agent(registry, game, agent_spec)
    for i, state in enumerate(positions(game, 5, 12)):
        found = []
        for force in ("1", "0"):
            monkeypatch.setenv("MINDGAMES_PYTHON_PATH", force)
            rng = np.random.default_rng(i)
            found.append(agent.searcher.search(game, state, agent.evaluator, rng))
        python, compiled = found
        where = game.position_text(state)
        assert (compiled.move, compiled.pv) == (python.move, python.pv), where
        assert compiled.value == pytest.approx(python.value, abs=1e-12), where
        assert (compiled.stats.nodes, compiled.stats.leaves, compiled.stats.depth) == (
            python.stats.nodes,
            python.stats.leaves,
            python.stats.depth,
        ), where
        assert (python.stats.path, compiled.stats.path) == ("python", "compiled")
