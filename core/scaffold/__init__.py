"""``mindgames new-game NAME``: the skeleton of a game plugin distribution.

It writes a pyproject with the ``mindgames`` entry point, a game module with every method of
``Game`` to fill in (its signature and docstring taken from ``mindgames.game.Game`` itself, so the
skeleton never drifts from the interface), an encoding, the hooks, a conformance test and a
README. Each body to write is one ``raise NotImplementedError("NAME: method")``.

With ``--kernels`` (``kernels=True``) it also writes ``kernels.py``: every function of the
compiled path's contract (``mindgames.kernels``) as an ``@njit(cache=True)`` stub whose docstring
is that function's contract text, taken from ``mindgames.kernels`` itself. Its bodies raise
NotImplementedError (numba compiles that), and the game's ``kernels()`` returns None until the
author fills them in and returns a ``GameKernels``: until then nothing imports the module, and
the skeleton's kernel test is skipped.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from mindgames import kernels as kernel_contract
from mindgames.errors import MindgamesError
from mindgames.game import Game, HasOpeningBooks, Solvable
from mindgames.kernels import KERNEL_FUNCTIONS

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


def kernel_texts() -> dict[str, str]:
    """Each kernel function's contract: its bullet of ``mindgames.kernels``'s docstring, as one
    line (``move_count`` and ``capture_pending`` share theirs)."""
    doc = inspect.getdoc(kernel_contract) or ""
    bullets = [" ".join(b.split()) for b in re.findall(r"^\* (.*?\n(?:  .*\n)*)", doc, re.M)]
    texts = {}
    for function in KERNEL_FUNCTIONS:
        found = [b for b in bullets if f"``{function}(" in b]
        if len(found) != 1:  # the contract's docstring changed shape: fail loudly, in tests
            raise AssertionError(f"mindgames.kernels documents {function!r} {len(found)} times")
        text = found[0].rstrip(";.")
        if text.endswith("``"):  # a bare signature: the Game method says what it must do
            text += f": as ``Game.{function}``"
        texts[function] = text + "."
    return texts


def kernel_stubs(game: str) -> str:
    """Every function of the kernel contract as an njit stub: signature, contract, a body to
    fill in (raising NotImplementedError, which numba compiles)."""
    stubs = []
    for function, text in kernel_texts().items():
        signature = re.search(rf"``{function}(\([^)]*\))", text)
        assert signature is not None
        doc = textwrap.fill(text, 96, initial_indent="    ", subsequent_indent="    ").strip()
        stubs.append(
            "@njit(cache=True)\n"
            f"def {function}{signature.group(1)}:\n"
            f'    """{doc}"""\n'
            f'    raise NotImplementedError("{game}: kernel {function}")\n'
        )
    return "\n\n".join(stubs).rstrip("\n")


_KERNELS_METHOD = '''
    def kernels(self) -> GameKernels | None:
        """The compiled path's description of this game (``mindgames.kernels``); None: the
        Python path serves it.

        Once {module}/kernels.py is filled in, return (``mindgames check-game {name}`` then
        proves the kernels equal these rules)::

            GameKernels(
                module="{module}.kernels",  # imported by name, only to search or check
                params=np.zeros(1, dtype=np.int64),  # the parameters the kernels read
                width=...,  # the columns of a state's row (int64)
                max_children=...,  # a proven bound on the number of legal moves
                to_row=...,  # a state -> its row, exactly
                from_row=...,  # a row -> the same state
                encodings={{"board": 0}},  # encoding name -> the code `encode` takes
            )

        and give each encoding it lists ``kernel_options=()`` in encodings.py (the options its
        kernel reads: none).
        """
        return None
'''

_KERNEL_TEST = """

def test_{name}_kernels_equal_the_rules():
    registry = registry_with(("{name}", plugin))
    game = registry.game("{name}")
    if game.kernels() is None:
        pytest.skip("{cls}.kernels() returns None: fill in {module}/kernels.py first")
    encodings = [registry.encoding(game, e.name) for e in registry.encodings_for("{name}")]
    report = check_game(game, encodings, playouts=20, seed=0)
    assert KERNEL_CHECK in report.checks
"""

_KERNELS_README = """
## Kernels (the compiled path)

`{module}/kernels.py` holds every function of the compiled path's contract as a numba stub with
its contract text. Choose a state's row (int64 columns), fill in each function, then make
`{cls}.kernels()` return a `GameKernels` naming the module: `mindgames check-game {name}` proves
the kernels equal the Python rules, `tests/test_{name}.py` stops skipping its kernel test, and
`mindgames analyse {name} --agent alphabeta:depth=6,eval=material --json` reports
`"path": "compiled"` (`MINDGAMES_PYTHON_PATH=1` forces the Python path, for comparison).
"""


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def files_for(name: str, kernels: bool = False) -> dict[str, str]:
    """Relative path -> text of every file of the skeleton of game ``name`` (with a kernel
    module when ``kernels``)."""
    if not _NAME.match(name):
        raise MindgamesError(
            f"game name {name!r}: use lower-case letters, digits and '_', starting with a letter"
        )
    module = f"mindgames_{name}"
    names = {"name": name, "module": module, "cls": _class_name(name)}
    dependencies = ["mindgames", "numpy", "attrs", *(["numba"] if kernels else [])]
    values = {
        **names,
        "dist": f"mindgames-{name.replace('_', '-')}",
        "stubs": method_stubs(name),
        "optional": optional_notes(),
        "dependencies": ", ".join(f'"{d}"' for d in dependencies),
        "kernel_import": "from mindgames.kernels import GameKernels\n" if kernels else "",
        "kernels_method": _KERNELS_METHOD.format(**names) if kernels else "",
        "kernels_readme": _KERNELS_README.format(**names) if kernels else "",
        "test_imports": "import pytest\n" if kernels else "",
        "check_import": (
            "from mindgames.conformance.kernels import KERNEL_CHECK\n" if kernels else ""
        ),
        "kernel_test": _KERNEL_TEST.format(**names) if kernels else "",
        "kernel_stubs": kernel_stubs(name) if kernels else "",
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
    if kernels:
        layout[f"{module}/kernels.py"] = "kernels.py.txt"
    return {
        path: templates.joinpath(source).read_text(encoding="utf-8").format(**values)
        for path, source in layout.items()
    }


def write_skeleton(name: str, directory: Path, kernels: bool = False) -> list[Path]:
    """Write the skeleton into ``directory`` (new or empty), with a kernel module when
    ``kernels``; return the files written."""
    if directory.exists() and any(directory.iterdir()):
        raise MindgamesError(f"{directory}: exists and is not empty; choose another --dir")
    written = []
    for relative, text in files_for(name, kernels).items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
