"""Helpers shared by CLI commands: reading position lines, JSON output."""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from mindgames.errors import Interrupted, MindgamesError
from mindgames.game import Game, State

#: the type of every ``--seed`` option: numpy seeds are non-negative integers
SEED = click.IntRange(min=0)


def piece_spread(text: str | None) -> tuple[int, int] | None:
    """``--spread LO-HI``: two piece counts, 0 <= LO <= HI."""
    if text is None:
        return None
    lo, sep, hi = text.partition("-")
    try:
        band = (int(lo), int(hi))
    except ValueError:
        band = None
    if not sep or band is None or not 0 <= band[0] <= band[1]:
        raise click.BadParameter(f"expected LO-HI with 0 <= LO <= HI, got {text!r}")
    return band


@contextlib.contextmanager
def resumable(can_resume: bool = True) -> Iterator[None]:
    """Add to an ``Interrupted`` run's message the command line that resumes it."""
    try:
        yield
    except Interrupted as exc:
        if not can_resume:
            raise Interrupted(f"{exc}; nothing was kept (give --out to keep results)") from None
        args = sys.argv[1:]
        again = shlex.join(["mindgames", *args, *([] if "--resume" in args else ["--resume"])])
        raise Interrupted(f"{exc}; resume with: {again}") from None


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
    except (OSError, UnicodeDecodeError) as exc:
        raise MindgamesError(f"{path}: cannot read: {exc}") from None
    finally:
        stream.close()


def positions_option(prints: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--positions FILE`` option of the batch forms; ``prints`` says what each line gives."""
    return click.option(
        "--positions",
        "positions_file",
        type=click.Path(allow_dash=True),
        help=f"File of positions, one a line ('-' for stdin): prints {prints} a line.",
    )


def answer_each_position(
    path: str, game: Game, answer: Callable[[State, int], Any], position: str | None = None
) -> None:
    """Print ``answer(state, line number)`` as JSON for each line of a positions file.

    A line that fails (bad text, a finished game...) gets ``{"error": ..., "line": n}`` and the
    run goes on, so thousands of positions are checked in one process.
    """
    if position is not None:
        raise MindgamesError("give --position or --positions, not both")
    for number, line in position_lines(path):
        try:
            echo_json(answer(game.parse_position(line.strip()), number))
        except MindgamesError as exc:
            echo_json({"error": str(exc), "line": number})
