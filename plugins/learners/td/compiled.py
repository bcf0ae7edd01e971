"""TD(lambda) self-play on the compiled path: a batch of whole games in one call of the template
kernel.py, bound to the game's kernels, with the learner's schedules, starts and random draws.

The move choice inside the compiled games is 1 ply, or ``alphabeta:depth=1|2`` with its other
options at their defaults (``inside_depth``: the searcher's move then depends on the values
alone, and kernel.searched finds it). With any other ``lookahead`` searcher the games are
played from Python as on the Python path, a call of the (compiled) searcher a move, and each
position's learning step is one call of the kernel (``learn``).

``plan`` says whether a run can take it: the game, every part of the encoding and the model have
kernels (a linear or mlp model: evaluators/kernels_grad.py), the options are plain self-play
(``regime = "selfplay"``, ``explore = "epsilon"``, ``lockstep = 1``, no ``td_leaf``), and
``MINDGAMES_PYTHON_PATH`` is not set. Anything else runs on the Python path, which stays the
oracle: the same seed gives the same games and weights (within rounding, tests/plugins/
test_td_compiled.py).
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import attrs
import numpy as np

from mindgames.game import Game, State
from mindgames.kernels import GameKernels, kernels_of, model_kernels_of
from mindgames.model import Evaluator, as_parametric
from mindgames.plugins.learners.td.starts import Start, pick_start
from mindgames.plugins.learners.td.update import TDUpdate, decay
from mindgames.plugins.searchers.common import DepthSearcher
from mindgames.search import Searcher

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
    #: the look-ahead searcher called from Python (None: whole games compiled)
    searcher: Searcher | None
    #: the look-ahead's depth inside the compiled games (0: 1 ply), its quick wins
    depth: int = 0
    quick_wins: bool = True


def plan(
    opts: TDLearner, game: Game, evaluator: Evaluator, searcher: Searcher | None
) -> Plan | None:
    """The compiled plan of a run, or None when it must take the Python path."""
    if opts.regime != "selfplay" or opts.td_leaf or opts.explore != "epsilon" or opts.lockstep > 1:
        return None
    gk = kernels_of(game)
    mk = model_kernels_of(evaluator.model)
    if gk is None or mk is None:
        return None
    again = model_kernels_of(evaluator.model)
    if searcher is not None and (again is None or again.params is not mk.params):
        return None  # the searcher must see the learning step's weights: the model's own vector
    from mindgames import compiled

    if not compiled.enabled():
        return None
    from mindgames.evaluators import kernels_grad
    from mindgames.plugins.searchers.alphabeta import AlphaBeta
    from mindgames.plugins.searchers.alphabeta_compiled import plan as search_plan

    searched = search_plan(AlphaBeta(depth=1), game, evaluator)
    if searched is None or not kernels_grad.supported(mk.meta):
        return None
    if opts.outcome == "margin" and not gk.margin:
        return None
    depth = inside_depth(searcher)
    return Plan(
        _kernel_module(gk),
        gk,
        searched.ev,
        searched.eopts,
        max(searched.width, 1),
        mk.meta,
        _live(evaluator),
        kernels_grad.work_size(mk.meta),
        None if depth else searcher,
        depth,
        searcher.quick_wins if isinstance(searcher, DepthSearcher) else True,
    )


def inside_depth(searcher: Searcher | None) -> int:
    """The depth at which the compiled games search themselves (kernel.searched): 1 or 2 for
    ``alphabeta`` with a ``depth`` and otherwise default options (its move depends only on the
    values then); 0 for anything else (1 ply, or the searcher called from Python a move)."""
    from mindgames.plugins.searchers.alphabeta import AlphaBeta

    if type(searcher) is not AlphaBeta or searcher.depth not in (1, 2):
        return 0
    plain = AlphaBeta(depth=searcher.depth, quick_wins=searcher.quick_wins)
    ignored = {"tt", "ordering", "batch", "eval_cache", "pvs", "max_extension", "extension"}

    def options(s: AlphaBeta) -> dict[str, object]:
        return {k: v for k, v in attrs.asdict(s, recurse=False).items() if k not in ignored}

    same = options(searcher) == options(plain)
    return searcher.depth if same else 0


def _kernel_module(gk: GameKernels) -> ModuleType:
    from mindgames.compiled.specialise import bind

    bindings = {f"g_{name}": (gk.module, name) for name in GAME_NAMES}
    bindings["g_margin"] = (gk.module if gk.margin else MARGIN_STANDIN, "margin")
    bindings["m_value"] = (GRAD_MODULE, "value")
    bindings["m_backward"] = (GRAD_MODULE, "backward")
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
    """``TDLearner._play_batch`` for the next ``n`` games, compiled: the final states and
    lengths; the weights, the velocity and the schedule's point as the Python path leaves
    them."""
    model = as_parametric(evaluator.model)
    mk = model_kernels_of(evaluator.model)
    assert mk is not None
    # the searched games update the model's own vector (its searcher reads it); whole games a copy
    params = mk.params if p.searcher is not None else np.array(mk.params, dtype=np.float64)
    full_alpha = np.zeros(params.size)
    velocity = np.zeros(params.size)
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
            p.depth,
            p.quick_wins,
            game.turns_alternate,
        ],
        dtype=np.int64,
    )
    vectors = (params, full_alpha, velocity, fopt, iopt)
    schedule = (lams, scales, epsilons)
    try:
        if p.searcher is None:
            finals, lengths = _whole_games(p, game, vectors, schedule, rng, starts, n)
        else:
            finals, lengths = _searched_games(
                p, opts, game, evaluator, vectors, schedule, rng, starts
            )
    finally:  # the model's caches follow its vector (also when a game was interrupted)
        model.set_params(params if p.live is None else params[p.live])
    update.velocity = velocity if p.live is None else velocity[p.live]
    update.lam = float(lams[-1])
    update.alpha = alpha * float(scales[-1])
    return finals, lengths


Vectors = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Schedule = tuple[np.ndarray, np.ndarray, np.ndarray]


def _whole_games(
    p: Plan,
    game: Game,
    vectors: Vectors,
    schedule: Schedule,
    rng: np.random.Generator,
    starts: list[Start],
    n: int,
) -> tuple[list[State], list[int]]:
    """1-ply self-play: the ``n`` games in one call of the kernel's ``play``."""
    gk = p.game
    params, alpha, velocity, fopt, iopt = vectors
    lams, scales, epsilons = schedule
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
    size = params.size
    status = p.kernel.play(
        gk.params, p.ev, p.eopts, p.meta, params, alpha, velocity, scales, lams, epsilons,
        fopt, iopt, init, start_rows, draws, rng, finals, lengths, kids, moves,
        np.zeros(p.width), np.zeros(p.work), np.zeros(size), np.zeros(size), np.zeros(size),
        np.zeros_like(kids), np.zeros_like(moves), np.zeros(gk.max_children),
        np.zeros((gk.max_children, p.width)), np.zeros((gk.max_children, p.work)),
    )  # fmt: skip
    if status < 0:  # pragma: no cover - max_children is a proven bound
        raise RuntimeError(f"compiled TD self-play: more than {gk.max_children} children")
    return [gk.from_row(row) for row in finals], lengths.tolist()


