"""The compiled path against the Python path, in the same run (issue 33's acceptance cases).

Cases (CPU seconds, ``time.process_time``; medians of ``--repeats``; the compile is paid once
before timing and reported apart, as ``compile_s``):

* alpha-beta from the checkers start, depth 8, ``material``, default options;
* the same with a 32-10-1 tanh MLP on ``raw32``;
* give-away, depth 6, per move over the moves of ``--games`` seeded give-away games;
* Kalah(6,4) from the start, depth 10, ``material``;
* ``tournament examples/tournaments/checkers-gauntlet.toml --workers 2`` end to end (a fresh
  process each time, start-up and workers included; wall seconds, since the work is in workers);
* checkers perft from the start, every leaf made: the draughts kernels' ``perft`` against the
  Python engine (``Game.perft``) and OpenSpiel's C++ checkers through pyspiel, when installed.

Each timed run of a path follows an untimed run of the same path, as searches follow each other
in a game or a tournament: right after the other path, a compiled search of 1.1 ms took 2-3 ms,
the caches cold and the cyclic collector collecting the Python search's garbage in its first
allocations (the searches run with the collector paused). A timed run makes at least
``MIN_SEARCHES`` searches (a case of one position searches it again), so that it measures a
path's steady speed: after a Python search, the compiled depth-8 checkers searches took 1.01,
0.73, 0.69, 0.66 ms one after another (medians of 25; stop 51). Both paths run every search,
and their moves, values and node and leaf counts are checked equal. The Python path is forced with
``MINDGAMES_PYTHON_PATH=1``. Prints JSON and writes benchmarks/results/compiled.json.

    .venv/bin/python benchmarks/bench_compiled.py [--repeats 5] [--games 2] [--skip-tournament]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.agent import build_agent
from mindgames.kernels import kernels_of
from mindgames.registry import get_registry

ROOT = Path(__file__).resolve().parents[1]
MLP = {"model": "mlp", "encoding": "raw32", "hidden": [10], "seed": 1}


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of ``fn()`` and its value."""
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


#: material counting pieces as checkers does (give-away's ``material`` before issue 39)
PIECES_UP = {"model": "material", "weights": {"men_diff": 1.0, "kings_diff": 1.0}}


def on_path(compiled: bool) -> None:
    os.environ["MINDGAMES_PYTHON_PATH"] = "0" if compiled else "1"


#: the searches a timed run makes at least: a case of fewer positions searches them again
MIN_SEARCHES = 8


def search_case(game_spec: str, agent_spec: Any, positions: list[Any], repeats: int) -> dict:
    """Both paths on every position: CPU per search (median over repeats of a run's mean)."""
    registry = get_registry()
    game = registry.game(game_spec)
    agent = build_agent(registry, game, agent_spec)
    passes = -(-MIN_SEARCHES // len(positions))
    searched = positions * passes

    def run() -> tuple[float, list[Any]]:
        # one generator a search, made before the clock starts: a game makes one a game, and
        # making one (about 30 us) is a tenth of a compiled give-away search
        rngs = [np.random.default_rng(i % len(positions)) for i in range(len(searched))]
        search, evaluator = agent.searcher.search, agent.evaluator
        start = time.process_time()
        out = [search(game, s, evaluator, rng) for s, rng in zip(searched, rngs, strict=True)]
        return time.process_time() - start, out

    on_path(True)
    compile_s, _ = cpu(run)  # the compile, and the generators made before the clock
    times: dict[str, list[float]] = {"python": [], "compiled": []}
    results: dict[str, list[Any]] = {}
    for _ in range(repeats):
        for path in ("python", "compiled"):
            on_path(path == "compiled")
            run()  # untimed: the timed run follows one of its own path (module docstring)
            seconds, results[path] = run()
            times[path].append(seconds / len(searched))
    same = all(
        (p.move, p.pv, p.stats.nodes, p.stats.leaves)
        == (c.move, c.pv, c.stats.nodes, c.stats.leaves)
        and abs(p.value - c.value) <= 1e-12
        for p, c in zip(results["python"], results["compiled"], strict=True)
    )
    paths = {r.stats.path for r in results["compiled"]}
    py, co = statistics.median(times["python"]), statistics.median(times["compiled"])
    return {
        "python_cpu_ms": round(1000 * py, 3),
        "compiled_cpu_ms": round(1000 * co, 3),
        "ratio": round(py / co, 2),
        "same_searches": same,
        "compiled_path": sorted(paths),
        "first_call_cpu_s": round(compile_s, 2),
        "positions": len(positions),
        "searches_per_run": len(searched),
        "nodes": sum(r.stats.nodes for r in results["compiled"][: len(positions)]),
    }


def game_positions(
    game_spec: str, games: int, seed: int, evaluation: Any = "material"
) -> list[Any]:
    """The positions of seeded games of greedy play with random ties (not finished ones)."""
    registry = get_registry()
    game = registry.game(game_spec)
    agent = build_agent(
        registry, game, {"searcher": "greedy", "random_ties": True, "eval": evaluation}
    )
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state) and game.progress(state) < 120:
            out.append(state)
            move = agent.searcher.search(game, state, agent.evaluator, rng).move
            state = game.play(state, move)
    return out


