"""Registers Kalah, its encodings, the ``kalah-solver`` searcher and the ``solve`` command."""

from __future__ import annotations

import json

import click

from mindgames import EncodingInfo, GameInfo, SearcherInfo, hookimpl
from mindgames.errors import MindgamesError
from mindgames.games.kalah import encodings
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solveragent import KalahSolver
from mindgames.interrupts import time_limit


@hookimpl
def mindgames_games() -> list[GameInfo]:
    return [GameInfo("kalah", Kalah, "Kalah(m, n): m pits a side, n seeds a pit")]


@hookimpl
def mindgames_encodings() -> list[EncodingInfo]:
    return [
        EncodingInfo(
            "kalah",
            "kalah14",
            encodings.kalah14,
            encodings.Kalah14Options,
            "pits and stores / total seeds (x scale), side to move first",
        ),
        EncodingInfo(
            "kalah",
            "kalah-features",
            encodings.features,
            None,
            "store difference, vulnerable and attackable pits, seed difference, seeds left",
        ),
        EncodingInfo(
            "kalah",
            "kalah-counts",
            encodings.counts,
            encodings.CountsOptions,
            "each pit's seed count one-hot, store difference",
        ),
        EncodingInfo(
            "kalah",
            "kalah-moves",
            encodings.moves,
            None,
            "per pit and side: extra turn, store gain (capture included) of sowing it now",
        ),
        EncodingInfo("kalah", "material", encodings.material, None, "store difference"),
    ]


@hookimpl
def mindgames_searchers() -> list[SearcherInfo]:
    return [
        SearcherInfo(
            "kalah-solver",
            KalahSolver,
            "Kalah: exact play once the rest of the game solves within a node budget, "
            "alpha-beta before",
        )
    ]


@click.command()
@click.argument("game_spec", metavar="GAME")  # no default: Kalah(6,4) is beyond the solver
@click.option("--position", help="Position text; default the start.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"game", "position", "value", "mover_value", "best_moves", "nodes", "seconds"}.',
)
@click.option(
    "--time",
    "seconds",
    type=click.FloatRange(min=0),
    default=300,
    show_default=True,
    help="Give up after this many seconds (0: no limit).",
)
def solve(game_spec: str, position: str | None, as_json: bool, seconds: float) -> None:
    """Solve a Kalah position exactly: the final margin with perfect play."""
    from mindgames.games.kalah.solver import solve as solve_position
    from mindgames.registry import get_registry

    game = get_registry().game(game_spec)
    if not isinstance(game, Kalah):
        raise MindgamesError(f"solve works on kalah, not {game.name!r}")
    state = game.initial_state() if position is None else game.parse_position(position)
    if game.is_terminal(state):
        raise MindgamesError("the position is already over: nothing to solve")
    with time_limit(seconds, f"solve {game_spec}"):
        sol = solve_position(game, state)
    data = {
        "game": game.spec(),
        "position": game.position_text(state),
        "value": sol.south_margin,
        "mover_value": sol.value,
        "best_moves": list(sol.best_moves),
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 6),
    }
    if as_json:
        click.echo(json.dumps(data))
        return
    who = "South" if sol.south_margin > 0 else "North" if sol.south_margin < 0 else "nobody"
    click.echo(f"{data['game']}  {data['position']}")
    click.echo(f"value (South's final margin): {sol.south_margin:+d}  ({who} wins)")
    click.echo(
        f"best move(s) for {game.player_names[state[1]]}: {' '.join(map(str, sol.best_moves))}"
    )
    click.echo(f"{sol.nodes} nodes in {sol.seconds:.2f} s")


@hookimpl
def mindgames_commands() -> list[click.Command]:
    return [solve]
