"""``mindgames ladder build|show`` and ``mindgames rate``: reference ladders and rating on them."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from mindgames.cli.common import SEED, resumable
from mindgames.cli.progress import progress, resumable_progress
from mindgames.cli.tournament import scheduler_option, workers_option
from mindgames.errors import ConfigError
from mindgames.files import output_file
from mindgames.ladder.file import Ladder, find_ladder, load_ladder, shipped_ladder
from mindgames.registry import get_registry


@click.group()
def ladder() -> None:
    """Reference ladders: agents of one game rated once, anchored at random = 0."""


@ladder.command()
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--rung",
    "rung_texts",
    multiple=True,
    required=True,
    metavar="[NAME=]SPEC",
    help="A rung's agent, e.g. ab2=alphabeta:depth=2,eval=material (repeat; one is random).",
)
@click.option(
    "--games",
    type=click.IntRange(2),
    default=20,
    show_default=True,
    help="Games per pairing, rounded up to whole pairs.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@workers_option
@scheduler_option
@click.option("--openings", default=None, help="Default: the game's book, else random:plies=2.")
@click.option("--max-plies", type=click.IntRange(1), default=400, show_default=True)
@click.option("--anchor", default=None, help="The rung rated 0 (default: random).")
@click.option("--note", default=None, help="A note kept in the provenance (e.g. provisional).")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Ladder file.")
@click.option(
    "--run",
    "run_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Run directory of the games (default: OUT without .json, plus .run).",
)
@click.option("--resume", is_flag=True, help="Continue the round robin in the run directory.")
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
def build(
    game_spec: str,
    rung_texts: tuple[str, ...],
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    openings: str | None,
    max_plies: int,
    anchor: str | None,
    note: str | None,
    out: str,
    run_dir: str | None,
    resume: bool,
    as_json: bool,
) -> None:
    """Rate the rungs by a round robin in game pairs; write the ladder file OUT atomically."""
    from mindgames.ladder.build import (
        build_ladder,
        default_anchor,
        default_openings,
        ladder_plan,
        parse_rungs,
    )

    registry = get_registry()
    target = output_file(out)
    rungs = parse_rungs(rung_texts)
    anchor = anchor or default_anchor(rungs)
    openings = openings or default_openings(registry, game_spec)
    the_plan = ladder_plan(
        registry,
        game_spec,
        rungs,
        games=games,
        seed=seed,
        openings=openings,
        max_plies=max_plies,
        anchor=anchor,
    )
    directory = Path(run_dir) if run_dir else target.with_name(target.stem + ".run")
    argv = [a for a in sys.argv[1:] if a != "--resume"]
    with resumable(), resumable_progress("ladder", "games", as_json) as (on_start, on_record):
        result, played = build_ladder(
            the_plan,
            directory,
            target,
            openings=openings,
            command=shlex.join(["mindgames", *argv]),
            note=note,
            resume=resume,
            workers=workers,
            scheduler=scheduler,
            on_record=on_record,
            on_start=on_start,
        )
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    click.echo(ladder_text(result))
    click.echo(f"{played} games played now; ladder: {target}; games: {directory}")


@ladder.command()
@click.argument("where", metavar="FILE|GAME")
@click.option("--json", "as_json", is_flag=True, help="Print the ladder file's JSON.")
def show(where: str, as_json: bool) -> None:
    """Show a ladder file, or the ladder shipped for a game."""
    found = find_ladder(get_registry(), where)
    if as_json:
        click.echo(json.dumps(found.as_dict()))
        return
    click.echo(ladder_text(found))


def ladder_text(found: Ladder) -> str:
    """The rungs, strongest first, and where the ratings come from."""
    width = max(4, *(len(r.name) for r in found.rungs))
    lines = [
        f"ladder of {found.game} (Elo anchored at {found.anchor} = 0; openings {found.openings}, "
        f"max {found.max_plies} plies)",
        f"{'rung':<{width}}  {'elo':>6}  {'95% interval':>15}  {'misfit':>6}  {'games':>5}  agent",
    ]
    for r in reversed(found.rungs):
        interval = f"[{r.low:+.0f}, {r.high:+.0f}]"
        lines.append(
            f"{r.name:<{width}}  {r.elo:>+6.0f}  {interval:>15}  {r.misfit:>6.0f}  {r.games:>5}  "
            + r.agent
        )
    p = found.provenance
    known = ("games", "seed", "commit", "note", "misfit", "command")
    for key in known:
        if key in p:
            lines.append(f"{key}: {p[key]}")
    return "\n".join(lines)


@click.command()
@click.argument("spec", metavar="SPEC")
@click.option("--game", "game_spec", default=None, help="The game whose shipped ladder rates.")
@click.option(
    "--ladder",
    "ladder_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="A ladder file (default: the one shipped for --game).",
)
@click.option(
    "--games",
    type=click.IntRange(2),
    default=40,
    show_default=True,
    help="Games in all, rounded up to pairs, in up to 4 steps.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@workers_option
@scheduler_option
@click.option("--json", "as_json", is_flag=True, help="Print the rating as JSON.")
def rate(
    spec: str,
    game_spec: str | None,
    ladder_file: str | None,
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    as_json: bool,
) -> None:
    """Rate agent SPEC on a game's ladder: an adaptive gauntlet, then its Elo with 95% interval."""
    from mindgames.ladder.rate import rate as rate_agent

    registry = get_registry()
    if ladder_file is None and game_spec is None:
        raise ConfigError("give --game GAME (its shipped ladder) or --ladder FILE")
    found = load_ladder(ladder_file) if ladder_file else shipped_ladder(registry, str(game_spec))
    if (
        game_spec is not None
        and registry.game(game_spec).spec() != registry.game(found.game).spec()
    ):
        raise ConfigError(f"--ladder {ladder_file}: a ladder of {found.game}, not of {game_spec}")
    with progress((games + 1) // 2 * 2, "rate", as_json) as update:  # Ctrl-C: one line, exit 130
        rating = rate_agent(
            registry,
            found,
            spec,
            games=games,
            seed=seed,
            workers=workers,
            scheduler=scheduler,
            on_record=update,
        )
    if as_json:
        click.echo(json.dumps(rating))
        return
    click.echo(rating_text(rating))


def rating_text(rating: dict[str, Any]) -> str:
    """The rating line, then the games against each rung met."""
    lines = [
        f"{rating['agent']} on the {rating['game']} ladder: Elo {rating['elo']:+.0f} "
        f"[{rating['elo_low']:+.0f}, {rating['elo_high']:+.0f}] (95%), {rating['games']} games"
        + (" (all won or all lost: regularised)" if rating["regularised"] else "")
    ]
    for o in rating["opponents"]:
        lines.append(
            f"  vs {o['rung']} ({o['rung_elo']:+.0f}): {o['games']} games "
            f"+{o['wins']} ={o['draws']} -{o['losses']}, score {o['score']:.0%}"
        )
    return "\n".join(lines)


COMMANDS = [ladder, rate]
