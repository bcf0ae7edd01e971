"""The hooks a mindgames plugin implements. Every hook returns a list of records.

A plugin is a module (or any object) with functions decorated by ``mindgames.hookimpl`` and
named like the specs below; it is found through the ``mindgames`` entry-point group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:  # pragma: no cover - typing only
    import click

    from mindgames.records import EncodingInfo, GameInfo, LearnerInfo, ModelInfo, SearcherInfo

PROJECT = "mindgames"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def mindgames_games() -> list[GameInfo]:  # type: ignore[empty-body]
    """Games this plugin supplies."""


@hookspec
def mindgames_encodings() -> list[EncodingInfo]:  # type: ignore[empty-body]
    """Encodings this plugin supplies, for its own games or for games another plugin wrote."""


@hookspec
def mindgames_models() -> list[ModelInfo]:  # type: ignore[empty-body]
    """Model kinds (the trainable part of evaluators) this plugin supplies."""


@hookspec
def mindgames_learners() -> list[LearnerInfo]:  # type: ignore[empty-body]
    """Learning methods this plugin supplies."""


@hookspec
def mindgames_searchers() -> list[SearcherInfo]:  # type: ignore[empty-body]
    """Searchers (move choosers) this plugin supplies."""


@hookspec
def mindgames_commands() -> list[click.Command]:  # type: ignore[empty-body]
    """Extra ``mindgames`` CLI commands this plugin supplies."""


#: the name of every hook a plugin may implement
HOOK_NAMES = tuple(name for name in sorted(globals()) if name.startswith("mindgames_"))
