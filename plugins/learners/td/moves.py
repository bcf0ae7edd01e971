"""Move choice in TD self-play: the successors of a position valued for its side to move, and
the pick among them (``explored``: epsilon-random, then ``best``: softmax or greedy). Every
self-play driver chooses through these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mindgames.game import Game, Move, State
from mindgames.model import RowGrads

#: the reward of a finished game for a side: (final state, side) -> float
Reward = Callable[[State, int], float]


class Successors:
    """Every move of a position with its successor; ``values`` for the mover once valued.

    ``values[i]`` is the reward when ``kids[i]`` is over, else the sign (+1 when the mover moves
    again, -1 otherwise) until ``fill`` multiplies in the net's value; ``open`` lists the
    indices of the successors that are not over, in order (those the net values).
    """

    __slots__ = ("kids", "open", "pairs", "values")

    def __init__(
        self,
        game: Game,
        state: State,
        reward: Reward,
        children: Sequence[tuple[Move, State]] | None = None,
    ) -> None:
        side = game.to_move(state)
        self.pairs = pairs = game.children(state) if children is None else children
        self.kids: list[State] = [kid for _, kid in pairs]
        # plain lists: a handful of moves, where numpy calls cost more than they save
        self.values: list[float] = []
        self.open: list[int] = []
        is_terminal, to_move = game.is_terminal, game.to_move
        values, opened = self.values, self.open
        for i, kid in enumerate(self.kids):
            if is_terminal(kid):
                values.append(reward(kid, side))
            else:
                opened.append(i)
                values.append(1.0 if to_move(kid) == side else -1.0)

    def move(self, i: int) -> Move:
        """The move to ``kids[i]``."""
        return self.pairs[i][0]

    def pending(self) -> list[State]:
        """The successors the net must value (those not over), in ``open`` order."""
        return [self.kids[i] for i in self.open]

    def fill(self, values: Sequence[float]) -> None:
        """Multiply in the net's values of ``pending()`` (each for its own side to move)."""
        for k, value in enumerate(values):
            self.values[self.open[k]] *= value


def explored(rng: np.random.Generator, count: int, epsilon: float) -> int | None:
    """A random move's index with probability ``epsilon`` (drawn only when there is a choice);
    None leaves the choice to the values."""
    if count == 1:
        return 0
    if epsilon > 0.0 and rng.random() < epsilon:
        return int(rng.integers(count))
    return None


def best(rng: np.random.Generator, values: Sequence[float], temperature: float) -> int:
    """Softmax over ``values`` with ``temperature`` when positive, else the first best."""
    if temperature > 0.0:
        vs = np.array(values)
        p = np.exp((vs - vs.max()) / temperature)
        return int(rng.choice(len(vs), p=p / p.sum()))
    return values.index(max(values)) if isinstance(values, list) else int(np.argmax(values))


def choose(
    game: Game,
    state: State,
    evaluator: Any,
    rng: np.random.Generator,
    explore: dict[str, float],
    reward: Reward,
    grads: bool = False,
) -> tuple[Move, State, tuple[float, np.ndarray] | None]:
    """The 1-ply move to play, its successor, and -- with ``grads`` when the net valued that
    successor -- its value and gradient for its own side to move (the next TD step's).

    The epsilon draw comes first, so an explored move costs no valuation.
    """
    children = game.children(state)
    i = explored(rng, len(children), explore.get("epsilon", 0.0))
    if i is not None:
        return children[i][0], children[i][1], None
    succ = Successors(game, state, reward, children)
    pending = succ.pending()
    raw: Any = None
    if pending and grads:
        model, xs = evaluator.model, evaluator.encoding.encode_batch(pending)
        if isinstance(model, RowGrads):  # only the chosen successor's gradient is made
            raw, gradient = model.values_and_row_grad(xs)
        else:
            raw, gradients = model.value_and_grad_batch(xs)
            gradient = gradients.__getitem__
        succ.fill(raw.tolist())
    elif pending:
        succ.fill(evaluator.evaluate_batch(pending).tolist())
    i = best(rng, succ.values, explore.get("temperature", 0.0))
    if raw is None or i not in succ.open:
        return succ.move(i), succ.kids[i], None
    k = succ.open.index(i)
    return succ.move(i), succ.kids[i], (float(raw[k]), gradient(k))
