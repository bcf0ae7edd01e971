"""``mindgames new-game``: the skeleton, filled with tic-tac-toe, installs with pip and conforms.

The method bodies come from the test game in ``support/tictactoe.py``; the skeleton is written by
the real CLI, installed by a real ``pip install`` (no dependencies, no build isolation, into a
temporary target directory on ``PYTHONPATH``) and checked by the real ``check-game`` and by the
conformance test it ships. With ``--kernels`` the skeleton's kernel stubs are filled with the
test game's kernels (``support/tictactoe_kernels.py``) and check-game's kernel check passes.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mindgames.conformance.kernels import KERNEL_CHECK
from mindgames.kernels import KERNEL_FUNCTIONS

from support import tictactoe, tictactoe_kernels
from support.dists import run_cli

STUB = re.compile(r'^( *)raise NotImplementedError\("tictactoe: (\w+)"\)$', re.MULTILINE)

#: the two bodies of the encoding module (the test game's encoding is built differently)
ENCODING_BODIES = {
    "board_columns": 'return tuple(f"c{i + 1}" for i in range(9))',
    "encode": "board, side = state\n"
    "return np.array([0.0 if c == 0 else (1.0 if c == side + 1 else -1.0) for c in board])",
}


def body_of(method: str) -> str:
    """The body of the test game's method (its source without the ``def`` line)."""
    source = textwrap.dedent(inspect.getsource(getattr(tictactoe.TicTacToe, method)))
    return textwrap.dedent(source.split(":\n", 1)[1])


def fill(path: Path, bodies: dict[str, str]) -> None:
    def replace(stub: re.Match[str]) -> str:
        body = bodies.get(stub.group(2)) or body_of(stub.group(2))
        return textwrap.indent(body.rstrip("\n"), stub.group(1))

    text = STUB.sub(replace, path.read_text())
    assert not re.search(r"raise NotImplementedError\(", text)
    path.write_text(text)


def python(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
        env=dict(os.environ, **env),
    )


def make_filled(tmp_path: Path, *options: str) -> Path:
    """``new-game tictactoe OPTIONS`` by the real CLI, its game and encoding filled in with the
    test game's bodies, checked by ruff; the skeleton's directory."""
    skeleton = tmp_path / "mindgames-tictactoe"
    made = run_cli(None, "new-game", "tictactoe", *options, "--dir", str(skeleton), strict=True)
    assert made.returncode == 0, made.stderr
    package = skeleton / "mindgames_tictactoe"
    assert {p.name for p in package.iterdir()} >= {"game.py", "encodings.py", "plugin.py"}
    assert (skeleton / "tests" / "test_tictactoe.py").exists()
    assert (skeleton / "README.md").exists()

    game_module = package / "game.py"
    fill(game_module, {})
    errors = "from mindgames import Game, IllegalMoveError, Move, NotationError, State"
    text = game_module.read_text().replace("from mindgames import Game, Move, State", errors)
    game_module.write_text(text)
    helpers = inspect.getsource(tictactoe).split("\nLINES = ", 1)[1].split("\n\n\n")[0:2]
    with game_module.open("a") as out:
        out.write("\n\nLINES = " + "\n\n\n".join(helpers) + "\n")
    fill(package / "encodings.py", ENCODING_BODIES)
    lint = python("-m", "ruff", "check", "--quiet", str(skeleton), cwd=skeleton)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    return skeleton


def pip_install(skeleton: Path, site: Path) -> None:
    """A real ``pip install`` of the skeleton into the target directory ``site``."""
    pip = python(
        "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
        "--target", str(site), str(skeleton),
    )  # fmt: skip
    assert pip.returncode == 0, pip.stdout + pip.stderr


def own_tests(skeleton: Path, site: Path) -> str:
    """The skeleton's own tests, run from its directory against the installed copy."""
    own = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=skeleton,
                 PYTHONPATH=str(site), MINDGAMES_STRICT_PLUGINS="1")  # fmt: skip
    assert own.returncode == 0, own.stdout + own.stderr
    return own.stdout


@pytest.mark.slow
def test_skeleton_filled_with_tictactoe_installs_and_conforms(tmp_path):
    skeleton = make_filled(tmp_path)
    assert not (skeleton / "mindgames_tictactoe" / "kernels.py").exists()
    site = tmp_path / "site"
    pip_install(skeleton, site)

    checked = run_cli(site, "check-game", "tictactoe", "--playouts", "5", strict=True)
    assert checked.returncode == 0, checked.stderr
    assert "tictactoe: 5 playouts" in checked.stdout
    assert "encodings: board, progress -- conforms" in checked.stdout
    listed = json.loads(run_cli(site, "plugins", "--json", strict=True).stdout)
    rows = {(r["name"], r["kind"]): r for r in listed["components"]}
    assert rows[("tictactoe", "game")]["distribution"] == "mindgames-tictactoe"
    assert rows[("tictactoe/board", "encoding")]["version"] == "0.1.0"
    moves = run_cli(site, "moves", "tictactoe", "--json", strict=True)
    assert json.loads(moves.stdout) == [str(i) for i in range(1, 10)]
    assert "1 passed" in own_tests(skeleton, site)


