"""``mindgames play``: one game between two agents, or against a person at the terminal.

A person types moves in the game's notation or a command (``help`` lists them). Lines are read
from standard input, so a pipe plays a whole game (the tests do). End of input quits cleanly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from mindgames.agent import Agent, build_agent
from mindgames.cli.common import SEED
from mindgames.errors import MindgamesError
from mindgames.files import atomic_write
from mindgames.game import Game, State
from mindgames.play.replays import load_games
from mindgames.play.session import Session
from mindgames.registry import Registry, get_registry

HUMAN = "human"

HELP = """\
  a move in the game's notation plays it; commands:
  help        this list
  moves       the legal moves
  board       the board again
  undo        take back your last move (and the replies since)
  hint        the hint agent's move, value and line
  save FILE   write the game: FILE.json as a result record, else the game's own format
              (PDN for draughts) when it has one
  resign      give the game up
  quit        stop here (end of input does the same)"""


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.argument("first", metavar="FIRST")
@click.argument("second", metavar="SECOND")
@click.option("--position", help="Start from this position text instead of the start.")
@click.option("--moves", "line", default=None, help="Play these moves first (space-separated).")
@click.option(
    "--load",
    type=click.Path(),
    default=None,
    help="Go on from the end of a game in this file (a saved game, results or a tournament "
    "run directory, PDN).",
)
@click.option(
    "--number",
    "-n",
    type=click.IntRange(1),
    default=None,
    help="Which game of the --load file, counted in its order from 1 (as 'show --number'); "
    "needed when the file holds several.",
)
@click.option(
    "--hint",
    "hint_spec",
    default=None,
    metavar="SPEC",
    help="The agent that answers 'hint' (default: the agent playing the other side).",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--board/--no-board", default=True, help="Show the board after every move.")
@click.option("--max-plies", type=click.IntRange(1), default=1000, show_default=True)
def play(
    game_spec: str,
    first: str,
    second: str,
    position: str | None,
    line: str | None,
    load: str | None,
    number: int | None,
    hint_spec: str | None,
    seed: int,
    board: bool,
    max_plies: int,
) -> None:
    """Play one game: FIRST moves first. An agent spec, or 'human' to type moves."""
    registry = get_registry()
    game = registry.game(game_spec)
    agents = [
        None if spec == HUMAN else _agent(registry, game, spec, where)
        for spec, where in ((first, "FIRST"), (second, "SECOND"))
    ]
    hinter = _hint_agent(registry, game, agents, hint_spec)
    start, texts = _origin(game, position, load, number)
    session = _start(game, agents, (first, second), start, [*texts, *(line or "").split()], seed)
    if board:
        click.echo(game.render(session.state))
    try:
        _loop(session, hinter, board, max_plies)
    except KeyboardInterrupt:
        click.echo("")
    click.echo(f"result: {session.outcome()}")
    click.echo(f"final position: {game.position_text(session.state)}")


def _hint_agent(
    registry: Registry, game: Game, agents: list[Agent | None], spec: str | None
) -> Agent | None:
    """The agent that answers ``hint``: ``--hint``'s, else the one playing (second side first)."""
    if spec is not None:
        return _agent(registry, game, spec, "--hint")
    return next((a for a in reversed(agents) if a is not None), None)


def _agent(registry: Registry, game: Game, spec: str, where: str) -> Agent:
    """``build_agent``, its refusal naming the argument or option that gave the spec."""
    try:
        return build_agent(registry, game, spec)
    except MindgamesError as exc:
        raise MindgamesError(f"{where} {spec!r}: {exc}") from None


def _origin(
    game: Game, position: str | None, load: str | None, number: int | None
) -> tuple[State | None, list[str]]:
    """Where the options start the game: a position, or the start and moves of a saved game."""
    if load is not None and position is not None:
        raise MindgamesError("give --load or --position, not both")
    if load is None:
        if number is not None:
            raise MindgamesError("--number picks a game of the --load file: give --load FILE")
        return (None if position is None else game.parse_position(position)), []
    found = load_games(load, get_registry(), rules=game.spec())
    total = len(found.games) + len(found.skipped)
    if number is None and total > 1:
        raise MindgamesError(
            f"{found.path}: the file holds {total} games: pick one with --number N"
        )
    saved = found.pick(number or 1)
    if saved.game != game:
        raise MindgamesError(f"{load}: a game of {saved.game.spec()!r}, not {game.spec()!r}")
    return saved.states[0], list(saved.moves)


