"""``mindgames new-game NAME``: the skeleton of a game plugin distribution.

It writes a pyproject with the ``mindgames`` entry point, a game module with every method of
``Game`` to fill in (its signature and docstring taken from ``mindgames.game.Game`` itself, so the
skeleton never drifts from the interface), an encoding, the hooks, a conformance test and a
README. Each body to write is one ``raise NotImplementedError("NAME: method")``.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from mindgames.errors import MindgamesError
from mindgames.game import Game, HasOpeningBooks, Solvable

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")

#: optional Game methods the skeleton mentions (a game overrides them for speed or features)
OPTIONAL = ("children", "move_count", "capture_pending", "known_perft", "solve", "opening_books")
#: where each is declared: Game's generic defaults, and the optional capabilities' protocols
_DECLARED_IN = (Game, Solvable, HasOpeningBooks)


def _signature(func: Callable[..., object]) -> str:
    sig = inspect.signature(func)
    params = [
        p.name if p.annotation is p.empty else f"{p.name}: {p.annotation}"
        for p in sig.parameters.values()
    ]
    returns = "" if sig.return_annotation is sig.empty else f" -> {sig.return_annotation}"
    return f"({', '.join(params)}){returns}"


def _first_paragraph(func: Callable[..., object]) -> str:
    return (inspect.getdoc(func) or "").split("\n\n")[0].replace("\n", " ")


def method_stubs(game: str) -> str:
    """Every abstract method of Game with its signature, docstring and a body to fill in."""
    stubs = []
    for name, func in Game.__dict__.items():
        if not getattr(func, "__isabstractmethod__", False):
            continue
        body = f'raise NotImplementedError("{game}: {name}")'
        if name == "parse_move":  # the generic answer is right for any game; faster is optional
            body = "return self.find_move(state, text)"
        stubs.append(
            f"    def {name}{_signature(func)}:\n"
            f'        """{_first_paragraph(func)}"""\n'
            f"        {body}\n"
        )
    return "\n".join(stubs)


def optional_notes() -> str:
    """One comment line per optional method a game may override."""
    lines = []
    for name in OPTIONAL:
        method = next(vars(cls)[name] for cls in _DECLARED_IN if name in vars(cls))
        lines.append(f"    # {name}{_signature(method)}")
        lines += textwrap.wrap(
            _first_paragraph(method),
            96,
            initial_indent="    #     ",
            subsequent_indent="    #     ",
        )
    return "\n".join(lines)


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def files_for(name: str) -> dict[str, str]:
    """Relative path -> text of every file of the skeleton of game ``name``."""
    if not _NAME.match(name):
        raise MindgamesError(
            f"game name {name!r}: use lower-case letters, digits and '_', starting with a letter"
        )
    module = f"mindgames_{name}"
    values = {
        "name": name,
        "module": module,
        "dist": f"mindgames-{name.replace('_', '-')}",
        "cls": _class_name(name),
        "stubs": method_stubs(name),
        "optional": optional_notes(),
    }
    templates = files("mindgames.scaffold").joinpath("templates")
    layout = {
        "pyproject.toml": "pyproject.toml.txt",
        "README.md": "README.md",
        f"{module}/__init__.py": "init.py.txt",
        f"{module}/game.py": "game.py.txt",
        f"{module}/encodings.py": "encodings.py.txt",
        f"{module}/plugin.py": "plugin.py.txt",
        f"tests/test_{name}.py": "test.py.txt",
    }
    return {
        path: templates.joinpath(source).read_text(encoding="utf-8").format(**values)
        for path, source in layout.items()
    }


def write_skeleton(name: str, directory: Path) -> list[Path]:
    """Write the skeleton into ``directory`` (new or empty); return the files written."""
    if directory.exists() and any(directory.iterdir()):
        raise MindgamesError(f"{directory}: exists and is not empty; choose another --dir")
    written = []
    for relative, text in files_for(name).items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
