"""What ``mindgames describe`` shows: a component's options read from its attrs fields.

Every option is an attrs field, so its name, type and default come from the class. Its one-line
doc comes, in this order, from the field's ``metadata["doc"]``, a ``#:`` comment block right
above the field in the class source (Sphinx's convention), or a ````name``: text`` phrase in the
class docstring -- the three ways the built-ins document their options.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import attrs

_FIELD = re.compile(r"^\s*(\w+)\s*:")
_COMMENT = re.compile(r"^\s*#:\s?(.*)$")


def _comment_docs(cls: type) -> dict[str, str]:
    """``#:`` comments above the fields of ``cls`` and its attrs bases: field -> text."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not attrs.has(klass):
            continue
        try:
            lines = inspect.getsource(klass).splitlines()
        except (OSError, TypeError):  # no source (a class built at run time)
            continue
        block: list[str] = []
        for line in lines:
            comment = _COMMENT.match(line)
            if comment:
                block.append(comment.group(1).strip())
                continue
            field = _FIELD.match(line)
            if field and block:
                docs[field.group(1)] = " ".join(block)
            block = []
    return docs


def _docstring_doc(cls: type, name: str) -> str:
    """The ````name``: text`` phrase of a docstring in the class's MRO, up to ``;`` or ``.``."""
    for klass in cls.__mro__:
        text = " ".join((klass.__doc__ or "").split())
        found = re.search(rf"``{re.escape(name)}``:\s*(.+?)(?:;|\.(?:\s|$)|$)", text)
        if found:
            return found.group(1).strip()
    return ""


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=\.)\s", text, maxsplit=1)[0].rstrip(".")


def _default(field: attrs.Attribute) -> str:
    default: Any = field.default
    if default is attrs.NOTHING:
        return "required"
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        if default.takes_self:
            return "(computed)"
        default = default.factory()
    return repr(default)


def _type_name(tp: Any) -> str:
    if tp is None:
        return "?"
    if isinstance(tp, str):
        return tp
    return tp.__name__ if isinstance(tp, type) else str(tp).replace("typing.", "")


def option_rows(cls: type) -> list[dict[str, str]]:
    """Name, type, default and one-line doc of each option (init field) of an attrs class."""
    comments = _comment_docs(cls)
    rows = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        doc = (
            field.metadata.get("doc") or comments.get(field.name) or _docstring_doc(cls, field.name)
        )
        rows.append(
            {
                "name": field.name,
                "type": _type_name(field.type),
                "default": _default(field),
                "doc": _first_sentence(str(doc)),
            }
        )
    return rows
