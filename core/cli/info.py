"""Commands that describe what is installed: plugins, describe, describe-model."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import attrs
import click

from mindgames.capabilities import (
    GAME_CAPABILITIES,
    LEARNER_CAPABILITIES,
    MODEL_CAPABILITIES,
    capabilities_of,
)
from mindgames.cli.common import echo_json
from mindgames.describe import option_rows
from mindgames.registry import get_registry, unknown
from mindgames.spec import parse_spec


def _table(rows: list[dict[str, str]], columns: list[str]) -> str:
    widths = {c: max([len(c)] + [len(str(r[c])) for r in rows]) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    lines.append("  ".join("-" * widths[c] for c in columns))
    lines += ["  ".join(str(r[c]).ljust(widths[c]) for c in columns).rstrip() for r in rows]
    return "\n".join(lines)


@click.command()
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"components": [...], "failures": [...]}.'
)
def plugins(as_json: bool) -> None:
    """List installed components: name, kind, plugin, distribution and version; and failures."""
    registry = get_registry()
    rows = registry.rows()
    failures = [attrs.asdict(f) for f in registry.host.failures]
    if as_json:
        echo_json({"components": rows, "failures": failures})
        return
    click.echo(_table(rows, ["name", "kind", "plugin", "distribution", "version"]))
    for f in failures:
        click.echo(f"FAILED  {f['name']} ({f['distribution']}): {f['error']}")


def _game_data(spec: str) -> dict[str, Any]:
    """A game's parameters and its encodings with their columns."""
    registry = get_registry()
    game = registry.game(spec)
    info = registry.game_info(game.name)
    encodings = []
    for enc_info in registry.encodings_for(game.name):
        enc = registry.encoding(game, enc_info.name)
        encodings.append(
            {
                "name": enc_info.name,
                "columns": list(enc.columns),
                "options": option_rows(enc_info.options) if enc_info.options else [],
                "description": enc_info.description,
            }
        )
    return {
        "kind": "game",
        "name": game.name,
        "game": game.name,
        "spec": game.spec(),
        "description": info.description,
        "players": list(game.player_names),
        "parameters": option_rows(type(game)),
        "capabilities": capabilities_of(game, GAME_CAPABILITIES),
        "encodings": encodings,
    }


def _component_data(kind: str, name: str) -> dict[str, Any]:
    """A searcher's, learner's or model's description and options."""
    registry = get_registry()
    data: dict[str, Any] = {"kind": kind, "name": name}
    if kind == "searcher":
        searcher = registry.searcher_info(name)
        data["description"] = searcher.description
        data["needs_evaluator"] = searcher.cls.needs_evaluator
        data["options"] = option_rows(searcher.cls)
    elif kind == "learner":
        learner = registry.learner_info(name)
        data["description"] = learner.description
        data["needs"] = sorted(learner.needs)
        data["offers"] = capabilities_of(learner.cls, LEARNER_CAPABILITIES)
        data["options"] = option_rows(learner.cls)
    else:
        model = registry.model_info(name)
        data["description"] = model.description
        data["capabilities"] = sorted(model.capabilities)
        data["offers"] = capabilities_of(model.cls, MODEL_CAPABILITIES)
        data["default_encoding"] = model.default_encoding
        data["options"] = option_rows(model.config)
    return data


def _kinds_named(name: str) -> list[str]:
    """The kinds of component registered under ``name`` (a name may be a game and a model)."""
    registry = get_registry()
    tables: dict[str, Any] = {
        "game": registry.games,
        "searcher": registry.searchers,
        "learner": registry.learners,
        "model": registry.models,
    }
    found = [kind for kind, table in tables.items() if name in table]
    if not found:
        every = [n for table in tables.values() for n in table]
        raise unknown("game, searcher, learner or model", name, every)
    return found


def _echo_options(title: str, rows: list[dict[str, str]]) -> None:
    click.echo(f"{title}:" if rows else f"{title}: none")
    for row in rows:
        doc = f"  {row['doc']}" if row["doc"] else ""
        click.echo(f"  {row['name']} ({row['type']}, default {row['default']}){doc}")


