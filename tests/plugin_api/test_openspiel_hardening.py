"""Issue 38, defect 5, in the OpenSpiel bridge: a board larger than OpenSpiel's notation names
was a UnicodeDecodeError traceback (``moves``) and a 500 (``serve``); now one line and a 400."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from mindgames.registry import get_registry
from mindgames.web.app import App

from support.cli import one_line_error, run

WIDE = 'openspiel:game="breakthrough(rows=6,columns=200)"'


def test_moves_of_a_board_beyond_the_notation_is_one_line():
    one_line_error(run("moves", WIDE), "OpenSpiel cannot write its positions or moves as text")


def test_serve_answers_400_for_a_board_beyond_the_notation():
    import io
    import json

    app = App(get_registry())
    body = json.dumps({"game": WIDE}).encode()
    seen = {}
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/new",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
    }
    answer = b"".join(app(environ, lambda status, headers: seen.update(status=status)))
    assert seen["status"].startswith("400"), answer
    assert "cannot write its positions or moves" in json.loads(answer)["error"]
    app.close()


def test_a_board_within_the_notation_still_plays():
    done = run("moves", 'openspiel:game="breakthrough(rows=6,columns=20)"')
    assert done.returncode == 0 and "a5a4" in done.stdout
