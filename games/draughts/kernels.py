"""The draughts kernels (checkers and give-away): the module ``GameKernels.module`` names.

``Draughts.kernels()`` describes a game instance to compiled code; this module (which imports
numba: only searching commands import it, by name) gathers the contract's functions of
``mindgames.kernels``: the rules from ``kernels_rules``, the encodings from ``kernels_encode``.

**Row** (int64; ``kernel_spec.to_row``/``from_row`` convert exactly, histories included):

====== ========= ==============================================================================
column name      value
====== ========= ==============================================================================
0      B         black pieces, on the engine's 35-bit layout (``engine``: ghosts 8, 17, 26)
1      W         white pieces
2      K         kings (a subset of B | W)
3      SIDE      0 Black to move, 1 White
4      PLIES     plies played (``progress``)
5      QUIET     plies since the last capture or man move (the no-progress counter)
6      HLEN      entries of the repetition history (0 with repetition off)
7 + 3i HIST      history entry i, oldest first: black, white, kings | side << 35
====== ========= ==============================================================================

The width is ``7 + 3 H``; ``H``, the most history entries a row holds, is the bound the draw
rules set: the history only grows with ``QUIET`` (a king's simple move) and a state whose
``QUIET`` reaches ``2 no_progress`` (or whose plies reach ``max_plies``) is drawn, so
``H = min(2 no_progress, max_plies)``; with repetition off ``H = 0``. With repetition on and
neither limit the history is unbounded and ``kernels()`` returns None. Columns past the
history's length are unspecified (``children`` leaves them as they were; ``to_row`` zeroes).

**Params** (int64): repetition (0/1), the quiet limit (``2 no_progress``, or ``2**62`` when
off), the ply limit (``max_plies`` or ``2**62``), losing (1 in give-away), H.

**Bound on children** (``MAX_CHILDREN`` = 184): without a capture a man has at most 2 moves
and a king 4, so 12 pieces make at most 48. With one, each capturing piece's complete paths
are the leaves of its jump tree. A king lands only on squares of its own (row, column) parity
class and jumps over squares of other classes, so every real jump tree is a pruning of the
tree from the same square with every other-class square an opponent piece and every
same-class square empty (taken pieces removed as in play); a pruned tree has no more leaves
(each leaf extends to a distinct leaf of the full tree). Those full trees have at most 16
leaves (9 to 16 by square, enumerated), and a man's forward-only tree no more than the
king's from the same square; the twelve largest sum to 184. The tests recompute it.
"""

from __future__ import annotations

from mindgames.games.draughts.kernels_encode import encode
from mindgames.games.draughts.kernels_rules import (
    MAX_CHILDREN,
    capture_pending,
    children,
    is_terminal,
    key,
    move_count,
    perft,
    perft_counted,
    progress,
    result,
    to_move,
)

__all__ = [
    "MAX_CHILDREN",
    "capture_pending",
    "children",
    "encode",
    "is_terminal",
    "key",
    "move_count",
    "perft",
    "perft_counted",
    "progress",
    "result",
    "to_move",
]
