"""TD self-play (serial and lockstep) plays the games and learns the weights recorded from the code
before the speed work (issue 22): the algorithm is unchanged, only its cost (lockstep's weights
up to rounding).

The fixture ``data/recorded_td.json`` was written by the code at commit 2c30694 with::

    /work/wt/baseline/.venv/bin/python tests/plugins/test_recorded_td.py --record

(any checkout's interpreter records its own code's games; run it again only when a change of
the algorithm is meant to change them, and say so in the commit).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

FIXTURE = Path(__file__).parent / "data" / "recorded_td.json"
KALAH_MLP = {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"}
CHECKERS_MLP = {"model": "mlp", "encoding": "raw32", "hidden": [10]}

#: (game spec, evaluator, learner options): serial self-play on 1 ply, one game a batch
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("kalah:pits=6,seeds=4", KALAH_MLP, {"games": 40, "lam": 0.8, "alpha": 0.1}),
    (
        "kalah:pits=6,seeds=4",
        KALAH_MLP,
        {"games": 20, "lam": 0.7, "explore": "softmax", "temperature": 0.2, "momentum": 0.5},
    ),
    ("kalah:pits=4,seeds=3", {**KALAH_MLP, "activation": "tanh"}, {"games": 20, "gamma": 0.9}),
    ("giveaway", CHECKERS_MLP, {"games": 3, "lam": 0.6}),
    ("checkers", CHECKERS_MLP, {"games": 1, "lam": 0.6, "epsilon": 0.2}),
    ("kalah:pits=6,seeds=4", KALAH_MLP, {"games": 40, "alpha": 0.025, "lockstep": 16, "batch": 40}),
    ("kalah:pits=4,seeds=3", KALAH_MLP, {"games": 30, "alpha": 0.05, "lockstep": 8, "batch": 10}),
]


def run_cases() -> list[dict[str, Any]]:
    """Every case trained by the installed code: each game's plies and the final weights (the
    games end before ``max_plies``: the code recorded had no ``cutoff`` option)."""
    from mindgames.agent import build_evaluator
    from mindgames.registry import get_registry

    registry = get_registry()
    records = []
    for spec, evaluation, options in CASES:
        game = registry.game(spec)
        evaluator = build_evaluator(registry, game, evaluation, seed=3)
        # the step sizes of the code recorded: 1/fan-in per group, fixed (since issue 39 an
        # unset alpha is scaled to the inputs, and the step sizes decay to a tenth)
        groups = evaluator.model.param_groups()  # type: ignore[attr-defined]
        fixed = {"alpha": [1.0 / g[2] for g in groups], "alpha_end_scale": 1.0}
        learner = registry.learner(
            "td", {"batch": 1, **fixed, **options, "checkpoint_every": 0}, where="recorded td"
        )
        with tempfile.TemporaryDirectory() as workdir:
            result = learner.train(game, evaluator, np.random.default_rng(7), workdir=Path(workdir))
        params = evaluator.model.get_params()  # type: ignore[attr-defined]
        records.append(
            {
                "game": spec,
                "evaluator": evaluation,
                "options": options,
                "plies": [row["mean_plies"] for row in result.history],
                "params": [float(p) for p in params],
            }
        )
    return records


def test_td_games_equal_the_recorded_ones():
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    found = run_cases()
    assert len(found) == len(recorded)
    for now, then in zip(found, recorded, strict=True):
        where = (now["game"], now["options"])
        assert now["plies"] == then["plies"], where
        # serial games: the same bits; lockstep: the same up to rounding (its chosen successors'
        # gradients come from the forward pass of all the successors, and a matrix product of
        # another number of rows may round a row's last bit otherwise)
        close = 1e-12 if now["options"].get("lockstep", 1) == 1 else 1e-9
        np.testing.assert_allclose(
            now["params"], then["params"], rtol=0, atol=close, err_msg=str(where)
        )


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(run_cases(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
