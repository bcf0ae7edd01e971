"""The ACF three-move ballots (``data/acf_3move_ballots.tsv``): openings for tournaments.

Each ballot is Black's, White's and Black's first move; ``status`` is ``crossboard``,
``mailplay`` or ``barred`` (barred ballots lose by force and are left out unless asked for);
``ctd`` marks the "computer tough deck" of the 2002 Las Vegas computer tournament.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

import attrs

from mindgames.games.draughts.rules import Draughts, DraughtsState


@attrs.frozen
class Ballot:
    """One three-move ballot: ACF number, the three moves in PDN, status and CTD flag."""

    number: int
    moves: tuple[str, str, str]
    status: str
    ctd: bool


@cache
def _all_ballots() -> tuple[Ballot, ...]:
    text = files("mindgames.games.draughts").joinpath("data/acf_3move_ballots.tsv").read_text()
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    return tuple(
        Ballot(int(r[0]), (r[1], r[2], r[3]), r[4], r[5].strip() == "yes") for r in rows[1:]
    )


def load_ballots(*, include_barred: bool = False) -> tuple[Ballot, ...]:
    """The ballots in ACF order: the 156 playable ones, or all 174 with ``include_barred``."""
    return tuple(b for b in _all_ballots() if include_barred or b.status != "barred")


def ballot_positions(
    game: Draughts, *, include_barred: bool = False
) -> list[tuple[Ballot, DraughtsState]]:
    """Each ballot with the state after its three moves (from ``game``'s start)."""
    out = []
    for ballot in load_ballots(include_barred=include_barred):
        state = game.initial_state()
        for text in ballot.moves:
            state = game.play_text(state, text)
        out.append((ballot, state))
    return out
