"""The README's tour stays true: it shows every command, and every option it uses exists."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click

from mindgames.cli.main import cli

README = Path(__file__).resolve().parents[2] / "README.md"


def tour_lines() -> list[list[str]]:
    """The ``mindgames ...`` lines of the README's console blocks as words (comments cut)."""
    blocks = re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    text = "\n".join(blocks).replace("\\\n", " ")
    return [shlex.split(line, comments=True) for line in text.splitlines() if "mindgames " in line]


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
    shown = {line[1] for line in tour_lines() if len(line) > 1}
    listed = set(cli.list_commands(click.Context(cli)))
    assert listed - shown == set()


def test_every_option_of_the_tour_exists():
    for words in tour_lines():
        if words[1:2] in (["--version"], ["--help"]):
            continue
        command, rest = command_of(words)
        known = {name for p in command.params for name in getattr(p, "opts", [])}
        used = {w.split("=")[0] for w in rest if w.startswith("-")}
        assert used <= known, (" ".join(words), used - known)
