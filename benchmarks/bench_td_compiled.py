"""TD(lambda) self-play on the compiled path against the Python path, in the same run (issue 34,
item 1).

Cases (CPU seconds, ``time.process_time``; medians of ``--repeats``; the compile is paid once
before timing):

* ``kalah``: Kalah(6,4), 14-30-1 sigmoid MLP on ``kalah14``, 1-ply serial self-play (bench_td.py's
  serial case: lam 0.8, alpha 0.1) -- whole games compiled;
* ``giveaway``: examples/training/giveaway-td.toml's learner (linear on ``gac11``, 1 ply);
* ``checkers``: examples/training/checkers-neurodraughts.toml's settings (Samuel features,
  20 tanh units with direct links, ``alphabeta:depth=2`` look-ahead, momentum, decays; no gate
  games) -- the searcher called per move from Python, each learning step compiled.

Paths: ``python`` is ``MINDGAMES_PYTHON_PATH=1`` (everything interpreted, the oracle);
``searcher_only`` (look-ahead case) is the learner before issue 34: its own loop in Python, the
search compiled; ``compiled`` is the compiled TD path. Every path trains from the same net and
seed, and the weights are checked equal (within 1e-12) to the Python path's. Prints JSON and
writes benchmarks/results/td_compiled.json, with the load average.

    .venv/bin/python benchmarks/bench_td_compiled.py [--repeats 3] [--kalah-games 3000] \
        [--giveaway-games 300] [--checkers-games 30]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import platform
import statistics
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.agent import build_evaluator
from mindgames.plugins.learners.td import compiled as compiled_td
from mindgames.registry import get_registry

ROOT = Path(__file__).resolve().parents[1]
KALAH = {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"}


def example(name: str) -> dict[str, Any]:
    with (ROOT / "examples" / "training" / name).open("rb") as fh:
        return tomllib.load(fh)


def train(game_spec: str, spec: dict[str, Any], options: dict[str, Any], path: str) -> dict:
    """Train once on ``path``: CPU seconds, the games' mean length, the final weights."""
    os.environ["MINDGAMES_PYTHON_PATH"] = "1" if path == "python" else "0"
    plan = compiled_td.plan
    if path == "searcher_only":  # the learner's own loop on the Python path, searches compiled
        compiled_td.plan = lambda *args: None  # type: ignore[assignment]
    try:
        registry = get_registry()
        game = registry.game(game_spec)
        evaluator = build_evaluator(registry, game, spec, seed=1)
        learner = registry.learner("td", options, where="bench")
        with tempfile.TemporaryDirectory() as workdir:
            start = time.process_time()
            result = learner.train(game, evaluator, np.random.default_rng(1), workdir=Path(workdir))
            seconds = time.process_time() - start
    finally:
        compiled_td.plan = plan  # type: ignore[assignment]
    plies = float(np.mean([row["mean_plies"] for row in result.history]))
    return {"cpu": seconds, "plies": plies, "params": evaluator.model.get_params()}


def case(
    game_spec: str, spec: dict[str, Any], options: dict[str, Any], paths: list[str], repeats: int
) -> dict[str, Any]:
    """Every path ``repeats`` times (alternating); medians, games per CPU second, ratios."""
    games = options["games"]
    train(game_spec, spec, {**options, "games": 2, "batch": 2}, "compiled")  # the compile
    runs: dict[str, list[dict]] = {p: [] for p in paths}
    for _ in range(repeats):
        for path in paths:
            runs[path].append(train(game_spec, spec, options, path))
    oracle = runs["python"][0]["params"]
    for path in paths:
        for r in runs[path]:
            diff = float(np.max(np.abs(r["params"] - oracle)))
            if diff > 1e-12:
                raise SystemExit(f"{game_spec} {path}: weights differ from Python's by {diff}")
    cpu = {p: statistics.median(r["cpu"] for r in runs[p]) for p in paths}
    out: dict[str, Any] = {
        "games": games,
        "mean_plies": runs["python"][0]["plies"],
        "cpu_s": {p: round(s, 4) for p, s in cpu.items()},
        "games_per_cpu_s": {p: round(games / s, 1) for p, s in cpu.items()},
        "ratio_to_python": {p: round(cpu["python"] / s, 2) for p, s in cpu.items()},
    }
    if "searcher_only" in cpu:
        out["ratio_to_searcher_only"] = round(cpu["searcher_only"] / cpu["compiled"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    # enough games that they, not TD's fixed probe (about 36 ms on either path), are measured
    parser.add_argument("--kalah-games", type=int, default=3000)
    parser.add_argument("--giveaway-games", type=int, default=300)
    parser.add_argument("--checkers-games", type=int, default=30)
    args = parser.parse_args()
    load_before = os.getloadavg()
    results: dict[str, Any] = {}
    kalah = {"games": args.kalah_games, "batch": args.kalah_games, "checkpoint_every": 0,
             "lam": 0.8, "alpha": 0.1}  # fmt: skip
    results["kalah"] = case(
        "kalah:pits=6,seeds=4", KALAH, kalah, ["python", "compiled"], args.repeats
    )
    give = example("giveaway-td.toml")
    options = {k: v for k, v in give["learner"].items() if k != "name"}
    options.update(games=args.giveaway_games, batch=args.giveaway_games, checkpoint_every=0)
    results["giveaway"] = case(
        give["game"], give["eval"], options, ["python", "compiled"], args.repeats
    )
    nd = example("checkers-neurodraughts.toml")
    options = {k: v for k, v in nd["learner"].items() if k != "name"}
    options.update(games=args.checkers_games, batch=args.checkers_games, checkpoint_every=0,
                   gate_games=0)  # fmt: skip
    results["checkers"] = case(
        nd["game"], nd["eval"], options, ["python", "searcher_only", "compiled"], args.repeats
    )
    report = {
        "benchmark": "td_compiled",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "repeats": args.repeats,
        "cases": results,
    }
    text = json.dumps(report, indent=1)
    print(text)
    out = ROOT / "benchmarks" / "results" / "td_compiled.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
