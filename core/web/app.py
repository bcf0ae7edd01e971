"""The WSGI app of ``mindgames serve`` and its server (the standard library's ``wsgiref``).

Routes (JSON in and out; the API is described in docs/serve.md)::

    GET  /                   the page            GET  /static/NAME   its script and style
    GET  /api/games          games, default agent and recorded games to replay
    POST /api/new            {game, start?}                    -> the position's view
    POST /api/state          {game, start?, moves}             -> the view (legal moves...)
    POST /api/move           {game, start?, moves, move|cells} -> the view after the move
    POST /api/agent          {game, start?, moves, agent?}     -> the view after the agent's move
    GET  /api/replay/N       recorded game N: {game, title, start, moves, result}

A bad request gets a 4xx status and ``{"error": one line}``; a bug in mindgames gets 500 and
the same shape (its traceback goes to the server's log, never to the page). POSTs must be JSON
(``Content-Type: application/json``), which a page from another site cannot send without the
browser asking first, so no other site can play moves through a user's server.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from mindgames.board import DrawsBoard
from mindgames.errors import MindgamesError
from mindgames.play.replays import RecordedGame
from mindgames.registry import Registry
from mindgames.web.agents import Agents
from mindgames.web.errors import RequestError
from mindgames.web.limits import Limits
from mindgames.web.models import list_models
from mindgames.web.session import move_from, played, position, view

#: the largest request body read (bytes)
MAX_BODY = 1 << 20
#: the deepest nesting of arrays and objects in a request body
MAX_NESTING = 32
DELETE_BUT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}
REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    500: "Internal Server Error",
    503: "Service Unavailable",
}
#: the WSGI environ key of the client's socket (set by ``QuietHandler``): a search is stopped
#: when its client hangs up
CLIENT = "mindgames.client"

StartResponse = Callable[..., Any]


def default_agent(registry: Registry, game: str) -> str:
    """A reasonable opponent: alpha-beta on material when the game has it, else random."""
    if (game, "material") in registry.encodings:
        return "alphabeta:depth=4,eval=material"
    return "random"


def title(game: RecordedGame) -> str:
    """One line naming a recorded game: number, players, result and what else is known."""
    first, second = game.players
    about = f", {game.about}" if game.about else ""
    return f"#{game.number} {first} vs {second} ({game.result}{about})"


def recorded(game: RecordedGame) -> dict[str, Any]:
    """A recorded game as the page replays it: its game spec, start (None: initial), moves."""
    rules, start = game.game, game.states[0]
    initial = rules.search_key(start) == rules.search_key(rules.initial_state())
    return {
        "game": rules.spec(),
        "title": title(game),
        "start": None if initial else rules.position_text(start),
        "moves": list(game.moves),
        "result": game.result,
    }


class App:
    """The WSGI application: the page, its files and the JSON API."""

    def __init__(
        self,
        registry: Registry,
        *,
        agent: str | None = None,
        seed: int = 0,
        replays: Sequence[RecordedGame] = (),
        limits: Limits | None = None,
        models: Sequence[Path] = (),
    ) -> None:
        self.registry = registry
        self.agent = agent
        self.models = list(models)
        self.agents = Agents(
            registry, seed, limits=limits, models=self.models, trusted=[agent] if agent else []
        )
        self.replays = list(replays)
        self.routes: dict[tuple[str, str], Callable[[Any], Any]] = {
            ("GET", "/api/games"): self.games,
            ("POST", "/api/new"): self.new,
            ("POST", "/api/state"): self.state,
            ("POST", "/api/move"): self.move,
            ("POST", "/api/agent"): self.reply,
        }

    # --- API -------------------------------------------------------------------------------
    def games(self, _: Any) -> dict[str, Any]:
        games = []
        for name, entry in sorted(self.registry.games.items()):
            game = self.registry.game(name)
            games.append(
                {
                    "name": name,
                    "description": entry.record.description,
                    "board": isinstance(game, DrawsBoard),
                    "players": list(game.player_names),
                    "agent": self.agent or default_agent(self.registry, name),
                }
            )
        replays = [
            {"number": n, "title": title(g), "game": g.game.spec()}
            for n, g in enumerate(self.replays)
        ]
        return {"games": games, "replays": replays, "models": list_models(self.models)}

    def new(self, body: dict[str, Any]) -> dict[str, Any]:
        return view(position(self.registry, {**body, "moves": []}))

    def state(self, body: dict[str, Any]) -> dict[str, Any]:
        return view(position(self.registry, body))

    def move(self, body: dict[str, Any]) -> dict[str, Any]:
        p = position(self.registry, body)
        return view(played(p, move_from(p, body)))

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        p = position(self.registry, body)
        spec = body.get("agent") or self.agent or default_agent(self.registry, p.game.name)
        if not isinstance(spec, str):
            raise RequestError("'agent' must be an agent spec such as random")
        after, reply = self.agents.reply(p, spec, client=body.get(CLIENT))
        return {**view(after), "reply": reply}

    def replay(self, number: str) -> dict[str, Any]:
        if not number.isdigit() or int(number) >= len(self.replays):
            numbers = f"0 to {len(self.replays) - 1}" if self.replays else "none"
            raise RequestError(f"no recorded game {number!r} (numbers: {numbers})", 404)
        return recorded(self.replays[int(number)])

    def close(self) -> None:
        """Stop the pool of search threads (the server has stopped)."""
        self.agents.close()

    # --- WSGI ------------------------------------------------------------------------------
    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        path = environ.get("PATH_INFO", "/")
        try:
            if path in ("/", "/index.html"):
                self._only(method, "GET")
                return self._file(start_response, "index.html", "text/html")
            if path.startswith("/static/"):
                self._only(method, "GET")
                name = path.removeprefix("/static/")
                if name not in STATIC:
                    raise RequestError(f"no file {path}", 404)
                return self._file(start_response, name, STATIC[name])
            if path.startswith("/api/replay/"):
                self._only(method, "GET")
                return self._json(start_response, 200, self.replay(path.rsplit("/", 1)[1]))
            handler = self.routes.get((method, path))
            if handler is None:
                allowed = [m for m, p in self.routes if p == path]
                if allowed:
                    raise RequestError(f"{path} takes {' or '.join(allowed)}, not {method}", 405)
                raise RequestError(f"no such page or API: {path}", 404)
            body = self._body(environ) if method == "POST" else None
            if body is not None:  # the socket from the server, never from the request
                body.pop(CLIENT, None)
                if environ.get(CLIENT) is not None:
                    body[CLIENT] = environ[CLIENT]
            return self._json(start_response, 200, handler(body))
        except RequestError as exc:
            return self._json(start_response, exc.status, {"error": str(exc)})
        except MindgamesError as exc:
            return self._json(start_response, 400, {"error": str(exc)})
        except Exception as exc:  # a bug: logged with its traceback, one line to the page
            traceback.print_exc(file=environ["wsgi.errors"])
            message = f"internal error ({type(exc).__name__}: {exc}); see the server's log"
            return self._json(start_response, 500, {"error": message})

    @staticmethod
    def _only(method: str, allowed: str) -> None:
        if method != allowed:
            raise RequestError(f"this page takes {allowed}, not {method}", 405)

    @staticmethod
    def _body(environ: dict[str, Any]) -> dict[str, Any]:
        kind = environ.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise RequestError(f"the API takes application/json, not {kind or 'no type'}", 415)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise RequestError("bad Content-Length") from None
        if length > MAX_BODY:
            raise RequestError(f"the request is larger than {MAX_BODY} bytes", 413)
        raw = environ["wsgi.input"].read(length) if length > 0 else b""
        if too_deep(raw):
            raise RequestError(f"the request nests deeper than {MAX_NESTING} levels")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RequestError(f"the request is not JSON: {exc}") from None
        except RecursionError:  # a nesting that too_deep did not see (it counts brackets)
            raise RequestError(f"the request nests deeper than {MAX_NESTING} levels") from None
        if not isinstance(body, dict):
            raise RequestError("the request must be a JSON object")
        return body

    @staticmethod
    def _json(start_response: StartResponse, status: int, data: Any) -> list[bytes]:
        payload = json.dumps(data).encode("utf-8")
        start_response(
            f"{status} {REASONS[status]}",
            [
                ("Content-Type", "application/json; charset=utf-8"),
                ("Content-Length", str(len(payload))),
                ("Cache-Control", "no-store"),
            ],
        )
        return [payload]

    @staticmethod
    def _file(start_response: StartResponse, name: str, kind: str) -> list[bytes]:
        data = resources.files("mindgames.web").joinpath("static", name).read_bytes()
        start_response(
            "200 OK",
            [
                ("Content-Type", f"{kind}; charset=utf-8"),
                ("Content-Length", str(len(data))),
                ("Cache-Control", "no-store"),
            ],
        )
        return [data]


def too_deep(raw: bytes) -> bool:
    """Whether JSON text ``raw`` opens more than ``MAX_NESTING`` arrays or objects at once
    (brackets inside strings count too: such a request is refused, never parsed)."""
    depth = 0
    for char in raw.translate(None, DELETE_BUT_BRACKETS):
        depth += 1 if char in b"[{" else -1
        if depth > MAX_NESTING:
            return True
    return False


class ThreadingServer(ThreadingMixIn, WSGIServer):
    """wsgiref's server with a thread per request, so a slow agent or an idle browser
    connection never holds up the page's other requests."""

    daemon_threads = True
    #: connections waiting to be accepted (socketserver's 5 made a burst of requests wait for
    #: the client's SYN to be sent again, a second later)
    request_queue_size = 128


class QuietHandler(WSGIRequestHandler):
    """Logs only failed requests (4xx and 5xx), one line each, to the server's stderr, and
    hands the app the client's socket (``CLIENT``) to notice a hang-up."""

    def get_environ(self) -> dict[str, Any]:
        environ = super().get_environ()
        environ[CLIENT] = self.connection
        return environ

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if str(code)[:1] in ("4", "5"):
            super().log_request(code, size)


def serve(app: App, host: str, port: int) -> ThreadingServer:
    """A server of ``app`` bound to ``host:port`` (port 0: a free one); call serve_forever."""
    server = make_server(host, port, app, server_class=ThreadingServer, handler_class=QuietHandler)
    assert isinstance(server, ThreadingServer)
    return server
