"""Co-evolution of evaluators by self-play (Chellapilla and Fogel); see ``learner``."""

from mindgames.plugins.learners.coevolution.learner import CoevolutionLearner

__all__ = ["CoevolutionLearner"]
