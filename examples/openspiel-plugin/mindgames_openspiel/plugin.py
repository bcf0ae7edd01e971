"""The hooks of the OpenSpiel bridge: the game ``openspiel`` and its encodings."""

from __future__ import annotations

from mindgames import EncodingInfo, GameInfo, hookimpl
from mindgames_openspiel.encodings import observation, to_move
from mindgames_openspiel.game import OpenSpiel


@hookimpl
def mindgames_games() -> list[GameInfo]:
    return [
        GameInfo(
            "openspiel",
            OpenSpiel,
            "an OpenSpiel game: two-player, sequential, deterministic, perfect-information, "
            'zero- or constant-sum (game=connect_four, game="breakthrough(rows=6,columns=6)")',
        )
    ]


@hookimpl
def mindgames_encodings() -> list[EncodingInfo]:
    return [
        EncodingInfo(
            "openspiel", "observation", observation, None, "OpenSpiel's observation tensor"
        ),
        EncodingInfo("openspiel", "to_move", to_move, None, "1.0 when the second player moves"),
    ]
