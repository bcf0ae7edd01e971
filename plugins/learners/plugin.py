"""Registration of the built-in learners."""

from __future__ import annotations

from mindgames import LearnerInfo, hookimpl
from mindgames.plugins.learners.coevolution import CoevolutionLearner
from mindgames.plugins.learners.hg import HGLearner, SHGLearner
from mindgames.plugins.learners.layered import LayeredLearner
from mindgames.plugins.learners.supervised import SupervisedLearner
from mindgames.plugins.learners.td import TDLearner


@hookimpl
def mindgames_learners() -> list[LearnerInfo]:
    return [
        LearnerInfo(
            "td",
            TDLearner,
            "TD(lambda) self-play with eligibility traces, look-ahead, TD-leaf and cloning",
        ),
        LearnerInfo(
            "coevolution",
            CoevolutionLearner,
            "co-evolution by self-play: self-adaptive mutation, evolvable king value (Fogel)",
        ),
        LearnerInfo(
            "hg",
            HGLearner,
            "Heuristic Generator: evolution by the fit to labelled positions, phases to the root",
        ),
        LearnerInfo(
            "shg",
            SHGLearner,
            "Simple Heuristic Generator: evolution by comparisons in play (colours swapped)",
        ),
        LearnerInfo(
            "supervised",
            SupervisedLearner,
            "fit labelled positions (RPROP, Adam, closed form) or TD(lambda) along recorded games",
        ),
        LearnerInfo(
            "layered",
            LayeredLearner,
            "Layered Learning: end-game-first stages labelled by search, RPROP/evolution fitters",
        ),
    ]
