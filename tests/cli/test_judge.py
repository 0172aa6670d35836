"""`referee judge`: the card that wins a trick, and in Pitch who takes each point
card, from the command line; a card, a count or a trump that cannot be is refused
with a message (exit 1)."""

from __future__ import annotations

import io
import json

import pytest

from referee.cli import judge_command, main

#: The message codes these tests reach (tests/engine/test_errors.py checks them all).
JUDGE_CODES = {"trump_unknown", "trump_missing", "trump_none"}


def judge(
    *cards: str,
    game: str = "boulmous",
    trump: str | None = "hearts",
    lang: str = "en",
    players: int | None = None,
    rules: str | None = None,
    as_json: bool = False,
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = judge_command(game, trump, players, rules, cards, as_json, lang, out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("game", "trump", "cards", "winner"),
    [
        ("boulmous", "hearts", ["JD", "JH", "AH", "9H"], 1),  # the right bower
        ("boulmous", "hearts", ["AH", "JD", "KH"], 1),  # the left bower: the same-colour jack
        ("boulmous", "no-trump", ["9S", "AS", "JS"], 1),  # no trump: the suit led's order
        ("bombu", None, ["KS", "10S", "AD"], 1),  # the 10 above the king
        ("bombu", "no-trump", ["KS", "10S", "AD"], 1),  # no trump said: none, as played
        ("pitch", "hearts", ["2H", "3H", "AH"], 2),
    ],
)
def test_the_winning_card(game: str, trump: str | None, cards: list[str], winner: int) -> None:
    status, out, err = judge(*cards, game=game, trump=trump, as_json=True)
    assert (status, err) == (0, "")
    assert json.loads(out)["winner"] == winner


def test_pitch_points_go_to_the_winner_but_the_two() -> None:
    status, out, _ = judge("AH", "2H", "JD", "10H", game="pitch", as_json=True)
    assert status == 0
    assert json.loads(out) == {"winner": 0, "points": {"ace": 0, "two": 1, "off_jack": 0, "ten": 0}}
    # Dirty: the 2 is taken too.
    status, out, _ = judge("AH", "2H", game="pitch", rules='{"dirty": true}', as_json=True)
    assert json.loads(out)["points"] == {"ace": 0, "two": 0}


def test_the_verdict_in_words_in_both_languages() -> None:
    _status, out, _ = judge("AH", "2H", game="pitch")
    assert out.splitlines() == [
        "card 1 wins: AH",
        "A♥ is the highest trump played.",
        "The 2 goes to whoever played it.",
        "The ace: to the player of card 1",
        "The two: to the player of card 2",
    ]
    _status, out, _ = judge("AH", "2H", game="pitch", lang="fr")
    assert out.splitlines()[0] == "la carte 1 gagne\u202f: AH"


@pytest.mark.parametrize(
    ("cards", "options", "message"),
    [
        (["JD"], {"trump": "purple"}, '"purple" is not a trump of this game'),
        (["AH", "AH"], {"game": "pitch"}, "appears twice"),
        (["AH"], {"game": "pitch", "players": 3}, "This game is played by 4 or 5 players, not 3"),
        (["AH"], {"game": "chess"}, 'Unknown game "chess"'),
        (["AH"], {"game": "pitch", "rules": "[1]"}, "House rules cannot be read"),
        (["ZZ"], {}, "ZZ"),
        # The game says whether it has a trump: Boulmous asks for one, Bombu takes none.
        (["JD"], {"trump": None}, "Which trump? One of: spades, hearts"),
        (["KS"], {"game": "bombu", "trump": "hearts"}, "played without trump, so hearts"),
    ],
)
def test_what_cannot_be_is_refused(
    cards: list[str], options: dict[str, object], message: str
) -> None:
    status, out, err = judge(*cards, **options)  # type: ignore[arg-type]
    assert (status, out) == (1, "")
    assert message in err


def test_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "bombu", "KS", "10S", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"winner": 1}
    # A game without trumps takes "no-trump" (the absence of one) silently.
    assert main(["judge", "bombu", "--trump", "no-trump", "KS", "10S", "--json"]) == 0
    said = capsys.readouterr()
    assert (json.loads(said.out), said.err) == ({"winner": 1}, "")
    assert main(["judge", "bombu", "--trump", "hearts", "KS", "10S"]) == 1
    assert "without trump" in capsys.readouterr().err
