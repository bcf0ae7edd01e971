"""A stage's positions and labels, kept as data-set files in the run directory.

Each stage ``k`` (``stages/NN`` in the run directory, NN its place in the training order) holds
``positions.npz`` (``positions + test_positions`` distinct positions from playouts,
``playouts.generate``; the last ``test_positions`` are its test set; a stage near the root that
has fewer distinct positions keeps those found, with the same share for the test set) and its
labels, one file per search depth (``labels-dD.npz``; ``labels.npz`` for exact solutions),
written by ``labelling.run_labelling`` on the learner's executor with a journal, so a killed
run resumes labelling where it stopped. Every file is derived from the run's root seed and the
stage alone: a file that exists is read back, a missing one is made again the same way.

Labels: the deepest stage by its ``deepest`` labeller (the null evaluator, ``endgame:depth=N``,
or ``solve``: a game's exact solver); every later stage by ``search`` with the evaluator trained
on the stages before (``eval=@`` its snapshot), at ``label_depth`` plies or, with 0, at the depth
that reaches the stage trained before from each position (``Stage.reach``).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.agent import build_agent
from mindgames.data.labelling import Labeller, run_labelling
from mindgames.data.playouts import generate
from mindgames.data.sets import DataSet, read_dataset, write_dataset
from mindgames.game import Game
from mindgames.plugins.learners.stages import Stage
from mindgames.registry import Registry
from mindgames.spec import format_spec, parse_spec

SOLVE = "solve"


@attrs.frozen
class Labelled:
    """A stage's positions with their labels and the playouts that made them."""

    data: DataSet
    labels: np.ndarray
    playouts: int


def stage_folder(workdir: Path, stage: Stage) -> Path:
    return Path(workdir) / "stages" / f"{stage.order:02d}"


def seed_of(root: int, *parts: int) -> np.random.Generator:
    """The generator of one piece of work of a run: its root seed and the piece's numbers."""
    return np.random.default_rng([root, *parts])


class StageData:
    """Makes (or reads back) the positions and labels of the stages of one run."""

    def __init__(
        self,
        options: Any,
        game: Game,
        registry: Registry,
        workdir: Path,
        root: int,
        executor: Executor,
    ) -> None:
        self.o = options
        self.game = game
        self.registry = registry
        self.workdir = Path(workdir)
        self.root = root
        self.executor = executor
        self.agents = [build_agent(registry, game, spec) for spec in options.playouts]

    def positions(self, stage: Stage, folder: Path, count: int, purpose: int) -> DataSet:
        """``count`` positions of ``stage`` from playouts, made once and kept in ``folder``."""
        path = folder / "positions.npz"
        if path.exists():
            return read_dataset(path, game=self.game.spec())
        rng = seed_of(self.root, stage.order, purpose)
        data = generate(self.game, stage.lo, stage.hi, count, rng, self.agents,
                        provenance={"stage": stage.as_dict()}, fewer=True,
                        hint="lower 'stages' or 'width' (stages of 'width' plies from ply 0) "
                        "to plies the game's playouts reach")  # fmt: skip
        write_dataset(path, data)
        return data

    def labeller(self, stage: Stage, previous: Path | None, depth: int) -> Labeller:
        """Who labels ``stage``: the deepest labeller, else ``search`` with the previous model."""
        seed = int(seed_of(self.root, stage.order, 7).integers(2**31))
        if previous is None:
            if self.o.deepest == SOLVE:
                return Labeller("solve", self.game.spec(), seed=seed, scale=self.o.scale,
                                squash=self.o.squash)  # fmt: skip
            return Labeller("search", self.game.spec(), self.o.deepest, seed)
        name, options = parse_spec(self.o.search)
        agent = format_spec(name, {**options, "depth": depth, "eval": f"@{previous.resolve()}"})
        return Labeller("search", self.game.spec(), agent, seed)

    def depths(self, stage: Stage, data: DataSet, previous: Path | None) -> np.ndarray:
        """The search depth of each position (0 where the labeller has no depth of its own)."""
        if previous is None:
            return np.zeros(len(data), dtype=int)
        if self.o.label_depth > 0:
            return np.full(len(data), self.o.label_depth)
        return np.array([stage.reach(int(p)) for p in data.plies])

    def label(
        self, stage: Stage, folder: Path, data: DataSet, previous: Path | None,
        on_labels: Any = None,
    ) -> np.ndarray:  # fmt: skip
        """The labels of ``data``: one labelling run (and file) per search depth."""
        depths = self.depths(stage, data, previous)
        labels = np.empty(len(data))
        for depth in sorted(set(depths.tolist())):
            rows = np.flatnonzero(depths == depth)
            out = folder / (f"labels-d{depth}.npz" if depth else "labels.npz")
            if out.exists():
                part = read_dataset(out, game=self.game.spec(), need=("label",))
            else:
                part = run_labelling(
                    data.select(rows), self.labeller(stage, previous, depth), out, self.executor,
                    source=str(folder / "positions.npz"), resume=True, registry=self.registry,
                    workers=self.o.workers, on_labels=on_labels,
                )  # fmt: skip
            assert part.labels is not None
            labels[rows] = part.labels
        return labels

    def stage(self, stage: Stage, previous: Path | None) -> Labelled:
        """The positions (training, then test) of ``stage`` and their labels."""
        folder = stage_folder(self.workdir, stage)
        folder.mkdir(parents=True, exist_ok=True)
        data = self.positions(stage, folder, self.o.positions + self.o.test_positions, 1)
        labels = self.label(stage, folder, data, previous)
        return Labelled(data, labels, int(data.provenance["generator"]["playouts"]))

    def relabelled(self, stage: Stage, now: Stage, newest: Path) -> Labelled:
        """New training positions of an earlier ``stage``, labelled by the newest evaluator
        (the ``earlier = "relabel"`` option), made while stage ``now`` is trained."""
        folder = stage_folder(self.workdir, now) / f"relabel-{stage.order:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        data = self.positions(stage, folder, self.o.positions, 100 + now.order)
        labels = self.label(stage, folder, data, newest)
        return Labelled(data, labels, int(data.provenance["generator"]["playouts"]))


def split(labelled: Labelled, train: int, test: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (training, test) of a stage: the last ``test`` rows are its test set, or
    that share of the rows when the stage has fewer than ``train + test`` positions."""
    n = len(labelled.labels)
    if n < train + test:
        test = min(n - 1, max(1, round(n * test / (train + test))))
    return np.arange(n - test), np.arange(n - test, n)


def encode(game: Game, encoding: Any, positions: Sequence[str]) -> np.ndarray:
    """The encoded rows of position texts."""
    return np.asarray(encoding.encode_batch([game.parse_position(t) for t in positions]), float)
