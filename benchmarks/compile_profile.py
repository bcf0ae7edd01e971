"""Which compiled functions the cold compile spends its time in (issue 33: at most 60 CPU s).

Runs the named steps of ``mindgames.compiled.warmup`` (all by default) in this process, with
numba's ``numba:compile`` events recorded: each function's own CPU seconds (its compile minus the
compiles nested in it), summed per function over its specialisations, and how long LLVM held its
lock (code generation and optimisation) in all. Run it with empty caches, or it measures loads:

    NUMBA_CACHE_DIR=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d) \\
        .venv/bin/python benchmarks/compile_profile.py "checkers alphabeta material"

A generated search module's functions are named ``search.<function>`` (alphabeta_kernel.py) and
the TD template's ``td.<function>`` (plugins/learners/td/kernel.py). The argument types of the
functions with more than one specialisation are printed too. Prints JSON.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from typing import Any

from numba.core import event


class _Compiles(event.Listener):
    """Each compile's own CPU seconds (nested compiles subtracted)."""

    def __init__(self) -> None:
        self.stack: list[list[float]] = []
        self.rows: list[tuple[str, str, float]] = []

    def on_start(self, ev: Any) -> None:
        self.stack.append([time.process_time(), 0.0])

    def on_end(self, ev: Any) -> None:
        start, nested = self.stack.pop()
        spent = time.process_time() - start
        if self.stack:
            self.stack[-1][1] += spent
        dispatcher = ev.data["dispatcher"]
        fn = getattr(dispatcher, "py_func", dispatcher)
        module = getattr(fn, "__module__", "?").removeprefix("mindgames.")
        if module.startswith("mindgames_alphabeta_kernel_"):
            module = "search"
        elif module.startswith("mindgames_kernel_"):
            module = "td"
        name = f"{module}.{getattr(fn, '__name__', '?')}"
        self.rows.append((name, str(ev.data["args"]), spent - nested))


class _Held(event.Listener):
    """CPU seconds while the LLVM lock is held (outermost holds only)."""

    def __init__(self) -> None:
        self.depth = 0
        self.start = 0.0
        self.total = 0.0

    def on_start(self, ev: Any) -> None:
        if self.depth == 0:
            self.start = time.process_time()
        self.depth += 1

    def on_end(self, ev: Any) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.total += time.process_time() - self.start


def main() -> None:
    from mindgames.compiled import warmup
    from mindgames.registry import get_registry

    wanted = sys.argv[1:]
    compiles, llvm = _Compiles(), _Held()
    steps: dict[str, float] = {}
    with (
        event.install_listener("numba:compile", compiles),
        event.install_listener("numba:llvm_lock", llvm),
    ):
        for family in warmup.steps(get_registry()).values():
            for name, step in family:
                if not wanted or name in wanted:
                    start = time.process_time()
                    step()
                    steps[name] = round(time.process_time() - start, 2)
    own: dict[str, float] = defaultdict(float)
    signatures: dict[str, list[str]] = defaultdict(list)
    for name, args, spent in compiles.rows:
        own[name] += spent
        signatures[name].append(args)
    report = {
        "steps_cpu_s": steps,
        "compiles_cpu_s": round(sum(own.values()), 2),
        "llvm_lock_cpu_s": round(llvm.total, 2),
        "functions_cpu_s": {
            f"{name} x{len(signatures[name])}": round(s, 2)
            for name, s in sorted(own.items(), key=lambda kv: -kv[1])
            if s >= 0.1
        },
        "specialisations": {
            name: args for name, args in signatures.items() if len(args) > 1 and own[name] >= 0.5
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    from mindgames.compiletuning import run_tuned

    run_tuned(main)  # as the mindgames command and the warm-up run
