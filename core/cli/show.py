"""``mindgames show``: step through a recorded game on the board, with its move list.

Reads what ``mindgames.play.replays`` reads: tournament and match results, a saved game, PDN. Each
line typed (a newline from a pipe) steps one ply; ``--all`` prints every ply at once.
"""

from __future__ import annotations

import json
import sys
import textwrap

import click

from mindgames.play.replays import RecordedGame, describe, load_games
from mindgames.registry import get_registry

KEYS = "Enter: next, p: back, N: ply N, e: end, q: quit"


@click.command()
@click.argument("path", metavar="FILE", type=click.Path(exists=True))
@click.option(
    "--number",
    "-n",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Which game of the file, counted in its order from 1 (results: the game's index + 1).",
)
@click.option(
    "--game", "rules", default=None, metavar="GAME", help="The game of a record file such as PDN."
)
@click.option("--all", "show_all", is_flag=True, help="Print every ply at once.")
@click.option("--list", "list_games", is_flag=True, help="List the file's games and stop.")
@click.option("--json", "as_json", is_flag=True, help="Print the game's moves and positions.")
def show(
    path: str,
    number: int,
    rules: str | None,
    show_all: bool,
    list_games: bool,
    as_json: bool,
) -> None:
    """Replay a recorded game of FILE (results JSONL, a run directory, PDN) ply by ply."""
    found = load_games(path, get_registry(), rules)
    if list_games:
        for number_there, item in found.lines():
            click.echo(f"game {number_there}: {item}" if isinstance(item, str) else _title(item))
        return
    recorded = found.pick(number)
    if as_json:
        click.echo(json.dumps(describe(recorded)))
        return
    click.echo(_title(recorded))
    _step(recorded, 0)
    if show_all:
        for ply in range(1, len(recorded.moves) + 1):
            _step(recorded, ply)
        return
    _browse(recorded)


def _browse(recorded: RecordedGame) -> None:
    """Step on each line read: next, back, a ply number, the end; stop at quit or end of input."""
    ply, last = 0, len(recorded.moves)
    interactive = sys.stdin.isatty()
    while True:
        if interactive:
            click.echo(f"[{KEYS}] > ", nl=False)
        line = sys.stdin.readline()
        if not line:
            return
        typed = line.strip().lower()
        if typed == "q":
            return
        if typed.isdigit():
            target = int(typed)
        else:
            target = {"": ply + 1, "n": ply + 1, "p": ply - 1, "e": last}.get(typed, -1)
            if target == -1:
                click.echo(f"  {KEYS}")
                continue
        if not 0 <= target <= last:
            if typed in ("", "n") and not interactive:
                return  # a pipe stepped past the end
            click.echo(f"  the game has plies 0-{last}")
            continue
        ply = target
        _step(recorded, ply)


def _title(recorded: RecordedGame) -> str:
    names = recorded.game.player_names
    players = f"{recorded.players[0]} ({names[0]}) vs {recorded.players[1]} ({names[1]})"
    about = f"; {recorded.about}" if recorded.about else ""
    opening = recorded.opening_plies  # the record's "plies" counts the moves after these
    plies = f"{len(recorded.moves) - opening} plies"
    if opening:
        plies += f" after {opening} opening plies"
    return (
        f"game {recorded.number}: {recorded.game.spec()}, {players}: {recorded.result}, "
        f"{plies}{about}"
    )


def _step(recorded: RecordedGame, ply: int) -> None:
    """The position after ``ply`` plies, what was played to reach it, and the move list."""
    game, state = recorded.game, recorded.states[ply]
    if ply == 0:
        click.echo("\nstart")
    else:
        mover = game.player_names[game.to_move(recorded.states[ply - 1])]
        click.echo(f"\nply {ply}/{len(recorded.moves)}: {mover} {recorded.moves[ply - 1]}")
    click.echo(game.render(state))
    listed = [f"[{n}.{m}]" if n == ply else f"{n}.{m}" for n, m in enumerate(recorded.moves, 1)]
    text = "moves: " + (" ".join(listed) if listed else "none")
    click.echo(textwrap.fill(text, 96, break_on_hyphens=False, subsequent_indent="       "))
    if ply == len(recorded.moves):
        click.echo(f"end: {recorded.result}")


COMMANDS = (show,)
