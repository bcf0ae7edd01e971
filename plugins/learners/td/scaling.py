"""Step sizes and initial weights scaled to the encoding's inputs, and the saturation watch.

The probe (``random_games``, ``probe``, ``measure``) and the per-group figures
(``group_mean_squares``, ``uniform_ranges``, ``per_weight``) serve every learner that derives a
default from the game: supervised's fitter steps, co-evolution's and HG/SHG's initial ranges and
mutation scales, Layered Learning's stages (``typical_length``); TD's use follows.

Before training, TD measures its encoding on the positions of seeded random games (``probe``):
the mean squared input per column. A parameter group whose inputs are the encoding's columns
(an MLP's first layer, its direct links, a linear model) gets the step size::

    alpha = STEP / (E|x|^2 + 1)         (x: the group's inputs, + 1 for the bias)

so that one step with TD error delta moves that unit's pre-activation by about STEP * delta
times the error signal reaching it, whatever the encoding's scale (counts up to ~30 or 0/1
squares alike). Groups fed by hidden units (values in [-1, 1]) get ``STEP / fan_in``. Their
initial weights are shrunk, never grown, so that a unit's initial pre-activation spreads by
at most ``INIT_SPREAD`` over the probe positions (tanh units start in their linear range).
An explicit ``alpha`` overrides the step sizes; the probe's seed and figures go to the run's
config.json (``measured``). ``saturation`` is the share of the probe positions valued beyond
``SATURATED``: TD's history reports it every batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mindgames.game import Game
from mindgames.model import Evaluator, Model, as_parametric, param_groups_of

#: the fraction of the error signal one step moves a unit's pre-activation by
STEP = 0.3
#: the largest spread (root mean square) of an input unit's initial pre-activation
INIT_SPREAD = 0.5
#: random games of the probe, and their length cap
PROBE_GAMES = 20
PROBE_PLIES = 200
#: a position valued beyond this (in absolute value) is saturated
SATURATED = 0.99
#: the saturation share past which training warns (once)
WARN_SHARE = 0.5


def random_games(game: Game, seed: int) -> list[list[Any]]:
    """The non-terminal positions of ``PROBE_GAMES`` uniformly random games seeded by ``seed``,
    one list a game (at most ``PROBE_PLIES`` each; the training rng is not touched). Shared by
    every learner that measures the game before training (``probe``, ``typical_length``)."""
    rng = np.random.default_rng(seed)
    games = []
    for _ in range(PROBE_GAMES):
        states: list[Any] = []
        state = game.initial_state()
        for _ in range(PROBE_PLIES):
            if game.is_terminal(state):  # TD values only the positions before the end
                break
            states.append(state)
            moves = game.legal_moves(state)
            state = game.play(state, moves[int(rng.integers(len(moves)))])
        games.append(states)
    return games


def probe(game: Game, evaluator: Evaluator, seed: int) -> np.ndarray:
    """The encoded positions of ``random_games`` seeded by ``seed``, one row each."""
    states = [s for states in random_games(game, seed) for s in states]
    return np.asarray(evaluator.encoding.encode_batch(states), dtype=float)


def typical_length(game: Game, seed: int) -> int:
    """The median length in plies of ``random_games`` seeded by ``seed`` (games cut at
    ``PROBE_PLIES`` count as that long): Layered Learning's stage schedule."""
    return int(np.median([len(states) for states in random_games(game, seed)]))


def measure(rows: np.ndarray, seed: int) -> dict[str, Any]:
    """What the probe found: its seed and size, the mean squared input per column, their
    sum (E|x|^2) and the largest input magnitude."""
    column_msq = (rows**2).mean(axis=0) if len(rows) else np.zeros(rows.shape[1])
    return {
        "probe_seed": int(seed),
        "probe_games": PROBE_GAMES,
        "probe_positions": len(rows),
        "input_mean_square": _digits(float(column_msq.sum())),
        "input_max_abs": _digits(float(np.abs(rows).max()) if rows.size else 0.0),
        "column_mean_square": [_digits(float(m)) for m in column_msq],
    }


#: the parameter groups fed by the encoding's columns, by name (a staged model's are prefixed
#: with the stage): an MLP's first layer and direct links, a linear model, a model without groups
INPUT_GROUPS = frozenset({"layer1", "direct", "linear", "all"})


def _digits(x: float) -> float:
    """``x`` to 6 significant digits (config.json stays readable; tiny columns stay nonzero)."""
    return float(f"{x:.6g}")


