"""``mindgames analyse``: an agent's best move, value, principal variation and search statistics
for one position, or for a file of positions (one JSON object a line, in order)."""

from __future__ import annotations

from typing import Any

import click
import numpy as np

from mindgames.agent import Agent, build_agent
from mindgames.cli.common import SEED, answer_each_position, echo_json, positions_option
from mindgames.errors import MindgamesError
from mindgames.game import Game, State
from mindgames.registry import get_registry


def analyse_state(game: Game, agent: Agent, state: State, seed: int) -> dict[str, Any]:
    """Search ``state`` and describe the result in the game's notation."""
    if game.is_terminal(state):
        raise MindgamesError(f"the game is over in {game.position_text(state)}: nothing to analyse")
    result = agent.choose(game, state, np.random.default_rng(seed))
    pv, here = [], state
    for move in result.pv:
        pv.append(game.move_text(here, move))
        here = game.play(here, move)
    stats = {
        k: (round(v, 6) if isinstance(v, float) else v) for k, v in result.stats.as_dict().items()
    }
    return {
        "move": game.move_text(state, result.move),
        "value": round(float(result.value), 9) + 0.0,  # no "-0.0"
        "pv": pv,
        "stats": stats,
    }


def _print(report: dict[str, Any]) -> None:
    click.echo(f"move:  {report['move']}")
    click.echo(f"value: {report['value']:+.6f}")
    click.echo(f"pv:    {' '.join(report['pv'])}")
    s = report["stats"]
    click.echo(
        f"depth {s['depth']}, {s['nodes']} nodes, {s['leaves']} leaves, {s['seconds']:.3f} s, "
        f"{s['nodes_per_second']:.0f} nodes/s, branching {s['branching']:.2f}, "
        f"pruning {s['pruning']:.3f}, {s['path']} path"
    )


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--agent",
    "agent_spec",
    required=True,
    help="Agent spec, e.g. 'alphabeta:depth=6,eval=material'.",
)
@click.option("--position", help="Position text (FEN for draughts); default the start.")
@positions_option("one JSON object")
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed of random tie-breaking (line N of --positions uses [seed, N]).",
)
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"move", "value", "pv", "stats"} as JSON.'
)
def analyse(
    game_spec: str,
    agent_spec: str,
    position: str | None,
    positions_file: str | None,
    seed: int,
    as_json: bool,
) -> None:
    """Search a position with an agent: best move, value, principal variation and statistics.

    Values are for the side to move: evaluator values lie in [-1, 1]; a proven result is
    +-(2 - plies/4096), so |value| > 1.5 means a forced win or loss that many plies away.
    """
    registry = get_registry()
    game = registry.game(game_spec)
    agent = build_agent(registry, game, agent_spec)
    if positions_file is not None:
        answer_each_position(
            positions_file,
            game,
            lambda state, number: analyse_state(game, agent, state, _line_seed(seed, number)),
            position,
        )
        return
    state = game.initial_state() if position is None else game.parse_position(position)
    report = analyse_state(game, agent, state, seed)
    if as_json:
        echo_json(report)
    else:
        _print(report)


def _line_seed(seed: int, number: int) -> int:
    """The seed of one line of a positions file: independent of the other lines."""
    return int(np.random.SeedSequence([seed, number]).generate_state(1)[0])


COMMANDS = (analyse,)
