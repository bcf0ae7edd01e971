"""One game being played move by move: two sides (agents or people), undo, hints, its record.

``mindgames play`` drives a session at a terminal; any other front end (a web page) can drive
it the same way. A side whose agent is ``None`` is a person: its moves come from ``play``.
Every state of the game is kept, so ``undo`` is a pop, and the record it writes is the one
``play_game`` writes for a match game (``mindgames show`` reads both).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.agent import Agent
from mindgames.errors import MindgamesError
from mindgames.game import Game, State, export_games_of
from mindgames.play.task import result_text
from mindgames.search import SearchResult


@attrs.frozen
class Hint:
    """An agent's advice: its move, its value for the side to move and its principal line."""

    agent: str
    move: str
    value: float
    line: tuple[str, ...]


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers in a move text by value: 9-13 before 10-14."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|\D+", text))


def natural_order(texts: Sequence[str]) -> list[str]:
    """Move texts sorted with their numbers as numbers (pit 10 after pit 9)."""
    return sorted(texts, key=natural_key)


def line_texts(game: Game, state: State, moves: Sequence[Any]) -> tuple[str, ...]:
    """The canonical texts of a line of moves played from ``state`` (a searcher's PV)."""
    texts = []
    for move in moves:
        if game.is_terminal(state) or move not in game.legal_moves(state):
            break  # a stale or partial PV: keep what replays
        texts.append(game.move_text(state, move))
        state = game.play(state, move)
    return tuple(texts)


class Session:
    """A game in progress: its start, every state since, and who plays each side."""

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent | None],
        names: Sequence[str],
        start: State | None = None,
        seed: int = 0,
    ) -> None:
        self.game = game
        self.agents = tuple(agents)
        self.names = tuple(names)
        self.start_position = None if start is None else game.position_text(start)
        self.states: list[State] = [game.initial_state() if start is None else start]
        self.moves: list[str] = []
        self.resigned: int | None = None
        moves_seed, hints_seed = np.random.SeedSequence(seed).spawn(2)
        self.rng = np.random.default_rng(moves_seed)  # hints never change the agents' moves
        self.hint_rng = np.random.default_rng(hints_seed)

    # --- the position ----------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def side(self) -> int:
        """The side to move."""
        return self.game.to_move(self.state)

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.game.is_terminal(self.state)

    def human_to_move(self) -> bool:
        return not self.over and self.agents[self.side] is None

    def legal(self) -> list[str]:
        """The legal moves' texts, in natural order."""
        state = self.state
        return natural_order([self.game.move_text(state, m) for m in self.game.legal_moves(state)])

    # --- moves -----------------------------------------------------------------------------
    def play(self, text: str) -> str:
        """Play the move ``text`` denotes for the side to move; its canonical text.

        A malformed or illegal move raises the game's ``MindgamesError`` and changes nothing.
        """
        if self.over:
            raise MindgamesError("the game is over")
        move = self.game.parse_move(self.state, text)
        return self._push(move)

    def agent_move(self) -> tuple[str, SearchResult]:
        """Let the agent of the side to move choose and play; its move text and search result."""
        agent = self.agents[self.side]
        if agent is None or self.over:
            raise MindgamesError("no agent is to move")
        result = agent.choose(self.game, self.state, self.rng)
        return self._push(result.move), result

    def _push(self, move: Any) -> str:
        text = self.game.move_text(self.state, move)
        self.states.append(self.game.play(self.state, move))
        self.moves.append(text)
        return text

    def undo(self) -> int:
        """Take back the moves since the last move a person made, that one included.

        Returns the plies taken back; a person is then to move where they moved last.
        """
        humans = {side for side, agent in enumerate(self.agents) if agent is None}
        for back in range(len(self.moves), 0, -1):
            if self.game.to_move(self.states[back - 1]) in humans:
                taken = len(self.moves) - back + 1
                del self.states[back:]
                del self.moves[back - 1 :]
                self.resigned = None
                return taken
        raise MindgamesError("nothing to undo")

    def hint(self, agent: Agent) -> Hint:
        """What ``agent`` would play here, with its value and principal variation."""
        if self.over:
            raise MindgamesError("the game is over")
        result = agent.searcher.search(self.game, self.state, agent.evaluator, self.hint_rng)
        line = line_texts(self.game, self.state, result.pv) or line_texts(
            self.game, self.state, [result.move]
        )
        return Hint(agent.name, self.game.move_text(self.state, result.move), result.value, line)

    def resign(self) -> None:
        """The side to move gives the game up."""
        if self.over:
            raise MindgamesError("the game is over")
        self.resigned = self.side

    # --- the outcome and the record ----------------------------------------------------------
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` for the first player, or ``*`` while unfinished."""
        if self.resigned is not None:
            return result_text(float(self.resigned))  # side 0 resigned: 0-1
        if not self.game.is_terminal(self.state):
            return "*"
        return result_text((self.game.returns(self.state)[0] + 1.0) / 2.0)

    def termination(self) -> str:
        if self.resigned is not None:
            return "resignation"
        return "rules" if self.game.is_terminal(self.state) else "unfinished"

    def outcome(self) -> str:
        """One line for people: who won and how, or that the game is unfinished."""
        result = self.result()
        if result == "*":
            return f"unfinished after {len(self.moves)} plies"
        if result == "1/2-1/2":
            return "draw"
        winner = self.game.player_names[0 if result == "1-0" else 1]
        if self.resigned is None:
            return f"{winner} wins"
        return f"{winner} wins ({self.game.player_names[self.resigned]} resigned)"

    def record(self) -> dict[str, Any]:
        """The game as a match result record (``task.play_game``'s fields that apply)."""
        result = self.result()
        return {
            "index": 0,
            "game": self.game.spec(),
            "first": self.names[0],
            "second": self.names[1],
            "opening": "play",
            "opening_position": self.start_position,
            "opening_moves": [],
            "moves": list(self.moves),
            "result": result,
            "termination": self.termination(),
            "plies": len(self.moves),
            "final_position": self.game.position_text(self.state),
        }

    def export(self) -> tuple[str, str] | None:
        """The game in its own record format (draughts: PDN) as ``(suffix, text)``, or None."""
        tags = {
            "Event": "mindgames play",
            self.game.player_names[0]: self.names[0],
            self.game.player_names[1]: self.names[1],
        }
        return export_games_of(
            self.game,
            [
                {
                    "tags": tags,
                    "position": self.start_position,
                    "moves": list(self.moves),
                    "result": self.result(),
                }
            ],
        )
