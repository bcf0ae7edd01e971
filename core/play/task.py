"""One game between two agents as a pure task, and the record it produces (``GameRecord``).

A task names everything a game depends on -- the game spec, both agents (each a spec, or a
``Player``: a searcher spec with a model's own arrays, for learners whose individuals have no
file), the opening, who moves first and a seed -- as plain data, so any executor (in-process, a
process pool, a Dask cluster) can play it and the same task always gives the same record (minus
``seconds``). Workers rebuild the game and agents through the registry and cache what a spec
names. ``play_tasks`` runs tasks on an executor through the one pump (``executors.ordered``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import attrs
import numpy as np

from mindgames.agent import Agent, build_agent
from mindgames.executors import ordered
from mindgames.game import Game
from mindgames.model import Evaluator
from mindgames.play.openings import Opening
from mindgames.recordtypes import GameRecord
from mindgames.registry import Registry, get_registry
from mindgames.spec import parse_spec

#: record fields that depend on the machine, not on the task (left out when comparing runs)
WALL_FIELDS = ("seconds",)
#: spawn key that separates the games' seeds from other random streams
GAME_STREAM = 2


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index``, derived from the master seed up front (worker-independent)."""
    ss = np.random.SeedSequence([master, GAME_STREAM, index])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


# numpy's SeedSequence (Melissa O'Neill's seed_seq): its hash and mix constants
_MASK32 = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R, _POOL = 0xCA01F9DD, 0x4973F715, 4


def game_seeds(master: int, count: int) -> list[int]:
    """``[game_seed(master, i) for i in range(count)]`` computed at once: SeedSequence's
    entropy mixing done on numpy arrays over the index (a SeedSequence per game made planning
    20,000 games take a second; this takes milliseconds). Equal to ``game_seed`` by test."""
    if count <= 0:
        return []
    if master < 0 or count - 1 > _MASK32:  # SeedSequence refuses it / an index of two words
        return [game_seed(master, i) for i in range(count)]
    u32 = np.uint32
    columns = [np.full(count, w, dtype=u32) for w in (*_words(master), GAME_STREAM)]
    columns.append(np.arange(count, dtype=np.uint64).astype(u32))
    hash_const = _INIT_A

    def hashmix(value: np.ndarray) -> np.ndarray:
        nonlocal hash_const
        value = value ^ u32(hash_const)
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = value * u32(hash_const)
        return value ^ (value >> u32(16))

    def mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        result: np.ndarray = x * u32(_MIX_L) - y * u32(_MIX_R)  # uint32: wraps as in C
        return result ^ (result >> u32(16))

    zero = np.zeros(count, dtype=u32)
    pool = [hashmix(columns[i] if i < len(columns) else zero) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL, len(columns)):
        for dst in range(_POOL):
            pool[dst] = mix(pool[dst], hashmix(columns[src]))
    out_const = _INIT_B
    halves = []
    for word in pool[:2]:  # generate_state(1, uint64): two 32-bit words, low one first
        value = word ^ u32(out_const)
        out_const = (out_const * _MULT_B) & _MASK32
        value = value * u32(out_const)
        halves.append((value ^ (value >> u32(16))).astype(np.uint64))
    seeds: list[int] = ((halves[0] | (halves[1] << np.uint64(32))) >> np.uint64(1)).tolist()
    return seeds


def _words(n: int) -> list[int]:
    """A non-negative int as SeedSequence reads it: 32-bit words, lowest first ([0] for 0)."""
    out = []
    while n:
        out.append(n & _MASK32)
        n >>= 32
    return out or [0]


@attrs.frozen(eq=False)
class Player:
    """An agent given by its model itself: a searcher spec, and a model's kind, config, arrays
    and encoding spec (co-evolution's and SHG's individuals, which exist in no file)."""

    searcher: str
    kind: str
    config: dict[str, Any]
    encoding: str
    arrays: dict[str, Any]

    def agent(self, registry: Registry, game: Game, name: str) -> Agent:
        """The agent: the searcher and encoding built once per worker, the model every time."""

        def make() -> Any:
            searcher_name, options = parse_spec(self.searcher)
            return registry.searcher(searcher_name, options, where=f"searcher {self.searcher!r}")

        searcher = cached(registry, ("searcher", self.searcher), make)
        encoding = cached(
            registry,
            ("encoding", game.spec(), self.encoding),
            lambda: registry.encoding(game, self.encoding),
        )
        cls = registry.model_info(self.kind).cls
        arrays = {name: np.asarray(a, dtype=float) for name, a in self.arrays.items()}
        model = cls.from_saved(self.config, arrays, encoding.columns)
        return Agent(name, searcher, Evaluator(encoding, model))


@attrs.frozen
class GameTask:
    """Everything one game depends on, as plain data (JSON-able unless an agent is a Player)."""

    index: int
    game: str
    first: str  # agent name moving first
    second: str
    first_spec: Any  # spec string or table of the agent, or a Player
    second_spec: Any
    opening: Opening
    pair: int  # the game pair (same opening, colours swapped) this game belongs to
    round: int
    seed: int
    max_plies: int

    def as_dict(self) -> dict[str, Any]:
        d = attrs.asdict(self, recurse=False)
        d["opening"] = self.opening.as_dict()
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameTask:
        d = dict(data)
        d["opening"] = Opening.from_dict(d["opening"])
        return cls(**d)


