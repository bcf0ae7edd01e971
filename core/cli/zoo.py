"""``mindgames zoo list|show``: the trained models shipped with the package (``@zoo:NAME``)."""

from __future__ import annotations

import json

import click

from mindgames.zoo import ENVIRONMENT, describe, models, path_of


@click.group()
def zoo() -> None:
    """Trained models shipped with mindgames, usable as eval=@zoo:NAME."""


@zoo.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object a model.")
def list_models(as_json: bool) -> None:
    """List the zoo's models: game, encoding, model kind, learner and ladder rating."""
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
        click.echo(
            f"{row['name']}  {row['game']}  {row['model']} on {row['encoding']}  "
            f"learner {row['learner'] or '?'}  {rated}"
        )


@zoo.command()
@click.argument("name")
def show(name: str) -> None:
    """Show one zoo model's record and provenance as JSON."""
    click.echo(json.dumps(describe(name, path_of(name)), indent=2))


COMMANDS = [zoo]
