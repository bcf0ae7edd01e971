"""``mindgames new-game``: the skeleton, filled with tic-tac-toe, installs with pip and conforms.

The method bodies come from the test game in ``support/tictactoe.py``; the skeleton is written by
the real CLI, installed by a real ``pip install`` (no dependencies, no build isolation, into a
temporary target directory on ``PYTHONPATH``) and checked by the real ``check-game`` and by the
conformance test it ships.
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

from support import tictactoe
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


@pytest.mark.slow
def test_skeleton_filled_with_tictactoe_installs_and_conforms(tmp_path):
    skeleton = tmp_path / "mindgames-tictactoe"
    made = run_cli(None, "new-game", "tictactoe", "--dir", str(skeleton), strict=True)
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

    site = tmp_path / "site"
    pip = python(
        "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
        "--target", str(site), str(skeleton),
    )  # fmt: skip
    assert pip.returncode == 0, pip.stdout + pip.stderr

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

    # the skeleton's own test, run from its directory against the installed copy
    own = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=skeleton,
                 PYTHONPATH=str(site), MINDGAMES_STRICT_PLUGINS="1")  # fmt: skip
    assert own.returncode == 0, own.stdout + own.stderr
    assert "1 passed" in own.stdout


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
