"""Registration of the built-in learners.

Each learner's class is imported when it is first asked for (``LearnerInfo.load``): the
learners' modules cost about a third of a second, which commands that do not train (``analyse``,
``match``, ``plugins``) need not pay.
"""

from __future__ import annotations

from mindgames import LearnerInfo, hookimpl
from mindgames.learner import Learner


def _td() -> type[Learner]:
    from mindgames.plugins.learners.td import TDLearner

    return TDLearner


def _coevolution() -> type[Learner]:
    from mindgames.plugins.learners.coevolution import CoevolutionLearner

    return CoevolutionLearner


def _hg() -> type[Learner]:
    from mindgames.plugins.learners.hg import HGLearner

    return HGLearner


def _shg() -> type[Learner]:
    from mindgames.plugins.learners.hg import SHGLearner

    return SHGLearner


def _supervised() -> type[Learner]:
    from mindgames.plugins.learners.supervised import SupervisedLearner

    return SupervisedLearner


def _layered() -> type[Learner]:
    from mindgames.plugins.learners.layered import LayeredLearner

    return LayeredLearner


@hookimpl
def mindgames_learners() -> list[LearnerInfo]:
    return [
        LearnerInfo(
            "td",
            description="TD(lambda) self-play with eligibility traces, look-ahead, TD-leaf and "
            "cloning",
            load=_td,
        ),
        LearnerInfo(
            "coevolution",
            description="co-evolution by self-play: self-adaptive mutation, evolvable king value "
            "(Fogel)",
            load=_coevolution,
        ),
        LearnerInfo(
            "hg",
            description="Heuristic Generator: evolution by the fit to labelled positions, phases "
            "to the root",
            load=_hg,
        ),
        LearnerInfo(
            "shg",
            description="Simple Heuristic Generator: evolution by comparisons in play (colours "
            "swapped)",
            load=_shg,
        ),
        LearnerInfo(
            "supervised",
            description="fit labelled positions (RPROP, Adam, closed form) or TD(lambda) along "
            "recorded games",
            load=_supervised,
        ),
        LearnerInfo(
            "layered",
            description="Layered Learning: end-game-first stages labelled by search, "
            "RPROP/evolution fitters",
            load=_layered,
        ),
    ]
