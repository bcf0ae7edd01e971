"""HG's squared error compiled: a specimen's values of a phase's test positions and their summed
squared error in one call (plugins/learners/hg/fitness.py chooses it when the model has kernels).

A template: ``fitness.py`` binds ``m_value`` to the model's value kernel (``ModelKernels.module``)
with ``mindgames.compiled.specialise.bind``, which numba then caches like any module. Unbound, the
name comes from ``unbound``, whose kernel refuses to run.
"""

from __future__ import annotations

import numpy as np

from mindgames.compiled.hot import hot

# <bind>
from mindgames.compiled.unbound import value as m_value

# </bind>


@hot
def squared_error(
    meta: np.ndarray, params: np.ndarray, xs: np.ndarray, plies: np.ndarray, labels: np.ndarray
) -> float:
    """sum_i (value(xs[i]) - labels[i])^2, left to right (numpy's ``sum`` adds in pairs, and the
    values differ from numpy's in the last bits: the error agrees within 1e-12 relative)."""
    total = 0.0
    for i in range(xs.shape[0]):
        d = m_value(meta, params, xs[i], plies[i]) - labels[i]
        total += d * d
    return total
