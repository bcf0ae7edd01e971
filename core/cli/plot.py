"""``mindgames plot``: a training run's history, a learning curve or a tournament as a picture."""

from __future__ import annotations

from pathlib import Path

import click

from mindgames.files import output_file


def default_output(source: Path) -> Path:
    """``RUN_DIR/plot.png`` for a directory, ``FILE.png`` beside a file."""
    return source / "plot.png" if source.is_dir() else source.with_suffix(".png")


@click.command()
@click.argument(
    "sources",
    metavar="RUN_DIR_OR_FILE...",
    nargs=-1,
    required=True,
    type=click.Path(path_type=Path),
)
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path),
    help="The picture to write, .png or .svg (default: RUN_DIR/plot.png or FILE.png; "
    "needed for several runs).",
)
def plot(sources: tuple[Path, ...], out: Path | None) -> None:
    """Draw a training run (history and curve), a learning curve or a tournament; or the
    learning curves of several runs on shared axes.

    RUN_DIR_OR_FILE: a training run directory (history.jsonl, and curve.jsonl when
    `mindgames curve` has measured it), a tournament directory (report.json), or one of those
    files. Several: runs measured by `mindgames curve` against the same --vs, drawn against
    their unit when one learner trained them all, else against training seconds. Needs the
    plot extra (matplotlib).
    """
    from mindgames.measure.plot import draw, image_format, require_matplotlib
    from mindgames.measure.plotdata import comparison_panels, panels_for

    if len(sources) > 1 and out is None:
        raise click.UsageError("several runs make one picture: name it with -o FILE.png")
    target = out if out is not None else default_output(sources[0])
    image_format(target)
    output_file(target)
    require_matplotlib()
    if len(sources) == 1:
        kind, panels = panels_for(sources[0])
        title = f"{kind}: {sources[0]}"
    else:
        kind, panels = f"{len(sources)} learning curves", comparison_panels(sources)
        title = kind
    axes = draw(panels, title, target)
    titles = "; ".join(p.title for p in panels)
    click.echo(f"wrote {target}: {kind}, {axes} axes ({titles})")


COMMANDS = (plot,)
