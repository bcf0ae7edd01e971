"""The one exception hierarchy of mindgames: every user error is a ``MindgamesError``.

The CLI prints a ``MindgamesError`` as one line and exits 2; any other exception is a bug and
keeps its traceback.
"""

from __future__ import annotations


class MindgamesError(Exception):
    """Base class of every error that a user can cause and fix."""


class ConfigError(MindgamesError):
    """A TOML config or a spec string does not describe a valid object."""


class SpecError(ConfigError):
    """A command-line spec string (``name:key=value,...``) is malformed."""


class UnknownNameError(MindgamesError):
    """A name that no installed plugin registered."""


class PluginError(MindgamesError):
    """A plugin failed to load or registered something invalid."""


class DuplicateNameError(PluginError):
    """Two plugins registered the same name for the same kind of component."""


class CapabilityError(MindgamesError):
    """A component needs a capability that another lacks (learner vs model, searcher vs game)."""


class NotationError(MindgamesError):
    """Text for a move or a position that cannot be parsed."""


class IllegalMoveError(MindgamesError):
    """A well-formed move that is not legal in the position."""


class ModelFileError(MindgamesError):
    """A model file that is truncated, corrupt, of an unknown version or for another game."""


class GameRecordError(MindgamesError):
    """A game record (PDN and friends) that cannot be read."""


class ConformanceError(MindgamesError):
    """A game that breaks the Game contract (found by ``mindgames check-game``)."""


class FileError(MindgamesError):
    """A file or directory that cannot be read, written or locked (full disk, permissions)."""


class TimeLimitError(MindgamesError):
    """A computation given a time limit (``solve --time``) did not finish within it."""


class Interrupted(MindgamesError):
    """A run stopped by SIGINT or SIGTERM after saving its work; the message says how to resume."""


def os_message(exc: OSError) -> str:
    """One line for an OSError: the file it concerns and the system's reason."""
    reason = exc.strerror or str(exc)
    name = exc.filename if exc.filename is not None else ""
    return f"{name}: {reason}" if name else reason


class DataSetError(MindgamesError):
    """A data-set file that is truncated, corrupt, of another game or lacks a needed column."""
