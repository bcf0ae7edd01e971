"""TOML configs turned into attrs classes by one shared cattrs converter.

Errors always name where (file or spec), the key path and what was expected. The converter is
strict: an int field takes only an integer (never ``"2000"``, ``1.5`` or ``true``), a float field
an integer or a float, a bool field only ``true``/``false``, a str field only a string. A
validator's own message (``'games' must be > 0: -5``) is kept, so range errors name the key, the
bound and the value.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

from mindgames.errors import ConfigError, MindgamesError

T = TypeVar("T")

converter = cattrs.Converter(forbid_extra_keys=True)

#: the longest piece of user text an error message quotes (a 20,000-square FEN is not echoed)
QUOTE_LIMIT = 80


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (with its full length) for quoting in one line."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class StrictValueError(ValueError):
    """A value of the wrong kind for a typed field; its message says what was expected."""


def _kind(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else shorten(repr(value))
    return f"{text} ({type(value).__name__})"


def _strict_int(value: Any, _: type) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StrictValueError(f"expected an integer, got {_kind(value)}")
    return value


def _strict_float(value: Any, _: type) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StrictValueError(f"expected a number, got {_kind(value)}")
    return float(value)


def _strict_bool(value: Any, _: type) -> bool:
    if not isinstance(value, bool):
        raise StrictValueError(f"expected true or false, got {_kind(value)}")
    return value


def _strict_str(value: Any, _: type) -> str:
    if not isinstance(value, str):
        raise StrictValueError(f"expected a string, got {_kind(value)}")
    return value


converter.register_structure_hook(int, _strict_int)
converter.register_structure_hook(float, _strict_float)
converter.register_structure_hook(bool, _strict_bool)
converter.register_structure_hook(str, _strict_str)


def _format(exc: BaseException, type_: type | None) -> str:
    """cattrs' messages, but ours and the validators' own (``'games' must be > 0: -5``) kept."""
    if isinstance(exc, StrictValueError) or (
        type_ is None and isinstance(exc, (ValueError, TypeError)) and str(exc)
    ):
        return shorten(str(exc), 4 * QUOTE_LIMIT)
    return cattrs.v.format_exception(exc, type_)


def _messages(exc: BaseException) -> list[str]:
    if isinstance(exc, (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError)):
        return [_tidy(line) for line in cattrs.transform_error(exc, "$", _format)]
    return [str(exc)]


def _tidy(line: str) -> str:
    """Turn cattrs' "what @ $.a.b" into "a.b: what" (just "what" at the top level)."""
    what, sep, path = line.rpartition(" @ ")
    if not sep:
        return line
    key = path.removeprefix("$").lstrip(".")
    return f"{key}: {what}" if key else what


@contextlib.contextmanager
def located(where: str) -> Iterator[None]:
    """Prefix any MindgamesError raised inside with ``where`` (a file and key), once."""
    try:
        yield
    except MindgamesError as exc:
        if str(exc).startswith(where):
            raise
        raise type(exc)(f"{where}: {exc}") from None


def _own_error(exc: BaseException) -> MindgamesError | None:
    """A MindgamesError that the class itself raised (a converter or ``__attrs_post_init__``)."""
    for inner in getattr(exc, "exceptions", ()):
        if isinstance(inner, MindgamesError):
            return inner
    return None


def structure(
    data: Mapping[str, Any], cls: type[T], *, where: str, using: cattrs.Converter | None = None
) -> T:
    """Build ``cls`` from ``data``; any problem becomes a ConfigError naming ``where``.

    A MindgamesError raised by the class itself keeps its type and its message. ``using``: a
    converter made from this one (``converter.copy()``) with hooks of its own.
    """
    try:
        return (using or converter).structure(dict(data), cls)
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        own = _own_error(exc)
        if own is not None:
            raise type(own)(f"{where}: {own}") from None
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
    except RecursionError:  # tomllib nests a call per bracket
        raise ConfigError(f"{p}: invalid TOML: arrays or tables nested too deep") from None
