"""Fake installed distributions and the CLI run in a subprocess that finds them.

A distribution here is a module plus a ``dist-info`` with ``entry_points.txt`` in a directory put
on ``PYTHONPATH``: importlib.metadata finds it exactly as it finds a pip-installed one, in
milliseconds and without touching the test environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: the Nim example distribution (docs/plugins.md): its entry-point module and its kernel module
NIM_EXAMPLE = Path(__file__).parents[2] / "examples" / "nim-plugin"


def make_dist(
    root: Path,
    dist: str,
    module: str,
    source: str,
    entry: str,
    extra: Mapping[str, str] | None = None,
) -> None:
    """Write distribution ``dist`` (version 1.0) whose entry point ``entry`` names ``module``;
    ``extra`` maps further module names to their sources (a plugin's kernel module, say)."""
    (root / f"{module}.py").write_text(source)
    for name, text in (extra or {}).items():
        (root / f"{name}.py").write_text(text)
    # the folder's name is the normalized one: "mindgames-nim-1.0" would read as mindgames 1.0
    info = root / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[mindgames]\n{entry} = {module}\n")
    (info / "RECORD").write_text("")


def nim_kernels_module() -> dict[str, str]:
    """The Nim example's kernel module as ``make_dist``'s ``extra`` (its name -> its source): the
    game names it in ``Nim.kernels()``, so a copy of the game needs it beside."""
    return {"mindgames_nim_kernels": (NIM_EXAMPLE / "mindgames_nim_kernels.py").read_text()}


def run_cli(
    site: Path | None, *args: str, strict: bool = False, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``mindgames ARGS`` in a fresh interpreter that also sees the distributions in ``site``."""
    full = dict(os.environ, MINDGAMES_STRICT_PLUGINS="1" if strict else "0", **env)
    if site is not None:
        full["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    code = "from mindgames.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )
