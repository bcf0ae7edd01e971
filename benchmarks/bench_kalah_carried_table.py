"""`data solve` of Kalah(6,4) positions with successors: a table a chunk against one a position.

``data solve`` hands a game that ``SolvesMany`` each chunk of positions in one call, and Kalah
carries one transposition table across the chunk (``solver.solve_all``): every entry is a true
bound on the rest of the game from its pits, whoever found it, so a position's successors,
which follow it in its group, cost little once it is solved. This times the compiled solver on
``--groups`` positions drawn as ``mindgames data generate kalah --plies 0-200 --spread LO-HI
--successors --seed S`` draws them, each position solved with a table of its own
(``solve_compiled``) and then in chunks of ``--chunk`` with one table a chunk
(``solve_all_compiled``, as ``data solve`` does), in the same process; the values are checked
equal. CPU seconds (``time.process_time``: the solver's thread counts), the compile (or cache
load) paid before timing. The load is recorded beside the figures.

.venv/bin/python benchmarks/bench_kalah_carried_table.py [--groups 100] [--spread 3-28] [--chunk 32]

Writes benchmarks/results/kalah_carried_table.json.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
from perft_common import write_result

from mindgames.data.playouts import generate
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import solve_all_compiled, solve_compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--spread", default="3-28")
    parser.add_argument("--chunk", type=int, default=32)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "kalah_carried_table.json")
    )
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.spread.split("-"))
    game = Kalah()
    data = generate(
        game,
        0,
        200,
        args.groups,
        np.random.default_rng(args.seed),
        spread=(lo, hi),
        successors=True,
    )
    states = [game.parse_position(text) for text in data.positions.tolist()]
    solve_all_compiled(game, states[:2])  # compiled (or loaded) before timing
    load_before = os.getloadavg()
    start = time.process_time()
    alone = [solve_compiled(game, state).value for state in states]
    alone_cpu = time.process_time() - start
    start = time.process_time()
    carried = []
    for i in range(0, len(states), args.chunk):
        carried += [s.value for s in solve_all_compiled(game, states[i : i + args.chunk])]
    carried_cpu = time.process_time() - start
    if carried != alone:
        raise SystemExit("a carried table changed a value")
    result = {
        "game": game.spec(),
        "groups": args.groups,
        "positions": len(states),
        "spread": [lo, hi],
        "seed": args.seed,
        "chunk": args.chunk,
        "table_a_position_cpu_seconds": round(alone_cpu, 2),
        "table_a_chunk_cpu_seconds": round(carried_cpu, 2),
        "ratio": round(alone_cpu / carried_cpu, 2),
    }
    benchmark = "data solve of Kalah(6,4) positions with successors: one table a chunk"
    write_result(args.out, benchmark, result, load_before)


if __name__ == "__main__":
    main()
