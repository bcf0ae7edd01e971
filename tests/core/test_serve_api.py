"""The JSON API of ``mindgames serve``, called as the WSGI app it is (no browser, no socket)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.play.replays import read_games
from mindgames.registry import get_registry
from mindgames.web.app import App

DATA = Path(__file__).parents[1] / "games" / "data"
KALAH = "kalah:pits=3,seeds=3"


@pytest.fixture(scope="module")
def app():
    return App(get_registry(), agent="alphabeta:depth=2,eval=material", seed=1)


def call(app, method, path, body=None, content_type="application/json", raw=None):
    """One request through the WSGI app: (status code, JSON answer)."""
    data = raw if raw is not None else b"" if body is None else json.dumps(body).encode()
    errors = io.StringIO()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        "wsgi.errors": errors,
    }
    seen = {}

    def start_response(status, headers):
        seen["status"], seen["headers"] = status, dict(headers)

    payload = b"".join(app(environ, start_response))
    code = int(seen["status"].split()[0])
    assert int(seen["headers"]["Content-Length"]) == len(payload)
    if seen["headers"]["Content-Type"].startswith("application/json"):
        answer = json.loads(payload)
        if code >= 400:  # one line for the page, never a traceback
            assert set(answer) == {"error"} and "\n" not in answer["error"], answer
            assert "Traceback" not in answer["error"]
        return code, answer
    return code, payload.decode()


def test_the_page_and_its_files_are_served(app):
    code, page = call(app, "GET", "/")
    assert code == 200 and "<title>mindgames</title>" in page and "/static/app.js" in page
    for name in ("app.js", "style.css"):
        assert call(app, "GET", f"/static/{name}")[0] == 200
    assert call(app, "GET", "/static/../app.py")[0] == 404


def test_games_lists_every_registered_game_with_an_opponent(app):
    code, answer = call(app, "GET", "/api/games")
    names = [g["name"] for g in answer["games"]]
    assert code == 200 and names == sorted(get_registry().games)
    kalah = next(g for g in answer["games"] if g["name"] == "kalah")
    assert kalah["board"] is True and kalah["players"] == ["South", "North"]
    assert kalah["agent"] == "alphabeta:depth=2,eval=material"


def test_a_new_kalah_game_shows_its_pits_and_legal_moves(app):
    code, view = call(app, "POST", "/api/new", {"game": KALAH})
    assert code == 200 and view["position"] == "3,3,3;0;3,3,3;0;S"
    assert view["legal"] == [{"text": str(i), "cells": [f"S{i}"]} for i in (1, 2, 3)]
    assert view["to_move"] == 0 and not view["over"]
    assert view["board"].count('class="cell pit key"') == 6
    assert 'data-key="N3"' in view["board"]


def test_a_click_plays_a_move_and_the_agent_answers(app):
    code, view = call(app, "POST", "/api/move", {"game": "checkers", "cells": ["11", "15"]})
    assert code == 200 and view["moves"] == ["11-15"] and view["to_move"] == 1
    code, reply = call(app, "POST", "/api/agent", {"game": "checkers", "moves": ["11-15"]})
    assert code == 200 and reply["moves"][0] == "11-15" and len(reply["moves"]) == 2
    assert reply["reply"]["move"] == reply["moves"][1]
    assert reply["reply"]["agent"] == "alphabeta:depth=2,eval=material"
    again = call(app, "POST", "/api/agent", {"game": "checkers", "moves": ["11-15"]})[1]
    assert again["moves"] == reply["moves"]  # same seed, same reply


def a_multiple_capture():
    """A checkers position (moves from the start) where a legal capture takes two pieces."""
    game = get_registry().game("checkers")
    rng = np.random.default_rng(7)
    for _ in range(200):
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            legal = game.legal_moves(state)
            long = [m for m in legal if len(m) > 2]
            if long:
                return moves, long[0]
            move = legal[int(rng.integers(len(legal)))]
            moves.append(game.move_text(state, move))
            state = game.play(state, move)
    raise AssertionError("no multiple capture in 200 random games")


def test_a_multiple_capture_may_be_clicked_from_first_to_last_square(app):
    moves, capture = a_multiple_capture()
    ends = [str(capture[0]), str(capture[-1])]
    view = call(app, "POST", "/api/move", {"game": "checkers", "moves": moves, "cells": ends})[1]
    assert view["moves"][-1] == "x".join(map(str, capture))
    every = [str(s) for s in capture]
    view = call(app, "POST", "/api/move", {"game": "checkers", "moves": moves, "cells": every})[1]
    assert view["moves"][-1] == "x".join(map(str, capture))


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"game": "checkers", "cells": ["5", "9"]}, 400, "no legal move starts at 5"),
        ({"game": "checkers", "cells": ["11", "14"]}, 400, "illegal: 11 → 14"),
        ({"game": "checkers", "move": "11-14"}, 400, "not legal"),
        ({"game": "checkers"}, 400, "needs 'move'"),
        ({"game": "checkers", "moves": ["11-15", "11-15"]}, 400, "move 2 ('11-15')"),
        ({"game": "chess", "move": "e4"}, 400, "unknown game 'chess'"),
        ({"moves": []}, 400, "needs 'game'"),
        ({"game": 3}, 400, "'game' must be str"),
        ({"game": "checkers", "moves": "11-15"}, 400, "'moves' must be list"),
        ({"game": "checkers", "moves": [1]}, 400, "list of move texts"),
        ({"game": KALAH, "start": "0,0,0;9;0,0,0;9;S", "move": "1"}, 400, "the game is over"),
        ({"game": KALAH, "start": "nonsense", "move": "1"}, 400, "bad kalah position"),
    ],
)
def test_a_bad_move_request_is_refused_with_one_line(app, body, status, message):
    code, answer = call(app, "POST", "/api/move", body)
    assert code == status and message in answer["error"], answer


def test_bad_requests_get_4xx_and_a_message(app):
    assert call(app, "POST", "/api/move", raw=b"{oops")[0] == 400
    assert call(app, "POST", "/api/move", raw=b"[1, 2]")[1]["error"].endswith("a JSON object")
    assert call(app, "POST", "/api/move", {"game": "checkers"}, content_type="text/plain")[0] == 415
    assert call(app, "GET", "/api/move")[0] == 405
    assert call(app, "GET", "/api/nothing")[0] == 404
    assert call(app, "GET", "/api/replay/0")[0] == 404  # none recorded
    bad_agent = {"game": KALAH, "agent": "alphabeta:depth=2,eval=nothing"}
    code, answer = call(app, "POST", "/api/agent", bad_agent)
    assert code == 400 and "nothing" in answer["error"]
    big = b'{"game": "' + b"x" * (1 << 21) + b'"}'
    assert call(app, "POST", "/api/move", raw=big)[0] == 413


def test_a_bug_is_a_500_with_one_line_and_the_traceback_in_the_log(app, monkeypatch):
    def broken(body):
        raise ZeroDivisionError("planted")

    monkeypatch.setitem(app.routes, ("POST", "/api/state"), broken)
    code, answer = call(app, "POST", "/api/state", {"game": KALAH})
    assert code == 500 and "planted" in answer["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
bodies = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from([KALAH, "checkers", "kalah:pits=0"]) | json_values,
        "moves": st.lists(st.sampled_from(["1", "2", "3", "11-15", "x"]), max_size=4) | json_values,
        "start": json_values,
        "move": st.sampled_from(["1", "2", "11-15"]) | json_values,
        "cells": st.lists(st.sampled_from(["S1", "S2", "N1", "11", "15"]), max_size=3)
        | json_values,
    },
)


@settings(max_examples=150)
@given(body=bodies, path=st.sampled_from(["/api/new", "/api/state", "/api/move"]))
def test_any_json_request_is_answered_with_200_or_400_never_a_crash(app, body, path):
    code, answer = call(app, "POST", path, body)
    assert code in (200, 400), answer


def test_recorded_games_of_a_pdn_file_replay_through_the_api():
    games = read_games(DATA / "engine_games.pdn", get_registry(), "checkers")
    app = App(get_registry(), replays=games)
    code, listing = call(app, "GET", "/api/games")
    assert len(listing["replays"]) == len(games)
    assert listing["replays"][0]["title"].startswith("#1 ")
    code, record = call(app, "GET", "/api/replay/0")
    assert code == 200 and record["moves"] == list(games[0].moves) and record["moves"]
    code, end = call(app, "POST", "/api/state", record)
    assert code == 200 and end["moves"] == record["moves"]
    assert end["position"] == games[0].game.position_text(games[0].states[-1])
    code, missing = call(app, "GET", f"/api/replay/{len(games)}")  # numbered from 0
    assert code == 404
    assert missing["error"] == f"no recorded game '{len(games)}' (numbers: 0 to {len(games) - 1})"


def test_a_tournaments_games_replay_from_their_openings(tmp_path):
    from mindgames.play.tournament import load_config, plan, run_tournament

    (tmp_path / "t.toml").write_text(
        'game = "kalah:pits=3,seeds=3"\nopenings = "random:plies=2,count=1"\n'
        '[agents]\na = "random"\nb = "greedy:eval=material"\n',
        encoding="utf-8",
    )
    out = run_tournament(plan(load_config(tmp_path / "t.toml"), get_registry()), tmp_path / "t",
                         workers=1)  # fmt: skip
    app = App(get_registry(), replays=read_games(out.directory, get_registry()))
    for number, result in enumerate(out.records):
        record = call(app, "GET", f"/api/replay/{number}")[1]
        assert record["moves"][2:] == result["moves"] and len(record["moves"]) > 2
        end = call(app, "POST", "/api/state", record)[1]
        assert end["position"] == result["final_position"] and end["over"]


def test_serve_refuses_a_busy_port_and_an_unreadable_record_with_one_line(tmp_path):
    import socket

    from support.cli import one_line_error
    from support.cli import run as mindgames

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = mindgames("serve", "--port", str(port))
        one_line_error(done, f"cannot listen on 127.0.0.1:{port}")
    (tmp_path / "results.jsonl").write_text('{"game": "kalah"}\n', encoding="utf-8")
    one_line_error(mindgames("serve", "--replay", tmp_path), "not a game result")
    one_line_error(mindgames("serve", "--replay", tmp_path / "none"), "does not exist")
    (tmp_path / "g.pdn").write_text('[Event "x"]\n1. 11-15 22-18 2. 15-19 *\n', encoding="utf-8")
    one_line_error(
        mindgames("serve", "--replay", tmp_path / "g.pdn"),
        "g.pdn: no game replays (game 1 does not replay as checkers: line 2, column 19, ",
    )
    # an --agent that no installed game can build is refused before the server starts
    refused = mindgames("serve", "--port", "0", "--agent", "alphabta", timeout=30)
    one_line_error(refused, "--agent 'alphabta': unknown searcher 'alphabta'")
    missing = mindgames("serve", "--port", "0", "--agent", "greedy:eval=@none.npz", timeout=30)
    one_line_error(missing, "--agent 'greedy:eval=@none.npz': none.npz: no such model file")


def test_serve_starts_with_a_model_written_for_a_game_with_other_parameters(tmp_path):
    """An ``--agent`` with a model file is built for the file's own game: a model of Kalah(3,3)
    was refused at the start, since no installed game's defaults are Kalah(3,3)."""
    import subprocess

    from mindgames.agent import build_evaluator
    from mindgames.modelfile import save_evaluator

    from support.cli import command, environment

    registry = get_registry()
    game = registry.game(KALAH)
    model = tmp_path / "k33.npz"
    evaluator = build_evaluator(registry, game, {"model": "linear", "encoding": "kalah14"})
    save_evaluator(model, game, evaluator)
    proc = subprocess.Popen(
        command("serve", "--port", "0", "--agent", f"alphabeta:depth=2,eval=@{model}"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("mindgames serve: http://127.0.0.1:")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "error" not in err, err


def test_serve_leaves_out_a_recorded_game_that_does_not_replay_and_says_so(tmp_path):
    import subprocess

    from support.cli import command, environment

    results = tmp_path / "r.jsonl"
    good = '{"game": "kalah:pits=3,seeds=2", "moves": ["1"]}'
    results.write_text(f'{{"game": "kalah", "moves": ["9"]}}\n{good}\n', encoding="utf-8")
    proc = subprocess.Popen(
        command("serve", "--port", "0", "--replay", str(results)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    try:
        assert proc.stdout is not None and "(1 recorded games;" in proc.stdout.readline()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert err.splitlines()[0] == (
        f"{results}: game 1 does not replay: ply 1: pit 9 is not a legal move "
        "(legal: 1, 2, 3, 4, 5, 6): left out"
    )


def test_a_request_cannot_pose_as_the_servers_client_socket(app):
    """The client's socket reaches the agent from the server only: a body key of that name is
    dropped, never used as a socket."""
    from mindgames.web.app import CLIENT

    body = {"game": KALAH, "moves": [], "agent": "alphabeta:depth=3,eval=material", CLIENT: "x"}
    code, answer = call(app, "POST", "/api/agent", body)
    assert code == 200 and answer["reply"]["move"]
