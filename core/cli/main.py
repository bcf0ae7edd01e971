"""The ``mindgames`` command: a click group whose commands come from core and from plugins.

User errors (``MindgamesError``, bad options, and ``OSError`` from the disk) print one line and
exit 2; an interrupted run (SIGINT, SIGTERM) prints how to resume it and exits 130.
``--verbose`` shows the traceback. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from mindgames import __version__
from mindgames.compiletuning import run_tuned
from mindgames.errors import Interrupted, MindgamesError, os_message


class MindgamesGroup(click.Group):
    """A group that adds plugin commands and turns user errors into one line."""

    def _plugin_commands(self) -> dict[str, click.Command]:
        from mindgames.registry import get_registry

        try:
            return {name: e.record for name, e in get_registry().commands.items()}
        except MindgamesError:
            return {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(_MODULE_OF) | set(self._plugin_commands()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return core_command(cmd_name) or self._plugin_commands().get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            where = f" (see {exc.ctx.command_path} --help)" if exc.ctx else ""
            _fail(ctx, exc, f"{exc.format_message()}{where}", 2)
        except Interrupted as exc:
            _fail(ctx, exc, str(exc), 130)
        except MindgamesError as exc:
            _fail(ctx, exc, str(exc), 2)
        except BrokenPipeError:  # the reader went away (``| head``): stop quietly, as Unix tools do
            _silence_stdout()
            ctx.exit(1)
        except OSError as exc:  # the disk, not the code: full, read-only, not a directory
            _fail(ctx, exc, os_message(exc), 2)


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _fail(ctx: click.Context, exc: BaseException, message: str, code: int) -> None:
    """Print one line and exit ``code``; ``--verbose`` re-raises for the traceback."""
    if ctx.obj and ctx.obj.get("verbose"):
        raise exc
    click.echo(f"mindgames: error: {message}", err=True)
    ctx.exit(code)


@click.group(cls=MindgamesGroup)
@click.version_option(__version__, prog_name="mindgames")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks for errors.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """Learn evaluation functions for board games and measure them in tournaments."""
    ctx.ensure_object(dict)
    ctx.obj["verbose"] = verbose


#: core's commands by module (each module lists its click commands in ``COMMANDS``, and
#: ``tests/core/test_cli.py`` checks the names against them): a command's module is imported when
#: the command is run or listed, so ``analyse`` does not pay for ``tournament``'s imports (about
#: 0.1 s of every start); a broken import still fails, when its command is asked for
CORE_COMMANDS = {
    "info": ("plugins", "describe", "describe-model"),
    "games": ("moves", "perft", "check-game"),
    "analyse": ("analyse",),
    "data": ("data",),
    "ladder": ("ladder", "rate"),
    "measure": ("curve", "quality"),
    "newgame": ("new-game",),
    "play": ("play",),
    "plot": ("plot",),
    "replicates": ("replicates",),
    "serve": ("serve",),
    "show": ("show",),
    "tournament": ("match", "tournament"),
    "train": ("train",),
    "zoo": ("zoo",),
}
_MODULE_OF = {command: module for module, names in CORE_COMMANDS.items() for command in names}


def core_command(name: str) -> click.Command | None:
    """Core's command ``name`` (its module imported now), or None when core has none so named."""
    module = _MODULE_OF.get(name)
    if module is None:
        return None
    commands = importlib.import_module(f"mindgames.cli.{module}").COMMANDS
    found = {command.name: command for command in commands}
    if name not in found:  # pragma: no cover - CORE_COMMANDS is checked by a test
        raise RuntimeError(f"mindgames.cli.{module} has no command {name!r}")
    return found[name]


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point, in a process tuned for numba's compiler (a cold compile is
    about a sixth cheaper: mindgames.compiletuning)."""
    run_tuned(lambda: cli.main(args=argv, prog_name="mindgames"))
