"""Loading plugins: one pluggy manager, fed by the ``mindgames`` entry-point group.

Every entry-point load is wrapped: a plugin that fails to import becomes one warning naming its
distribution and the error, and the others still load. ``MINDGAMES_STRICT_PLUGINS=1`` (or
``strict=True``) re-raises instead, for tests and plugin authors.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import pluggy

from mindgames import hookspecs
from mindgames.errors import PluginError

GROUP = "mindgames"


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
    return os.environ.get("MINDGAMES_STRICT_PLUGINS", "") not in ("", "0")


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

    def load_entry_points(self, *, strict: bool | None = None) -> None:
        strict = strict_from_env() if strict is None else strict
        seen: set[tuple[str, str]] = set()
        for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
            dist, version = _dist_of(ep)
            if (ep.name, ep.value) in seen:  # the same dist found twice on sys.path
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
            source = self.sources.get(impl.plugin_name) or PluginSource(
                impl.plugin_name, "unknown", "?"
            )
            try:
                records = list(impl.function() or ())
            except Exception as exc:
                if strict:
                    raise
                self._fail(source.name, source.distribution, exc, f"its {hook_name} hook")
                continue
            out.extend((source, record) for record in records)
        return out

    def _fail(self, name: str, dist: str, exc: Exception, what: str) -> None:
        error = f"{type(exc).__name__}: {exc}"
        self.failures.append(PluginFailure(name, dist, error))
        print(
            f"mindgames: warning: plugin {name!r} from {dist}: {what} failed: {error}",
            file=sys.stderr,
        )
