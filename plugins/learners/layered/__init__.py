"""Layered Learning (Wałędzik and Mańdziuk): end-game-first training by stages; see ``learner``."""

from mindgames.plugins.learners.layered.learner import LayeredLearner

__all__ = ["LayeredLearner"]
