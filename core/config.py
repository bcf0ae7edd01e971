"""TOML configs turned into attrs classes by one shared cattrs converter.

Errors always name where (file or spec), the key path and what was expected.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

from mindgames.errors import ConfigError

T = TypeVar("T")

converter = cattrs.Converter(forbid_extra_keys=True)


def _messages(exc: BaseException) -> list[str]:
    if isinstance(exc, (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError)):
        out = []
        for line in cattrs.transform_error(exc, path="$"):
            out.append(_tidy(line))
        return out
    return [str(exc)]


def _tidy(line: str) -> str:
    """Turn cattrs' "what @ $.a.b" into "a.b: what"."""
    what, sep, path = line.rpartition(" @ ")
    if not sep:
        return line
    key = path.removeprefix("$").lstrip(".") or "(top level)"
    return f"{key}: {what}"


def structure(data: Mapping[str, Any], cls: type[T], *, where: str) -> T:
    """Build ``cls`` from ``data``; any problem becomes a ConfigError naming ``where``."""
    try:
        return converter.structure(dict(data), cls)
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        raise ConfigError(f"{where}: " + "; ".join(_messages(exc))) from None
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from None


def unstructure(obj: Any) -> Any:
    return converter.unstructure(obj)


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file; a missing or malformed file is a ConfigError naming it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: cannot read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: invalid TOML: {exc}") from None
