"""Game commands that work on any registered game: moves, perft, check-game."""

from __future__ import annotations

import time

import click

from mindgames.cli.common import SEED, answer_each_position, echo_json, positions_option
from mindgames.game import Game, State
from mindgames.registry import get_registry


def _position(game: Game, text: str | None) -> State:
    return game.initial_state() if text is None else game.parse_position(text)


def _move_texts(game: Game, state: State) -> list[str]:
    return sorted(game.move_text(state, m) for m in game.legal_moves(state))


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option("--position", help="Position text (FEN for draughts); default the start.")
@positions_option("one JSON list of moves")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def moves(game_spec: str, position: str | None, positions_file: str | None, as_json: bool) -> None:
    """Print every legal move of a position in the game's notation."""
    game = get_registry().game(game_spec)
    if positions_file is not None:

        def moves_of(state: State, _number: int) -> list[str]:
            return _move_texts(game, state)

        answer_each_position(positions_file, game, moves_of, position)
        return
    texts = _move_texts(game, _position(game, position))
    if as_json:
        echo_json(texts)
    else:
        for text in texts:
            click.echo(text)


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option("--depth", type=click.IntRange(1), required=True, help="Deepest ply to count.")
@click.option("--position", help="Position text; default the start.")
@click.option("--json", "as_json", is_flag=True, help='Print {"counts": [...], "seconds": s}.')
def perft(game_spec: str, depth: int, position: str | None, as_json: bool) -> None:
    """Count the leaves of the full move tree at depths 1..N."""
    game = get_registry().game(game_spec)
    state = _position(game, position)
    counts, start = [], time.perf_counter()
    for d in range(1, depth + 1):
        counts.append(game.perft(state, d))
        if not as_json:
            click.echo(f"depth {d}: {counts[-1]}")
    seconds = time.perf_counter() - start
    if as_json:
        echo_json({"counts": counts, "seconds": round(seconds, 6)})
    else:
        click.echo(f"{seconds:.3f} s")


@click.command("check-game")
@click.argument("game_spec", metavar="GAME")
@click.option("--playouts", type=click.IntRange(1), default=20, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
def check_game_command(game_spec: str, playouts: int, seed: int) -> None:
    """Run the conformance suite on a game: random playouts checking the Game contract."""
    from mindgames.conformance import check_game
    from mindgames.kernels import kernels_of

    registry = get_registry()
    game = registry.game(game_spec)
    encodings = [registry.encoding(game, e.name) for e in registry.encodings_for(game.name)]
    kernels = kernels_of(game)
    if kernels is not None:  # the kernels' encodings with options (raw32:piece_sum=true) too
        names = {e.name for e in encodings}
        encodings += [registry.encoding(game, n) for n in kernels.encodings if n not in names]
    report = check_game(game, encodings, playouts=playouts, seed=seed)
    for check in report.checks:
        click.echo(f"ok  {check}")
    click.echo(f"capabilities: {', '.join(report.capabilities) or 'none'}")
    click.echo(
        f"{report.game}: {report.playouts} playouts, {report.positions} positions, "
        f"encodings: {', '.join(report.encodings) or 'none'} -- conforms"
    )


COMMANDS = (moves, perft, check_game_command)
