"""HG's test boards of one stage: positions from random playouts (``playouts.generate``: one
position per playout at a ply in the stage's window) labelled by an agent's search
(``labelling.run_labelling``: the null evaluator for the first phase, ``endgame:depth=6``; the
previous phase's best later, ``alphabeta:depth=6,eval=@best.npz``). A proven result is labelled
by its distance (a quicker win is more extreme; docs/learners.md, "Data sets"). The labelled set
is a data-set file in the run directory and labelling resumes from its journal, so a killed run
labels each position once."""

from __future__ import annotations

from concurrent.futures import Executor
from pathlib import Path

import numpy as np

from mindgames.data.labelling import Labeller, journal_path, run_labelling
from mindgames.data.playouts import generate
from mindgames.data.sets import DataSet, read_dataset
from mindgames.game import Game
from mindgames.plugins.learners.stages import Stage


def labelled_positions(
    game: Game,
    stage: Stage,
    count: int,
    rng: np.random.Generator,
    agent: str,
    out: Path,
    executor: Executor,
    workers: int = 1,
) -> DataSet:
    """``count`` positions of ``stage`` labelled by ``agent`` (a spec), kept in ``out``.

    ``out`` already written (a resumed run): read back. A labelling journal beside it: the
    labelling resumes (the positions are drawn again from ``rng``, restored by the caller's
    checkpoint, so they are the same). The draws from ``rng`` are the same either way.
    """
    data = generate(
        game, stage.lo, stage.hi, count, rng, provenance={"stage": stage.as_dict()},
        hint="lower 'boards' or set 'plies' where the game's random playouts still go on",
    )  # fmt: skip
    seed = int(rng.integers(2**31))
    if out.exists() and not journal_path(out).exists():
        return read_dataset(out, game=game.spec(), need=("label",), who="a stage")
    out.parent.mkdir(parents=True, exist_ok=True)
    labeller = Labeller("search", game.spec(), agent, seed)
    resume = journal_path(out).exists()
    return run_labelling(data, labeller, out, executor, resume=resume, workers=workers)
