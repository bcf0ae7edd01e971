"""The README's tour and the docs' console lines stay true: the tour shows every command, and
every command and option a ``mindgames`` line of a console block uses exists."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import click
import pytest

from mindgames.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = [
    README,
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "notes").glob("*.md")),
    *sorted((ROOT / "examples").glob("*/README.md")),
    ROOT / "benchmarks" / "README.md",
]


def console_lines(path: Path) -> list[list[str]]:
    """The ``mindgames ...`` lines of a page's console blocks as words: comments cut, a
    synopsis's brackets and bars dropped, so ``[--seed S]`` names ``--seed``."""
    blocks = re.findall(r"```console\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    found = [line.strip().removeprefix("$ ") for line in lines]
    return [
        shlex.split(re.sub(r"[\[\]|]", " ", line), comments=True)
        for line in found
        if line.startswith("mindgames ")
    ]


def command_of(words: list[str]) -> tuple[click.Command, list[str]]:
    """The click command a line runs (sub-commands of groups followed) and its other words."""
    ctx = click.Context(cli)
    command: click.Command = cli
    rest = words[1:]
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        found = command.get_command(ctx, rest[0])
        assert found is not None, f"no command {rest[0]!r}: {' '.join(words)}"
        command, rest = found, rest[1:]
    return command, rest


def test_the_tour_shows_every_command_of_mindgames_help():
    shown = {line[1] for line in console_lines(README) if len(line) > 1}
    listed = set(cli.list_commands(click.Context(cli)))
    assert listed - shown == set()


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_and_option_of_a_page_exists(page):
    for words in console_lines(page):
        command, rest = command_of(words)
        known = {name for p in command.params for name in getattr(p, "opts", [])} | {"--help"}
        used = {w.split("=")[0] for w in rest if w.startswith("-") and w != "-"}
        assert used <= known, (" ".join(words), used - known)


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("MINDGAMES_TOUR_TEST") != "1",
    reason="the tour takes minutes (two trainings, a checkers gauntlet): MINDGAMES_TOUR_TEST=1 "
    "runs it (.ci/run does)",
)
def test_the_tour_and_playing_md_run_verbatim_in_order_on_a_fresh_clone(tmp_path):
    """Issue 38, defect 6: the tour and docs/playing.md named files nothing made
    (``games.pdn``, ``runs/td-s*``, ``runs/gauntlet``). Every line runs as written, after
    ``make demo``, in a directory holding only what a fresh clone holds (``play`` reads
    ``quit``; ``serve`` starts on a free port and is stopped)."""
    from support.tour import console_commands, demo_commands, fresh_clone, run_line

    clone = fresh_clone(tmp_path)
    lines = [
        *demo_commands(),
        *console_commands(README, "## A tour"),
        *console_commands(ROOT / "docs" / "playing.md"),
    ]
    assert len(lines) > 40
    for words in lines:
        run_line(words, clone)
