"""The small frozen records that registration hooks return.

Each record names a component and says how to build it. Parameters always come from an attrs
class, so configs and spec strings are checked by one cattrs converter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.errors import PluginError
from mindgames.game import Encoding, Game
from mindgames.learner import Learner
from mindgames.model import Model
from mindgames.search import Searcher


@attrs.frozen
class GameInfo:
    """A game: ``cls`` is a frozen attrs Game subclass whose fields are its parameters."""

    name: str
    cls: type[Game]
    description: str = ""


@attrs.frozen
class EncodingInfo:
    """An encoding for one game: ``build(game, options)`` returns the bound Encoding.

    ``options`` is an attrs class of the encoding's options (``None`` for none); ``build``
    receives an instance of it (or ``None``).
    """

    game: str
    name: str
    build: Callable[[Any, Any], Encoding]
    options: type[Any] | None = None
    description: str = ""


@attrs.frozen
class ModelInfo:
    """A model kind: ``create(config, columns, rng)`` builds a fresh model from its config.

    ``config`` is the attrs class of its options; ``cls.from_saved`` loads one from a file.
    ``default_encoding`` is used when a spec names the model without an encoding.
    """

    name: str
    cls: type[Model]
    config: type[Any]
    create: Callable[[Any, Sequence[str], np.random.Generator], Model]
    default_encoding: str | None = None
    description: str = ""

    @property
    def capabilities(self) -> frozenset[str]:
        return self.cls.capabilities


@attrs.frozen
class LearnerInfo:
    """A learner: ``cls`` is a frozen attrs Learner subclass whose fields are its options.

    A plugin may give ``load`` instead of ``cls``: a function without arguments that imports and
    returns the class, called the first time ``cls`` is asked for, so that the commands that do
    not train never import a learner's modules (the built-in ones cost a third of a second)."""

    name: str
    _cls: type[Learner] | None = attrs.field(default=None, alias="cls")
    description: str = ""
    load: Callable[[], type[Learner]] | None = attrs.field(default=None, kw_only=True, eq=False)

    def __attrs_post_init__(self) -> None:
        if (self._cls is None) == (self.load is None):
            raise TypeError(f"LearnerInfo({self.name!r}) takes exactly one of cls and load")

    @property
    def cls(self) -> type[Learner]:
        """The learner's class (imported by ``load`` on the first call when given that way)."""
        cls = self._cls
        if cls is None:
            assert self.load is not None
            loaded = self.load()
            if getattr(loaded, "name", None) != self.name:
                raise PluginError(
                    f"LearnerInfo({self.name!r}, {loaded.__name__}): the class's name is "
                    f"{getattr(loaded, 'name', None)!r}; a record's name must equal its "
                    "class's name"
                )
            object.__setattr__(self, "_cls", loaded)  # frozen: filled in once, as if given
            cls = loaded
        return cls

    @property
    def loaded(self) -> bool:
        """Whether ``cls`` is at hand without importing anything."""
        return self._cls is not None

    @property
    def needs(self) -> frozenset[str]:
        return self.cls.needs


@attrs.frozen
class SearcherInfo:
    """A searcher: ``cls`` is a frozen attrs Searcher subclass whose fields are its options."""

    name: str
    cls: type[Searcher]
    description: str = ""
