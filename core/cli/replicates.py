"""``mindgames replicates``: a comparison replicated over independent runs, with an interval."""

from __future__ import annotations

import click

from mindgames.cli.common import echo_json
from mindgames.measure.replicates import read_run, summarise, text


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--level",
    type=click.FloatRange(0.0, 1.0, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="Confidence level of the interval over the runs.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the runs and the summary as JSON.")
def replicates(results: tuple[str, ...], level: float, as_json: bool) -> None:
    """Measure a method, not a run: RESULTS are `match --out` files, one match per independent
    run between the same two roles (A, the match's first agent, against B). Prints each run's
    Elo and a Student t-interval over the runs' Elo, whose unit is the run."""
    summary = summarise([read_run(path) for path in results], level)
    if as_json:
        echo_json(summary.as_dict())
        return
    click.echo(text(summary))


COMMANDS = [replicates]
