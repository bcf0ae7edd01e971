"""The evolutionary heuristic generators HG and SHG (give-away checkers study); see ``hg`` and
``shg``. Modules by job: ``operators`` (selection, crossover, mutation, sharing), ``fitness``
(HG's n / sum (h - a)^2), ``boards`` (HG's labelled test positions), ``comparison`` (SHG's
games, colours swapped), ``stats``, ``population`` (the generation loop they share) and
``checkpoint``."""

from mindgames.plugins.learners.hg.hg import HGLearner
from mindgames.plugins.learners.hg.shg import SHGLearner

__all__ = ["HGLearner", "SHGLearner"]
