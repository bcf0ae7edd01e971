"""``mindgames plot``: a training run's history, a learning curve or a tournament as a picture."""

from __future__ import annotations

from pathlib import Path

import click

from mindgames.files import output_file


def default_output(source: Path) -> Path:
    """``RUN_DIR/plot.png`` for a directory, ``FILE.png`` beside a file."""
    return source / "plot.png" if source.is_dir() else source.with_suffix(".png")


@click.command()
@click.argument("source", metavar="RUN_DIR_OR_FILE", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path),
    help="The picture to write, .png or .svg (default: RUN_DIR/plot.png or FILE.png).",
)
def plot(source: Path, out: Path | None) -> None:
    """Draw a training run (history and curve), a learning curve or a tournament.

    RUN_DIR_OR_FILE: a training run directory (history.jsonl, and curve.jsonl when
    `mindgames curve` has measured it), a tournament directory (report.json), or one of those
    files. Needs the plot extra (matplotlib).
    """
    from mindgames.plot import draw, image_format, require_matplotlib
    from mindgames.plotdata import panels_for

    target = out if out is not None else default_output(source)
    image_format(target)
    output_file(target)
    require_matplotlib()
    kind, panels = panels_for(source)
    axes = draw(panels, f"{kind}: {source}", target)
    titles = "; ".join(p.title for p in panels)
    click.echo(f"wrote {target}: {kind}, {axes} axes ({titles})")


COMMANDS = (plot,)
