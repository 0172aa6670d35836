"""A deal form's post is one service call (`post_deal`, `post_correction`): the view
hands it what the player did and gets back what to show, every outcome an answer."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask

from referee.extensions import db
from referee.services import games as service
from referee.services.games import Answer


def _pad(zero_sum: bool = True) -> str:
    """A free score pad for three, zero-sum as a tarot's scores; its token."""
    settings = service.Settings(
        game="pad",
        players=["Ana", "Bruno", "Chloé"],
        first_dealer=0,
        rules={"zero_sum": zero_sum},
        stake=None,
    )
    return service.create(settings).token


def _post(
    token: str,
    points: Sequence[int | None],
    *,
    preview: bool = False,
    key: str | None = None,
    number: int | None = None,
) -> service.Posted:
    """A new deal posted on the game as a form reads it."""
    found = service.shown(token)
    assert found is not None
    game, deals = found
    before = service.scored(game, deals)
    deal = {"points": list(points)}
    return service.post_deal(game, deals, before, deal, preview=preview, key=key, number=number)


def _count(token: str) -> int:
    game = service.find(token)
    assert game is not None
    return service.deal_count(game)


def test_a_preview_scores_the_deal_and_writes_nothing(app: Flask) -> None:
    with app.app_context():
        token = _pad()
        posted = _post(token, [6, -3, -3], preview=True)
        assert posted.answer is Answer.PREVIEW
        assert posted.after is not None
        assert posted.after.standings.deals[-1].deltas == (6, -3, -3)
        assert _count(token) == 0


def test_a_deal_recorded_then_its_form_sent_again(app: Flask) -> None:
    with app.app_context():
        token = _pad()
        made = service.find(token)
        assert made is not None
        version = made.version
        posted = _post(token, [6, -3, -3], key="k" * 32, number=1)
        assert (posted.answer, posted.number) == (Answer.RECORDED, 1)
        assert posted.version == version + 1
        db.session.remove()
        again = _post(token, [6, -3, -3], key="k" * 32, number=1)
        assert again.answer is Answer.ALREADY
        assert _count(token) == 1


def test_a_deal_the_rules_refuse_says_why(app: Flask) -> None:
    with app.app_context():
        token = _pad()
        posted = _post(token, [6, -3, -2], number=1)
        assert posted.answer is Answer.REFUSED
        assert posted.problems
        assert posted.scored is not None  # the form is shown again on the game as read


def test_a_deal_taken_by_another_phone_comes_back_with_the_game_as_it_is(app: Flask) -> None:
    with app.app_context():
        token = _pad()
        first = _post(token, [6, -3, -3], number=1)
        assert first.answer is Answer.RECORDED
        db.session.remove()
        late = _post(token, [3, 0, -3], number=1)  # a second phone's form, opened for deal 1
        assert (late.answer, late.number) == (Answer.TAKEN, 2)
        assert late.scored is not None
        assert [d.deltas for d in late.scored.standings.deals] == [(6, -3, -3)]


def test_a_form_opened_for_a_deal_taken_back_meanwhile(app: Flask) -> None:
    with app.app_context():
        token = _pad()
        for points in ([6, -3, -3], [3, 0, -3]):
            _post(token, points)
            db.session.remove()
        game = service.find(token)
        assert game is not None
        assert service.undo_last(game, game.version)
        assert service.undo_last(game, game.version)
        db.session.remove()
        late = _post(token, [1, 1, -2], number=3)
        assert (late.answer, late.number) == (Answer.TAKEN_BACK, 1)


def test_a_form_key_of_another_game(app: Flask) -> None:
    with app.app_context():
        one, other = _pad(), _pad()
        _post(one, [6, -3, -3], key="k" * 32)
        db.session.remove()
        assert _post(other, [6, -3, -3], key="k" * 32, number=1).answer is Answer.OTHER_GAME


def test_a_correction_written_refused_stale_and_gone(app: Flask) -> None:
    with app.app_context():
        token = _pad()
        _post(token, [6, -3, -3])
        db.session.remove()
        game = service.find(token)
        assert game is not None
        read_at = game.version
        refused = service.post_correction(game, 1, {"points": [6, -3, -2]}, read_at)
        assert refused.answer is Answer.REFUSED
        assert refused.problems
        db.session.rollback()
        game = service.find(token)
        assert game is not None
        done = service.post_correction(game, 1, {"points": [9, -6, -3]}, read_at)
        assert done.answer is Answer.CORRECTED
        db.session.remove()
        game = service.find(token)
        assert game is not None
        stale = service.post_correction(game, 1, {"points": [0, 0, 0]}, read_at)
        assert stale.answer is Answer.STALE
        assert stale.scored is not None
        assert stale.scored.standings.deals[0].deltas == (9, -6, -3)  # as it is now
        db.session.remove()
        game = service.find(token)
        assert game is not None
        assert service.undo_last(game, game.version)
        db.session.remove()
        game = service.find(token)
        assert game is not None
        gone = service.post_correction(game, 1, {"points": [0, 0, 0]}, read_at)
        assert gone.answer is Answer.GONE
