"""The compiled TD self-play (plugins/learners/td/compiled.py) against the Python path, its
oracle: every TD example config, shortened, trains to the same games (history rows) and the same
weights and velocity, up to the rounding of the sums (the compiled kernels sum left to right,
numpy's BLAS in blocks, and tanh is libm's there and numpy's here: about 1e-16 a step).

Equal successors must get equal values on both paths, or the first-best choice among them is
rounding noise: the linear model sums its products left to right on both (its batch product was
a BLAS ``xs @ w``, which rounds equal rows differently by their place in the batch, and give-away
games parted at the first such tie).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.plugins.learners.td import compiled as compiled_td
from mindgames.registry import get_registry
from mindgames.training import run

from support.examples import EXAMPLES, shrunk
from support.history import untimed

#: every TD example, shortened: (config, learner options replaced)
CASES: list[tuple[str, dict[str, Any]]] = [
    ("kalah-td.toml", {"games": 12, "batch": 4, "checkpoint_every": 8}),
    ("kalah-td-strong.toml", {"games": 12, "batch": 4, "checkpoint_every": 8}),
    ("kalah-td-strong-ll-time.toml", {"games": 8, "batch": 4, "checkpoint_every": 4}),
    ("kalah-td-whole.toml", {"games": 12, "batch": 4, "checkpoint_every": 8}),
    ("giveaway-td.toml", {"games": 6, "batch": 3, "checkpoint_every": 3}),
    (
        "checkers-neurodraughts.toml",
        {"games": 4, "batch": 2, "checkpoint_every": 2, "gate_games": 2, "max_plies": 60},
    ),
    (
        "checkers-neurodraughts-ll-time.toml",
        {"games": 2, "batch": 2, "checkpoint_every": 2, "gate_games": 2, "max_plies": 40},
    ),
]
#: lockstep examples stay on the Python path (docs/learners.md)
LOCKSTEP = ["kalah-td-long.toml", "kalah-td-long-ll-time.toml"]


def _train(name: str, options: dict[str, Any], out: Path) -> tuple[np.ndarray, list[dict]]:
    """Train the shortened example into ``out``: the model's, the learning net's and the
    velocity's numbers one after another, and the history without timings."""
    config, _ = shrunk(name, out.parent, **options)
    done = run(config, out=out)
    with np.load(out / "checkpoint.npz", allow_pickle=False) as saved:
        numbers = np.concatenate(
            [done.result.evaluator.model.get_params(), saved["params"], saved["velocity"]]
        )
    return numbers, untimed(list(done.result.history))


@pytest.mark.parametrize("name, options", CASES, ids=[c[0] for c in CASES])
def test_an_example_trains_compiled_to_the_python_paths_games_and_weights(
    name, options, tmp_path, monkeypatch
):
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")
    (tmp_path / "python").mkdir()
    oracle, oracle_rows = _train(name, options, tmp_path / "python" / "run")
    monkeypatch.delenv("MINDGAMES_PYTHON_PATH")
    calls = []
    played = compiled_td.play_batch

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0].searcher is None)
        return played(*args, **kwargs)

    monkeypatch.setattr(compiled_td, "play_batch", counted)
    (tmp_path / "compiled").mkdir()
    numbers, rows = _train(name, options, tmp_path / "compiled" / "run")
    assert calls and all(calls)  # whole games compiled (depth-2 look-ahead inside them)
    assert rows == oracle_rows
    np.testing.assert_allclose(numbers, oracle, rtol=0, atol=1e-12)
    third = len(numbers) // 3  # the learning net's weights (the model may be the gate's best)
    assert not np.array_equal(numbers[third : 2 * third], _initial(name))  # it learned


@pytest.mark.parametrize("name", LOCKSTEP)
def test_a_lockstep_example_keeps_the_python_path(name):
    learner = _learner(name)
    assert learner["lockstep"] > 1
    registry = get_registry()
    raw = _config(name)
    game = registry.game(raw["game"])
    evaluator = build_evaluator(registry, game, raw["eval"], seed=1)
    options = {k: v for k, v in learner.items() if k != "name"}
    td = registry.learner("td", options, where="test")
    assert compiled_td.plan(td, game, evaluator, None) is None


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_a_lookahead_learns_the_same_compiled(depth, tmp_path, monkeypatch):
    """Kalah's extra turns (a child's value not negated) under the look-ahead searched inside
    the compiled games (depth 1 and 2) and the one called from Python a move (depth 3)."""
    registry = get_registry()
    game = registry.game("kalah:pits=4,seeds=3")
    spec = {"model": "mlp", "encoding": "kalah14", "hidden": [6], "activation": "sigmoid"}
    options = {"games": 4, "batch": 2, "checkpoint_every": 0, "alpha": 0.1, "epsilon": 0.1,
               "lookahead": f"alphabeta:depth={depth}", "momentum": 0.5}  # fmt: skip
    found = []
    for forced in ("1", ""):
        monkeypatch.setenv("MINDGAMES_PYTHON_PATH", forced)
        evaluator = build_evaluator(registry, game, spec, seed=4)
        td = registry.learner("td", options, where="test")
        if not forced:
            plan = compiled_td.plan(td, game, evaluator, td._searcher())
            assert plan is not None and plan.depth == (depth if depth < 3 else 0)
        out = td.train(game, evaluator, np.random.default_rng(2), workdir=tmp_path / forced)
        found.append((evaluator.model.get_params(), untimed(list(out.history))))
    (oracle, oracle_rows), (params, rows) = found
    assert rows == oracle_rows
    np.testing.assert_allclose(params, oracle, rtol=0, atol=1e-12)


def test_a_masked_mlp_with_the_input_sum_learns_the_same_compiled(tmp_path, monkeypatch):
    """The first layer's mask (its weights left out of ``get_params``) and ``input_sum``."""
    registry = get_registry()
    game = registry.game("kalah:pits=4,seeds=3")
    groups = [["my_pit1", "my_pit2", "their_pit1"], ["my_pit3", "my_store", "their_store"]]
    spec = {"model": "mlp", "encoding": "kalah14", "hidden": [2, 3], "input_sum": True,
            "groups": groups}  # fmt: skip
    options = {"games": 6, "batch": 3, "checkpoint_every": 0, "alpha": 0.05, "momentum": 0.3,
               "lam_end": 0.2, "alpha_end_scale": 0.5, "epsilon": 0.2, "gamma": 0.95}  # fmt: skip
    found = []
    for forced in ("1", ""):
        monkeypatch.setenv("MINDGAMES_PYTHON_PATH", forced)
        evaluator = build_evaluator(registry, game, spec, seed=4)
        td = registry.learner("td", options, where="test")
        assert (compiled_td.plan(td, game, evaluator, None) is None) == bool(forced)
        out = td.train(game, evaluator, np.random.default_rng(2), workdir=tmp_path / forced)
        found.append((evaluator.model.get_params(), untimed(list(out.history))))
    (oracle, oracle_rows), (params, rows) = found
    assert rows == oracle_rows
    np.testing.assert_allclose(params, oracle, rtol=0, atol=1e-12)


def _config(name: str) -> dict[str, Any]:
    with (EXAMPLES / name).open("rb") as fh:
        return tomllib.load(fh)


def _learner(name: str) -> dict[str, Any]:
    return dict(_config(name)["learner"])


def _initial(name: str) -> np.ndarray:
    registry = get_registry()
    raw = _config(name)
    game = registry.game(raw["game"])
    return build_evaluator(registry, game, raw["eval"], seed=raw["seed"]).model.get_params()
