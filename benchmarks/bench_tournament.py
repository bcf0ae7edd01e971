"""Tournament throughput: games per second of a Kalah depth-2 round robin, 1 and 2 workers.

The baseline is the serial run (one process, ``--workers 1``); the pool runs on 2 spawned
worker processes. ``games_per_second`` includes the workers' start-up (what a user waits for);
``steady_games_per_second`` counts from the first finished game to the last. Each setting is
run ``--repeats`` times; the medians and the speed-up ratio are printed as JSON and written to
benchmarks/results/tournament.json. The records of every run are checked identical, so the
benchmark also confirms that the results do not depend on the number of workers.

    .venv/bin/python benchmarks/bench_tournament.py [--openings 40] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from mindgames.play.task import comparable
from mindgames.play.tournament import TournamentConfig, plan, run_tournament
from mindgames.registry import get_registry

AGENTS = {
    "ab2": "alphabeta:depth=2,eval=material,random_ties=true",
    "ab2-ordered": "alphabeta:depth=2,eval=material",
    "greedy": "greedy:eval=material,random_ties=true",
    "random": "random",
}


def measure(workers: int, openings: int, repeats: int) -> tuple[dict, list]:
    """Median games/s of ``repeats`` runs with ``workers``; returns the figures and records."""
    config = TournamentConfig(
        game="kalah:pits=6,seeds=4",
        agents=AGENTS,
        openings=f"random:plies=2,count={openings}",
        seed=1,
    )
    the_plan = plan(config, get_registry())
    rates, steady, seconds, records = [], [], [], []
    for _ in range(repeats):
        stamps: list[float] = []
        with tempfile.TemporaryDirectory() as tmp:
            begin = time.perf_counter()
            out = run_tournament(
                the_plan,
                Path(tmp) / "run",
                workers=workers,
                on_record=lambda r, stamps=stamps: stamps.append(time.perf_counter()),
            )
            took = time.perf_counter() - begin
        rates.append(len(out.records) / took)
        steady.append((len(stamps) - 1) / (stamps[-1] - stamps[0]))
        seconds.append(took)
        records = [comparable(r) for r in out.records]
    return {
        "workers": workers,
        "games": len(records),
        "games_per_second": round(statistics.median(rates), 2),
        "steady_games_per_second": round(statistics.median(steady), 2),
        "seconds_median": round(statistics.median(seconds), 3),
    }, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    serial, one = measure(1, args.openings, args.repeats)
    pooled, two = measure(2, args.openings, args.repeats)
    if one != two:
        raise SystemExit("the 1-worker and 2-worker runs gave different records")
    result = {
        "benchmark": "tournament",
        "game": "kalah:pits=6,seeds=4",
        "agents": AGENTS,
        "python": platform.python_version(),
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "baseline": serial,
        "pool": pooled,
        "speedup_2_workers": round(pooled["games_per_second"] / serial["games_per_second"], 2),
        "steady_speedup_2_workers": round(
            pooled["steady_games_per_second"] / serial["steady_games_per_second"], 2
        ),
        "identical_records": True,
    }
    text = json.dumps(result, indent=2)
    print(text)
    out = Path(__file__).parent / "results" / "tournament.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text + "\n")


if __name__ == "__main__":
    main()
