"""``mindgames data``: generate, label, solve, describe and merge data sets (docs/learners.md)."""

from __future__ import annotations

import json
import re

import click
import numpy as np

from mindgames.cli.common import SEED, piece_spread
from mindgames.cli.progress import resumable_progress
from mindgames.data.labelling import SQUASHES, Labeller, run_labelling
from mindgames.data.sets import describe, merge, read_dataset, write_dataset
from mindgames.errors import MindgamesError
from mindgames.executors import default_workers, open_executor
from mindgames.interrupts import stop_on_signals
from mindgames.limits import max_workers
from mindgames.registry import get_registry
from mindgames.spec import split_specs

_OUT = click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    help="The data set to write (.npz), atomically.",
)
_WORKERS = click.option(
    "--workers",
    type=click.IntRange(1, max_workers()),
    default=None,
    help="Worker processes (default: the cores; 1 labels in this process).",
)
_SCHEDULER = click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Label on a Dask cluster: tcp://host:port or 'local'.",
)
_RESUME = click.option(
    "--resume", is_flag=True, help="Continue an interrupted run from OUTPUT.journal.jsonl."
)
_QUIET = click.option("--quiet", is_flag=True, help="No progress bar.")


@click.group("data")
def data() -> None:
    """Data sets of positions: generate them, label them, describe and merge them."""


