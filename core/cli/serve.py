"""``mindgames serve``: a local web page to play any installed game against an agent with the
mouse, and to replay recorded games (``core/web``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from mindgames.cli.common import SEED
from mindgames.errors import MindgamesError
from mindgames.web.limits import Limits, bounded_options

#: the server's default bounds, shown in serve --help
DEFAULTS = Limits()

if TYPE_CHECKING:
    from mindgames.registry import Registry


@click.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port; the address is printed).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind: this machine only unless you give another.",
)
@click.option(
    "--agent",
    "agent",
    metavar="SPEC",
    help="The opponent's agent spec (default: alphabeta:depth=4,eval=material, or "
    "random for a game without a material encoding); the page can change it.",
)
@click.option(
    "--replay",
    "replays",
    multiple=True,
    type=click.Path(exists=True),
    help="Recorded games to offer for replay: a tournament directory, its "
    "results.jsonl, or a game record file such as PDN (repeatable).",
)
@click.option(
    "--game",
    "rules",
    metavar="GAME",
    help="The game of --replay record files such as PDN (default: the first "
    "installed game that reads the file).",
)
@click.option(
    "--models",
    "models",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="A directory of model files that the page may play (eval=@NAME, NAME inside it; "
    "repeatable). No other file on this machine can be named by a request.",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(1, 10**8),
    default=DEFAULTS.nodes,
    show_default=True,
    help="Node budget of one agent's move (a searcher's nodes= is at most this).",
)
@click.option(
    "--max-time",
    type=click.FloatRange(0.01, 600.0),
    default=DEFAULTS.seconds,
    show_default=True,
    help="Seconds one agent's move may take (a searcher's time= is at most this).",
)
@click.option(
    "--max-depth",
    type=click.IntRange(1, 64),
    default=DEFAULTS.depth,
    show_default=True,
    help="The deepest depth= a request may ask for (deeper is refused).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 64),
    default=DEFAULTS.threads,
    show_default=True,
    help="Agent moves searched at once; a request beyond them is answered 503 at once.",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed of the agents' random choices (same game, same replies).",
)
def serve(
    port: int,
    host: str,
    agent: str | None,
    replays: tuple[str, ...],
    rules: str | None,
    models: tuple[str, ...],
    max_nodes: int,
    max_time: float,
    max_depth: int,
    threads: int,
    seed: int,
) -> None:
    """Serve a page to play any installed game against an agent, and to replay games.

    Open the printed address in a browser; Ctrl-C stops the server. Each agent move is bounded
    by --max-nodes, --max-time and --max-depth, at most --threads run at once, and a request
    names model files only inside the --models directories.
    """
    from mindgames.play.replays import load_games
    from mindgames.registry import get_registry
    from mindgames.web.app import App
    from mindgames.web.app import serve as make_server

    registry = get_registry()
    limits = Limits(nodes=max_nodes, seconds=max_time, depth=max_depth, threads=threads)
    if agent is not None:
        _check_agent(registry, agent, limits)
    files = [load_games(path, registry, rules) for path in replays]
    for found in files:
        found.replaying()  # a file of which no game replays is an error
        for number in found.skipped:  # the others replay
            click.echo(f"{found.path}: game {number} {found.failure(number)}: left out", err=True)
    recorded = [g for found in files for g in found.games]
    app = App(
        registry,
        agent=agent,
        seed=seed,
        replays=recorded,
        limits=limits,
        models=[Path(m) for m in models],
    )
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        raise MindgamesError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    address = f"http://{host}:{server.server_port}/"
    click.echo(f"mindgames serve: {address}  ({len(recorded)} recorded games; Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.server_close()
        app.close()


def _check_agent(registry: Registry, spec: str, limits: Limits) -> None:
    """Refuse at the start an ``--agent`` that no installed game can build (a misspelt searcher,
    a missing model file), rather than with the page's first move. A model file's agent is
    built for the game the file was written for (``kalah:pits=4,seeds=3``, not ``kalah``)."""
    from mindgames.agent import build_agent
    from mindgames.modelfile import load_evaluator
    from mindgames.spec import parse_spec

    try:
        name, options = parse_spec(spec)
        bounded_options(registry.searcher_info(name).cls, options, limits)
        model = options.get("eval")
        if isinstance(model, str) and model.startswith("@"):
            games = [load_evaluator(model[1:], registry)[0].spec()]
        else:
            games = list(registry.games)
    except MindgamesError as exc:
        raise MindgamesError(f"--agent {spec!r}: {exc}") from None
    errors = []
    for name in games:
        try:
            build_agent(registry, registry.game(name), spec)
            return
        except MindgamesError as exc:
            errors.append(exc)
    raise MindgamesError(f"--agent {spec!r}: {errors[0]}" if errors else "no game installed")


COMMANDS = (serve,)
