"""A fake third-party distribution, found through a real entry point in a subprocess.

The test writes two distributions into a temporary directory (a module plus a ``dist-info``
with ``entry_points.txt``): ``fakenim`` adds a game and an encoding; ``nimextras`` adds an
encoding to that game, which it did not write; ``brokenplugin`` raises on import.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from support.dists import make_dist, nim_kernels_module, run_cli

#: the example plugin distribution that docs/plugins.md describes, used here as it ships
NIM = (Path(__file__).parents[2] / "examples" / "nim-plugin" / "mindgames_nim.py").read_text()

EXTRAS = textwrap.dedent(
    """
    import numpy as np
    from mindgames import Encoding, EncodingInfo, hookimpl


    def nimsum(game, options):
        def encode(state):
            x = 0
            for h in state[0]:
                x ^= h
            return np.array([float(x)])
        return Encoding("nimsum", ("nimsum",), encode)


    @hookimpl
    def mindgames_encodings():
        return [EncodingInfo("nim", "nimsum", nimsum, description="added by another plugin")]
    """
)

BROKEN = "raise ImportError('this plugin is broken on purpose')\n"


@pytest.fixture
def site(tmp_path):
    make_dist(tmp_path, "fakenim", "fakenim_plugin", NIM, "nim", nim_kernels_module())
    make_dist(tmp_path, "nimextras", "nimextras_plugin", EXTRAS, "nimextras")
    make_dist(tmp_path, "brokenplugin", "broken_plugin", BROKEN, "broken")
    return tmp_path


def run(site: Path, *args: str, strict: bool = False) -> subprocess.CompletedProcess[str]:
    return run_cli(site, *args, strict=strict)


def test_third_party_game_is_discovered_listed_and_usable(site):
    out = run(site, "plugins", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = {(r["name"], r["kind"]): r for r in data["components"]}
    assert rows[("nim", "game")]["distribution"] == "fakenim"
    assert rows[("nim", "game")]["version"] == "1.0"
    assert rows[("nim/nimsum", "encoding")]["distribution"] == "nimextras"
    # the broken plugin is reported by distribution, and everything else still loaded
    assert [f["distribution"] for f in data["failures"]] == ["brokenplugin"]
    assert "brokenplugin" in out.stderr and "broken on purpose" in out.stderr

    moves = run(site, "moves", "nim:heaps=[2,1]", "--json")
    assert moves.returncode == 0, moves.stderr
    assert json.loads(moves.stdout) == ["1:1", "1:2", "2:1"]

    perft = run(site, "perft", "nim", "--depth", "2", "--json")
    # after each first move: (0,2,3) 5, (1,1,3) 5, (1,0,3) 4, (1,2,2) 5, (1,2,1) 4, (1,2,0) 3
    assert json.loads(perft.stdout)["counts"] == [6, 26]

    described = run(site, "describe", "nim", "--json")
    encodings = {e["name"]: e["columns"] for e in json.loads(described.stdout)["encodings"]}
    assert encodings == {
        "heaps": ["heap1", "heap2", "heap3"],
        "material": ["winning"],
        "nimsum": ["nimsum"],
        "progress": ["plies"],  # offered by the core for every game
    }

    checked = run(site, "check-game", "nim")
    assert checked.returncode == 0, checked.stderr
    assert "conforms" in checked.stdout


def test_strict_mode_reraises_the_broken_plugin(site):
    out = run(site, "plugins", strict=True)
    assert out.returncode != 0
    assert "broken on purpose" in out.stderr


def test_user_errors_are_one_line_and_exit_2(site):
    out = run(site, "moves", "nimm")
    assert out.returncode == 2
    errors = [line for line in out.stderr.splitlines() if line.startswith("mindgames: error")]
    assert errors == [
        "mindgames: error: unknown game 'nimm'; did you mean 'nim'? " + errors[0].split("? ", 1)[1]
    ]
    assert "Traceback" not in out.stderr
    bad = run(site, "moves", "nim", "--position", "x y z")
    assert bad.returncode == 2 and "bad nim position" in bad.stderr