#: what the filled ``kernels()`` returns: the test game's kernels (tests/support)
KERNELS_BODY = """return GameKernels(
    module="mindgames_tictactoe.kernels",
    params=np.zeros(1, dtype=np.int64),
    width=10,
    max_children=9,
    to_row=lambda state: np.array([*state[0], state[1]], dtype=np.int64),
    from_row=lambda row: (tuple(int(v) for v in row[:9]), int(row[9])),
    encodings={"board": 0},
)"""


def fill_kernels(skeleton: Path) -> None:
    """Fill the kernel stubs with the bodies of the test game's kernels, and make ``kernels()``
    return them and the board encoding declare its kernel."""
    package = skeleton / "mindgames_tictactoe"
    stub = re.compile(r'^( *)raise NotImplementedError\("tictactoe: kernel (\w+)"\)$', re.M)

    def body(found: re.Match[str]) -> str:
        source = inspect.getsource(getattr(tictactoe_kernels, found.group(2)).py_func)
        code = textwrap.dedent(source.split(":\n", 1)[1]).rstrip("\n")
        return textwrap.indent(code, found.group(1))

    kernels = stub.sub(body, (package / "kernels.py").read_text())
    imports = "import numpy as np\nfrom numba import njit"
    kernels = kernels.replace("from numba import njit", imports)
    winner = inspect.getsource(tictactoe_kernels._winner.py_func)
    lines = f"_LINES = np.array({tictactoe.LINES!r}, dtype=np.int64)\n"
    (package / "kernels.py").write_text(kernels + "\n\n" + lines + "\n\n" + winner)
    game = (package / "game.py").read_text()
    game = game.replace("import attrs\n", "import attrs\nimport numpy as np\n", 1)
    game = game.replace("        return None\n", textwrap.indent(KERNELS_BODY, " " * 8) + "\n", 1)
    (package / "game.py").write_text(game)
    encodings = (package / "encodings.py").read_text()
    declared = 'Encoding("board", columns, encode, kernel_options=())'
    (package / "encodings.py").write_text(
        encodings.replace('Encoding("board", columns, encode)', declared)
    )


@pytest.mark.slow
def test_skeleton_with_kernels_has_the_contract_and_its_filled_kernels_conform(tmp_path):
    skeleton = make_filled(tmp_path, "--kernels")
    package = skeleton / "mindgames_tictactoe"
    kernels = (package / "kernels.py").read_text()
    for function in KERNEL_FUNCTIONS:  # each function of the contract, with its contract text
        assert f"@njit(cache=True)\ndef {function}(params, " in kernels
        assert f'raise NotImplementedError("tictactoe: kernel {function}")' in kernels
    assert "into ``out[0:n]``, in the order of ``Game.children``" in " ".join(kernels.split())
    assert "numba issue 6713" in kernels and "explicit stack" in kernels
    assert '"numba"' in (skeleton / "pyproject.toml").read_text()
    assert "## Kernels (the compiled path)" in (skeleton / "README.md").read_text()

    # unfilled: the stubs compile and raise; the game runs on the Python path, loading no numba
    site = tmp_path / "site"
    pip_install(skeleton, site)
    probe = (
        "import sys, numpy as np; from mindgames_tictactoe import game\n"
        "assert game.Tictactoe().kernels() is None and 'numba' not in sys.modules\n"
        "from mindgames_tictactoe import kernels\n"
        "try:\n    kernels.to_move(np.zeros(1, np.int64), np.zeros(10, np.int64))\n"
        "except NotImplementedError as e:\n    print(e)\n"
    )
    stubbed = python("-c", probe, PYTHONPATH=str(site))
    assert stubbed.returncode == 0, stubbed.stderr
    assert stubbed.stdout.strip() == "tictactoe: kernel to_move"
    checked = run_cli(site, "check-game", "tictactoe", "--playouts", "5", strict=True)
    assert checked.returncode == 0, checked.stderr
    assert KERNEL_CHECK not in checked.stdout
    assert "1 passed, 1 skipped" in own_tests(skeleton, site)

    # filled with the test game's kernels: check-game proves them equal to the rules
    fill_kernels(skeleton)
    lint = python("-m", "ruff", "check", "--quiet", str(skeleton), cwd=skeleton)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    filled = tmp_path / "filled"
    pip_install(skeleton, filled)
    checked = run_cli(filled, "check-game", "tictactoe", "--playouts", "5", strict=True)
    assert checked.returncode == 0, checked.stderr
    assert KERNEL_CHECK in checked.stdout
    assert "2 passed" in own_tests(skeleton, filled)


def test_new_game_refuses_a_bad_name_and_a_used_directory(tmp_path):
    bad = run_cli(None, "new-game", "Tic-Tac", "--dir", str(tmp_path / "x"))
    assert bad.returncode == 2 and "game name 'Tic-Tac'" in bad.stderr
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "keep.txt").write_text("mine")
    used = run_cli(None, "new-game", "ttt", "--dir", str(tmp_path / "used"))
    assert used.returncode == 2 and "exists and is not empty" in used.stderr
    assert [p.name for p in (tmp_path / "used").iterdir()] == ["keep.txt"]
    # a second game of an installed name would make every command fail (a duplicate name)
    taken = run_cli(None, "new-game", "kalah", "--dir", str(tmp_path / "k"))
    assert taken.returncode == 2 and taken.stderr.count("\n") == 1, taken.stderr
    assert "a game named 'kalah' is installed already (mindgames)" in taken.stderr
    assert not (tmp_path / "k").exists()
