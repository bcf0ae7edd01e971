"""Planning a match (issue 38): seconds to plan 20,000 Kalah games (35 distinct two-ply
openings reused as rounds, every game's seed made up front) and to refuse ``--games 10**21``.
The medians of ``--repeats`` runs are printed as JSON and written to
benchmarks/results/planning.json.

    .venv/bin/python benchmarks/bench_planning.py [--games 20000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

from mindgames.errors import ConfigError
from mindgames.play.match import match_plan
from mindgames.registry import get_registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    registry = get_registry()
    registry.game("kalah")
    plans, refusals = [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        plan = match_plan(registry, "kalah", "random", "greedy:eval=material",
                          games=args.games, seed=0)  # fmt: skip
        plans.append(time.perf_counter() - start)
        start = time.perf_counter()
        try:
            match_plan(registry, "kalah", "random", "random", games=10**21, seed=0)
        except ConfigError:
            refusals.append(time.perf_counter() - start)
    result = {
        "benchmark": "match planning",
        "python": platform.python_version(),
        "games": args.games,
        "tasks": len(plan.tasks),
        "openings": len(plan.openings),
        "plan_seconds_median": round(statistics.median(plans), 3),
        "refuse_10e21_seconds_median": round(statistics.median(refusals), 6),
    }
    text = json.dumps(result, indent=2)
    print(text)
    (Path(__file__).parent / "results" / "planning.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
