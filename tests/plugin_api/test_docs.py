"""docs/plugins.md stays true: its code runs, its excerpts match the files, every hook is in it.

A ``python`` block runs (in order, in one namespace) unless it starts with ``# file: PATH``; then
it, like such a ``toml`` block, must be an excerpt of that file. Each ``$ mindgames`` line of a
``console`` block runs through the real CLI with the Nim example installed as a distribution.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import attrs
import click
import numpy as np
import pytest

from mindgames import LearnerInfo, Searcher, SearcherInfo, SearchResult, hookimpl
from mindgames.hookspecs import HOOK_NAMES
from mindgames.learner import Learner
from mindgames.registry import registry_with

from support.dists import make_dist, nim_kernels_module, run_cli
from support.tictactoe import TicTacToePlugin
from support.tinymodel import TinyModelPlugin

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "plugins.md").read_text()
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```$", DOC, re.MULTILINE | re.DOTALL)
NIM = ROOT / "examples" / "nim-plugin"


def excerpt_of(block: str) -> tuple[Path, str] | None:
    first, _, rest = block.partition("\n")
    found = re.fullmatch(r"# file: (\S+)", first)
    return (ROOT / found.group(1), rest) if found else None


def test_excerpts_are_taken_from_the_files_they_name():
    excerpts = [excerpt_of(b) for lang, b in BLOCKS if lang in ("python", "toml")]
    assert len([e for e in excerpts if e]) >= 4
    for found in filter(None, excerpts):
        path, text = found
        assert text in path.read_text(), f"docs/plugins.md has an excerpt that {path} lacks"


def test_python_snippets_run(monkeypatch):
    monkeypatch.syspath_prepend(str(NIM))
    namespace: dict[str, object] = {}
    snippets = [b for lang, b in BLOCKS if lang == "python" and not excerpt_of(b)]
    assert len(snippets) >= 2
    for snippet in snippets:
        exec(compile(snippet, "docs/plugins.md", "exec"), namespace)


def test_console_commands_run_with_the_example_installed(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    source = (NIM / "mindgames_nim.py").read_text()
    make_dist(site, "mindgames-nim", "mindgames_nim", source, "nim", nim_kernels_module())
    commands = [
        shlex.split(line[2:])
        for lang, block in BLOCKS
        if lang == "console"
        for line in block.splitlines()
        if line.startswith("$ mindgames ")
    ]
    assert len(commands) >= 6
    for command in commands:
        out = run_cli(site, *command[1:], strict=True, cwd=tmp_path)
        assert out.returncode == 0, f"{' '.join(command)}: {out.stderr}"


# --- every hookspec is documented and implemented by a test plugin -----------------------------


@attrs.frozen
class Still(Searcher):
    name = "still"
    needs_evaluator = False

    def search(self, game, state, evaluator, rng):
        return SearchResult(game.legal_moves(state)[0], 0.0)


@attrs.frozen
class Idle(Learner):
    name = "idle"

    def train(self, game, evaluator, rng, *, workdir, resume=False, progress=None):
        raise NotImplementedError


@click.command("hello")
def hello() -> None:
    """Say hello (a plugin command)."""
    click.echo("hello")


class EveryHook(TicTacToePlugin, TinyModelPlugin):
    """One plugin implementing every hook (games, encodings and models from the test plugins)."""

    @hookimpl
    def mindgames_learners(self):
        return [LearnerInfo("idle", Idle)]

    @hookimpl
    def mindgames_searchers(self):
        return [SearcherInfo("still", Still)]

    @hookimpl
    def mindgames_commands(self):
        return [hello]


def test_every_hookspec_is_documented_and_implemented_by_a_test_plugin():
    implemented = {name for name in dir(EveryHook) if name.startswith("mindgames_")}
    assert implemented == set(HOOK_NAMES)
    for hook in HOOK_NAMES:
        assert f"| `{hook}`" in DOC, f"{hook} is not in the hook table of docs/plugins.md"
    registry = registry_with(("every", EveryHook()))
    assert registry.games["tictactoe"].source.name == "every"
    assert ("tictactoe", "cells") in registry.encodings
    assert registry.models["tiny"].source.distribution == "test"
    assert registry.learners["idle"].record.cls is Idle
    game = registry.game("tictactoe")
    still = registry.searcher("still", {}, where="test")
    state = game.initial_state()
    assert still.search(game, state, None, np.random.default_rng(0)).move == 0
    assert registry.commands["hello"].record is hello


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_each_hook_has_a_docstring(hook):
    from mindgames import hookspecs

    assert (getattr(hookspecs, hook).__doc__ or "").strip()
