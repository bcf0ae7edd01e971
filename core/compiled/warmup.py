"""Compile (or load from the cache) every built-in kernel set the examples use, step by step.

``python -m mindgames.compiled.warmup [draughts] [kalah]`` runs the steps of the named families
(both by default) and prints each step's CPU seconds as JSON. benchmarks/bench_cold_compile.py
runs it with empty caches to measure the cold compile; the test suite runs one family per
process before its workers start (tests/conftest.py), so that two workers never compile the same
kernels at once. Every step checks that its search ran compiled, or its perft count.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.agent import build_agent, build_evaluator
from mindgames.compiletuning import run_tuned
from mindgames.kernels import kernels_of
from mindgames.registry import Registry, get_registry

MLP_RAW32 = {"model": "mlp", "encoding": "raw32", "hidden": [10], "seed": 1}
MLP_KALAH14 = {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"}


def _search(registry: Registry, game_spec: str, agent_spec: Any) -> None:
    game = registry.game(game_spec)
    agent = build_agent(registry, game, agent_spec)
    result = agent.searcher.search(
        game, game.initial_state(), agent.evaluator, np.random.default_rng(1)
    )
    if result.stats.path != "compiled":
        raise RuntimeError(
            f"{game_spec} {agent_spec}: the search took the {result.stats.path} path"
        )


def _perft(registry: Registry, game_spec: str) -> None:
    game = registry.game(game_spec)
    k = kernels_of(game)
    assert k is not None, game_spec
    module: Any = importlib.import_module(k.module)
    row = np.ascontiguousarray(k.to_row(game.initial_state()), dtype=np.int64)
    if module.perft(k.params, row, 3) != game.perft(game.initial_state(), 3):
        raise RuntimeError(f"{game_spec}: the kernels' perft differs from the rules'")


def _td(registry: Registry, game_spec: str, spec: Any, options: dict[str, Any]) -> None:
    game = registry.game(game_spec)
    evaluator = build_evaluator(registry, game, spec, seed=1)
    options = {**options, "games": 2, "batch": 2, "checkpoint_every": 0}
    learner = registry.learner("td", options, where="warm-up")
    with tempfile.TemporaryDirectory() as workdir:
        learner.train(game, evaluator, np.random.default_rng(1), workdir=Path(workdir))


MATERIAL = "alphabeta:depth=2,eval=material"
GAC11 = {"model": "linear", "encoding": "gac11"}


def steps(registry: Registry) -> dict[str, list[tuple[str, Callable[[], None]]]]:
    """Each family's steps: a name and what it runs."""
    r = registry
    mlp = {"searcher": "alphabeta", "depth": 2, "eval": MLP_RAW32}
    return {
        "draughts": [
            ("checkers alphabeta material", lambda: _search(r, "checkers", MATERIAL)),
            ("checkers alphabeta mlp raw32", lambda: _search(r, "checkers", mlp)),
            ("giveaway alphabeta material", lambda: _search(r, "giveaway", MATERIAL)),
            ("checkers greedy material", lambda: _search(r, "checkers", "greedy:eval=material")),
            ("checkers perft", lambda: _perft(r, "checkers")),
            ("giveaway td linear gac11", lambda: _td(r, "giveaway", GAC11, {"alpha": 0.0002})),
        ],
        "kalah": [
            ("kalah alphabeta material", lambda: _search(r, "kalah", MATERIAL)),
            ("kalah endgame", lambda: _search(r, "kalah", "endgame:depth=2")),
            ("kalah perft", lambda: _perft(r, "kalah")),
            ("kalah td mlp", lambda: _td(r, "kalah", MLP_KALAH14, {"lam": 0.8, "alpha": 0.1})),
        ],
    }


def run(families: list[str]) -> dict[str, float]:
    """Run the families' steps in turn, in a process tuned for compiling as the ``mindgames``
    command is (mindgames.compiletuning): CPU seconds per step and in all."""
    return run_tuned(lambda: _run(families))


def _run(families: list[str]) -> dict[str, float]:
    table = steps(get_registry())
    unknown = [f for f in families if f not in table]
    if unknown:
        raise SystemExit(f"warmup: unknown family {unknown[0]!r} (known: {', '.join(table)})")
    out: dict[str, float] = {}
    begin = time.process_time()
    for family in families:
        for name, step in table[family]:
            start = time.process_time()
            step()
            out[name] = round(time.process_time() - start, 2)
    out["total"] = round(time.process_time() - begin, 2)
    return out


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1:] or ["draughts", "kalah"])))
