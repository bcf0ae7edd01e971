"""Commands that describe what is installed: plugins, describe, describe-model."""

from __future__ import annotations

import json
from typing import Any

import attrs
import click

from mindgames.cli.common import echo_json
from mindgames.errors import MindgamesError
from mindgames.registry import get_registry


def _table(rows: list[dict[str, str]], columns: list[str]) -> str:
    widths = {c: max([len(c)] + [len(str(r[c])) for r in rows]) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    lines.append("  ".join("-" * widths[c] for c in columns))
    lines += ["  ".join(str(r[c]).ljust(widths[c]) for c in columns).rstrip() for r in rows]
    return "\n".join(lines)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def plugins(as_json: bool) -> None:
    """List installed components: name, kind, plugin, distribution and version."""
    registry = get_registry()
    rows = registry.rows()
    failures = [attrs.asdict(f) for f in registry.host.failures]
    if as_json:
        echo_json(rows if not failures else {"components": rows, "failures": failures})
        return
    click.echo(_table(rows, ["name", "kind", "plugin", "distribution", "version"]))
    for f in failures:
        click.echo(f"FAILED  {f['name']} ({f['distribution']}): {f['error']}")


def _param_rows(cls: type) -> list[dict[str, str]]:
    rows = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        type_name = getattr(field.type, "__name__", str(field.type))
        rows.append({"name": field.name, "type": type_name, "default": repr(default)})
    return rows


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option("--json", "as_json", is_flag=True)
def describe(game_spec: str, as_json: bool) -> None:
    """Show a game's parameters and its encodings with their columns."""
    registry = get_registry()
    game = registry.game(game_spec)
    info = registry.game_info(game.name)
    encodings = []
    for enc_info in registry.encodings_for(game.name):
        enc = registry.encoding(game, enc_info.name)
        encodings.append(
            {
                "name": enc_info.name,
                "columns": list(enc.columns),
                "options": _param_rows(enc_info.options) if enc_info.options else [],
                "description": enc_info.description,
            }
        )
    data = {
        "game": game.name,
        "spec": game.spec(),
        "description": info.description,
        "players": list(game.player_names),
        "parameters": _param_rows(type(game)),
        "encodings": encodings,
    }
    if as_json:
        echo_json(data)
        return
    click.echo(f"{game.name}: {info.description}".rstrip(": "))
    click.echo(f"spec: {data['spec']}    players: {' / '.join(game.player_names)}")
    click.echo("parameters:")
    for p in data["parameters"]:
        click.echo(f"  {p['name']} ({p['type']}, default {p['default']})")
    click.echo("encodings:")
    for e in encodings:
        opts = ", ".join(f"{o['name']}={o['default']}" for o in e["options"])
        click.echo(
            f"  {e['name']} [{len(e['columns'])} columns]" + (f" options: {opts}" if opts else "")
        )
        click.echo("    " + " ".join(e["columns"]))


def _game_spec(record: dict[str, Any]) -> str:
    """The spec string of a model file's game: only non-default parameters when it is installed."""
    from mindgames.spec import format_spec

    try:
        game = get_registry().game_from(record["name"], record.get("params", {}), where="game")
    except MindgamesError:
        return format_spec(record["name"], record.get("params", {}))
    return game.spec()


@click.command("describe-model")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True)
def describe_model(path: str, as_json: bool) -> None:
    """Show what a model file holds: game, encoding, model kind and shape, provenance."""
    from mindgames.modelfile import read_model_file

    meta, arrays = read_model_file(path)
    if as_json:
        echo_json(meta)
        return
    game = meta["game"]
    click.echo(f"file:       {path}")
    click.echo(f"format:     {meta['format']} v{meta['version']}")
    click.echo(f"game:       {_game_spec(game)}")
    click.echo(f"encoding:   {meta['encoding']} ({len(meta['columns'])} columns)")
    click.echo(f"model:      {meta['model']['kind']} {json.dumps(meta['model']['config'])}")
    for name, array in arrays.items():
        click.echo(f"  array {name}: shape {list(array.shape)}")
    click.echo(f"parameters: {sum(int(a.size) for a in arrays.values())}")
    for key, value in meta.get("provenance", {}).items():
        click.echo(f"  {key}: {json.dumps(value)}")


COMMANDS = (plugins, describe, describe_model)
