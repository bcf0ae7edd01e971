"""Start positions for TD self-play: a file of one position a line, optionally a TAB and the
reward of a draw for that position's side to move (negated for the other side)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mindgames.errors import ConfigError, MindgamesError
from mindgames.game import Game, State

#: a start position and the reward of a draw for its side to move (None: the learner's ``draw``)
Start = tuple[State, float | None]


def read_starts(game: Game, path: str | Path) -> list[Start]:
    """The start positions of ``path``; ``#`` lines and blank lines are skipped."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:  # UnicodeDecodeError: a binary file
        raise ConfigError(f"start_positions {path}: cannot read: {exc}") from None
    starts = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        text, _, reward = line.partition("\t")
        try:
            position = game.parse_position(text.strip())
            draw = float(reward) if reward.strip() else None
        except (MindgamesError, ValueError) as exc:
            raise ConfigError(f"{path}:{number}: {exc}") from None
        if game.is_terminal(position):
            raise ConfigError(f"{path}:{number}: the position is already over")
        starts.append((position, draw))
    if not starts:
        raise ConfigError(f"start_positions {path}: no positions")
    return starts


def pick_start(
    game: Game,
    starts: list[Start],
    rng: np.random.Generator,
    random_plies: int = 0,
    random_plies_max: int | None = None,
) -> Start:
    """A start drawn at random (the initial position, no draw reward, when there are none),
    then ``random_plies`` uniformly random plies that do not end the game (with
    ``random_plies_max``, a number drawn uniformly from ``random_plies..random_plies_max``);
    the draw reward stays with the side it was given for."""
    if not starts:
        state, draw = game.initial_state(), None
    else:
        state, draw = starts[int(rng.integers(len(starts)))]
    side = game.to_move(state)
    if random_plies_max is not None:
        random_plies = int(rng.integers(random_plies, random_plies_max + 1))
    for _ in range(random_plies):
        kids = [kid for _, kid in game.children(state) if not game.is_terminal(kid)]
        if not kids:
            break
        state = kids[int(rng.integers(len(kids)))]
    if draw is not None and game.to_move(state) != side:
        draw = -draw
    return state, draw
