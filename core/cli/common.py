"""Helpers shared by CLI commands: reading position lines, JSON output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click

from mindgames.errors import MindgamesError


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data))


def position_lines(path: str) -> Iterator[tuple[int, str]]:
    """Every line of a file (``-`` for standard input), with its line number.

    Blank lines are yielded too, so that a batch command prints exactly one output line per
    input line (a blank one gets an error object) and outputs never fall out of step.
    """
    stream = click.open_file(path, "r", encoding="utf-8")
    try:
        for number, line in enumerate(stream, 1):
            yield number, line.rstrip("\r\n")
    except OSError as exc:
        raise MindgamesError(f"{path}: cannot read: {exc}") from None
    finally:
        stream.close()
