"""Data sets from play: positions sampled from playouts, and positions of recorded games.

``generate`` plays from the start with random moves, or with a mix of agents that take turns move
by move (Layered Learning's remedy for unrepresentative random positions), and keeps one position
per playout at a ply in [lo, hi] (optionally with at most ``max_pieces`` pieces on the board, or
spread evenly over a band of piece counts: position k has exactly ``lo + k mod (hi - lo + 1)``, as
``mindgames quality --spread`` samples its judge sets); playouts that end before ``lo`` are
discarded and a position met before is not kept twice. With ``successors``, every unfinished
successor of a kept position joins it in its group (what a 1-ply searcher compares: the children
of a position). ``from_games`` turns played games (start, moves, result) into every position
before each move, labelled by the game's result from the side to move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from mindgames.agent import Agent
from mindgames.data.sets import DataSet
from mindgames.errors import CapabilityError, MindgamesError
from mindgames.game import CountsPieces, Game, State
from mindgames.limits import MAX_POSITIONS, at_most

#: playouts tried per wanted position before ``generate`` gives up
TRIES_PER_POSITION = 50
#: a first player's score from a result text
RESULTS = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}


def _playout(
    game: Game, hi: int, agents: Sequence[Agent], rng: np.random.Generator
) -> list[tuple[int, State]]:
    """The non-terminal positions of one playout up to ``hi`` plies, with their plies."""
    state = game.initial_state()
    offset = int(rng.integers(len(agents))) if agents else 0
    seen = []
    for ply in range(hi + 1):
        if game.is_terminal(state):
            break
        seen.append((ply, state))
        if ply == hi:
            break
        if agents:
            move = agents[(ply + offset) % len(agents)].choose(game, state, rng).move
        else:
            moves = game.legal_moves(state)
            move = moves[int(rng.integers(len(moves)))]
        state = game.play(state, move)
    return seen


def generate(
    game: Game,
    lo: int,
    hi: int,
    count: int,
    rng: np.random.Generator,
    agents: Sequence[Agent] = (),
    provenance: Mapping[str, Any] | None = None,
    max_pieces: int | None = None,
    fewer: bool = False,
    successors: bool = False,
    hint: str = "ask for fewer or widen --plies",
    spread: tuple[int, int] | None = None,
) -> DataSet:
    """``count`` distinct positions at plies in [lo, hi], one per playout (module docstring);
    with ``max_pieces``, only positions with at most that many pieces on the board (a game
    that counts them, ``CountsPieces``; Kalah: the seeds in the pits). When the playouts
    allowed run out first, ``fewer`` keeps the positions found (at least one) instead of
    refusing: the first plies of a game have few distinct positions. ``spread`` (lo, hi), instead
    of ``max_pieces``, asks position k for exactly ``lo + k mod (hi - lo + 1)`` pieces. With
    ``successors``,
    each is followed by its unfinished successors not met before, in its group. ``hint`` ends
    the refusal: what the caller's user can change (a learner names its own options)."""
    if max_pieces is not None and spread is not None:
        raise MindgamesError("give --max-pieces or --spread, not both")
    if (max_pieces is not None or spread is not None) and not isinstance(game, CountsPieces):
        option = "--max-pieces" if spread is None else "--spread"
        raise CapabilityError(f"game {game.name!r} does not count pieces ({option})")
    if spread is not None and not 0 <= spread[0] <= spread[1]:
        raise MindgamesError(f"--spread {spread[0]}-{spread[1]}: expected 0 <= LO <= HI")
    if not 0 <= lo <= hi:
        raise MindgamesError(f"--plies {lo}-{hi}: expected 0 <= LO <= HI")
    if count < 1:
        raise MindgamesError(f"--count must be at least 1, got {count}")
    at_most("--count", count, MAX_POSITIONS)
    texts: list[str] = []
    plies: list[int] = []
    groups: list[int] = []
    seen: set[str] = set()
    tries = kept = 0
    while kept < count:
        exact = None if spread is None else spread[0] + kept % (spread[1] - spread[0] + 1)
        if tries >= TRIES_PER_POSITION * count + 1000:
            if fewer and texts:
                break
            if spread is not None:
                pieces = f" with exactly {exact} pieces"
            else:
                pieces = "" if max_pieces is None else f" with at most {max_pieces} pieces"
            raise MindgamesError(
                f"found only {kept} distinct positions at plies {lo}-{hi}{pieces} in {tries} "
                f"playouts of {game.spec()}; {hint}"
            )
        tries += 1
        window = [
            (p, s)
            for p, s in _playout(game, hi, agents, rng)
            if p >= lo
            and (max_pieces is None or _pieces(game, s) <= max_pieces)
            and (exact is None or _pieces(game, s) == exact)
        ]
        if not window:
            continue  # the playout ended before lo
        ply, state = window[int(rng.integers(len(window)))]
        text = game.position_text(state)
        if text in seen:
            continue
        family = [(text, ply)]
        if successors:
            family += [
                (game.position_text(child), ply + 1)
                for _, child in game.children(state)
                if not game.is_terminal(child)
            ]
        for member, at in family:
            if member not in seen:
                seen.add(member)
                texts.append(member)
                plies.append(at)
                groups.append(kept)
        kept += 1
    return DataSet(
        game.spec(),
        texts,
        groups,
        plies,
        provenance={
            "generator": {
                "plies": [lo, hi],
                "max_pieces": max_pieces,
                **({} if spread is None else {"spread": list(spread)}),
                "successors": successors,
                "playouts": tries,
                **(provenance or {}),
            }
        },
    )


def from_games(
    game: Game,
    games: Iterable[Mapping[str, Any]],
    *,
    drop_draws: bool = False,
    min_plies: int = 0,
    discount: float = 1.0,
    provenance: Mapping[str, Any] | None = None,
) -> DataSet:
    """Every position before each move of each game, labelled by its result (module docstring).

    A game is ``{"states": [start, after move 1, ...], "result": "1-0" | "0-1" | "1/2-1/2"}``
    (the first player's result). The position ``t`` of a game of ``n`` moves is labelled
    ``r * discount ** (n - 1 - t)``, ``r`` the result for its side to move; group = the game's
    number in the input. Games without a result, draws with ``drop_draws`` and games of fewer
    than ``min_plies`` moves are left out.
    """
    if not 0.0 < discount <= 1.0:
        raise MindgamesError(f"--discount must be in (0, 1], got {discount}")
    texts: list[str] = []
    groups: list[int] = []
    plies: list[int] = []
    labels: list[float] = []
    kept = 0
    for number, record in enumerate(games):
        result = RESULTS.get(str(record.get("result")))
        states: Sequence[State] = record["states"]
        moves = len(states) - 1
        if result is None or moves < max(min_plies, 1) or (drop_draws and result == 0.0):
            continue
        kept += 1
        for t, state in enumerate(states[:-1]):
            mover = 1.0 if game.to_move(state) == 0 else -1.0
            texts.append(game.position_text(state))
            groups.append(number)
            plies.append(t)
            labels.append(result * mover * discount ** (moves - 1 - t))
    extract = {"games": kept, "drop_draws": drop_draws, "min_plies": min_plies}
    return DataSet(
        game.spec(),
        texts,
        groups,
        plies,
        np.array(labels, dtype=np.float64),
        provenance={
            "generator": {"extract": {**extract, "discount": discount}, **(provenance or {})}
        },
    )


def _pieces(game: Game, state: State) -> int:
    """Pieces left, of a game that counts them (``generate`` checked it before any playout)."""
    assert isinstance(game, CountsPieces)
    return game.pieces(state)
