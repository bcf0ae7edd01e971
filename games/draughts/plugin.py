"""Registers American checkers, give-away checkers and their encodings."""

from __future__ import annotations

from mindgames import EncodingInfo, GameInfo, hookimpl
from mindgames.games.draughts import encodings as enc
from mindgames.games.draughts.rules import Checkers, Giveaway

_ENCODINGS = (
    ("raw32", enc.raw32, enc.Raw32Options, "32 squares in {-K,-1,0,1,K}, optional piece sum"),
    ("binary3", enc.binary3, None, "mine/theirs/king per square (96)"),
    ("binary4", enc.binary4, None, "empty/mine/theirs/king per square (128)"),
    ("binary4k", enc.binary4k, None, "my king/my man/their man/their king per square (128)"),
    ("binary5", enc.binary5, None, "my king/my man/empty/their man/their king (160)"),
    ("gac11", enc.gac11, None, "11 give-away features for each side and their differences"),
    ("ll-features", enc.ll_features, enc.LLOptions, "raw32 + Layered Learning differences"),
    ("samuel", enc.samuel, None, "NeuroDraughts' Samuel features as binary groups (37)"),
    ("material", enc.material, None, "men and kings difference"),
)


@hookimpl
def mindgames_games() -> list[GameInfo]:
    return [
        GameInfo("checkers", Checkers, "American checkers (English draughts), Black first"),
        GameInfo("giveaway", Giveaway, "US give-away checkers: lose all pieces or moves to win"),
    ]


@hookimpl
def mindgames_encodings() -> list[EncodingInfo]:
    return [
        EncodingInfo(game, name, build, options, description)
        for game in ("checkers", "giveaway")
        for name, build, options, description in _ENCODINGS
    ]


@hookimpl
def mindgames_commands() -> list:
    """The ``mindgames pdn`` command group (check and convert PDN files)."""
    from mindgames.games.draughts.pdn_cli import pdn

    return [pdn]
