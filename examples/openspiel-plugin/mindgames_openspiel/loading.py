"""Loading an OpenSpiel game from its game string, and refusing the games mindgames cannot play.

mindgames plays two-player, sequential, deterministic, perfect-information, zero- or
constant-sum games. ``load`` checks each of these properties twice: on the registered game type
before loading (so a refused game is never built) and on the loaded game (parameters may change
them, e.g. ``players=3``). Every failure is one ``MindgamesError`` line; OpenSpiel's own habit of
printing each exception to standard error is silenced while a game loads.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mindgames.errors import CapabilityError, ConfigError
from mindgames.registry import unknown

#: what mindgames needs of a game, in the order the refusal names what is missing
NEEDED = "two-player, sequential, deterministic, perfect-information, zero- or constant-sum"


def _pyspiel() -> Any:
    """OpenSpiel's module, imported when a game is first loaded or listed: importing it costs
    0.1-0.2 s, which every mindgames command would pay at plugin load otherwise."""
    import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type information

    return pyspiel


def missing_properties(game_type: Any, players: int | None) -> list[str]:
    """The properties of NEEDED that a game type (with ``players`` players, if known) lacks."""
    spiel_type = _pyspiel().GameType
    missing = []
    if players is not None and players != 2:
        missing.append(f"not two-player (it has {players} players)")
    if players is None and not game_type.min_num_players <= 2 <= game_type.max_num_players:
        missing.append("not two-player")
    if game_type.dynamics != spiel_type.Dynamics.SEQUENTIAL:
        missing.append("not sequential (its players move simultaneously)")
    if game_type.chance_mode != spiel_type.ChanceMode.DETERMINISTIC:
        missing.append("not deterministic (it has chance events)")
    if game_type.information != spiel_type.Information.PERFECT_INFORMATION:
        missing.append("not perfect-information (it hides information)")
    if game_type.utility not in (spiel_type.Utility.ZERO_SUM, spiel_type.Utility.CONSTANT_SUM):
        missing.append("not zero- or constant-sum")
    return missing


@functools.cache
def eligible_names() -> tuple[str, ...]:
    """The registered OpenSpiel games (default parameters) that mindgames can play."""
    return tuple(
        sorted(
            t.short_name
            for t in _pyspiel().registered_games()
            if not missing_properties(t, None) and t.default_loadable
        )
    )


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2: OpenSpiel's C++ side prints every exception (and warnings)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _refuse(text: str, missing: list[str]) -> CapabilityError:
    return CapabilityError(
        f"OpenSpiel game {text!r} is {' and '.join(missing)}; mindgames plays {NEEDED} games"
    )


@functools.cache
def load(text: str) -> Any:
    """The ``pyspiel.Game`` that ``text`` (``connect_four``, ``breakthrough(rows=6)``) names.

    Raises UnknownNameError, ConfigError (malformed or unknown parameters) or CapabilityError
    (a game mindgames cannot play), each one line.
    """
    pyspiel = _pyspiel()
    name = text.split("(", 1)[0].strip()
    types = {t.short_name: t for t in pyspiel.registered_games()}
    if name not in types:
        raise unknown("OpenSpiel game", name, eligible_names())
    missing = missing_properties(types[name], None)
    if missing:
        raise _refuse(name, missing)
    try:
        with _quiet_stderr():
            game = pyspiel.load_game(text)
    except pyspiel.SpielError as exc:
        reason = str(exc).strip().splitlines()[0].split(" Available parameters are")[0]
        takes = ", ".join(sorted(types[name].parameter_specification)) or "none"
        raise ConfigError(f"OpenSpiel game {text!r}: {reason} (parameters: {takes})") from None
    missing = missing_properties(game.get_type(), game.num_players())
    if missing:
        raise _refuse(text, missing)
    _check_texts(text, game)
    return game


def _check_texts(text: str, game: Any) -> None:
    """Refuse a game whose start position or first moves OpenSpiel cannot write as text:
    parameters beyond what its notation names (``breakthrough(columns=200)`` runs out of column
    letters and writes bytes that are not UTF-8)."""
    state = game.new_initial_state()
    try:
        str(state)
        for action in state.legal_actions():
            state.action_to_string(state.current_player(), action)
    except UnicodeDecodeError:
        raise ConfigError(
            f"OpenSpiel game {text!r}: OpenSpiel cannot write its positions or moves as text "
            "(its notation does not reach that far); choose smaller parameters"
        ) from None


def canonical(text: str) -> str:
    """OpenSpiel's own string of the game (parameters sorted), without an empty ``()``."""
    return str(load(str(text))).removesuffix("()")
