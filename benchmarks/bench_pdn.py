"""PDN speed: read, replay and write a file of 10,000 games.

The games are the engine-played fixture (tests/games/data/engine_games.pdn) repeated to
``--games`` games. Measured (median of ``--repeats`` runs, seconds and games per second):

* ``read`` -- ``read_pdn``: tokenize and build every game tree;
* ``replay`` -- ``replay`` of every game: match each written move against the legal moves;
* ``write`` -- ``write_pdn`` of every game;
* ``baseline`` -- the same moves played straight through the rules (``legal_moves`` + ``play``
  per ply, moves already as tuples): the least any replay must do. Ratios are to this.

Prints and writes benchmarks/results/pdn.json.

    .venv/bin/python benchmarks/bench_pdn.py [--games 10000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mindgames.games.draughts.pdn import read_pdn, replay, rules_for, start_state, write_pdn

FIXTURE = Path(__file__).parent.parent / "tests" / "games" / "data" / "engine_games.pdn"


def timed(task: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median seconds of ``repeats`` runs of ``task`` and its last value."""
    times, value = [], None
    for _ in range(repeats):
        begin = time.perf_counter()
        value = task()
        times.append(time.perf_counter() - begin)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "pdn.json"))
    args = parser.parse_args()

    one = FIXTURE.read_text()
    per_file = len(read_pdn(one))
    text = "\n".join([one] * (args.games // per_file + 1))
    games = read_pdn(text)[: args.games]
    plies = sum(len(g.moves) for g in games)
    played = [replay(g) for g in games]
    assert all(p.error is None for p in played)
    starts = [start_state(g, rules_for(g)) for g in games]
    plans = [(p.rules, s, p.moves) for p, s in zip(played, starts, strict=True)]

    def baseline() -> int:
        n = 0
        for rules, state, moves in plans:
            for move in moves:
                if move not in rules.legal_moves(state):
                    raise SystemExit("baseline: illegal move")
                state = rules.play(state, move)
                n += 1
        return n

    seconds = {
        "read": timed(lambda: read_pdn(text), args.repeats)[0],
        "replay": timed(lambda: [replay(g) for g in games], args.repeats)[0],
        "write": timed(lambda: write_pdn(games), args.repeats)[0],
        "baseline": timed(baseline, args.repeats)[0],
    }
    base = seconds["baseline"]
    rows = {
        name: {
            "seconds": round(s, 4),
            "games_per_second": round(len(games) / s),
            "ratio_to_baseline": round(s / base, 3),
        }
        for name, s in seconds.items()
    }
    total = seconds["read"] + seconds["replay"]
    result = {
        "benchmark": "pdn",
        "games": len(games),
        "plies": plies,
        "bytes": len(text),
        "repeats": args.repeats,
        "python": platform.python_version(),
        "results": rows,
        "read_and_replay_seconds": round(total, 3),
        "read_and_replay_ratio_to_baseline": round(total / base, 3),
    }
    print(json.dumps(result, indent=2))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
