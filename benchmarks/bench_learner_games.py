"""Co-evolution's and SHG's games and labelling by search on the compiled path against the Python
path, in the same run (issue 34, items 2 and 3).

Cases (CPU seconds, ``time.process_time``, one process; medians of ``--repeats``; ``items`` are
games or positions; the compile is paid once before timing):

* ``coevolution``: one generation of examples/training/checkers-coevolution.toml (15 parents and
  15 offspring, the example's net, openings, search and move cap) with ``--meetings`` meetings an
  individual (the example has 10: 600 games; each meeting is two games);
* ``shg``: a batch of ``--comparisons`` SHG comparisons (two games each, colours swapped) of
  random 3Ph specimens with examples/training/giveaway-shg.toml's search and move cap
  (``comparison.compare``, as SHG's tournaments call it);
* ``labelling``: ``--positions`` checkers positions of random playouts (plies 20-60) labelled by
  ``endgame:depth=8`` in chunks of 32 (``labelling.label_chunk``, as ``data label`` and HG's and
  Layered Learning's stages run it);
* ``hg_scoring``: HG's population scoring, ``--specimens`` random 3Ph specimens of
  examples/training/giveaway-hg.toml each scored on its 1,000 boards (give-away positions at plies
  81-87, random labels) as ``fitness.scores`` does (no search: its paths are python and
  compiled, and their fitness must agree within 1e-12 relative, not bit for bit).

Paths: ``python`` is ``MINDGAMES_PYTHON_PATH=1`` (everything interpreted, the oracle);
``searcher_only`` is the learners before issue 34's items 2 and 3: the game loop (the chunk's
loop) in Python, each search compiled; ``compiled`` plays each game in one compiled call
(core/play/gamebatch.py) and labels a chunk in one (``search_values``). Every path must give the
same population (co-evolution), points (SHG) or labels as the Python path. Prints JSON and writes
benchmarks/results/learner_games.json (``learner_games_CASE...json`` for some of the cases),
with the load average.

    .venv/bin/python benchmarks/bench_learner_games.py [--repeats 3] [--meetings 1] \
        [--comparisons 10] [--positions 1000] [--specimens 100] \
        [--cases coevolution shg labelling hg_scoring]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.agent import build_evaluator
from mindgames.data.labelling import Labeller, label_chunk
from mindgames.data.playouts import generate
from mindgames.executors import SerialExecutor
from mindgames.plugins.learners.hg import comparison, fitness
from mindgames.plugins.searchers import alphabeta
from mindgames.registry import get_registry

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["python", "searcher_only", "compiled"]
CASES = ("coevolution", "shg", "labelling", "hg_scoring")


def example(name: str) -> dict[str, Any]:
    with (ROOT / "examples" / "training" / name).open("rb") as fh:
        return tomllib.load(fh)


def on_path(path: str, work: Callable[[], Any]) -> tuple[float, Any]:
    """``work()`` on ``path``: its CPU seconds and result."""
    os.environ["MINDGAMES_PYTHON_PATH"] = "1" if path == "python" else "0"
    whole, values = alphabeta.compiled_game, alphabeta.compiled_values
    if path == "searcher_only":  # each game move by move, each position alone, searches compiled
        alphabeta.compiled_game = lambda *args: None  # type: ignore[assignment]
        alphabeta.compiled_values = lambda *args: None  # type: ignore[assignment]
    try:
        start = time.process_time()
        result = work()
        return time.process_time() - start, result
    finally:
        alphabeta.compiled_game = whole  # type: ignore[assignment]
        alphabeta.compiled_values = values  # type: ignore[assignment]


def coevolution(meetings: int) -> Callable[[], Any]:
    """One generation of the checkers example: the survivors' weights."""
    raw = example("checkers-coevolution.toml")
    options = {k: v for k, v in raw["learner"].items() if k != "name"}
    options.update(generations=1, games=meetings, workers=1, checkpoint_every=0)

    def work() -> Any:
        registry = get_registry()
        game = registry.game(raw["game"])
        evaluator = build_evaluator(registry, game, raw["eval"], seed=1)
        learner = registry.learner("coevolution", options, where="bench")
        with tempfile.TemporaryDirectory() as workdir:
            result = learner.train(game, evaluator, np.random.default_rng(1), workdir=Path(workdir))
        return evaluator.model.get_params(), [r["mean_plies"] for r in result.history]

    return work


