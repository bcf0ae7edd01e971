"""``mindgames train CONFIG.toml``: train an evaluator with a learner plugin (docs/learners.md)."""

from __future__ import annotations

import json
from typing import Any

import click

from mindgames.cli.common import SEED, resumable
from mindgames.training import run


@click.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--seed", type=SEED, default=None, help="Seed (default: the config's, else 0).")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Run directory (default: runs/<config name>).",
)
@click.option("--resume", is_flag=True, help="Continue the run in --out from its checkpoint.")
@click.option("--quiet", is_flag=True, help="Do not print a line per history row.")
def train(config: str, seed: int | None, out: str | None, resume: bool, quiet: bool) -> None:
    """Train the evaluator CONFIG describes; writes DIR/model.npz and DIR/history.jsonl."""

    def show(row: dict[str, Any]) -> None:
        if not quiet:
            click.echo(json.dumps(row, sort_keys=True))

    with resumable():
        done = run(config, seed=seed, out=out, resume=resume, progress=show)
    click.echo(
        f"trained in {done.seconds:.1f} s (seed {done.seed}); model: {done.model_path}; "
        f"history: {done.history_path}"
    )


COMMANDS = (train,)