def _start(
    game: Game,
    agents: list[Agent | None],
    names: tuple[str, str],
    start: State | None,
    texts: list[str],
    seed: int,
) -> Session:
    """The session at ``start`` (None: the game's start) after the moves ``texts``."""
    session = Session(game, agents, names, start, seed)
    for ply, text in enumerate(texts, 1):
        try:
            session.play(text)
        except MindgamesError as exc:
            raise MindgamesError(f"move {ply} of the line ({text!r}): {exc}") from None
    return session


def _loop(session: Session, hinter: Agent | None, board: bool, max_plies: int) -> None:
    """Play until the game ends, a person quits or resigns, or input ends."""
    game = session.game
    while not session.over and len(session.moves) < max_plies:
        side = session.side
        if not session.human_to_move():
            text, result = session.agent_move()
            _announce(session, side, text, f"  (value {result.value:+.3f})", board)
            continue
        command = _read(f"{game.player_names[side]} to move")
        if command is None or command == "quit":
            return
        if command in ("", "help", "?"):
            click.echo(HELP)
        elif command == "moves":
            click.echo(f"  legal moves: {' '.join(session.legal())}")
        elif command == "board":
            click.echo(game.render(session.state))
        elif command == "resign":
            session.resign()
        else:
            _command_or_move(session, command, hinter, board)


def _command_or_move(session: Session, command: str, hinter: Agent | None, board: bool) -> None:
    game = session.game
    word, _, rest = command.partition(" ")
    if word == "undo":
        try:
            click.echo(f"  took back {session.undo()} plies")
        except MindgamesError as exc:
            click.echo(f"  {exc}")
            return
        if board:
            click.echo(game.render(session.state))
    elif word == "hint":
        if hinter is None:
            click.echo("  no agent to ask: start with --hint SPEC")
            return
        hint = session.hint(hinter)
        click.echo(f"  hint: {hint.move} (value {hint.value:+.3f}; line {' '.join(hint.line)})")
    elif word == "save":
        _save(session, rest.strip())
    else:
        side = session.side
        try:
            text = session.play(command)
        except MindgamesError as exc:
            click.echo(f"  {exc}")
            if "legal" not in str(exc):  # draughts names the legal moves itself
                click.echo(f"  legal moves: {' '.join(session.legal())}")
            return
        _announce(session, side, text, "", board)


def _announce(session: Session, side: int, text: str, note: str, board: bool) -> None:
    name = session.game.player_names[side]
    click.echo(f"{len(session.moves):>3}. {name}: {text}{note}")
    if board:
        click.echo(session.game.render(session.state))


def _save(session: Session, path: str) -> None:
    """Write the game to ``path``: a result record for ``.json``/``.jsonl`` or when the game has
    no record format of its own, else that format (PDN for draughts)."""
    if not path:
        click.echo("  save needs a file name: save FILE")
        return
    exported = None if Path(path).suffix in (".json", ".jsonl") else session.export()
    text = exported[1] if exported else None
    if text is None:
        text = json.dumps(session.record(), sort_keys=True) + "\n"
    try:
        with atomic_write(path, "w") as fh:
            fh.write(text)
    except MindgamesError as exc:
        click.echo(f"  {exc}")
        return
    kind = "a result record" if exported is None else f"{exported[0].lstrip('.').upper()}"
    click.echo(f"  saved {len(session.moves)} plies to {path} ({kind})")


def _read(prompt: str) -> str | None:
    """One line from standard input after a prompt; None at the end of input."""
    click.echo(f"{prompt} (help) > ", nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo("")
        return None
    if not sys.stdin.isatty():
        click.echo(line.rstrip("\n"))  # echo piped input so the transcript reads as typed
    return line.strip()


COMMANDS = (play,)