#: the game's initial position, where a learner's games start unless it draws openings
START = Opening("start")


def game_between(
    index: int, game: str, first: Any, second: Any, seed: int, max_plies: int,
    opening: Opening = START,
) -> GameTask:  # fmt: skip
    """A game outside any tournament (a learner's), its agents named "first" and "second"."""
    return GameTask(
        index, game, "first", "second", first, second, opening, 0, 0, int(seed), int(max_plies)
    )


#: the results a finished game's record may hold (``result_text``)
RESULTS = ("1-0", "0-1", "1/2-1/2")


def result_text(score: float) -> str:
    """PDN-style result for the first player's score."""
    return {1.0: "1-0", 0.0: "0-1"}.get(score, "1/2-1/2")


def play_game(game: Game, first: Agent, second: Agent, task: GameTask) -> GameRecord:
    """Play ``task`` with built agents; returns the game's result record."""
    start = time.perf_counter()
    rng = np.random.default_rng(task.seed)
    state = task.opening.state(game)
    # the opening may leave either side to move; "first" is the agent playing side 0
    agents = (first, second)
    moves: list[str] = []
    termination = "rules"
    while not game.is_terminal(state):
        if len(moves) >= task.max_plies:
            termination = "move cap"
            break
        agent = agents[game.to_move(state)]
        move = agent.choose(game, state, rng).move
        moves.append(game.move_text(state, move))
        state = game.play(state, move)
    score = 0.5 if termination == "move cap" else (game.returns(state)[0] + 1.0) / 2.0
    return GameRecord(
        index=task.index,
        pair=task.pair,
        round=task.round,
        game=task.game,
        first=task.first,
        second=task.second,
        opening=task.opening.label,
        opening_position=task.opening.position,
        opening_moves=list(task.opening.moves),
        moves=moves,
        result=result_text(score),
        score=score,
        termination=termination,
        plies=len(moves),
        final_position=game.position_text(state),
        seed=task.seed,
        max_plies=task.max_plies,
        seconds=round(time.perf_counter() - start, 6),
    )


def identity(task: GameTask) -> dict[str, Any]:
    """What a finished game's record must say to belong to ``task``."""
    return {
        "game": task.game,
        "first": task.first,
        "second": task.second,
        "seed": task.seed,
        "opening": task.opening.label,
        "max_plies": task.max_plies,
    }


def foreign_record(records: Sequence[Mapping[str, Any]], tasks: Sequence[GameTask]) -> int | None:
    """The number (from 1) of the first record that is not a finished game of ``tasks``: an
    index not planned or seen twice, another game, agent, seed, opening or move cap than its
    task's, or no result. A resumed run keeps records only when there is none."""
    planned = {t.index: t for t in tasks}
    seen: set[int] = set()
    for number, record in enumerate(records, 1):
        index = record.get("index")
        task = planned.get(index) if isinstance(index, int) else None
        if task is None or index in seen or record.get("result") not in RESULTS:
            return number
        if any(record.get(k) != v for k, v in identity(task).items()):
            return number
        seen.add(task.index)
    return None


_cache: dict[str, Any] = {}


def cached(registry: Registry, key: tuple[Any, ...], build: Any) -> Any:
    """``build()`` once per worker process for each registry and JSON-able ``key``."""
    k = json.dumps([id(registry), *key], sort_keys=True, default=str)
    if k not in _cache:
        _cache[k] = build()
    return _cache[k]


def task_agent(registry: Registry, game: Game, task: GameTask, name: str, spec: Any) -> Agent:
    """The agent of one side of ``task`` (a spec's built once per worker, a Player's each time)."""
    if isinstance(spec, Player):
        return spec.agent(registry, game, name)
    return cached(
        registry,
        ("agent", task.game, name, spec),
        lambda: build_agent(registry, game, spec, name=name),
    )


def play_task(task: Mapping[str, Any], registry: Registry | None = None) -> GameRecord:
    """Worker entry point: rebuild game and agents from the task and play it."""
    t = GameTask.from_dict(task)
    reg = registry or get_registry()
    game = cached(reg, ("game", t.game), lambda: reg.game(t.game))
    first = task_agent(reg, game, t, t.first, t.first_spec)
    second = task_agent(reg, game, t, t.second, t.second_spec)
    return play_game(game, first, second, t)


def play_tasks(
    tasks: Iterable[GameTask],
    executor: Executor,
    *,
    registry: Registry | None = None,
    window: int | None = None,
) -> Generator[GameRecord, None, None]:
    """The record of each task, in the tasks' order (``executors.ordered``); a SerialExecutor
    plays with ``registry`` (test plugins work), other executors rebuild it in the worker."""
    jobs = ((task.as_dict(),) for task in tasks)
    return ordered(executor, play_task, jobs, window=window, local=(registry,))


def comparable(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record without its wall-time fields, for comparing runs."""
    return {k: v for k, v in record.items() if k not in WALL_FIELDS}
