"""Registration of the built-in searchers: minimax, alphabeta, endgame, greedy and random."""

from __future__ import annotations

from mindgames import SearcherInfo, hookimpl
from mindgames.plugins.searchers.alphabeta import AlphaBeta, Endgame
from mindgames.plugins.searchers.minimax import Minimax
from mindgames.plugins.searchers.simple import Greedy, RandomPlayer


@hookimpl
def mindgames_searchers() -> list[SearcherInfo]:
    return [
        SearcherInfo("minimax", Minimax, "plain full-width negamax (reference for tests)"),
        SearcherInfo(
            "alphabeta",
            AlphaBeta,
            "negamax alpha-beta: iterative deepening, transposition table, move ordering, "
            "node/time budgets, extensions, random ties, batched leaves",
        ),
        SearcherInfo(
            "endgame",
            Endgame,
            "alpha-beta with the null evaluator (non-terminal leaves are draws) for labelling",
        ),
        SearcherInfo("greedy", Greedy, "the best move one ply deep"),
        SearcherInfo("random", RandomPlayer, "a uniformly random legal move"),
    ]
