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
    """Non-blank lines of a file (``-`` for standard input), with their line numbers."""
    stream = click.open_file(path, "r", encoding="utf-8")
    try:
        for number, line in enumerate(stream, 1):
            if line.strip():
                yield number, line.rstrip("\n")
    except OSError as exc:
        raise MindgamesError(f"{path}: cannot read: {exc}") from None
    finally:
        stream.close()
