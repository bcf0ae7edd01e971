"""Loading plugins: one pluggy manager, fed by the ``mindgames`` entry-point group.

Every entry-point load is wrapped: a plugin that fails to import, a hook that raises, a record of
the wrong type and a hook implementation that matches no hookspec (a misspelt name) each become
one warning naming the plugin's distribution, and the others still load.
``MINDGAMES_STRICT_PLUGINS=1`` (or ``strict=True``) raises instead, for tests and plugin authors.
``MINDGAMES_DISABLE_PLUGINS=name,...`` skips the named entry points (or every entry point of a
named distribution) without importing them, like pytest's ``-p no:name``.
"""

from __future__ import annotations

import difflib
import os
import sys
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import pluggy

from mindgames import hookspecs
from mindgames.errors import PluginError

GROUP = "mindgames"
STRICT_ENV = "MINDGAMES_STRICT_PLUGINS"
DISABLE_ENV = "MINDGAMES_DISABLE_PLUGINS"


@attrs.frozen
class PluginSource:
    """Where a registered plugin came from."""

    name: str
    distribution: str
    version: str


@attrs.frozen
class PluginFailure:
    """An entry point that could not be loaded."""

    name: str
    distribution: str
    error: str


def strict_from_env() -> bool:
    """Whether ``MINDGAMES_STRICT_PLUGINS`` asks plugin problems to raise."""
    return os.environ.get(STRICT_ENV, "") not in ("", "0")


def disabled_from_env() -> frozenset[str]:
    """Entry-point or distribution names that ``MINDGAMES_DISABLE_PLUGINS`` switches off."""
    return frozenset(n.strip() for n in os.environ.get(DISABLE_ENV, "").split(",") if n.strip())


def _dist_of(ep: EntryPoint) -> tuple[str, str]:
    dist = ep.dist
    if dist is None:
        return "unknown", "?"
    return dist.metadata["Name"] or "unknown", dist.version or "?"


class PluginHost:
    """The plugin manager plus a record of each plugin's distribution and of failures."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.sources: dict[str, PluginSource] = {}
        self.failures: list[PluginFailure] = []

    def register(self, plugin: Any, name: str, distribution: str, version: str = "?") -> None:
        """Register a plugin object (a module or any object with hookimpls)."""
        if self.pm.get_plugin(name) is not None:
            known = self.sources[name].distribution
            raise PluginError(
                f"plugin name {name!r} is registered by both {known} and {distribution}"
            )
        self.pm.register(plugin, name=name)
        self.sources[name] = PluginSource(name, distribution, version)

    def unregister(self, name: str) -> None:
        """Remove a registered plugin (a test's own copy replaces an installed one)."""
        self.pm.unregister(name=name)
        self.sources.pop(name, None)

    def load_entry_points(
        self, *, strict: bool | None = None, disabled: frozenset[str] | None = None
    ) -> None:
        """Register every ``mindgames`` entry point, except those ``disabled`` names."""
        strict = strict_from_env() if strict is None else strict
        disabled = disabled_from_env() if disabled is None else disabled
        seen: set[tuple[str, str]] = set()
        for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
            dist, version = _dist_of(ep)
            if (ep.name, ep.value) in seen:  # the same dist found twice on sys.path
                continue
            if ep.name in disabled or dist in disabled:
                continue
            seen.add((ep.name, ep.value))
            try:
                plugin = ep.load()
                self.register(plugin, ep.name, dist, version)
            except Exception as exc:
                if strict:
                    raise
                self._fail(ep.name, dist, exc, "loading")

    def results(self, hook_name: str, *, strict: bool) -> list[tuple[PluginSource, Any]]:
        """Each record a hook returns, with the source of the plugin that returned it.

        A hook that raises is reported like a plugin that fails to load (or re-raised when
        ``strict``), and the other plugins' records are still returned.
        """
        hook = getattr(self.pm.hook, hook_name)
        out: list[tuple[PluginSource, Any]] = []
        for impl in reversed(hook.get_hookimpls()):  # registration order
            source = self.source_of(impl.plugin_name)
            try:
                records = list(impl.function() or ())
            except Exception as exc:
                if strict:
                    raise
                self._fail(source.name, source.distribution, exc, f"its {hook_name} hook")
                continue
            out.extend((source, record) for record in records)
        return out

    def check_pending(self, *, strict: bool) -> None:
        """Report hook implementations that match no hookspec (a misspelt hook name) and
        ``mindgames_*`` functions left without ``@hookimpl``.

        pluggy would ignore both silently; a warning names the plugin and the closest hook.
        """
        self._check_unmarked(strict=strict)
        for hook_name, caller in sorted(vars(self.pm.hook).items()):
            if not isinstance(caller, pluggy.HookCaller) or caller.has_spec():
                continue
            close = difflib.get_close_matches(hook_name, hookspecs.HOOK_NAMES, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            for impl in caller.get_hookimpls():
                if impl.opts.get("optionalhook"):
                    continue
                exc = PluginError(f"hook {hook_name!r} is not a mindgames hook{hint}")
                if strict:
                    raise PluginError(f"plugin {impl.plugin_name!r}: {exc}")
                source = self.source_of(impl.plugin_name)
                self._fail(source.name, source.distribution, exc, "registering")

    def _check_unmarked(self, *, strict: bool) -> None:
        for plugin_name, plugin in self.pm.list_name_plugin():
            hooked = {caller.name for caller in self.pm.get_hookcallers(plugin) or ()}
            for attr in sorted(dir(plugin)):
                if not attr.startswith("mindgames_") or attr in hooked:
                    continue
                if callable(getattr(plugin, attr, None)):
                    error = f"{attr} is not marked with @hookimpl, so mindgames never calls it"
                    if strict:
                        raise PluginError(f"plugin {plugin_name!r}: {error}")
                    self.fail(self.source_of(plugin_name), error, "registering")

    def source_of(self, plugin_name: str) -> PluginSource:
        """The source recorded for a registered plugin."""
        return self.sources.get(plugin_name) or PluginSource(plugin_name, "unknown", "?")

    def fail(self, source: PluginSource, error: str, what: str) -> None:
        """Record that a plugin broke a rule (one warning; the others load)."""
        self._fail(source.name, source.distribution, PluginError(error), what)

    def _fail(self, name: str, dist: str, exc: Exception, what: str) -> None:
        error = str(exc) if isinstance(exc, PluginError) else f"{type(exc).__name__}: {exc}"
        self.failures.append(PluginFailure(name, dist, error))
        print(
            f"mindgames: warning: plugin {name!r} from {dist}: {what} failed: {error}",
            file=sys.stderr,
        )
