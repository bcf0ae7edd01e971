"""mindgames: learn evaluation functions for two-player board games and measure them.

A plugin author needs only ``from mindgames import hookimpl`` and the interfaces below.
"""

import os
from importlib.metadata import PackageNotFoundError, version

# numpy's BLAS runs on one thread unless the environment says otherwise (set before numpy loads):
# mindgames runs in parallel across games and worker processes, and BLAS threads on top of them
# spin on the shared cores (a 40-10 net's squared-error gradient: 13x the CPU with OpenBLAS's
# threads on the loaded 2-core machine). docs/architecture.md, "Threads".
for _blas in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas, "1")

from mindgames.errors import (
    CapabilityError,
    ConfigError,
    IllegalMoveError,
    MindgamesError,
    ModelFileError,
    NotationError,
    UnknownNameError,
)
from mindgames.game import Encoding, Game, Move, State
from mindgames.hookspecs import hookimpl
from mindgames.learner import Learner, TrainingResult
from mindgames.model import DIFFERENTIABLE, FITTABLE, PARAMETRIC, Evaluator, Model
from mindgames.records import EncodingInfo, GameInfo, LearnerInfo, ModelInfo, SearcherInfo
from mindgames.search import Line, Searcher, SearchResult, SearchStats

try:
    __version__ = version("mindgames")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "DIFFERENTIABLE",
    "FITTABLE",
    "PARAMETRIC",
    "CapabilityError",
    "ConfigError",
    "Encoding",
    "EncodingInfo",
    "Evaluator",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "Learner",
    "LearnerInfo",
    "Line",
    "MindgamesError",
    "Model",
    "ModelFileError",
    "ModelInfo",
    "Move",
    "NotationError",
    "SearchResult",
    "SearchStats",
    "Searcher",
    "SearcherInfo",
    "State",
    "TrainingResult",
    "UnknownNameError",
    "__version__",
    "hookimpl",
]
