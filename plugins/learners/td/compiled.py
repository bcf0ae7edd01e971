"""TD(lambda) self-play on the compiled path: a batch of 1-ply games in one call of the template
kernel.py, bound to the game's kernels, with the learner's schedules, starts and random draws.

``plan`` says whether a run can take it: the game, every part of the encoding and the model have
kernels (a linear or mlp model: evaluators/kernels_grad.py), the options are plain self-play
(``regime = "selfplay"``, no ``lookahead``, ``explore = "epsilon"``, ``lockstep = 1``), and
``MINDGAMES_PYTHON_PATH`` is not set. Anything else runs on the Python path, which stays the
oracle: the same seed gives the same games and weights (within rounding, tests/plugins/
test_td_compiled.py).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import attrs
import numpy as np

from mindgames.game import Game, State
from mindgames.kernels import GameKernels, kernels_of, model_kernels_of
from mindgames.model import Evaluator, as_parametric
from mindgames.plugins.learners.td.starts import Start
from mindgames.plugins.learners.td.update import TDUpdate, decay

if TYPE_CHECKING:
    from mindgames.plugins.learners.td.learner import TDLearner

TEMPLATE = Path(__file__).with_name("kernel.py")
GAME_NAMES = ("children", "encode", "is_terminal", "progress", "result", "to_move")
GRAD_MODULE = "mindgames.evaluators.kernels_grad"
MARGIN_STANDIN = "mindgames.plugins.learners.td.unbound"


@attrs.frozen(eq=False)
class Plan:
    """What the compiled self-play of one run needs (made once per run)."""

    kernel: ModuleType
    game: GameKernels
    ev: np.ndarray
    eopts: np.ndarray
    width: int
    meta: np.ndarray
    #: positions of ``get_params()`` in the model's whole flat vector (None: the same)
    live: np.ndarray | None
    work: int


def plan(opts: TDLearner, game: Game, evaluator: Evaluator) -> Plan | None:
    """The compiled plan of a run, or None when it must take the Python path."""
    if (
        opts.regime != "selfplay"
        or opts.lookahead is not None
        or opts.explore != "epsilon"
        or opts.lockstep > 1
    ):
        return None
    gk = kernels_of(game)
    mk = model_kernels_of(evaluator.model)
    if gk is None or mk is None:
        return None
    from mindgames import compiled

    if not compiled.enabled():
        return None
    from mindgames.evaluators import kernels_grad
    from mindgames.plugins.searchers.alphabeta import AlphaBeta
    from mindgames.plugins.searchers.alphabeta_compiled import plan as search_plan

    searched = search_plan(AlphaBeta(depth=1), game, evaluator)
    if searched is None or not kernels_grad.supported(mk.meta):
        return None
    if opts.outcome == "margin" and not hasattr(importlib.import_module(gk.module), "margin"):
        return None
    return Plan(
        _kernel_module(gk),
        gk,
        searched.ev,
        searched.eopts,
        max(searched.width, 1),
        mk.meta,
        _live(evaluator),
        kernels_grad.work_size(mk.meta),
    )


def _kernel_module(gk: GameKernels) -> ModuleType:
    from mindgames.compiled.specialise import bind

    bindings = {f"g_{name}": (gk.module, name) for name in GAME_NAMES}
    has_margin = hasattr(importlib.import_module(gk.module), "margin")
    bindings["g_margin"] = (gk.module if has_margin else MARGIN_STANDIN, "margin")
    bindings["m_value"] = (GRAD_MODULE, "value")
    bindings["m_value_grad"] = (GRAD_MODULE, "value_grad")
    return bind(TEMPLATE, bindings)


def _live(evaluator: Evaluator) -> np.ndarray | None:
    """Where ``get_params()`` sits in the model's whole vector (a masked mlp leaves out the
    masked weights): found on a copy whose parameters are set to 1, 2, ..., k."""
    from mindgames.plugins.learners.td.checkpoint import copy_evaluator

    model = as_parametric(evaluator.model)
    k = len(model.get_params())
    mk = model_kernels_of(evaluator.model)
    assert mk is not None
    if k == mk.params.size:
        return None
    twin = copy_evaluator(evaluator).model
    as_parametric(twin).set_params(np.arange(1.0, k + 1.0))
    full = model_kernels_of(twin)
    assert full is not None
    live = np.flatnonzero(full.params)
    assert live.size == k and np.array_equal(full.params[live], np.arange(1.0, k + 1.0))
    return live


def play_batch(
    p: Plan,
    opts: TDLearner,
    game: Game,
    evaluator: Evaluator,
    update: TDUpdate,
    alpha: np.ndarray,
    rng: np.random.Generator,
    starts: list[Start],
    played: int,
    n: int,
) -> tuple[list[State], list[int]]:
    """``TDLearner._play_batch`` on 1 ply for the next ``n`` games, compiled: the final states
    and lengths; the weights, the velocity and the schedule's point as the Python path leaves
    them."""
    gk = p.game
    model = as_parametric(evaluator.model)
    mk = model_kernels_of(evaluator.model)
    assert mk is not None
    params = np.array(mk.params, dtype=np.float64)
    size = params.size
    full_alpha = np.zeros(size)
    velocity = np.zeros(size)
    if p.live is None:
        full_alpha[:] = alpha
        velocity[:] = update.velocity
    else:
        full_alpha[p.live] = alpha
        velocity[p.live] = update.velocity
    fractions = [(played + i) / opts.games for i in range(n)]
    lams = np.array([decay(opts.lam, opts.lam_end, f) for f in fractions])
    scales = np.array([decay(1.0, opts.alpha_end_scale, f) for f in fractions])
    epsilons = np.array([decay(opts.epsilon, opts.epsilon_end, f) for f in fractions])
    fopt = np.array(
        [update.gamma, update.momentum, opts.win, opts.draw, opts.loss, opts.margin_scale]
    )
    iopt = np.array(
        [
            update.direction_check,
            opts.outcome == "margin",
            opts.margin_squash == "linear",
            opts.cutoff == "draw",
            opts.max_plies,
            opts.random_plies,
            -1 if opts.random_plies_max is None else opts.random_plies_max,
        ],
        dtype=np.int64,
    )
    init = gk.to_row(game.initial_state())
    if starts:
        start_rows = np.array([gk.to_row(s) for s, _ in starts], dtype=np.int64)
        draws = np.array([np.nan if d is None else d for _, d in starts], dtype=np.float64)
    else:
        start_rows = np.zeros((0, gk.width), dtype=np.int64)
        draws = np.zeros(0)
    finals = np.zeros((n, gk.width), dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    kids = np.zeros((gk.max_children, gk.width), dtype=np.int64)
    moves = np.zeros(gk.max_children, dtype=np.int64)
    status = p.kernel.play(
        gk.params, p.ev, p.eopts, p.meta, params, full_alpha, velocity, scales, lams, epsilons,
        fopt, iopt, init, start_rows, draws, rng, finals, lengths, kids, moves,
        np.zeros(p.width), np.zeros(p.work), np.zeros(size), np.zeros(size), np.zeros(size),
    )  # fmt: skip
    if status < 0:  # pragma: no cover - max_children is a proven bound
        raise RuntimeError(f"compiled TD self-play: more than {gk.max_children} children")
    model.set_params(params if p.live is None else params[p.live])
    update.velocity = velocity if p.live is None else velocity[p.live]
    update.lam = float(lams[-1])
    update.alpha = alpha * float(scales[-1])
    return [gk.from_row(row) for row in finals], lengths.tolist()
