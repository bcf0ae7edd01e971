"""``mindgames train CONFIG.toml``: train an evaluator with a learner plugin (docs/learners.md)."""

from __future__ import annotations

import json
from typing import Any

import click

from mindgames.cli.common import SEED, resumable
from mindgames.cli.progress import HistoryBar
from mindgames.limits import max_workers
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
@click.option(
    "--workers",
    type=click.IntRange(1, max_workers()),
    default=None,
    help="Processes for a learner that plays on several (default: the config's learner.workers).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run such a learner's work on a Dask cluster: tcp://host:port, or 'local'.",
)
@click.option("--json", "as_json", is_flag=True, help="Print each history row as a JSON line.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--explain",
    is_flag=True,
    help="Print the settings the run would use and where each came from; train nothing.",
)
def train(
    config: str,
    seed: int | None,
    out: str | None,
    resume: bool,
    workers: int | None,
    scheduler: str | None,
    as_json: bool,
    quiet: bool,
    explain: bool,
) -> None:
    """Train the evaluator CONFIG describes; writes DIR/model.npz and DIR/history.jsonl.

    On a terminal a progress bar shows the work done, its rate and the time left; --json
    prints the history rows instead (the summary line then goes to standard error).
    --explain prints each setting with its source (config, default, or measured from the
    encoding before training) and writes nothing. --workers and --scheduler replace the
    learner's own (co-evolution, HG/SHG, Layered Learning): they do not change the result, so a
    run may resume with others.
    """
    placement = {"workers": workers, "scheduler": scheduler}
    placement = {k: v for k, v in placement.items() if v is not None}
    if explain:
        from mindgames.explain import explain as settings
        from mindgames.explain import format_rows

        click.echo(format_rows(settings(config, seed=seed, placement=placement)))
        return
    with resumable(), HistoryBar("train", quiet or as_json, resume) as bar:

        def show(row: dict[str, Any]) -> None:
            bar.row(row)
            if as_json:
                click.echo(json.dumps(row, sort_keys=True))

        done = run(
            config,
            seed=seed,
            out=out,
            resume=resume,
            placement=placement,
            progress=show,
            on_plan=bar.plan,
        )
    rows = len(done.result.history)
    last = done.result.history[-1] if rows else {}
    where = f"{next(iter(last))} {next(iter(last.values()))}, " if last else ""
    click.echo(
        f"trained in {done.seconds:.1f} s ({where}{rows} history rows, seed {done.seed}); "
        f"model: {done.model_path}; history: {done.history_path}",
        err=as_json,
    )


COMMANDS = (train,)
