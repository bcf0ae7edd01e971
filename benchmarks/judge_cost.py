"""What a solved judge set costs per band of pieces on the board, for the two judges.

``--compare``: the first ``--count`` candidates of a ``--spread`` stream (as ``mindgames quality
--spread`` draws them), each solved by both judges in this process (``values``: each successor
on its own, a fresh table each; ``best``: one solve of the position), CPU seconds of each per
band, their ratio, and whether the best-move sets agree (they must).

``--write``: builds the set exactly as ``mindgames quality --spread ... --judge J --write``
does (``solved.build``, serial, resumable through the same ``.partial`` file) and logs each
candidate's CPU seconds to ``--log`` (JSON Lines, appended; a resumed run skips the candidates
already logged), then prints the cost per band from that log. Docs/notes/kalah-whole-game.md:

    nice -n 10 .venv/bin/python benchmarks/judge_cost.py kalah:pits=6,seeds=4 --spread 3-36 \
        --seed 35 --count 2000 --judge best --write runs/judge/spread-3-36-seed35-best.jsonl \
        --log runs/judge/spread-3-36-seed35-best.cost.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from mindgames.data.solved import Sampling, build, candidates, solve_best_moves, solve_moves
from mindgames.executors import SerialExecutor
from mindgames.files import read_jsonl
from mindgames.game import Game
from mindgames.registry import get_registry


def best_set(values: dict[str, Any]) -> frozenset[str]:
    best = max(v for v in values.values() if v is not None)
    return frozenset(m for m, v in values.items() if v == best)


def compare(game: Game, sampling: Sampling, max_pieces: int) -> list[dict[str, Any]]:
    """Both judges on each candidate with at most ``max_pieces`` pieces."""
    rows = []
    warm = game.parse_position(next(candidates(game, sampling))[0])
    solve_moves(game, warm), solve_best_moves(game, warm)  # compiled code loaded, not timed
    for text, _ in itertools.islice(candidates(game, sampling), sampling.count):
        state = game.parse_position(text)
        pieces = game.pieces(state)
        if pieces > max_pieces:
            continue
        t0 = time.process_time()
        old = solve_moves(game, state)
        t1 = time.process_time()
        new = solve_best_moves(game, state)
        t2 = time.process_time()
        rows.append(
            {
                "pieces": pieces,
                "values_cpu": t1 - t0,
                "best_cpu": t2 - t1,
                "same": best_set(old) == best_set(new) and old.keys() == new.keys(),
            }
        )
    return rows


def logged_build(game: Game, sampling: Sampling, judge: str, write: str, log: Path) -> None:
    """``solved.build`` with each candidate's CPU seconds appended to ``log``."""
    done = {int(r["index"]) for r in read_jsonl(log)} if log.exists() else set()
    state = {"index": 0, "clock": time.process_time()}
    with log.open("a", encoding="utf-8") as fh:

        def on_solved(solved: Any, kept: bool) -> None:
            now = time.process_time()
            index = state["index"]
            if index not in done:
                pieces = game.pieces(game.parse_position(solved.position))
                row = {"index": index, "pieces": pieces, "kept": kept}
                fh.write(json.dumps({**row, "cpu": round(now - state["clock"], 4)}) + "\n")
                fh.flush()
            state["index"] = index + 1
            state["clock"] = time.process_time()

        build(game, sampling, SerialExecutor(), write=write, on_solved=on_solved, judge=judge)


def by_band(rows: list[dict[str, Any]], keys: tuple[str, ...], width: int) -> None:
    bands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        bands[int(r["pieces"]) // width * width].append(r)
    for lo in sorted(bands):
        rs = bands[lo]
        out: dict[str, Any] = {"pieces": f"{lo}-{lo + width - 1}", "candidates": len(rs)}
        for k in keys:
            vals = sorted(float(r[k]) for r in rs)
            out[f"{k}_mean"] = round(sum(vals) / len(vals), 4)
            out[f"{k}_max"] = round(vals[-1], 4)
        if "values_cpu" in keys:
            out["ratio"] = round(out["values_cpu_mean"] / max(out["best_cpu_mean"], 1e-9), 2)
            out["same"] = all(r["same"] for r in rs)
        print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--spread", required=True, metavar="LO-HI")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--compare", type=int, metavar="MAX_PIECES", default=None)
    parser.add_argument("--judge", choices=("values", "best"), default="best")
    parser.add_argument("--write", default=None)
    parser.add_argument("--log", type=Path, default=None)
    args = parser.parse_args()
    game = get_registry().game(args.game)
    lo, hi = (int(x) for x in args.spread.split("-"))
    sampling = Sampling(args.count, args.seed, None, 0, (lo, hi))
    if args.compare is not None:
        rows = compare(game, sampling, args.compare)
        by_band(rows, ("values_cpu", "best_cpu"), args.width)
        return
    if args.write is None or args.log is None:
        parser.error("give --compare MAX_PIECES, or --write and --log")
    logged_build(game, sampling, args.judge, args.write, args.log)
    by_band(read_jsonl(args.log), ("cpu",), args.width)


if __name__ == "__main__":
    main()