def _echo_game(data: dict[str, Any]) -> None:
    click.echo(f"{data['game']}: {data['description']}".rstrip(": "))
    click.echo(f"spec: {data['spec']}    players: {' / '.join(data['players'])}")
    _echo_options("parameters", data["parameters"])
    click.echo(f"capabilities: {', '.join(data['capabilities']) or 'none'}")
    click.echo("encodings:")
    for e in data["encodings"]:
        opts = ", ".join(f"{o['name']}={o['default']}" for o in e["options"])
        click.echo(
            f"  {e['name']} [{len(e['columns'])} columns]" + (f" options: {opts}" if opts else "")
        )
        columns = " ".join(e["columns"])
        click.echo(textwrap.fill(columns, 96, initial_indent="    ", subsequent_indent="    "))


def _echo_component(data: dict[str, Any]) -> None:
    click.echo(f"{data['kind']} {data['name']}: {data['description']}".rstrip(": "))
    if "capabilities" in data:
        click.echo(f"capabilities: {', '.join(data['capabilities']) or 'none'}")
        click.echo(f"offers: {', '.join(data['offers']) or 'none'}")
        if data["default_encoding"]:
            click.echo(f"default encoding: {data['default_encoding']}")
    if "needs" in data:
        click.echo(f"needs a model that is: {', '.join(data['needs']) or 'anything'}")
        click.echo(f"offers: {', '.join(data['offers']) or 'none'}")
    _echo_options("options", data["options"])


@click.command()
@click.argument("spec", metavar="NAME")
@click.option(
    "--kind",
    type=click.Choice(["game", "searcher", "learner", "model"]),
    help="Which kind, when NAME is registered as more than one.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (a list if several).")
def describe(spec: str, kind: str | None, as_json: bool) -> None:
    """Show a game, searcher, learner or model: its options with types, defaults and docs.

    A game (``kalah:pits=4``) also shows its encodings with their columns; a model file
    (``runs/td/model.npz``, or ``@runs/td/model.npz`` as agent specs name it) is shown as
    ``describe-model`` shows it.
    """
    if spec.endswith(".npz") and not kind:
        _show_model(spec.removeprefix("@"), as_json)
        return
    name, _ = parse_spec(spec)
    kinds = [kind] if kind else _kinds_named(name)
    found = [_game_data(spec) if k == "game" else _component_data(k, name) for k in kinds]
    if as_json:
        echo_json(found[0] if len(found) == 1 else found)
        return
    for i, data in enumerate(found):
        if i:
            click.echo()
        (_echo_game if data["kind"] == "game" else _echo_component)(data)


def _brief(config: dict[str, Any], longest: int = 8) -> dict[str, Any]:
    """The model's config with each long list (a mask's 91 column groups) shown by its length;
    ``--json`` keeps everything."""
    return {
        key: f"<{len(value)} items>" if isinstance(value, list) and len(value) > longest else value
        for key, value in config.items()
    }


@click.command("describe-model")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the metadata record as JSON.")
def describe_model(path: str, as_json: bool) -> None:
    """Show what a model file holds: game, encoding, model kind and shape, provenance."""
    _show_model(path, as_json)


def _show_model(path: str, as_json: bool) -> None:
    from mindgames.modelfile import game_spec, read_model_file

    meta, arrays = read_model_file(path)
    if as_json:
        echo_json(meta)
        return
    game = meta["game"]
    click.echo(f"file:       {path}")
    click.echo(f"format:     {meta['format']} v{meta['version']}")
    click.echo(f"game:       {game_spec(game, get_registry())}")
    click.echo(f"encoding:   {meta['encoding']} ({len(meta['columns'])} columns)")
    click.echo(f"model:      {meta['model']['kind']} {json.dumps(_brief(meta['model']['config']))}")
    for name, array in arrays.items():
        click.echo(f"  array {name}: shape {list(array.shape)}")
    click.echo(f"parameters: {sum(int(a.size) for a in arrays.values())}")
    for key, value in meta.get("provenance", {}).items():
        click.echo(f"  {key}: {json.dumps(value)}")


COMMANDS = (plugins, describe, describe_model)
