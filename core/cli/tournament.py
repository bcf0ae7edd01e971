"""``mindgames match`` and ``mindgames tournament``: play agents against each other, rate them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mindgames.cli.common import SEED, resumable
from mindgames.cli.progress import progress, resumable_progress
from mindgames.errors import ConfigError
from mindgames.limits import max_workers
from mindgames.play.match import match_plan
from mindgames.play.match import run_match as play_match
from mindgames.play.report import standings_text
from mindgames.play.sprt import Sprt
from mindgames.play.tournament import REPORT_JSON, REPORT_MD, load_config, plan
from mindgames.play.tournament import run_tournament as play_tournament
from mindgames.registry import get_registry


def parse_sprt(text: str | None) -> Sprt | None:
    """``ELO0,ELO1[,ALPHA,BETA]`` -> Sprt."""
    if text is None:
        return None
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise ConfigError(f"--sprt {text!r}: expected ELO0,ELO1[,ALPHA,BETA] numbers") from None
    if len(values) not in (2, 4):
        raise ConfigError(f"--sprt {text!r}: expected ELO0,ELO1[,ALPHA,BETA]")
    return Sprt(*values)


workers_option = click.option(
    "--workers",
    type=click.IntRange(1, max_workers()),
    default=None,
    help="Worker processes (default: the number of cores; 1 plays in this process).",
)
scheduler_option = click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Play on a Dask cluster: tcp://host:port, or 'local' to start a LocalCluster.",
)


@click.command()
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@click.option("--game", "game_spec", required=True, help="Game spec, e.g. kalah:pits=6,seeds=4.")
@click.option(
    "--games",
    type=click.IntRange(1),  # at most limits.MAX_GAMES: match_plan says so in one line
    default=20,
    show_default=True,
    help="Games to play, rounded up to whole pairs.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@workers_option
@scheduler_option
@click.option("--openings", default=None, help="random:plies=2 | book:name=NAME | file:path=F")
@click.option("--max-plies", type=click.IntRange(1), default=400, show_default=True)
@click.option("--sprt", default=None, metavar="ELO0,ELO1[,ALPHA,BETA]", help="Stop by SPRT.")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Results JSONL file.")
@click.option("--resume", is_flag=True, help="Continue the match whose results are in --out.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def match(
    first: str,
    second: str,
    game_spec: str,
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    openings: str | None,
    max_plies: int,
    sprt: str | None,
    out: str | None,
    resume: bool,
    as_json: bool,
) -> None:
    """Play agent A against agent B in game pairs (shared opening, colours swapped)."""
    test = parse_sprt(sprt)
    registry = get_registry()
    the_plan = match_plan(
        registry,
        game_spec,
        first,
        second,
        games=games,
        seed=seed,
        openings=openings,
        max_plies=max_plies,
    )
    with resumable(out is not None), progress(len(the_plan.tasks), "match", as_json) as update:
        outcome = play_match(
            the_plan,
            out,
            sprt=test,
            resume=resume,
            workers=workers,
            scheduler=scheduler,
            on_record=update,
        )
    report = outcome.report
    if as_json:
        click.echo(json.dumps(report.json()))
        return
    a, b = the_plan.agents
    p = report.pairings[0] if report.pairings else None
    click.echo(standings_text(report))
    if p is not None:
        click.echo(
            f"{a} vs {b}: +{p.wins} ={p.draws} -{p.losses}, LOS {p.los:.1%}, "
            f"pentanomial {p.pentanomial}"
        )
    if "sprt" in report.extra:
        s = report.extra["sprt"]
        click.echo(
            f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g}: LLR {s['llr']:.2f} "
            f"[{s['lower']:.2f}, {s['upper']:.2f}] -> {s['verdict']} after {report.games} games"
        )
    if out:
        click.echo(f"results: {out}")


@click.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--seed", type=SEED, default=None, help="Seed (default: the config's, else 0).")
@workers_option
@scheduler_option
@click.option("--resume", is_flag=True, help="Continue the tournament in --out.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Run directory (default: runs/<config name>).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON on stdout.")
def tournament(
    config: str,
    seed: int | None,
    workers: int | None,
    scheduler: str | None,
    resume: bool,
    out: str | None,
    as_json: bool,
) -> None:
    """Play the tournament CONFIG describes; writes results.jsonl and report.json/.md in --out."""
    registry = get_registry()
    cfg = load_config(config)
    the_plan = plan(cfg, registry, seed=seed, where=config, base=Path(config).parent)
    directory = Path(out) if out is not None else Path("runs") / Path(config).stem
    # the bar's length is known only once the run directory has been read
    with resumable(), resumable_progress("tournament", "games", as_json) as (on_start, on_record):
        outcome = play_tournament(
            the_plan,
            directory,
            resume=resume,
            workers=workers,
            scheduler=scheduler,
            on_record=on_record,
            on_start=on_start,
        )
    report = outcome.report
    if as_json:
        click.echo(json.dumps(report.json()))
        return
    click.echo(standings_text(report))
    click.echo(
        f"{report.games} games ({outcome.played} played now); report: "
        f"{directory / REPORT_MD}, {directory / REPORT_JSON}"
    )


COMMANDS = [match, tournament]
