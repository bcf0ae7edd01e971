"""Progress bars of the long commands, on standard error and only when it is a terminal.

click's own bar draws them (counts done, percent, rate, time left): it is already a dependency,
redraws in place, and writes nothing when standard error is not a terminal, where we do not
start one at all. A pipe or a log file gets no bar characters; commands print one summary line.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import click


def on_terminal(quiet: bool) -> bool:
    """Whether to draw a bar: not ``--quiet``/``--json`` and standard error is a terminal."""
    return not quiet and sys.stderr.isatty()


@contextlib.contextmanager
def progress(
    total: int, label: str, quiet: bool, unit: str = "games"
) -> Iterator[Callable[[Mapping[str, Any]], None]]:
    """A progress bar on standard error (``unit`` done, rate, time left); yields the updater."""
    if total <= 0 or not on_terminal(quiet):
        yield lambda record: None
        return
    start = time.perf_counter()
    done = [0]

    def rate(_: Any) -> str:
        seconds = time.perf_counter() - start
        return f"{done[0] / seconds:.1f} {unit}/s" if seconds > 0 and done[0] else ""

    with click.progressbar(
        length=total,
        label=label,
        file=sys.stderr,
        show_eta=True,
        show_pos=True,
        item_show_func=rate,
    ) as bar:

        def update(record: Mapping[str, Any]) -> None:
            done[0] += 1
            bar.update(1, record)

        yield update


@contextlib.contextmanager
def resumable_progress(
    label: str, unit: str, quiet: bool, work: str = "games", verb: str = "play"
) -> Iterator[tuple[Callable[[int, int], None], Callable[[Mapping[str, Any]], None]]]:
    """Progress of a resumable run whose length is known only once its files are read.

    Yields ``(on_start(done, todo), on_record(record))``: ``on_start`` says what a resume skips
    (``done`` of ``unit``) and starts a bar of ``todo`` of ``work``; ``on_record`` advances it.
    """
    updates: list[Callable[[Mapping[str, Any]], None]] = []
    with contextlib.ExitStack() as stack:

        def on_start(done: int, todo: int) -> None:
            if done and not quiet:
                click.echo(f"resuming: {done} {unit} done, {todo} {work} to {verb}", err=True)
            updates.append(stack.enter_context(progress(todo, label, quiet, work)))

        yield on_start, lambda record: updates[0](record) if updates else None


class HistoryBar:
    """The bar of a training run, advanced by its history rows.

    A row's first field counts the work done (games, generation, epoch); the learner's
    ``planned()`` names that field and its last value. ``plan`` starts the bar; a resumed run
    starts it at its first row, so rate and time left count only this run's work. Without a
    plan (a learner that cannot say) one line counts the work and its rate.
    """

    def __init__(self, label: str, quiet: bool, resume: bool) -> None:
        self.label = label
        self.shown = on_terminal(quiet)
        self.resume = resume
        self.key: str | None = None
        self.total = 0
        self.base: int | None = None
        self.start = 0.0
        self.count = 0
        self._stack = contextlib.ExitStack()
        self._bar: Any = None

    def __enter__(self) -> HistoryBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()
        if self.shown and self._bar is None and self.base is not None:
            click.echo("", err=True)  # end the counting line

    def plan(self, planned: tuple[str, int] | None) -> None:
        """The learner's plan: the counting field and its final value, or None."""
        if planned is not None:
            self.key, self.total = planned
        if not self.resume:
            self._begin(0)

    def row(self, row: dict[str, Any]) -> None:
        """Advance to the count in ``row``."""
        key = self.key or next(iter(row), "")
        value = row.get(key)
        if not self.shown or not isinstance(value, (int, float)):
            return
        count = int(value)
        if self.base is None:
            self._begin(count)  # a resumed run: from its first row on
            self.count = count
            return
        step, self.count = count - self.count, count
        if self._bar is not None:
            self._bar.update(max(step, 0))
        else:
            click.echo(f"\r{self.label}: {key} {count}, {self._rate()}", nl=False, err=True)

    def _begin(self, base: int) -> None:
        if not self.shown:
            return
        self.base, self.count, self.start = base, base, time.perf_counter()
        if self.key is not None and self.total > base:
            self._bar = self._stack.enter_context(
                click.progressbar(
                    length=self.total - base,
                    label=self.label,
                    file=sys.stderr,
                    show_eta=True,
                    show_pos=False,
                    show_percent=base == 0,  # a resumed bar's fill is this run's share only
                    item_show_func=self._where,
                )
            )

    def _where(self, _: Any) -> str:
        return f"{self.key} {self.count}/{self.total}, {self._rate()}"

    def _rate(self) -> str:
        seconds = time.perf_counter() - self.start
        done = self.count - (self.base or 0)
        return f"{done / seconds:.2f}/s" if seconds > 0 and done > 0 else ""
