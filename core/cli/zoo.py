"""``mindgames zoo list|show|add|rerate``: the trained models shipped with the package
(``@zoo:NAME``)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mindgames.cli.common import SEED
from mindgames.cli.tournament import scheduler_option, workers_option
from mindgames.registry import get_registry
from mindgames.zoo import ENVIRONMENT, describe, folders, models, path_of


@click.group()
def zoo() -> None:
    """Trained models shipped with mindgames, usable as eval=@zoo:NAME."""


@zoo.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object a model.")
def list_models(as_json: bool) -> None:
    """List the zoo's models: game, encoding, model kind, learner and ladder rating (the agent
    rated, with its 95% interval)."""
    rows = [describe(name, path) for name, path in models().items()]
    if as_json:
        for row in rows:
            click.echo(json.dumps(row))
        return
    if not rows:
        click.echo(f"the zoo is empty (add folders of model files with {ENVIRONMENT})")
        return
    for row in rows:
        rating = row["ladder_rating"]
        rated = f"Elo {rating:+.0f}" if isinstance(rating, (int, float)) else "not rated"
        how = row["provenance"].get("ladder")
        if isinstance(how, dict) and isinstance(rating, (int, float)):
            rated += f" [{how['elo_low']:+.0f}, {how['elo_high']:+.0f}] as {how['agent']}"
        click.echo(
            f"{row['name']}  {row['game']}  {row['model']} on {row['encoding']}  "
            f"learner {row['learner'] or '?'}  {rated}"
        )


@zoo.command()
@click.argument("model", type=click.Path(dir_okay=False))
@click.argument("name")
@click.option(
    "--depth",
    type=click.IntRange(1),
    default=4,
    show_default=True,
    help="Plies of the alpha-beta search the model is rated with.",
)
@click.option(
    "--games",
    type=click.IntRange(2),
    default=100,
    show_default=True,
    help="Games of the rating gauntlet (as mindgames rate).",
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option(
    "--into",
    type=click.Path(file_okay=False),
    default=None,
    help="The zoo folder (default: the one shipped with the package).",
)
@workers_option
@scheduler_option
def add(
    model: str,
    name: str,
    depth: int,
    games: int,
    seed: int,
    into: str | None,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Rate MODEL on its game's shipped ladder and copy it into the zoo as NAME."""
    from mindgames.ladder.file import shipped_ladder
    from mindgames.modelfile import game_spec, read_model_file
    from mindgames.zooadd import add as add_model

    registry = get_registry()
    meta, _ = read_model_file(model)
    ladder = shipped_ladder(registry, game_spec(meta["game"], registry))
    folder = Path(into) if into is not None else folders()[0]
    out, rating = add_model(
        registry,
        ladder,
        model,
        name,
        folder,
        depth=depth,
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
    )
    click.echo(
        f"{out}: Elo {rating['elo']:+.0f} [{rating['elo_low']:+.0f}, {rating['elo_high']:+.0f}] "
        f"on the {ladder.game} ladder, {rating['games']} games at depth {depth}"
    )


@zoo.command()
@click.argument("name")
@workers_option
@scheduler_option
def rerate(name: str, workers: int | None, scheduler: str | None) -> None:
    """Rate zoo model NAME again on its game's shipped ladder, as it was rated (agent, games,
    seed), and rewrite its rating in place: after a ladder is rebuilt."""
    from mindgames.ladder.file import shipped_ladder
    from mindgames.modelfile import game_spec, read_model_file
    from mindgames.zooadd import rerate as rerate_model

    registry = get_registry()
    meta, _ = read_model_file(path_of(name))
    ladder = shipped_ladder(registry, game_spec(meta["game"], registry))
    out, old, rating = rerate_model(registry, ladder, name, workers=workers, scheduler=scheduler)
    before = meta["provenance"].get("ladder_rating")
    recorded = f"{before:+.0f}" if isinstance(before, int | float) else "none"
    click.echo(
        f"{out}: Elo {rating['elo']:+.0f} [{rating['elo_low']:+.0f}, {rating['elo_high']:+.0f}] "
        f"on the {ladder.game} ladder ({rating['games']} games, seed {old['seed']}; "
        f"recorded before: {recorded})"
    )


@zoo.command()
@click.argument("name")
def show(name: str) -> None:
    """Show one zoo model's record and provenance as JSON."""
    click.echo(json.dumps(describe(name, path_of(name)), indent=2))


COMMANDS = [zoo]
