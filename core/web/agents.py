"""The agents that answer ``POST /api/agent``: specs bounded by the server's limits, model files
found only where the server offers them, built and searched in the bounded pool of threads.

The operator's own ``serve --agent`` spec is trusted (its ``eval=@PATH`` is any file the operator
named); a spec from a request may name models only through ``models.find_model``. Built agents
are kept for reuse (a model file is read once, not every reply); the lock guards only the cache,
never a build, so a slow model file holds up no other request.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.agent import Agent, build_agent
from mindgames.game import Game
from mindgames.registry import Registry
from mindgames.search import SearchResult
from mindgames.spec import parse_spec
from mindgames.web.errors import RequestError
from mindgames.web.limits import (
    GRACE,
    LIGHT,
    GuardedGame,
    Limits,
    OverBudget,
    SearchPool,
    bounded_options,
)
from mindgames.web.models import find_model
from mindgames.web.session import Position, played


class Agents:
    """Agents built from specs within ``limits``, searched in a pool of threads."""

    def __init__(
        self,
        registry: Registry,
        seed: int,
        *,
        limits: Limits | None = None,
        models: Sequence[Path] = (),
        trusted: Sequence[str] = (),
        size: int = 16,
    ) -> None:
        self.registry = registry
        self.seed = seed
        self.limits = limits or Limits()
        self.models = list(models)
        self.trusted = set(trusted)
        self.size = size
        self.pool = SearchPool(self.limits.threads, "search")
        self.builders = SearchPool(self.limits.threads, "build")
        self._built: OrderedDict[tuple[str, str], Agent] = OrderedDict()
        self._lock = threading.Lock()  # guards the cache only: builds happen outside it

    def table(self, spec: str) -> dict[str, Any]:
        """The agent table of ``spec`` within the limits, its model named by a checked path."""
        name, options = parse_spec(spec)
        info = self.registry.searcher_info(name)
        options = bounded_options(info.cls, options, self.limits)
        model = options.get("eval")
        if isinstance(model, str) and model.startswith("@") and spec not in self.trusted:
            options["eval"] = "@" + str(find_model(model[1:], self.models))
        return {"searcher": name, **options}

    def get(self, game: Game, spec: str) -> Agent:
        """The agent of ``spec`` for ``game``, from the cache or built now (outside the lock)."""
        key = (game.spec(), spec)
        agent = self.cached(key)
        if agent is None:
            agent = build_agent(self.registry, game, self.table(spec), name=spec)
            with self._lock:
                self._built[key] = agent
                while len(self._built) > self.size:
                    self._built.popitem(last=False)
        return agent

    def cached(self, key: tuple[str, str]) -> Agent | None:
        """The agent built for ``key`` (game spec, agent spec), if it is still kept."""
        with self._lock:
            agent = self._built.get(key)
            if agent is not None:
                self._built.move_to_end(key)
            return agent

    def reply(
        self, p: Position, spec: str, *, client: socket.socket | None = None
    ) -> tuple[Position, dict[str, Any]]:
        """The agent's move in ``p``: the same game and seed give the same reply.

        An agent not yet built that reads a model file is built by a builder thread, waited
        for at most ``build_seconds`` (others are built in the request's thread). A search that
        expands no more than the root (``greedy``, ``random``) runs in the request's own
        thread, on the Python path (``GuardedGame``); any other is stopped at once and searched
        again in the pool (compiled when it can be), bounded by the limits and stopped when
        ``client`` goes away.
        """
        if p.game.is_terminal(p.state):
            raise RequestError("the game is over: the agent has no move")
        table = self.table(spec)  # a bad spec or a refused model is a 400 before any thread
        limits = self.limits
        agent = self.cached((p.game.spec(), spec))
        if agent is None and not reads_file(table):  # nothing to wait for: built here
            agent = self.get(p.game, spec)
        elif agent is None:
            agent = self.builders.run(
                lambda _: self.get(p.game, spec), seconds=limits.build_seconds, client=client
            )

        def search(nodes: int, cancel: threading.Event) -> SearchResult:
            rng = np.random.default_rng([self.seed, len(p.moves)])
            deadline = time.monotonic() + limits.seconds + GRACE
            game: Any = GuardedGame(p.game, nodes, deadline, cancel, compiled=nodes > LIGHT)
            return agent.searcher.search(game, p.state, agent.evaluator, rng)

        try:  # the trial: on the Python path, where every expansion is counted
            result = search(LIGHT, threading.Event())
        except OverBudget:
            wait = limits.seconds + 2 * GRACE
            result = self.pool.run(
                lambda cancel: search(2 * limits.nodes + 1000, cancel), seconds=wait, client=client
            )
        text = p.game.move_text(p.state, result.move)
        return played(p, result.move), {"move": text, "value": result.value, "agent": agent.name}

    def close(self) -> None:
        """Stop the pools of search and builder threads."""
        self.pool.close()
        self.builders.close()


def reads_file(table: dict[str, Any]) -> bool:
    """Whether building the agent ``table`` reads a model file (``eval=@...``)."""
    model = table.get("eval")
    return isinstance(model, str) and model.startswith("@")
