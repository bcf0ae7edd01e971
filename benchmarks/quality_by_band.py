"""Solver-judged quality per band of pieces on the board: the breakdown behind `quality`.

Judges each agent on a solved set (``mindgames quality --write``, e.g. a ``--spread`` one)
exactly as ``mindgames quality`` does (``quality.choose``, same seed), then prints and writes
the share of optimal moves in each band of ``--width`` piece counts, beside ``chance``: the
share a uniformly random mover expects there (the mean of best moves over legal moves, exact).
Docs/results.md's "Kalah over the whole game" uses it:

    .venv/bin/python benchmarks/quality_by_band.py kalah:pits=6,seeds=4 SET.jsonl \
        --agent alphabeta:depth=1,eval=@runs/kalah-td-whole/model.npz --seed 1 [--width 4]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from mindgames.data.solved import read_file
from mindgames.executors import SerialExecutor
from mindgames.measure.quality import choose, wilson
from mindgames.registry import get_registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("positions")
    parser.add_argument("--agent", action="append", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--out", default=None, help="write the table as JSON here")
    args = parser.parse_args()
    game = get_registry().game(args.game)
    solved = read_file(args.positions, game)[1]
    pieces = [game.pieces(game.parse_position(s.position)) for s in solved]
    rows = []
    for spec in args.agent:
        chosen = choose(game, spec, solved, SerialExecutor(), seed=args.seed)
        bands: dict[int, list[bool]] = defaultdict(list)
        chance: dict[int, list[float]] = defaultdict(list)
        for n, s, move in zip(pieces, solved, chosen, strict=True):
            bands[n // args.width * args.width].append(s.loss(move) == 0)
            chance[n // args.width * args.width].append(len(s.best_moves) / len(s.values))
        for lo in sorted(bands):
            hits = bands[lo]
            low, high = wilson(sum(hits), len(hits))
            row = {
                "agent": spec,
                "pieces": f"{lo}-{lo + args.width - 1}",
                "positions": len(hits),
                "optimal_share": round(sum(hits) / len(hits), 4),
                "optimal_low": round(low, 4),
                "optimal_high": round(high, 4),
                "chance": round(sum(chance[lo]) / len(hits), 4),
            }
            rows.append(row)
            print(json.dumps(row))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
