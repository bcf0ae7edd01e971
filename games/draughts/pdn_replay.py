"""Replay PDN games through the draughts rules, clean them, and build records of played games.

Each written move is matched against the legal moves by its squares, so sloppy archives still
replay: ``x`` for a plain move, ``-`` for a capture, and captures with landing squares left out
are repairs (warnings). When two capture paths fit a shortened capture, a small backtracking
search takes the one with which the rest of the game replays.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from mindgames.errors import GameRecordError, MindgamesError
from mindgames.games.draughts.engine import SQ
from mindgames.games.draughts.pdn_tree import (
    ENGLISH_DRAUGHTS,
    GAME_TYPE_TAG,
    GAME_TYPES,
    GIVEAWAY,
    RESULTS,
    VARIANT_TAG,
    PdnGame,
    PdnIssue,
    PdnMove,
    move_number,
)
from mindgames.games.draughts.rules import (
    Checkers,
    Draughts,
    DraughtsMove,
    DraughtsState,
    Giveaway,
    is_capture,
    read_fen,
)

_SPLIT = re.compile(r"[-xX]")
_GIVEAWAY_NAMES = {GIVEAWAY, "give-away", "giveaway checkers", "suicide", "losing"}
_CHECKERS_NAMES = {"checkers", "american", "american checkers", "english draughts"}
#: searches tried at most per game when shortened captures are ambiguous
_BUDGET = 20_000
_SQUARES: dict[str, tuple[int, ...]] = {}  # move text -> its squares: archives reuse few texts


def _squares(text: str) -> tuple[int, ...]:
    squares = _SQUARES.get(text)
    if squares is None:
        if len(_SQUARES) > 100_000:
            _SQUARES.clear()
        squares = _SQUARES[text] = tuple(int(x) for x in _SPLIT.split(text))
    return squares


def rules_for(game: PdnGame, default: Draughts | None = None) -> Draughts:
    """The rules a game is played by: its ``GameType`` and ``Variant`` tags, else ``default``.

    Replay turns the draw rules off (the record says when the game ended), keeping the class.
    """
    game_type = game.tags.get(GAME_TYPE_TAG, "").strip()
    number = game_type.split(",")[0].strip()
    if game_type and number != ENGLISH_DRAUGHTS:
        known = GAME_TYPES.get(number)
        name = f" ({known})" if known else ""
        raise GameRecordError(
            f"game {game.number}: GameType {game_type!r}{name} is not English draughts "
            f"(American checkers, GameType {ENGLISH_DRAUGHTS})"
        )
    variant = " ".join(game.tags.get(VARIANT_TAG, "").lower().split())
    if variant in _GIVEAWAY_NAMES:
        cls: type[Draughts] = Giveaway
    elif variant in _CHECKERS_NAMES:
        cls = Checkers
    elif variant:
        raise GameRecordError(f"game {game.number}: unknown Variant {variant!r}")
    else:
        cls = type(default) if default is not None else Checkers
    return cls(repetition=False, no_progress=0)


@attrs.frozen
class Replay:
    """A game's main line played through the rules, as far as it goes.

    ``states`` holds the start and the state after each replayed move; ``moves`` the moves
    as rule values (full capture paths). ``warnings`` include the reader's; ``error`` is the
    reader's error, else the first move that did not replay, else ``None``.
    """

    rules: Draughts
    states: tuple[DraughtsState, ...]
    moves: tuple[DraughtsMove, ...]
    warnings: tuple[PdnIssue, ...]
    error: PdnIssue | None

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def final(self) -> DraughtsState:
        return self.states[-1]

    @property
    def final_fen(self) -> str:
        return self.rules.position_text(self.final)

    def texts(self) -> list[str]:
        """Canonical text of every replayed move."""
        return [self.rules.move_text(s, m) for s, m in zip(self.states, self.moves, strict=False)]


class _NoMatch(Exception):
    """A written move that matches no legal move (internal to the search)."""


def _fits(squares: tuple[int, ...], move: DraughtsMove) -> bool:
    """Whether capture ``move`` has the written first and last squares and, in order, the rest."""
    if move[0] != squares[0] or move[-1] != squares[-1] or not is_capture(move):
        return False
    rest = iter(move[1:-1])
    return all(any(s == x for x in rest) for s in squares[1:-1])


def _candidates(rules: Draughts, state: DraughtsState, text: str) -> list[DraughtsMove]:
    """The legal moves that a written move may mean, best first."""
    squares = _squares(text)
    legal = rules.legal_moves(state)
    if not legal:
        raise _NoMatch(f"{text} is written after the end of the game")
    if squares in legal:
        return [squares]
    fits = [mv for mv in legal if _fits(squares, mv)]
    if not fits:
        shown = ", ".join(sorted(rules.move_text(state, mv) for mv in legal))
        raise _NoMatch(f"{text} matches no legal move (legal: {shown})")
    return fits


def _repairs(rules: Draughts, state: DraughtsState, text: str, move: DraughtsMove,
             choices: int) -> list[tuple[str, str]]:  # fmt: skip
    """The warnings (kind, message) that reading ``text`` as ``move`` deserves."""
    written = _squares(text)
    if written == move and ("x" in text) == is_capture(move):
        return []
    out = []
    full = rules.move_text(state, move)
    if written != move:
        if choices > 1:
            out.append(("ambiguous-capture", f"{text} fits {choices} capture paths; {full} "
                        "is the one with which the rest of the game replays"))  # fmt: skip
        else:
            out.append(("short-capture", f"{text} read as {full}"))
    elif ("x" in text.lower()) != is_capture(move):
        out.append(("separator", f"{text} read as {full}"))
    return out


_Path = tuple[list[DraughtsMove], list[DraughtsState], list[int], int | None, str]


def _search(rules: Draughts, start: DraughtsState, texts: Sequence[str]) -> _Path:
    """Replay ``texts``, backtracking over ambiguous captures; the furthest path if none ends.

    Returns (moves, states, choices per ply, index of the failing move or None, message).
    """
    n = len(texts)
    moves: list[DraughtsMove] = []
    states: list[DraughtsState] = [start]
    counts: list[int] = []
    stack: list[tuple[int, list[DraughtsMove]]] = []  # choice points: ply, alternatives left
    failed: set[DraughtsState] = set()
    best: tuple[int, list[DraughtsMove], list[DraughtsState], list[int], str] | None = None
    budget = _BUDGET
    while True:
        message = ""
        while len(moves) < n and budget > 0:
            budget -= 1
            ply, state = len(moves), states[-1]
            if state in failed:
                message = "no capture path replays the rest of the game"
                break
            try:
                cands = _candidates(rules, state, texts[ply])
            except _NoMatch as exc:
                message = str(exc)
                break
            if len(cands) > 1:  # keep one move per distinct result: the rest are the same game
                seen: dict[DraughtsState, DraughtsMove] = {}
                for mv in cands:
                    seen.setdefault(rules.play(state, mv), mv)
                distinct = list(seen.values())
                if len(distinct) > 1:
                    stack.append((ply, distinct[1:]))
                move, after = distinct[0], next(iter(seen))
            else:
                move, after = cands[0], rules.play(state, cands[0])
            moves.append(move)
            states.append(after)
            counts.append(len(cands))
        if len(moves) == n:
            return moves, states, counts, None, ""
        if budget <= 0:
            message = message or "too many ambiguous captures to resolve"
        if best is None or len(moves) > best[0]:
            best = (len(moves), moves[:], states[:], counts[:], message)
        while stack and not stack[-1][1]:
            stack.pop()
        if not stack or budget <= 0:
            _, moves, states, counts, message = best
            return moves, states, counts, len(moves), message
        ply, alternatives = stack[-1]
        failed.update(states[ply + 1 :])
        move = alternatives.pop(0)
        del moves[ply:], states[ply + 1 :], counts[ply:]
        moves.append(move)
        states.append(rules.play(states[ply], move))
        counts.append(len(_candidates(rules, states[ply], texts[ply])))


def start_state(game: PdnGame, rules: Draughts, repairs: list[str] | None = None) -> DraughtsState:
    """The position a game starts from: its ``FEN`` tag, unless ``SetUp`` is ``0``.

    Given a ``repairs`` list (the lenient reader), a man standing on its own crowning row is
    crowned, and a line saying so is added to the list, instead of refusing the game.
    """
    setup = game.tags.get("SetUp", "").strip()
    fen = game.tags.get("FEN")
    if setup == "0" or fen is None:
        if setup == "1":
            raise GameRecordError(f"game {game.number}: SetUp is 1 but there is no FEN tag")
        return rules.initial_state()
    try:
        b, w, kings, side, crowned = read_fen(fen, crown=repairs is not None)
        state = rules.make_state(b, w, kings, side)
    except MindgamesError as exc:
        raise GameRecordError(f"game {game.number}: FEN tag: {exc}") from None
    if crowned and repairs is not None:
        squares = [str(sq) for sq in range(1, 33) if SQ[sq] & crowned]
        repairs.append(f"FEN tag: the man on {', '.join(squares)} stands on its crowning row; "
                       "crowned")  # fmt: skip
    return state


def _not_started(game: PdnGame, rules: Draughts, exc: GameRecordError,
                 warnings: list[PdnIssue], tags: tuple[str, ...]) -> Replay:  # fmt: skip
    message = str(exc).removeprefix(f"game {game.number}: ")
    line, column = next((game.places[t] for t in tags if t in game.places), (game.line, 1))
    issue = PdnIssue("setup", message, game.number, line, column)
    return Replay(rules, (rules.initial_state(),), (), tuple(warnings), game.error or issue)


def replay(game: PdnGame, default: Draughts | None = None) -> Replay:
    """Play the main line of ``game`` through its rules as far as it replays (never raises)."""
    warnings = list(game.warnings)
    try:
        rules = rules_for(game, default)
    except GameRecordError as exc:
        checkers = Checkers(repetition=False, no_progress=0)
        return _not_started(game, checkers, exc, warnings, ("GameType", VARIANT_TAG))
    crowned: list[str] = []
    try:
        start = start_state(game, rules, crowned)
    except GameRecordError as exc:
        return _not_started(game, rules, exc, warnings, ("FEN", "SetUp"))
    for text in crowned:
        line, column = game.places.get("FEN", (game.line, 1))
        warnings.append(PdnIssue("setup", text, game.number, line, column))
    if game.tags.get("SetUp", "").strip() == "0" and "FEN" in game.tags:
        line, column = game.places.get("SetUp", (game.line, 1))
        warnings.append(PdnIssue("setup", "SetUp is 0: the FEN tag is ignored", game.number,
                                 line, column))  # fmt: skip
    nodes = game.moves
    moves, states, counts, failed_at, message = _search(rules, start, [m.text for m in nodes])
    side = rules.to_move(start)
    for ply, (move, count) in enumerate(zip(moves, counts, strict=True)):
        node = nodes[ply]
        for kind, text in _repairs(rules, states[ply], node.text, move, count):
            number = move_number(ply, side)
            warnings.append(PdnIssue(kind, text, game.number, node.line, node.column, number))
    error = game.error
    if error is None and failed_at is not None:
        node = nodes[failed_at]
        error = PdnIssue("illegal-move", message, game.number, node.line, node.column,
                         move_number(failed_at, side))  # fmt: skip
    return Replay(rules, tuple(states), tuple(moves), tuple(warnings), error)


def clean(game: PdnGame, played: Replay) -> PdnGame:
    """The game with every replayed move in canonical text (full capture paths).

    Moves after an error are kept as written, so a cleaned game fails where the original did.
    """
    texts = played.texts()
    moves = tuple(
        attrs.evolve(node, text=texts[i]) if i < len(texts) else node
        for i, node in enumerate(game.moves)
    )
    tags = dict(game.tags)
    tags.setdefault(GAME_TYPE_TAG, ENGLISH_DRAUGHTS)  # the standard reads no GameType as 10x10
    if isinstance(played.rules, Giveaway):
        tags.setdefault(VARIANT_TAG, GIVEAWAY)
    return attrs.evolve(game, moves=moves, tags=tags)


def _result_of(rules: Draughts, state: DraughtsState) -> str:
    if not rules.is_terminal(state):
        return "*"
    first = rules.returns(state)[0]
    return "1-0" if first > 0 else "0-1" if first < 0 else "1/2-1/2"


def record(
    rules: Draughts,
    moves: Sequence[DraughtsMove | str],
    result: str | None = None,
    tags: Mapping[str, str] | None = None,
    start: DraughtsState | None = None,
) -> PdnGame:
    """A PDN record of a game played under ``rules``: what tournaments and self-play export.

    Moves may be rule values or text; ``result`` defaults to the final position's result
    (``*`` when not over). ``GameType``, ``Variant`` (give-away) and ``FEN``/``SetUp`` (a start
    other than the initial position) are set from ``rules`` and ``start``.
    """
    state = rules.initial_state() if start is None else start
    head: dict[str, str] = {GAME_TYPE_TAG: ENGLISH_DRAUGHTS}
    if isinstance(rules, Giveaway):
        head[VARIANT_TAG] = GIVEAWAY
    if start is not None and rules.position_text(start) != rules.position_text(
        rules.initial_state()
    ):
        head["SetUp"] = "1"
        head["FEN"] = rules.position_text(start)
    texts = []
    for move in moves:
        mv = rules.parse_move(state, move) if isinstance(move, str) else move
        texts.append(rules.move_text(state, mv))
        state = rules.play(state, mv)
    if result is None:
        result = _result_of(rules, state)
    elif result not in RESULTS:
        raise GameRecordError(f"result {result!r} is not one of {', '.join(RESULTS)}")
    head = {**head, **(tags or {}), "Result": result}
    return PdnGame(head, tuple(PdnMove(t) for t in texts), result)


def check_report(games: Sequence[PdnGame], default: Draughts | None = None) -> dict[str, Any]:
    """What ``mindgames pdn check`` prints: per game its replay, with totals."""
    rows = []
    for index, game in enumerate(games):
        played = replay(game, default)
        rows.append({
            "index": index,
            "number": game.number,
            "tags": dict(game.tags),
            "result": game.result,
            "plies": played.plies,
            "final_fen": played.final_fen,
            "warnings": [str(w) for w in played.warnings],
            "error": None if played.error is None else str(played.error),
        })  # fmt: skip
    errors = sum(row["error"] is not None for row in rows)
    return {"total": len(rows), "replayed": len(rows) - errors, "errors": errors, "games": rows}
