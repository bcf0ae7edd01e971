"""``mindgames pdn check``, ``convert`` and ``extract``: read, replay, rewrite PDN files and turn
their games into data sets."""

from __future__ import annotations

import json
from typing import Any

import click

from mindgames.errors import GameRecordError
from mindgames.files import atomic_write, output_file
from mindgames.games.draughts.pdn import check_report, clean, read_pdn_file, replay, write_pdn
from mindgames.games.draughts.rules import Checkers, Draughts, Giveaway

_DEFAULTS: dict[str, type[Draughts]] = {"checkers": Checkers, "giveaway": Giveaway}
_RULES = click.option(
    "--game",
    "game_name",
    type=click.Choice(sorted(_DEFAULTS)),
    default="checkers",
    show_default=True,
    help="Rules for games whose tags do not say (a Variant tag wins).",
)


@click.group("pdn")
def pdn() -> None:
    """Read, check and convert PDN game records (checkers and give-away)."""


@pdn.command("check")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@_RULES
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report.")
def check(path: str, game_name: str, as_json: bool) -> None:
    """Read and replay every game; report plies, final position, warnings and errors.

    Exits 1 when some game has an error, 0 otherwise.
    """
    records = read_pdn_file(path)
    if not records:
        raise GameRecordError(f"{path}: no PDN game in it")
    report = check_report(records, _DEFAULTS[game_name]())
    if as_json:
        click.echo(json.dumps(report, indent=None, sort_keys=False))
    else:
        for row in report["games"]:
            tags = row["tags"]
            names = f"{tags.get('Black', '?')} - {tags.get('White', '?')}"
            status = "ok" if row["error"] is None else "ERROR"
            click.echo(f"game {row['number']}: {status} {names} {row['result']}, "
                       f"{row['plies']} plies, final {row['final_fen']}")  # fmt: skip
            for warning in row["warnings"]:
                click.echo(f"  warning: {warning}")
            if row["error"] is not None:
                click.echo(f"  error: {row['error']}")
        click.echo(f"{report['total']} games, {report['replayed']} replayed, "
                   f"{report['errors']} with errors")  # fmt: skip
    if report["errors"]:
        raise SystemExit(1)


@pdn.command("convert")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write the clean PDN.")  # fmt: skip
@_RULES
def convert(path: str, output: str, game_name: str) -> None:
    """Write a clean PDN of the same games: canonical moves, standard tag order, wrapped lines.

    A game with an error keeps its moves before the error; errors go to stderr, exit 1. A file
    of which no game can be read is one error and writes nothing.
    """
    if output != "-":
        output_file(output)
    default = _DEFAULTS[game_name]()
    records = read_pdn_file(path)
    readable = [g for g in records if g.error is None or g.moves or set(g.tags) - {"Result"}]
    if not readable:
        first = f" ({records[0].error})" if records and records[0].error else ""
        raise GameRecordError(f"{path}: no PDN game could be read{first}; nothing written")
    games, errors = [], len(records) - len(readable)
    for game in readable:
        played = replay(game, default)
        games.append(clean(game, played))
        if played.error is not None:
            errors += 1
            click.echo(f"error: {played.error}", err=True)
    text = write_pdn(games)
    if output == "-":
        click.echo(text, nl=False)
    else:
        with atomic_write(output, "w") as fh:
            fh.write(text)
    if errors:
        raise SystemExit(1)


@pdn.command("extract")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The data set to write (.npz).")  # fmt: skip
@click.option("--drop-draws", is_flag=True, help="Leave drawn games out.")
@click.option("--min-plies", type=click.IntRange(0), default=0, show_default=True,
              help="Leave out games of fewer plies.")  # fmt: skip
@click.option("--discount", type=click.FloatRange(0.0, 1.0, min_open=True), default=1.0,
              show_default=True,
              help="Label = result * DISCOUNT ** (plies to the end - 1).")  # fmt: skip
@_RULES
def extract(path: str, output: str, drop_draws: bool, min_plies: int, discount: float,
            game_name: str) -> None:  # fmt: skip
    """Every position of every replayed game, labelled by its result from the side to move.

    Group = the game. Games that do not replay, have no result or other rules are skipped
    (counted on stderr).
    """
    from mindgames.data.playouts import from_games
    from mindgames.data.sets import write_dataset

    default = _DEFAULTS[game_name]()
    games, skipped = default.import_games(path)
    if not games and not skipped:
        raise GameRecordError(f"{path}: no PDN game in it")
    provenance = {"source": str(path)}
    data = from_games(default, games, drop_draws=drop_draws, min_plies=min_plies,
                      discount=discount, provenance=provenance)  # fmt: skip
    kept = data.provenance["generator"]["extract"]["games"]
    if not kept:
        raise GameRecordError(
            f"{path}: no game to extract ({_left_out(games, skipped, drop_draws, min_plies)})"
        )
    write_dataset(output, data)
    click.echo(f"{len(data)} positions from {kept} games -> {output}")
    if skipped:
        click.echo(f"skipped {len(skipped)} games that did not replay or use other rules", err=True)


COMMANDS = [pdn]


def _left_out(
    games: list[dict[str, Any]], skipped: dict[int, str], drop_draws: bool, min_plies: int
) -> str:
    """Why every game of a file was left out of ``extract``: how many for each reason."""
    finished = ("1-0", "0-1", "1/2-1/2")
    unfinished = sum(1 for g in games if g["result"] not in finished)
    short = sum(
        1 for g in games if g["result"] in finished and len(g["states"]) - 1 < max(min_plies, 1)
    )
    draws = len(games) - unfinished - short if drop_draws else 0
    parts = [
        f"{len(skipped)} did not replay or use other rules" if skipped else "",
        f"{unfinished} have no result (*)" if unfinished else "",
        f"{short} are shorter than --min-plies {min_plies}" if short else "",
        f"{draws} are draws (--drop-draws)" if draws else "",
    ]
    total = len(games) + len(skipped)
    return f"of {total} games, " + ", ".join(p for p in parts if p)
