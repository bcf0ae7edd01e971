"""A/B two versions of the compiled alpha-beta template, each compiled several times.

Where numba's code lands in memory moves a compiled search's speed by up to 6% (checkers) and
more (Kalah: 16-19% at stop 49) between identical copies, as much as most changes to the
template are worth. So each version is bound and compiled ``--copies`` times (each copy its own
module, told apart by a comment), every copy must return the same move, value and counts, and
the copies are timed in alternation in one process (CPU time, a search from the initial
position, medians). The verdict is the ratio of the two versions' medians over their copies,
with every copy's figure beside it: a change is a gain when B's copies are all faster than A's.

    .venv/bin/python benchmarks/ab_search_template.py VARIANT.py --game checkers --depth 8

A is ``plugins/searchers/alphabeta_kernel.py`` unless ``--base`` names another file. The
copies are written to a temporary directory; numba caches them like the shipped template.
Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from mindgames.agent import build_agent
from mindgames.compiled.specialise import bind
from mindgames.plugins.searchers import alphabeta_compiled as ac
from mindgames.registry import get_registry


def copies(source: Path, tag: str, n: int, folder: Path, bindings: dict) -> dict[str, ModuleType]:
    """``n`` separately compiled copies of the template ``source``, named ``tag0``, ``tag1``..."""
    out = {}
    for k in range(n):
        path = folder / f"{tag.lower()}_{source.stem}_{k}.py"
        path.write_text(source.read_text() + f"\n# copy {k}\n")
        out[f"{tag}{k}"] = bind(path, bindings)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", type=Path)
    parser.add_argument("--base", type=Path, default=ac.TEMPLATE)
    parser.add_argument("--game", default="checkers")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--eval", default="material")
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--searches", type=int, default=10, help="searches a copy a round")
    args = parser.parse_args()
    registry = get_registry()
    game = registry.game(args.game)
    state = game.initial_state()
    spec = {"searcher": "alphabeta", "depth": args.depth, "eval": args.eval}
    agent = build_agent(registry, game, spec)
    p = ac.plan(agent.searcher, game, agent.evaluator)
    if p is None or p.model is None:
        raise SystemExit(f"{args.game} with {args.eval} takes no compiled path")
    memo = (p.game.module, p.model.module)
    bindings = {f"g_{name}": (p.game.module, name) for name in ac.GAME_NAMES}
    bindings["m_value"] = (p.model.module, "value")
    bindings["shuffle"] = (ac.SHUFFLE_MODULE, "shuffle")
    with tempfile.TemporaryDirectory(prefix="mindgames-ab-") as tmp:
        modules = {
            **copies(args.base, "A", args.copies, Path(tmp), bindings),
            **copies(args.variant, "B", args.copies, Path(tmp), bindings),
        }

        def search() -> tuple:
            r = agent.searcher.search(game, state, agent.evaluator, np.random.default_rng(1))
            return (r.move, r.value, r.pv, r.stats.nodes, r.stats.leaves, r.stats.path)

        results = {}
        for name, module in modules.items():
            ac._modules[memo] = module
            results[name] = search()
        if len(set(map(repr, results.values()))) != 1:
            raise SystemExit(f"the copies search differently: {results}")
        times: dict[str, list[float]] = {name: [] for name in modules}
        for _ in range(args.rounds):
            for name, module in modules.items():
                ac._modules[memo] = module
                start = time.process_time()
                for _ in range(args.searches):
                    search()
                times[name].append((time.process_time() - start) / args.searches)
    ms = {name: 1000 * statistics.median(t) for name, t in times.items()}
    a = statistics.median(v for k, v in ms.items() if k.startswith("A"))
    b = statistics.median(v for k, v in ms.items() if k.startswith("B"))
    report = {
        "game": args.game,
        "depth": args.depth,
        "eval": args.eval,
        "path": results["A0"][-1],
        "copies_cpu_ms": {k: round(v, 4) for k, v in ms.items()},
        "b_over_a": round(b / a, 3),
        "b_all_faster": max(v for k, v in ms.items() if k.startswith("B"))
        < min(v for k, v in ms.items() if k.startswith("A")),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
