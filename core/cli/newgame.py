"""``mindgames new-game NAME``: write the skeleton of a game plugin distribution."""

from __future__ import annotations

from pathlib import Path

import click

from mindgames.errors import MindgamesError
from mindgames.registry import get_registry
from mindgames.scaffold import write_skeleton


@click.command("new-game")
@click.argument("name")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write it (new or empty); default ./mindgames-NAME.",
)
@click.option(
    "--kernels",
    is_flag=True,
    help="Also write kernels.py: the compiled path's functions as numba stubs to fill in.",
)
def new_game(name: str, directory: Path | None, kernels: bool) -> None:
    """Write a plugin distribution for a new game: pyproject, game, encoding, test, README
    (and with --kernels a kernel module for the compiled path)."""
    installed = get_registry().games.get(name)
    if installed is not None:  # two games of one name stop every command once both are installed
        raise MindgamesError(
            f"a game named {name!r} is installed already ({installed.source.distribution}); "
            "choose another name"
        )
    target = directory or Path(f"mindgames-{name.replace('_', '-')}")
    written = write_skeleton(name, target, kernels=kernels)
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(
        f"next: fill in each NotImplementedError, then `pip install -e {target}` and "
        f"`mindgames check-game {name}`"
    )


COMMANDS = (new_game,)