def _searched_games(
    p: Plan,
    opts: TDLearner,
    game: Game,
    evaluator: Evaluator,
    vectors: Vectors,
    schedule: Schedule,
    rng: np.random.Generator,
    starts: list[Start],
) -> tuple[list[State], list[int]]:
    """Self-play with the look-ahead searcher choosing the moves (``selfplay.play_game``'s
    loop and random draws), each position's learning step in one call of ``learn``."""
    from mindgames.plugins.learners.td.selfplay import rewarder, searched_move

    gk = p.game
    assert p.searcher is not None
    params, alpha, velocity, fopt, iopt = vectors
    lams, scales, epsilons = schedule
    size = params.size
    x, work, trace, grad = np.zeros(p.width), np.zeros(p.work), np.zeros(size), np.zeros(size)
    step_alpha = np.zeros(size)
    at = np.zeros(3)
    learn, apply = p.kernel.learn, p.kernel.apply
    finals: list[State] = []
    lengths: list[int] = []
    for g in range(len(lams)):
        np.multiply(alpha, scales[g], out=step_alpha)
        explore = {"epsilon": float(epsilons[g])}
        state, draw_reward = pick_start(game, starts, rng, opts.random_plies, opts.random_plies_max)
        reward = rewarder(opts, game, game.to_move(state), draw_reward)
        at[:] = (0.0, -1.0, lams[g])
        plies = 0
        while plies < opts.max_plies and not game.is_terminal(state):
            row = gk.to_row(state)
            learn(
                gk.params, p.ev, p.eopts, p.meta, params, step_alpha, velocity, fopt, iopt, row,
                x, work, trace, grad, at,
            )  # fmt: skip
            state = searched_move(game, state, evaluator, p.searcher, rng, explore, None)
            plies += 1
        if at[1] >= 0:
            last = reward(state, int(at[1]))
            if not math.isnan(last):
                apply(fopt, iopt, params, step_alpha, velocity, trace, last - float(at[0]))
        finals.append(state)
        lengths.append(plies)
    return finals, lengths
