"""A plugin brings kernels: the Nim example, installed by pip as the two-module distribution it
ships, passes check-game's kernel check and is searched compiled, with the Python path's answer.

The distribution is copied out of the repository (an in-tree build would leave ``build/`` behind)
and installed by a real ``pip install`` (no dependencies, no build isolation) into a temporary
target directory on ``PYTHONPATH``; every command is the real CLI in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.dists import NIM_EXAMPLE, run_cli

ANALYSE = ("analyse", "nim:heaps=[3,4,5]", "--agent", "alphabeta:depth=6,eval=material", "--json")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Nim example distribution installed by pip into a fresh target directory."""
    root = tmp_path_factory.mktemp("nim")
    source = root / "nim-plugin"
    shutil.copytree(
        NIM_EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    target = root / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return target


def test_the_distribution_ships_both_modules_and_the_game_loads_no_numba(site):
    assert {p.name for p in site.glob("mindgames_nim*.py")} == {
        "mindgames_nim.py",
        "mindgames_nim_kernels.py",
    }
    probe = "import sys, mindgames_nim; print('numba' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(site)),
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_check_game_checks_the_kernels(site):
    checked = run_cli(site, "check-game", "nim", "--playouts", "10", strict=True)
    assert checked.returncode == 0, checked.stderr
    assert "kernels equal the Python rules" in checked.stdout
    assert "conforms" in checked.stdout


def test_analyse_runs_compiled_with_the_python_paths_answer(site):
    compiled = run_cli(site, *ANALYSE, strict=True)
    assert compiled.returncode == 0, compiled.stderr
    python = run_cli(site, *ANALYSE, strict=True, MINDGAMES_PYTHON_PATH="1")
    assert python.returncode == 0, python.stderr
    fast, slow = json.loads(compiled.stdout), json.loads(python.stdout)
    assert fast["stats"]["path"] == "compiled"
    assert slow["stats"]["path"] == "python"
    assert (fast["move"], fast["value"]) == (slow["move"], slow["value"])
    assert fast["stats"]["nodes"] == slow["stats"]["nodes"] > 0