def input_groups(model: Model, width: int) -> list[bool]:
    """Which parameter groups are fed by the encoding's columns (``INPUT_GROUPS``); a linear
    model over a subset of the columns counts as its share of the columns' mean square."""
    groups = param_groups_of(model) or [("all", len(as_parametric(model).get_params()), width)]
    return [str(g[0]).rsplit("/", 1)[-1] in INPUT_GROUPS for g in groups]


def group_mean_squares(
    model: Model, width: int, found: dict[str, Any], linear: bool = False
) -> list[float]:
    """Per parameter group, the mean squared length of its units' inputs: E|x|^2 + 1 (the
    bias) for a group fed by the encoding's columns, its fan-in for one fed by hidden units
    (values within +-1). ``linear``: every group is a linear combination of the encoding's
    columns (HG's genotypes: a ``phased`` model's components)."""
    column_msq = found["column_mean_square"]
    groups = param_groups_of(model) or [("all", len(as_parametric(model).get_params()), width)]
    out = []
    for (_, _, fan_in), fed in zip(groups, input_groups(model, width), strict=True):
        if fed or linear:
            msq = float(np.mean(column_msq)) * int(fan_in) if column_msq else 0.0
            out.append(msq + 1.0)
        else:
            out.append(float(max(int(fan_in), 1)))
    return out


def scaled_alpha(model: Model, width: int, found: dict[str, Any]) -> list[float]:
    """One step size per parameter group (``alpha``'s list form), from the measurement."""
    return [STEP / ms for ms in group_mean_squares(model, width, found)]


def per_weight(model: Model, values: list[float]) -> np.ndarray:
    """One value per parameter group spread over the group's weights (a flat vector)."""
    size = len(as_parametric(model).get_params())
    groups = param_groups_of(model) or [("all", size, 0)]
    return np.concatenate(
        [np.full(int(g[1]), v, dtype=float) for g, v in zip(groups, values, strict=True)]
    )


def uniform_ranges(
    model: Model, width: int, found: dict[str, Any], reach: float, linear: bool = False
) -> list[float]:
    """Per parameter group, the half-width (at most ``reach``) of a uniform range of weights
    that spreads a unit's pre-activation by at most ``INIT_SPREAD`` over the probe positions
    (spread = sqrt(reach^2 / 3 * group mean square)): the initial weights of the evolution
    learners, whose mutation scale follows from them."""
    out = []
    for ms in group_mean_squares(model, width, found, linear):
        spread = float(np.sqrt(reach * reach / 3.0 * ms))
        out.append(_digits(reach * min(1.0, INIT_SPREAD / spread) if spread else reach))
    return out


def init_factors(model: Model, width: int, found: dict[str, Any]) -> list[float]:
    """Per parameter group, the factor that shrinks its initial weights so that an input
    group's units' pre-activations spread by at most ``INIT_SPREAD`` on the probe (spread =
    sqrt(mean w^2 * E|x|^2)); 1 for the other groups and for spreads already in range."""
    p = as_parametric(model).get_params()
    column_msq = found["column_mean_square"]
    groups = param_groups_of(model) or [("all", len(p), width)]
    factors = []
    start = 0
    for (_, size, fan_in), fed in zip(groups, input_groups(model, width), strict=True):
        part = p[start : start + int(size)]
        factor = 1.0
        if fed and part.size:
            msq = float(np.mean(column_msq)) * int(fan_in) if column_msq else 0.0
            spread = float(np.sqrt(np.mean(part**2) * msq))
            if spread > INIT_SPREAD:
                factor = INIT_SPREAD / spread
        factors.append(float(f"{factor:.6g}"))
        start += int(size)
    return factors


def shrink_init(model: Model, factors: list[float]) -> None:
    """Multiply each parameter group's weights by its factor (``init_factors``)."""
    params = as_parametric(model)
    p = params.get_params()
    groups = param_groups_of(model) or [("all", len(p), 0)]
    start = 0
    for (_, size, _), factor in zip(groups, factors, strict=True):
        p[start : start + int(size)] *= factor
        start += int(size)
    params.set_params(p)


def saturation(evaluator: Evaluator, rows: np.ndarray) -> float:
    """The share of the probe positions the net values beyond ``SATURATED``."""
    if not len(rows):
        return 0.0
    values = np.asarray(evaluator.model.value_batch(rows))
    return float(np.mean(np.abs(values) > SATURATED))
