"""The supervised fitters' squared-error gradient: one back-propagation of a batch's errors
(``WeightedGrads``, what ``fitters.mse_and_grad`` uses for an MLP) against a gradient row per
pattern contracted with the errors (``value_and_grad_batch``, the path of models without it), in
the same run.

Cases: Layered Learning's PlainBoard5N net (raw32 -> 5 -> 1) and checkers-supervised.toml's net
(raw32 -> 40 -> 10 -> 1), each over ``--patterns`` random raw32 patterns (one epoch of RPROP is
one gradient). CPU seconds (``time.process_time``) of ``--epochs`` gradients, medians of
``--repeats`` alternating runs; both paths must agree within 1e-10 relative. BLAS runs on one
thread (as ``import mindgames`` sets by default). Prints JSON and writes
benchmarks/results/fitters.json with the load average.

    .venv/bin/python benchmarks/bench_fitters.py [--patterns 4618] [--epochs 20] [--repeats 7]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as ``import mindgames`` does: before numpy

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numpy as np

from mindgames.evaluators import mlp
from mindgames.plugins.learners import fitters

NETS = {"plainboard5n": [5], "supervised-40-10": [40, 10]}
OUT = Path(__file__).with_name("results") / "fitters.json"


def by_rows(model: mlp.MLP, patterns: fitters.Patterns) -> tuple[float, np.ndarray]:
    """The squared error and its gradient from a gradient row per pattern (the fallback path)."""
    total = float(np.sum(patterns.ws))
    loss, grad = 0.0, np.zeros(len(model.get_params()))
    for lo in range(0, len(patterns), fitters.CHUNK):
        hi = lo + fitters.CHUNK
        xs, ys, ws = patterns.xs[lo:hi], patterns.ys[lo:hi], patterns.ws[lo:hi]
        values, grads = fitters.value_and_grad_batch(model, xs)
        err = values - ys
        loss += float(np.sum(ws * err * err))
        grad += (2.0 * ws * err) @ grads
    return loss / total, grad / total


def cpu(fn: object, epochs: int) -> float:
    start = time.process_time()
    for _ in range(epochs):
        fn()  # type: ignore[operator]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patterns", type=int, default=4618)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    load_before = os.getloadavg()
    columns = [f"c{i}" for i in range(32)]
    rng = np.random.default_rng(2)
    xs = rng.integers(-1, 2, size=(args.patterns, 32)).astype(float)
    patterns = fitters.Patterns.of(xs, rng.uniform(-0.9, 0.9, args.patterns))
    cases = {}
    for name, hidden in NETS.items():
        config = mlp.MLPConfig(hidden=hidden, init=(-0.2, 0.2))
        model = mlp.create(config, columns, np.random.default_rng(1))
        (loss_rows, grad_rows), (loss, grad) = (
            by_rows(model, patterns),
            fitters.mse_and_grad(model, patterns),
        )
        assert abs(loss - loss_rows) <= 1e-12 * abs(loss_rows)
        assert np.allclose(grad, grad_rows, rtol=1e-10, atol=1e-15)
        rows, weighted = [], []
        for _ in range(args.repeats):
            rows.append(cpu(lambda m=model: by_rows(m, patterns), args.epochs))
            weighted.append(cpu(lambda m=model: fitters.mse_and_grad(m, patterns), args.epochs))
        r, w = statistics.median(rows), statistics.median(weighted)
        cases[name] = {
            "hidden": hidden,
            "ms_per_epoch": {"rows": 1e3 * r / args.epochs, "weighted": 1e3 * w / args.epochs},
            "ratio": r / w,
        }
    report = {
        "patterns": args.patterns,
        "epochs": args.epochs,
        "repeats": args.repeats,
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
        "cases": cases,
        "machine": platform.machine(),
        "load_average": {"before": load_before, "after": os.getloadavg()},
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
