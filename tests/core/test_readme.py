"""The README's tour and the docs' console lines stay true: the tour shows every command, and
every command and option a ``mindgames`` line of a console block uses exists."""

from __future__ import annotations

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