def shg(comparisons: int) -> Callable[[], Any]:
    """A batch of SHG comparisons of random 3Ph specimens: each pair's points."""
    raw = example("giveaway-shg.toml")
    search, max_plies = raw["learner"]["search"], raw["learner"]["max_plies"]

    def work() -> Any:
        registry = get_registry()
        game = registry.game(raw["game"])
        evaluator = build_evaluator(registry, game, raw["eval"], seed=1)
        size = evaluator.model.get_params().size
        rng = np.random.default_rng(7)
        sides = [
            comparison.side(evaluator, rng.uniform(-1, 1, size), search)
            for _ in range(2 * comparisons)
        ]
        pairs = [(2 * k, 2 * k + 1) for k in range(comparisons)]
        got = comparison.compare(SerialExecutor(), game.spec(), sides, pairs, 11, max_plies)
        return [r["points"] for r in got], [r["plies"] for r in got]

    return work


def labelling(positions: int) -> Callable[[], Any]:
    """``positions`` checkers positions labelled by ``endgame:depth=8``: the labels."""
    registry = get_registry()
    data = generate(registry.game("checkers"), 20, 60, positions, np.random.default_rng(8))
    items = [(i, str(text)) for i, text in enumerate(data.positions)]
    spec = Labeller("search", "checkers", "endgame:depth=8", seed=1).as_dict()

    def work() -> Any:
        labels = []
        for k in range(0, len(items), 32):
            labels += [r["label"] for r in label_chunk(spec, items[k : k + 32])]
        return (labels,)

    return work


def hg_scoring(specimens: int) -> Callable[[], Any]:
    """``specimens`` random 3Ph specimens scored on the example's 1,000 boards: their fitness."""
    raw = example("giveaway-hg.toml")
    registry = get_registry()
    game = registry.game(raw["game"])
    evaluator = build_evaluator(registry, game, raw["eval"], seed=1)
    rng = np.random.default_rng(9)
    lo, hi = raw["learner"]["plies"]
    data = generate(game, lo, hi, raw["learner"]["boards"], rng)
    data = data.with_labels(rng.uniform(-1.0, 1.0, len(data)), {"by": "bench"})
    tests = fitness.TestSet.of(game, evaluator, data)
    population = rng.uniform(-1.0, 1.0, (specimens, evaluator.model.get_params().size))

    def work() -> Any:
        return (fitness.scores(evaluator, population, tests),)

    return work


def case(
    work: Callable[[], Any], items: int, repeats: int, paths: list[str] = PATHS, exact: bool = True
) -> dict[str, Any]:
    """Every path ``repeats`` times (alternating); medians and ratios; results checked equal to
    the Python path's (``exact``) or within 1e-12 relative."""
    on_path("compiled", work)  # the compile (and the caches' first fill)
    runs: dict[str, list[tuple[float, Any]]] = {p: [] for p in paths}
    for _ in range(repeats):
        for path in paths:
            runs[path].append(on_path(path, work))
    oracle = runs["python"][0][1]
    for path in paths:
        for _, result in runs[path]:
            for mine, theirs in zip(result, oracle, strict=True):
                mine, theirs = np.asarray(mine), np.asarray(theirs)
                same = (
                    np.array_equal(mine, theirs)
                    if exact
                    else np.allclose(mine, theirs, rtol=1e-12, atol=0)
                )
                if not same:
                    raise SystemExit(f"{path}: another result than the Python path's")
    cpu = {p: statistics.median(s for s, _ in runs[p]) for p in paths}
    out = {
        "items": items,
        "cpu_s": {p: round(s, 4) for p, s in cpu.items()},
        "items_per_cpu_s": {p: round(items / s, 2) for p, s in cpu.items()},
        "ratio_to_python": {p: round(cpu["python"] / s, 2) for p, s in cpu.items()},
    }
    if "searcher_only" in cpu:
        out["ratio_to_searcher_only"] = round(cpu["searcher_only"] / cpu["compiled"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--meetings", type=int, default=1)
    parser.add_argument("--comparisons", type=int, default=10)
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--specimens", type=int, default=100)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    args = parser.parse_args()
    load_before = os.getloadavg()
    made = {
        "coevolution": lambda: (coevolution(args.meetings), 60 * args.meetings),
        "shg": lambda: (shg(args.comparisons), 2 * args.comparisons),
        "labelling": lambda: (labelling(args.positions), args.positions),
    }
    results = {name: case(*made[name](), args.repeats) for name in args.cases if name in made}
    if "hg_scoring" in args.cases:
        work = hg_scoring(args.specimens)
        scoring = case(work, args.specimens, args.repeats, ["python", "compiled"], exact=False)
        results["hg_scoring"] = scoring
    report = {
        "benchmark": "learner_games",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "repeats": args.repeats,
        "meetings": args.meetings,
        "comparisons": args.comparisons,
        "positions": args.positions,
        "specimens": args.specimens,
        "cases": results,
    }
    text = json.dumps(report, indent=1)
    print(text)
    name = (
        "learner_games"
        if len(args.cases) == len(CASES)
        else "_".join(["learner_games", *args.cases])
    )
    out = ROOT / "benchmarks" / "results" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
