"""Evaluator speed: positions per second, one at a time and batched, for ``mlp`` 32-10-1 on
``raw32`` (checkers) and 14-30-1 (sigmoid) on ``kalah14``.

For each net it times, on the same seeded random positions: the model alone (``value`` per row,
``value_batch`` on the matrix, ``value_and_grad`` and ``value_and_grad_batch``), the whole
evaluator (encode + value: ``evaluate`` and ``evaluate_batch``), and a baseline measured in the
same run: a textbook numpy forward pass of the same weights (``np.tanh(W @ x + b)``, sigmoid as
``1 / (1 + exp(-z))``). It prints and writes benchmarks/results/evaluators.json with medians of
several repeats and the ratios (batched / single, ours / textbook), which are what to compare
across machines -- absolute figures are noisy on a shared 2-core machine.

    .venv/bin/python benchmarks/bench_evaluators.py [--positions 2000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core

import numpy as np

from mindgames.agent import build_evaluator
from mindgames.registry import get_registry

NETS = {
    "mlp-32-10-1-raw32": ("checkers", {"model": "mlp", "encoding": "raw32", "hidden": [10]}),
    "mlp-14-30-1-kalah14": (
        "kalah",
        {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"},
    ),
}


def positions(game, n: int, seed: int) -> list:
    """``n`` non-terminal positions of seeded random playouts."""
    rng = np.random.default_rng(seed)
    out: list = []
    while len(out) < n:
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 60))):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, moves[int(rng.integers(len(moves)))])
        if not game.is_terminal(state):
            out.append(state)
    return out


def rate(run: Callable[[], object], count: int, repeats: int) -> float:
    """Median positions per second of ``run`` (which handles ``count`` positions)."""
    times = []
    for _ in range(repeats):
        begin = time.perf_counter()
        run()
        times.append(time.perf_counter() - begin)
    return count / statistics.median(times)


def textbook(model) -> Callable[[np.ndarray], float]:
    """The plain numpy forward pass of ``model``'s weights (the baseline)."""
    (w, b), wo, bo = model._layers[0], model._wo, float(model._bo[0])
    if model.activation == "sigmoid":
        return lambda x: float(np.tanh(wo @ (1.0 / (1.0 + np.exp(-(w @ x + b)))) + bo))
    return lambda x: float(np.tanh(wo @ np.tanh(w @ x + b) + bo))


def bench(name: str, n: int, repeats: int) -> dict[str, float]:
    registry = get_registry()
    game_spec, table = NETS[name]
    game = registry.game(game_spec)
    evaluator = build_evaluator(registry, game, table, seed=1)
    model = evaluator.model
    states = positions(game, n, seed=2)
    xs = evaluator.encoding.encode_batch(states)
    rows = list(xs)
    plain = textbook(model)
    assert np.allclose([plain(x) for x in rows], model.value_batch(xs))
    row = {
        "textbook_single": rate(lambda: [plain(x) for x in rows], n, repeats),
        "model_single": rate(lambda: [model.value(x) for x in rows], n, repeats),
        "model_batch": rate(lambda: model.value_batch(xs), n, repeats),
        "grad_single": rate(lambda: [model.value_and_grad(x) for x in rows], n, repeats),
        "grad_batch": rate(lambda: model.value_and_grad_batch(xs), n, repeats),
        "evaluator_single": rate(lambda: [evaluator.evaluate(s) for s in states], n, repeats),
        "evaluator_batch": rate(lambda: evaluator.evaluate_batch(states), n, repeats),
    }
    out = {k: round(v, 1) for k, v in row.items()}
    out["ratio_model_single_vs_textbook"] = round(row["model_single"] / row["textbook_single"], 2)
    out["ratio_model_batch_vs_single"] = round(row["model_batch"] / row["model_single"], 1)
    out["ratio_grad_batch_vs_single"] = round(row["grad_batch"] / row["grad_single"], 1)
    out["ratio_evaluator_batch_vs_single"] = round(
        row["evaluator_batch"] / row["evaluator_single"], 1
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "evaluators.json"))
    args = parser.parse_args()
    results = {name: bench(name, args.positions, args.repeats) for name in NETS}
    report = {
        "benchmark": "evaluators",
        "unit": "positions per second (median of repeats)",
        "positions": args.positions,
        "repeats": args.repeats,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
        "results": results,
    }
    text = json.dumps(report, indent=2)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
