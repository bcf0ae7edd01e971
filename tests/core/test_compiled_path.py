"""The compiled path's plumbing: numba stays out of commands that do not search, an unwritable
cache directory never breaks a search, and a changed kernel is never served from a stale cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parents[1]


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=TESTS,
        timeout=300,
    )


def test_commands_that_do_not_search_never_import_numba():
    code = """
import sys
from click.testing import CliRunner
from mindgames.cli.main import cli
for args in (["plugins"], ["describe", "alphabeta"], ["describe", "checkers"], ["describe", "mlp"]):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, (args, result.output)
print("numba" in sys.modules)
"""
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


SEARCH = """
import numpy as np
from mindgames.agent import build_agent
from mindgames.registry import registry_with
from support.tictactoe_kernels import KernelTicTacToePlugin
registry = registry_with(("tictactoe", KernelTicTacToePlugin()))
game = registry.game("tictactoe")
agent = build_agent(registry, game, "greedy:eval=material")
rng = np.random.default_rng(1)
result = agent.searcher.search(game, game.initial_state(), agent.evaluator, rng)
print(result.stats.path, result.move, result.value)
"""


def test_an_unwritable_cache_directory_never_breaks_a_compiled_search(tmp_path):
    """A greedy search (the compiled template's smallest entry point: this compiles cold, as
    nothing can be cached) runs compiled and answers as the Python path does."""
    done = run_python(
        SEARCH, NUMBA_CACHE_DIR="/dev/null/numba-cache", XDG_CACHE_HOME=str(tmp_path / "cache")
    )
    assert done.returncode == 0, done.stderr
    path, move, value = done.stdout.split()
    assert path == "compiled"
    assert (tmp_path / "cache" / "mindgames" / "generated").is_dir()
    python = run_python(SEARCH, MINDGAMES_PYTHON_PATH="1")
    assert python.returncode == 0, python.stderr
    assert python.stdout.split() == ["python", move, value]


def test_a_compiled_search_leaves_scipy_and_yaml_unimported_and_blas_kernels_still_work():
    code = """
import sys
import numpy as np
from click.testing import CliRunner
from mindgames.cli.main import cli
result = CliRunner().invoke(cli, ["analyse", "kalah", "--agent", "alphabeta:depth=4,eval=material"])
assert result.exit_code == 0, result.output
print("compiled" in result.output, "scipy" in sys.modules or "yaml" in sys.modules)
from numba import njit
@njit
def dot(a, b):
    return np.dot(a, b)
print(dot(np.ones(3), np.arange(3.0)))
"""
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["True False", "3.0"]


def test_a_changed_kernel_module_binds_a_new_generated_module(tmp_path, monkeypatch):
    from mindgames.compiled.specialise import bind

    template = tmp_path / "template.py"
    template.write_text("# <bind>\nfrom x import y as z\n# </bind>\nVALUE = z()\n")
    kernel = tmp_path / "kernel_for_bind_test.py"
    monkeypatch.syspath_prepend(str(tmp_path))
    kernel.write_text("def answer():\n    return 1\n")
    first = bind(template, {"z": ("kernel_for_bind_test", "answer")})
    assert first.VALUE == 1
    sys.modules.pop("kernel_for_bind_test")
    kernel.write_text("def answer():\n    return 2\n")
    # a new process would see the new source: the digest, hence the module, differs
    from mindgames.compiled import specialise

    specialise._bound.clear()
    second = bind(template, {"z": ("kernel_for_bind_test", "answer")})
    assert second.__name__ != first.__name__ and second.VALUE == 2


BOUND_NAME = """
import sys
if sys.argv[1] == "solver-first":
    import mindgames.games.kalah.solver  # what `quality` and `solve` import before searching
from mindgames.agent import build_agent
from mindgames.plugins.searchers import alphabeta_compiled
from mindgames.registry import get_registry
registry = get_registry()
game = registry.game("kalah")
agent = build_agent(registry, game, "alphabeta:depth=2,eval=material")
plan = alphabeta_compiled.plan(agent.searcher, game, agent.evaluator)
print(alphabeta_compiled._kernel_module(plan).__name__)
"""


def test_the_bound_searcher_is_named_by_the_sources_not_by_what_the_process_imported():
    """Two processes that imported different modules of the game's package first bind (and so
    compile and cache) one searcher, not one each."""
    names = set()
    for first in ("search-first", "solver-first"):
        done = subprocess.run(
            [sys.executable, "-c", BOUND_NAME, first],
            capture_output=True,
            text=True,
            cwd=TESTS,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        names.add(done.stdout.strip())
    assert len(names) == 1 and names.pop().startswith("mindgames_alphabeta_kernel_")