def _plies(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not match:
        raise MindgamesError(f"--plies {text!r}: expected LO-HI, e.g. 20-40")
    lo = int(match.group(1))
    return lo, int(match.group(2) or lo)


@data.command("generate")
@click.argument("game_spec", metavar="GAME")
@click.option("--plies", required=True, metavar="LO-HI", help="Plies played, e.g. 20-40.")
@click.option("--count", required=True, type=int, help="Distinct positions wanted.")
@click.option(
    "--agents",
    default=None,
    metavar="SPEC,SPEC...",
    help="Agents taking turns move by move (default: random moves).",
)
@click.option(
    "--max-pieces",
    type=click.IntRange(0),
    default=None,
    help="Only positions with at most this many pieces on the board (Kalah: seeds in the pits).",
)
@click.option(
    "--spread",
    default=None,
    metavar="LO-HI",
    help="Spread the positions evenly over LO to HI pieces on the board (instead of --max-pieces).",
)
@click.option(
    "--successors",
    is_flag=True,
    help="Add every unfinished successor of each position to its group.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@_OUT
def generate_cmd(
    game_spec: str,
    plies: str,
    count: int,
    agents: str | None,
    max_pieces: int | None,
    spread: str | None,
    successors: bool,
    seed: int,
    out: str,
) -> None:
    """Positions sampled from playouts, one per playout, at plies LO-HI; duplicates removed."""
    from mindgames.agent import build_agent
    from mindgames.data.playouts import generate
    from mindgames.interrupts import stop_on_signals
    from mindgames.limits import MAX_POSITIONS, at_most

    at_most("--count", count, MAX_POSITIONS)
    registry = get_registry()
    game = registry.game(game_spec)
    specs = split_specs(agents) if agents else []
    built = [build_agent(registry, game, spec) for spec in specs]
    lo, hi = _plies(plies)
    provenance = {"agents": specs or ["random"], "seed": seed}
    rng = np.random.default_rng(seed)
    with stop_on_signals(graceful=False):  # Ctrl-C or SIGTERM: one line, nothing written
        made = generate(
            game,
            lo,
            hi,
            count,
            rng,
            built,
            provenance,
            max_pieces=max_pieces,
            successors=successors,
            spread=piece_spread(spread),
        )
    write_dataset(out, made)
    click.echo(f"{len(made)} positions of {made.game} -> {out}")


def _label(
    source: str,
    out: str,
    labeller: Labeller,
    workers: int | None,
    scheduler: str | None,
    resume: bool,
    quiet: bool,
) -> None:
    found = read_dataset(source)
    labeller = Labeller(**{**labeller.as_dict(), "game": found.game})
    n = workers or default_workers()
    now = [0]

    def labelled(count: int) -> None:
        now[0] += count
        for _ in range(count):
            on_record({})

    with (
        stop_on_signals(graceful=False),
        open_executor(n, scheduler) as executor,
        resumable_progress("labelling", "positions", quiet, "positions", "label") as (
            on_start,
            on_record,
        ),
    ):
        done = run_labelling(
            found,
            labeller,
            out,
            executor,
            source=source,
            resume=resume,
            on_labels=labelled,
            workers=n,
            on_start=on_start,
        )
    assert done.labels is not None
    click.echo(
        f"{len(done)} positions ({now[0]} labelled now, {len(done) - now[0]} from the journal), "
        f"mean label {float(np.mean(done.labels)):+.3f} -> {out}"
    )


@data.command("label")
@click.argument("source", metavar="FILE", type=click.Path(dir_okay=False))
@click.option(
    "--agent",
    required=True,
    metavar="SPEC",
    help="The searcher whose value labels a position, e.g. endgame:depth=12.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@_OUT
@_WORKERS
@_SCHEDULER
@_RESUME
@_QUIET
def label_cmd(
    source: str,
    agent: str,
    seed: int,
    out: str,
    workers: int | None,
    scheduler: str | None,
    resume: bool,
    quiet: bool,
) -> None:
    """Label each position by the agent's search value (proven results exact)."""
    labeller = Labeller("search", "", agent=agent, seed=seed)
    _label(source, out, labeller, workers, scheduler, resume, quiet)


@data.command("solve")
@click.argument("source", metavar="FILE", type=click.Path(dir_okay=False))
@click.option(
    "--scale",
    type=click.FloatRange(min=0.0, min_open=True),
    default=8.0,
    show_default=True,
    help="Game units (Kalah: seeds) per label unit.",
)
@click.option(
    "--squash",
    type=click.Choice(SQUASHES),
    default="tanh",
    show_default=True,
    help="tanh(value / scale), or linear: clip(value / scale, -1, 1).",
)
@_OUT
@_WORKERS
@_SCHEDULER
@_RESUME
@_QUIET
def solve_cmd(
    source: str,
    scale: float,
    squash: str,
    out: str,
    workers: int | None,
    scheduler: str | None,
    resume: bool,
    quiet: bool,
) -> None:
    """Label each position by its exact value (games that can solve positions: Kalah)."""
    labeller = Labeller("solve", "", scale=scale, squash=squash)
    _label(source, out, labeller, workers, scheduler, resume, quiet)


@data.command("describe")
@click.argument("source", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def describe_cmd(source: str, as_json: bool) -> None:
    """Counts, plies, the label histogram and the provenance of a data set."""
    info = describe(read_dataset(source))
    if as_json:
        click.echo(json.dumps(info))
        return
    click.echo(f"game:      {info['game']}")
    click.echo(
        f"positions: {info['positions']} ({info['distinct_positions']} distinct) "
        f"in {info['groups']} groups"
    )
    click.echo(f"columns:   {', '.join(info['columns'])}")
    if "plies" in info:
        p = info["plies"]
        click.echo(f"plies:     {p['min']}-{p['max']}, mean {p['mean']}")
    if "labels" in info:
        lab = info["labels"]
        click.echo(
            f"labels:    mean {lab['mean']:+.4f}; {lab['wins']} > 0, {lab['draws']} = 0, "
            f"{lab['losses']} < 0"
        )
        for lo, hi, count in lab["histogram"]:
            click.echo(f"  [{lo:+.1f}, {hi:+.1f}) {count}")
    click.echo(f"provenance: {json.dumps(info['provenance'], sort_keys=True)}")


@data.command("merge")
@click.argument(
    "sources", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False)
)
@_OUT
def merge_cmd(sources: tuple[str, ...], out: str) -> None:
    """One data set from several of one game; each keeps its groups apart."""
    parts = [(s, read_dataset(s)) for s in sources]
    joined = merge(parts)
    write_dataset(out, joined)
    unlabelled = [s for s, part in parts if part.labels is None]
    note = ""
    if 0 < len(unlabelled) < len(parts):  # merge keeps labels only when every part has them
        note = f" (unlabelled: {', '.join(unlabelled)} has none, so no labels are kept)"
    click.echo(f"{len(joined)} positions from {len(sources)} files -> {out}{note}")


COMMANDS = (data,)
