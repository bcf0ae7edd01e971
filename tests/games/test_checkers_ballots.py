"""The ACF three-move ballots load and replay legally."""

from mindgames.games.draughts.ballots import ballot_positions, load_ballots
from mindgames.games.draughts.rules import Checkers, Giveaway


def test_all_156_ballots_replay_legally():
    game = Checkers()
    ballots = load_ballots()
    assert len(ballots) == 156 and len(load_ballots(include_barred=True)) == 174
    assert [b.number for b in load_ballots(include_barred=True)] == list(range(1, 175))
    assert {b.status for b in ballots} == {"crossboard", "mailplay"}
    assert sum(b.status == "mailplay" for b in ballots) == 12
    positions = ballot_positions(game, include_barred=True)
    assert len(positions) == 174
    fens = {game.position_text(state) for _, state in positions}
    assert len(fens) == 174  # every ballot is a different opening
    for _, state in positions:
        assert game.to_move(state) == 1 and game.progress(state) == 3


def test_opening_book_is_offered_by_both_games():
    for game in (Checkers(), Giveaway()):
        book = game.opening_books()["acf-3move"]
        assert len(book) == 156 and book[0] == ("ballot 1", ("9-13", "21-17", "5-9"))
