"""``mindgames curve`` and ``mindgames quality``: how strong a trained evaluator is, and when."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from mindgames.agent import build_agent
from mindgames.cli.common import SEED, piece_spread
from mindgames.cli.progress import progress, resumable_progress
from mindgames.cli.tournament import scheduler_option, workers_option
from mindgames.data.solved import (
    DEFAULT_MAX_PIECES,
    JUDGES,
    Sampling,
    build,
    read_file,
    require_solvable,
)
from mindgames.errors import Interrupted, MindgamesError
from mindgames.executors import default_workers, open_executor
from mindgames.files import make_directory
from mindgames.interrupts import stop_on_signals
from mindgames.limits import MAX_GAMES, MAX_POSITIONS
from mindgames.measure.curve import CURVE_FILE, CurveSettings, measure, table
from mindgames.measure.quality import choose, report
from mindgames.registry import get_registry


@contextlib.contextmanager
def rerun_hint(kept: str | None) -> Iterator[None]:
    """Stop on SIGINT/SIGTERM with one line saying what was kept and that a rerun goes on."""
    try:
        with stop_on_signals(graceful=False):
            yield
    except Interrupted as exc:
        if kept is None:
            raise Interrupted(f"{exc}; nothing was kept (give --write to keep it)") from None
        raise Interrupted(f"{exc}; {kept}: run the same command to go on") from None


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True))
@click.option("--vs", required=True, help="Reference agent, e.g. alphabeta:depth=2,eval=material.")
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=200,
    show_default=True,
    help="Games per point (rounded up to whole game pairs).",
)
@click.option(
    "--depth",
    type=click.IntRange(1),
    default=None,
    help="Search depth of each model's agent: alphabeta:depth=D,eval=@MODEL (default 2).",
)
@click.option(
    "--search",
    metavar="SPEC",
    default=None,
    help="Each model's searcher instead, eval=@MODEL added: e.g. the run's own "
    "alphabeta:depth=4,extend_forced=true.",
)
@click.option(
    "--points",
    type=click.IntRange(2),
    default=None,
    help="Measure at most N models, spread evenly over the run (the first and last always).",
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
    depth: int | None,
    search: str | None,
    points: int | None,
    seed: int,
    max_plies: int,
    workers: int | None,
    scheduler: str | None,
    out: str | None,
    as_json: bool,
) -> None:
    """Play every snapshot of the training run RUN_DIR (and its model.npz) against --vs."""
    if depth is not None and search is not None:
        raise MindgamesError("give --depth or --search, not both")
    settings = CurveSettings(
        vs=vs,
        match_games=games,
        depth=None if search is not None else depth or 2,
        search=search,
        seed=seed,
        max_plies=max_plies,
    )
    with (
        rerun_hint("the models measured so far are kept"),
        resumable_progress("curve", "points", as_json) as (on_start, on_record),
    ):
        lines = measure(
            run_dir,
            settings,
            out=out,
            workers=workers,
            scheduler=scheduler,
            at_most=points,
            on_start=on_start,
            on_game=on_record,
        )
    if as_json:
        for line in lines:
            click.echo(json.dumps(line, sort_keys=True))
        return
    star = " (* the final model)" if any(line["final"] for line in lines) else ""
    click.echo(f"Elo of {settings.searcher()} on each model against {vs}{star}")
    click.echo(table(lines))


def _bound(text: str) -> int | None:
    """``--max-pieces``: a count, or ``none`` for no bound."""
    if text.strip().lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise click.BadParameter(f"expected a number or 'none', got {text!r}") from None
    if value < 0:
        raise click.BadParameter(f"must be at least 0, got {value}")
    return value


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option("--agent", "agents", multiple=True, metavar="SPEC", help="Agent to judge (repeat).")
@click.option(
    "--positions",
    "positions_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="A solved-positions file (from --write): judge without solving.",
)
@click.option(
    "--count", type=click.IntRange(1, MAX_POSITIONS), default=None, help="Positions (default 1000)."
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Sampling and agents' seed.")
@click.option(
    "--max-pieces",
    default=str(DEFAULT_MAX_PIECES),
    show_default=True,
    help="Sample positions with at most this many pieces on the board ('none': no bound).",
)
@click.option(
    "--spread",
    default=None,
    metavar="LO-HI",
    help="Spread the positions evenly over LO to HI pieces on the board (instead of --max-pieces).",
)
@click.option("--min-plies", type=click.IntRange(0), default=0, show_default=True)
@click.option("--write", type=click.Path(dir_okay=False), default=None, help="Keep the set here.")
@click.option(
    "--judge",
    type=click.Choice(JUDGES),
    default="values",
    show_default=True,
    help="Solve a new set's positions for every move's value, or once for the best moves "
    "(cheaper; no margin lost).",
)
@workers_option
@scheduler_option
@click.option("--json", "as_json", is_flag=True, help="One JSON report a line per agent.")
def quality(
    game_spec: str,
    agents: tuple[str, ...],
    positions_file: str | None,
    count: int | None,
    seed: int,
    max_pieces: str,
    spread: str | None,
    min_plies: int,
    write: str | None,
    judge: str,
    workers: int | None,
    scheduler: str | None,
    as_json: bool,
) -> None:
    """Judge agents by the exact value of their moves in solved late positions of GAME."""
    band = piece_spread(spread)
    if band is not None:
        given = click.get_current_context().get_parameter_source("max_pieces")
        if given is not click.core.ParameterSource.DEFAULT:
            raise MindgamesError("give --max-pieces or --spread, not both")
    registry = get_registry()
    game = registry.game(game_spec)
    require_solvable(game, judge=judge)
    if positions_file is not None and write is not None:
        raise MindgamesError("give --positions (a solved set) or --write (a new one), not both")
    if positions_file is not None and judge != "values":
        raise MindgamesError("--judge says how to solve a new set: not with --positions")
    if not agents and write is None:
        raise MindgamesError("nothing to do: give --agent SPEC, or --write FILE to keep a set")
    for spec in agents:
        build_agent(registry, game, spec)  # a bad agent fails before any solving
    if write is not None:
        make_directory(Path(write).parent)  # as match --out and curve do
    n = workers or default_workers()
    source: str | None = positions_file
    if positions_file is not None:
        solved = read_file(positions_file, game)[1][:count]
    kept = "the positions solved so far are kept" if write else None
    with rerun_hint(kept), open_executor(n, scheduler) as executor:
        if positions_file is None:
            bound = None if band is not None else _bound(max_pieces)
            sampling = Sampling(count or 1000, seed, bound, min_plies, band)
            with progress(sampling.count, "solving", as_json, "positions") as update:
                solved = build(
                    game,
                    sampling,
                    executor,
                    write=write,
                    on_solved=lambda s, kept: update({}) if kept else None,
                    window=4 * n,
                    judge=judge,
                )
            source = write
        for spec in agents:
            with progress(len(solved), spec, as_json, "positions") as update:
                chosen = choose(game, spec, solved, executor, seed=seed, on_chunk=_each(update))
            result = report(spec, solved, chosen, game=game.spec(), file=source, seed=seed)
            if as_json:
                click.echo(json.dumps(result, sort_keys=True))
            else:
                click.echo(_summary(result))
    if write is not None and not as_json:
        click.echo(f"{len(solved)} solved positions: {write}")


def _each(update: Any) -> Any:
    """An ``on_chunk(n)`` that advances a progress bar ``n`` steps."""

    def advance(n: int) -> None:
        for _ in range(n):
            update({})

    return advance


def _summary(result: dict[str, Any]) -> str:
    lost = (
        "margin lost not in this set (best moves only)"
        if result["mean_loss"] is None
        else f"mean margin lost {result['mean_loss']:.3f}, max {result['max_loss']}"
    )
    return (
        f"{result['agent']}: optimal move in {result['optimal']} of {result['positions']} "
        f"positions ({result['optimal_share']:.1%} [{result['optimal_low']:.1%}, "
        f"{result['optimal_high']:.1%}]), {lost}"
    )


COMMANDS = [curve, quality]
