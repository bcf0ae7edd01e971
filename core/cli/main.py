"""The ``mindgames`` command: a click group whose commands come from core and from plugins.

User errors (``MindgamesError``) print one line and exit 2; ``--verbose`` shows the traceback.
Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from typing import Any

import click

from mindgames import __version__
from mindgames.errors import MindgamesError


class MindgamesGroup(click.Group):
    """A group that adds plugin commands and turns user errors into one line."""

    def _plugin_commands(self) -> dict[str, click.Command]:
        from mindgames.registry import get_registry

        try:
            return {name: e.record for name, e in get_registry().commands.items()}
        except MindgamesError:
            return {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self._plugin_commands()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or self._plugin_commands().get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MindgamesError as exc:
            if ctx.obj and ctx.obj.get("verbose"):
                raise
            click.echo(f"mindgames: error: {exc}", err=True)
            ctx.exit(2)


@click.group(cls=MindgamesGroup)
@click.version_option(__version__, prog_name="mindgames")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks for errors.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """Learn evaluation functions for board games and measure them in tournaments."""
    ctx.ensure_object(dict)
    ctx.obj["verbose"] = verbose


def _register_core_commands() -> None:
    from mindgames.cli import games, info

    for module in (info, games):
        for command in module.COMMANDS:
            cli.add_command(command)
    for optional in ("analyse", "play", "tournament", "train"):
        try:
            module = __import__(f"mindgames.cli.{optional}", fromlist=["COMMANDS"])
        except ModuleNotFoundError:
            continue
        for command in getattr(module, "COMMANDS", ()):
            cli.add_command(command)


_register_core_commands()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    cli.main(args=argv, prog_name="mindgames")
