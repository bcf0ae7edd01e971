"""Spec strings: the one-line form of a configured component on the command line.

Grammar (documented in docs/architecture.md)::

    spec   := NAME [":" option ("," option)*]
    option := KEY "=" VALUE
    VALUE  := a TOML value (4, 0.5, true, "text", [10, 5]) or bare text up to the next
              top-level comma (material, @runs/td/model.npz)

Keys may use ``-`` for ``_``. ``kalah:pits=4,seeds=3`` and ``alphabeta:depth=4,eval=material``
are specs. Parsing only splits text into a name and a dict; what the keys mean is decided by
the attrs class the dict is structured into, so the same checks apply to TOML configs.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from mindgames.errors import SpecError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_SIGNED_VALUE = re.compile(r"(\d[eE]|=)$")
_BARE = re.compile(r"^[A-Za-z0-9_.\-+@/~]+$")


def _top_level(text: str, sep: str, spec: str) -> list[int]:
    """Indices of ``sep`` outside brackets and quotes."""
    found, depth, quote = [], 0, ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
            if depth < 0:
                raise SpecError(f"spec {spec!r}: unbalanced {ch!r}")
        elif ch == sep and depth == 0:
            found.append(i)
    if quote or depth:
        raise SpecError(f"spec {spec!r}: unclosed quote or bracket")
    return found


def _cut(text: str, cuts: list[int]) -> list[str]:
    bounds = [-1, *cuts, len(text)]
    return [text[a + 1 : b] for a, b in pairwise(bounds)]


def _split_top_level(text: str, spec: str) -> list[str]:
    """Split on commas that are outside brackets and quotes."""
    return _cut(text, _top_level(text, ",", spec))


def split_plus(spec: str) -> list[str]:
    """Split ``a+b:opt=1`` on the ``+`` signs that join names (not ones inside values)."""
    cuts = [
        i
        for i in _top_level(spec, "+", spec)
        if _NAME.match(spec[i + 1 : i + 2] or "-")
        and spec[:i].strip()
        and not _SIGNED_VALUE.search(spec[:i])  # 1e+3 or key=+1 is a value
    ]
    return [part.strip() for part in _cut(spec, cuts)]


def split_specs(text: str) -> list[str]:
    """Split a comma list of specs: ``alphabeta:depth=2,eval=material,random`` is two specs.

    A top-level comma starts a new spec when the text after it is not a ``key=value`` option.
    """
    parts = _split_top_level(text, text)
    specs: list[str] = []
    for part in parts:
        key, eq, _ = part.partition("=")
        if specs and eq and _KEY.match(key.strip()) and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part.strip())
    if any(not s for s in specs):
        raise SpecError(f"spec list {text!r}: an empty spec")
    return specs


def parse_value(text: str) -> Any:
    """A TOML value when the text is one, else the bare text itself."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
    except RecursionError:  # tomllib nests a call per bracket
        raise SpecError(f"value {text[:80]!r}... is nested too deep") from None


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,...`` into the name and a dict of parsed values."""
    text = spec.strip()
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not _NAME.match(name):
        raise SpecError(
            f"spec {spec!r}: expected NAME or NAME:key=value,... with a NAME such as "
            f"'alphabeta' (letters, digits, '_', '.', '-'), got {name!r}"
        )
    options: dict[str, Any] = {}
    if sep and not rest.strip():
        raise SpecError(f"spec {spec!r}: nothing after ':'")
    if not sep:
        return name, options
    for part in _split_top_level(rest, spec):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not _KEY.match(key) or not value.strip():
            raise SpecError(f"spec {spec!r}: expected key=value, got {part.strip()!r}")
        key = key.replace("-", "_")
        if key in options:
            raise SpecError(f"spec {spec!r}: {key!r} given twice")
        options[key] = parse_value(value.strip())
    return name, options


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    text = str(value)
    if _BARE.match(text) and parse_value(text) == text:
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_spec(name: str, options: Mapping[str, Any]) -> str:
    """The spec string for ``name`` with ``options`` (inverse of ``parse_spec``)."""
    if not options:
        return name
    return name + ":" + ",".join(f"{k}={format_value(v)}" for k, v in options.items())