def perft_case(depth: int, repeats: int) -> dict:
    """Checkers perft from the start, every leaf made: kernels, Python engine, pyspiel."""
    import importlib

    registry = get_registry()
    game = registry.game("checkers")
    state = game.initial_state()
    kernels = kernels_of(game)
    assert kernels is not None, "checkers has no kernels"
    module: Any = importlib.import_module(kernels.module)
    row = np.ascontiguousarray(kernels.to_row(state), dtype=np.int64)
    module.perft(kernels.params, row, 2)  # compile
    out: dict[str, Any] = {"depth": depth}
    timings: dict[str, list[float]] = {"python": [], "compiled": [], "pyspiel": []}
    counts = {}
    try:
        import pyspiel

        spiel_state = pyspiel.load_game("checkers").new_initial_state()

        def spiel(s: Any, d: int) -> int:
            if d == 0:
                return 1
            total = 0
            for action in s.legal_actions():
                child = s.child(action)
                total += spiel(child, d - 1)
            return total

    except ImportError:
        spiel = None  # type: ignore[assignment]
    for _ in range(repeats):
        seconds, counts["compiled"] = cpu(lambda: module.perft(kernels.params, row, depth))
        timings["compiled"].append(seconds)
        seconds, counts["python"] = cpu(lambda: game.perft(state, depth))
        timings["python"].append(seconds)
        if spiel is not None:
            seconds, counts["pyspiel"] = cpu(lambda: spiel(spiel_state, depth))
            timings["pyspiel"].append(seconds)
    for path, values in timings.items():
        if values:
            leaves = counts[path]
            out[f"{path}_leaves_per_cpu_s"] = round(leaves / statistics.median(values))
            out[f"{path}_leaves"] = int(leaves)
    out["ratio_to_python"] = round(
        out["compiled_leaves_per_cpu_s"] / out["python_leaves_per_cpu_s"], 2
    )
    if "pyspiel_leaves_per_cpu_s" in out:
        out["ratio_to_pyspiel"] = round(
            out["compiled_leaves_per_cpu_s"] / out["pyspiel_leaves_per_cpu_s"], 2
        )
    return out


def tournament_case(repeats: int) -> dict:
    """The checkers gauntlet end to end in fresh processes, each path in turn (wall seconds)."""
    config = ROOT / "examples" / "tournaments" / "checkers-gauntlet.toml"
    times: dict[str, list[float]] = {"python": [], "compiled": []}
    exe = Path(sys.executable).with_name("mindgames")
    for _ in range(repeats):
        for path in ("python", "compiled"):
            env = {**os.environ, "MINDGAMES_PYTHON_PATH": "1" if path == "python" else "0"}
            with tempfile.TemporaryDirectory() as tmp:
                start = time.perf_counter()
                subprocess.run(
                    [str(exe), "tournament", str(config), "--out", f"{tmp}/run", "--workers", "2"],
                    check=True,
                    capture_output=True,
                    env=env,
                )
                times[path].append(time.perf_counter() - start)
    py, co = statistics.median(times["python"]), statistics.median(times["compiled"])
    return {
        "python_wall_s": round(py, 2),
        "compiled_wall_s": round(co, 2),
        "ratio": round(py / co, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--perft-depth", type=int, default=8)
    parser.add_argument("--skip-tournament", action="store_true")
    args = parser.parse_args()
    registry = get_registry()
    checkers = [registry.game("checkers").initial_state()]
    kalah = [registry.game("kalah").initial_state()]
    report: dict[str, Any] = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "load": os.getloadavg(),
    }
    report["checkers_depth8_material"] = search_case(
        "checkers", "alphabeta:depth=8,eval=material", checkers, args.repeats
    )
    report["checkers_depth8_mlp_32_10_1"] = search_case(
        "checkers", {"searcher": "alphabeta", "depth": 8, "eval": MLP}, checkers, args.repeats
    )
    # issue 33's case as its target was set: material counting pieces as checkers does; since
    # issue 39 give-away's own material (fewer pieces is better) is the default, and its games
    # and searches are other ones (smaller trees), measured beside it
    report["giveaway_depth6_per_move"] = search_case(
        "giveaway",
        {"searcher": "alphabeta", "depth": 6, "eval": PIECES_UP},
        game_positions("giveaway", args.games, 1, PIECES_UP),
        max(1, args.repeats // 2),
    )
    report["giveaway_depth6_declared_material"] = search_case(
        "giveaway",
        "alphabeta:depth=6,eval=material",
        game_positions("giveaway", args.games, 1),
        max(1, args.repeats // 2),
    )
    report["kalah_depth10_material"] = search_case(
        "kalah", "alphabeta:depth=10,eval=material", kalah, args.repeats
    )
    report["checkers_perft_made"] = perft_case(args.perft_depth, max(1, args.repeats // 2))
    if not args.skip_tournament:
        report["checkers_gauntlet_workers2"] = tournament_case(max(1, args.repeats // 2))
    report["load_after"] = os.getloadavg()
    text = json.dumps(report, indent=2)
    print(text)
    out = Path(__file__).with_name("results") / "compiled.json"
    out.write_text(text + "\n")


if __name__ == "__main__":
    main()
