"""The registry: every component that plugins registered, looked up by name.

Lookups of unknown names fail with the known names and the closest match; two plugins that
register one name are an error naming both distributions.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

import attrs

from mindgames.config import structure
from mindgames.encodings import PROGRESS, concatenate, progress_encoding
from mindgames.errors import DuplicateNameError, PluginError, UnknownNameError
from mindgames.game import Encoding, Game, params_of
from mindgames.learner import Learner
from mindgames.pluginhost import DISABLE_ENV, PluginHost, PluginSource, strict_from_env
from mindgames.records import EncodingInfo, GameInfo, LearnerInfo, ModelInfo, SearcherInfo
from mindgames.search import Searcher
from mindgames.spec import format_spec, parse_spec, split_plus

R = TypeVar("R")

KINDS = ("game", "encoding", "model", "learner", "searcher", "command")


@attrs.frozen
class Entry(Generic[R]):
    record: R
    source: PluginSource


#: the class attribute that names each record's class, which the record's name must equal
_CLASS_NAME: dict[type, str] = {
    GameInfo: "name",
    ModelInfo: "name",
    LearnerInfo: "name",
    SearcherInfo: "name",
}


def _record_problem(record: Any, record_type: type, hook: str) -> str | None:
    """What is wrong with a record a hook returned, or None."""
    if not isinstance(record, record_type):
        return f"returned {type(record).__name__} from {hook}, expected {record_type.__name__}"
    attr = _CLASS_NAME.get(record_type)
    if attr is None:
        return None
    named: Any = record  # a GameInfo, ModelInfo, LearnerInfo or SearcherInfo
    if isinstance(record, LearnerInfo) and not record.loaded:
        return None  # checked when ``load`` imports the class (LearnerInfo.cls)
    name: str = named.name
    cls: type = named.cls
    own = getattr(cls, attr, None)
    if own != name:
        return (
            f"{record_type.__name__}({name!r}, {cls.__name__}): the class's {attr} is "
            f"{own!r}; a record's name must equal its class's {attr}"
        )
    return None


def unknown(kind: str, name: str, known: Iterable[str], where: str = "") -> UnknownNameError:
    """An UnknownNameError listing the known names and the closest one."""
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    listing = ", ".join(names) if names else "none installed"
    return UnknownNameError(f"unknown {kind} {name!r}{where}{hint} (known: {listing})")


class Registry:
    """Gathers the records of all loaded plugins; builds components from specs."""

    def __init__(self, host: PluginHost, *, strict: bool | None = None) -> None:
        self.host = host
        self.strict = strict_from_env() if strict is None else strict
        host.check_pending(strict=self.strict)
        self.games: dict[str, Entry[GameInfo]] = {}
        self.encodings: dict[tuple[str, str], Entry[EncodingInfo]] = {}
        self.models: dict[str, Entry[ModelInfo]] = {}
        self.learners: dict[str, Entry[LearnerInfo]] = {}
        self.searchers: dict[str, Entry[SearcherInfo]] = {}
        self.commands: dict[str, Entry[Any]] = {}
        self._collect("mindgames_games", "game", self.games, GameInfo, lambda r: r.name)
        self._collect(
            "mindgames_encodings",
            "encoding",
            self.encodings,
            EncodingInfo,
            lambda r: (r.game, r.name),
        )
        self._add_core_encodings()
        self._collect("mindgames_models", "model", self.models, ModelInfo, lambda r: r.name)
        self._collect("mindgames_learners", "learner", self.learners, LearnerInfo, lambda r: r.name)
        self._collect(
            "mindgames_searchers", "searcher", self.searchers, SearcherInfo, lambda r: r.name
        )
        import click

        self._collect(
            "mindgames_commands", "command", self.commands, click.Command, lambda r: r.name
        )

    def _add_core_encodings(self) -> None:
        """The encodings the core offers every game (``progress``), unless a plugin has one."""
        from mindgames import __version__

        source = PluginSource("core", "mindgames", __version__)
        for name in self.games:
            key = (name, PROGRESS)
            if key not in self.encodings:
                record = EncodingInfo(
                    name, PROGRESS, progress_encoding, None, "plies played (the game's progress)"
                )
                self.encodings[key] = Entry(record, source)

    def _collect(self, hook: str, kind: str, table: dict, record_type: type, key: Any) -> None:
        """Gather one hook's records; a record of the wrong type or with a name other than
        its class's is that plugin's failure (a warning; raised when strict)."""
        for source, record in self.host.results(hook, strict=self.strict):
            problem = _record_problem(record, record_type, hook)
            if problem:
                if self.strict:
                    raise PluginError(f"plugin {source.name!r} ({source.distribution}): {problem}")
                self.host.fail(source, problem, f"its {hook} hook")
                continue
            k = key(record)
            if k in table:
                other = table[k].source
                label = k if isinstance(k, str) else f"{k[1]!r} for game {k[0]!r}"
                # every command fails until one goes: say how (never by skipping a built-in)
                pair = (other, source)
                names = [s.name for s in pair if s.distribution != "mindgames"] or [source.name]
                skip = " or ".join(f"{DISABLE_ENV}={n}" for n in names)
                raise DuplicateNameError(
                    f"{kind} {label!r} is registered by both {other.distribution} "
                    f"(plugin {other.name!r}) and {source.distribution} (plugin {source.name!r}); "
                    f"uninstall one, or skip one with {skip}"
                )
            table[k] = Entry(record, source)

    # --- lookups ---------------------------------------------------------------------------
    def game_info(self, name: str) -> GameInfo:
        if name not in self.games:
            raise unknown("game", name, self.games)
        return self.games[name].record

    def model_info(self, name: str) -> ModelInfo:
        if name not in self.models:
            raise unknown("model", name, self.models)
        return self.models[name].record

    def learner_info(self, name: str) -> LearnerInfo:
        if name not in self.learners:
            raise unknown("learner", name, self.learners)
        return self.learners[name].record

    def searcher_info(self, name: str) -> SearcherInfo:
        if name not in self.searchers:
            raise unknown("searcher", name, self.searchers)
        return self.searchers[name].record

    def encodings_for(self, game: str) -> list[EncodingInfo]:
        return [e.record for (g, _), e in sorted(self.encodings.items()) if g == game]

    def encoding_info(self, game: str, name: str) -> EncodingInfo:
        if (game, name) not in self.encodings:
            known = [r.name for r in self.encodings_for(game)]
            raise unknown("encoding", name, known, f" for game {game!r}")
        return self.encodings[(game, name)].record

    # --- builders --------------------------------------------------------------------------
    def game(self, spec: str, **overrides: Any) -> Game:
        """Build a game from ``name[:param=value,...]``."""
        name, options = parse_spec(spec)
        options.update(overrides)
        return self.game_from(name, options, where=f"game {spec!r}")

    def game_from(self, name: str, options: Mapping[str, Any], *, where: str) -> Game:
        info = self.game_info(name)
        return structure(options, info.cls, where=where)

    def encoding(self, game: Game, spec: str) -> Encoding:
        """Build the encoding ``name[:option=value,...]`` for ``game``; its name is canonical.

        ``a+b`` joins encodings side by side (``raw32+progress``).
        """
        parts = split_plus(spec)
        if len(parts) > 1:
            return concatenate([self.encoding(game, part) for part in parts])
        name, options = parse_spec(spec)
        info = self.encoding_info(game.name, name)
        where = f"encoding {spec!r} of {game.name}"
        if info.options is None:
            if options:
                raise unknown("option", next(iter(options)), [], f" of encoding {name!r}")
            built, canonical = info.build(game, None), name
        else:
            opts = structure(options, info.options, where=where)
            defaults = params_of(info.options())
            changed = {k: v for k, v in params_of(opts).items() if defaults.get(k) != v}
            built, canonical = info.build(game, opts), format_spec(name, changed)
        return attrs.evolve(built, name=canonical)

    def searcher(self, name: str, options: Mapping[str, Any], *, where: str) -> Searcher:
        info = self.searcher_info(name)
        return structure(options, info.cls, where=where)

    def learner(self, name: str, options: Mapping[str, Any], *, where: str) -> Learner:
        info = self.learner_info(name)
        return structure(options, info.cls, where=where)

    # --- listing ---------------------------------------------------------------------------
    def rows(self) -> list[dict[str, str]]:
        """One row per registered component, for ``mindgames plugins``."""
        rows = []
        tables: list[tuple[str, Mapping[Any, Entry[Any]]]] = [
            ("game", self.games),
            ("encoding", self.encodings),
            ("model", self.models),
            ("learner", self.learners),
            ("searcher", self.searchers),
            ("command", self.commands),
        ]
        for kind, table in tables:
            for key, entry in sorted(table.items(), key=lambda kv: str(kv[0])):
                name = key if isinstance(key, str) else f"{key[0]}/{key[1]}"
                rows.append(
                    {
                        "name": name,
                        "kind": kind,
                        "plugin": entry.source.name,
                        "distribution": entry.source.distribution,
                        "version": entry.source.version,
                    }
                )
        return rows


_default: Registry | None = None


def get_registry() -> Registry:
    """The registry of every installed plugin, loaded once per process."""
    global _default
    if _default is None:
        host = PluginHost()
        host.load_entry_points()
        _default = Registry(host)
    return _default


def registry_with(*plugins: tuple[str, Any]) -> Registry:
    """A fresh registry of the installed plugins plus ``(name, plugin)`` objects (for tests).

    A plugin already installed under ``name`` (its entry-point name) is replaced by the given
    object, so a plugin's own tests run the same whether or not it is installed.
    """
    host = PluginHost()
    host.load_entry_points()
    for name, plugin in plugins:
        installed = host.pm.get_name(plugin) if host.pm.is_registered(plugin) else None
        for old in {name, installed or name}:
            if host.pm.get_plugin(old) is not None:
                host.unregister(old)
        host.register(plugin, name, "test")
    return Registry(host)
