"""``mindgames play``: one game between two agents, or against a human at the terminal."""

from __future__ import annotations

import click
import numpy as np

from mindgames.agent import Agent, build_agent
from mindgames.cli.common import SEED
from mindgames.errors import MindgamesError
from mindgames.game import Game, Move, State
from mindgames.registry import get_registry

HUMAN = "human"


def _human_move(game: Game, state: State) -> Move:
    """Ask at the terminal until a legal move is typed."""
    legal = sorted(game.move_text(state, m) for m in game.legal_moves(state))
    while True:
        text = click.prompt(f"your move ({' '.join(legal)})", prompt_suffix=" > ")
        try:
            return game.parse_move(state, text)
        except MindgamesError as exc:
            click.echo(f"  {exc}")


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.argument("first", metavar="FIRST")
@click.argument("second", metavar="SECOND")
@click.option("--position", help="Start from this position text instead of the start.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--board/--no-board", default=True, help="Show the board after every move.")
@click.option("--max-plies", type=click.IntRange(1), default=1000, show_default=True)
def play(
    game_spec: str,
    first: str,
    second: str,
    position: str | None,
    seed: int,
    board: bool,
    max_plies: int,
) -> None:
    """Play one game: FIRST moves first. An agent spec, or 'human' to type moves."""
    registry = get_registry()
    game = registry.game(game_spec)
    agents: list[Agent | None] = [
        None if spec == HUMAN else build_agent(registry, game, spec) for spec in (first, second)
    ]
    rng = np.random.default_rng(seed)
    state = game.initial_state() if position is None else game.parse_position(position)
    if board:
        click.echo(game.render(state))
    for ply in range(max_plies):
        if game.is_terminal(state):
            break
        side = game.to_move(state)
        agent = agents[side]
        if agent is None:
            move = _human_move(game, state)
            note = ""
        else:
            result = agent.choose(game, state, rng)
            move, note = result.move, f"  (value {result.value:+.3f})"
        name = game.player_names[side]
        click.echo(f"{ply + 1:>3}. {name}: {game.move_text(state, move)}{note}")
        state = game.play(state, move)
        if board:
            click.echo(game.render(state))
    if game.is_terminal(state):
        returns = game.returns(state)
        if returns[0] == returns[1]:
            click.echo("result: draw")
        else:
            click.echo(f"result: {game.player_names[0 if returns[0] > 0 else 1]} wins")
    else:
        click.echo(f"result: unfinished after {max_plies} plies")
    click.echo(f"final position: {game.position_text(state)}")


COMMANDS = (play,)
