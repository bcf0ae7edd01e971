"""TD(lambda) self-play for any game and any differentiable evaluator (Sutton 1988, Tesauro,
the Kalah study and NeuroDraughts).

Values are from the side to move (negamax), so one network learns both sides. Over the sequence
of positions a learner sees, P_t = V(s_t) and s = +1 when s_{t+1} has the same side to move as
s_t (an extra turn in Kalah, or the clone regime, where only the learner's positions count) and
-1 otherwise. Each step, with the weights w as they are::

    delta_t = gamma * s * P_{t+1} - P_t        (the final step: reward - P_t)
    w      += alpha * delta_t * e_t            (alpha per weight; momentum below)
    e_{t+1} = grad P_{t+1} + gamma * lambda * s * e_t,   e_0 = grad P_0

which is Sutton's ``dw_t = alpha (P_{t+1} - P_t) sum_k lambda^{t-k} grad P_k`` written from a
fixed player's view and turned into the side to move's. See docs/learners.md for the options.

Modules by job: ``learner`` (options, training loop), ``update`` (the maths above), ``moves``
(successor valuation and move pick), ``selfplay`` (the game drivers), ``oneply`` (serial
self-play on 1 ply, its hot loop), ``checkpoint`` (files),
``starts`` (the start-position reader), ``gate`` (keeping the best net); the compiled path:
``compiled`` (when a run takes it, and its driver), ``kernel`` (the numba template of whole
self-play games) and ``unbound`` (its stand-in for a game kernel it may bind).
"""

from mindgames.plugins.learners.td.checkpoint import copy_evaluator
from mindgames.plugins.learners.td.learner import TDLearner
from mindgames.plugins.learners.td.update import TDUpdate, alpha_vector

__all__ = ["TDLearner", "TDUpdate", "alpha_vector", "copy_evaluator"]
