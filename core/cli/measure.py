"""``mindgames curve`` and ``mindgames quality``: how strong a trained evaluator is, and when."""

from __future__ import annotations

import json

import click

from mindgames.cli.common import SEED
from mindgames.cli.tournament import resumable_progress, scheduler_option, workers_option
from mindgames.curve import CURVE_FILE, CurveSettings, measure, table
from mindgames.errors import Interrupted


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True))
@click.option("--vs", required=True, help="Reference agent, e.g. alphabeta:depth=2,eval=material.")
@click.option(
    "--games",
    type=click.IntRange(1),
    default=200,
    show_default=True,
    help="Games per point (rounded up to whole game pairs).",
)
@click.option(
    "--depth",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Search depth of each model's agent: alphabeta:depth=D,eval=@MODEL.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--max-plies", type=click.IntRange(1), default=400, show_default=True)
@workers_option
@scheduler_option
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help=f"Curve JSONL file (default: RUN_DIR/{CURVE_FILE}).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the curve lines as JSON.")
def curve(
    run_dir: str,
    vs: str,
    games: int,
    depth: int,
    seed: int,
    max_plies: int,
    workers: int | None,
    scheduler: str | None,
    out: str | None,
    as_json: bool,
) -> None:
    """Play every snapshot of the training run RUN_DIR (and its model.npz) against --vs."""
    settings = CurveSettings(vs=vs, match_games=games, depth=depth, seed=seed, max_plies=max_plies)
    try:
        with resumable_progress("curve", "points", as_json) as (on_start, on_record):
            lines = measure(
                run_dir,
                settings,
                out=out,
                workers=workers,
                scheduler=scheduler,
                on_start=on_start,
                on_game=on_record,
            )
    except Interrupted as exc:
        message = f"{exc}; the models measured so far are kept: run the same command to go on"
        raise Interrupted(message) from None
    if as_json:
        for line in lines:
            click.echo(json.dumps(line, sort_keys=True))
        return
    click.echo(f"Elo of alphabeta:depth={depth} on each model against {vs} (* the final model)")
    click.echo(table(lines))


COMMANDS = [curve]
