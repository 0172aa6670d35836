"""Why each deal scored what it did (engine/explain.py and each game's `explain`): a
deal of every kind in each game, in English and French, and the property that the
steps add up to the deal's deltas."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.catalog import translate
from referee.engine.explain import EXPLANATIONS
from referee.engine.game import explain
from referee.engine.records import parse_record, score_record
from referee.games import GAMES
from referee.games.pitch.rules import VARIANTS
from tests.engine.helpers import (
    BOMBU_MANCHE,
    PASSED,
    bombu_record,
    boulmous_record,
    hand,
    pitch_points,
    pitch_record,
    played,
)
from tests.engine.strategies import bombu_manche, boulmous_games


def explained(record: dict[str, Any], lang: str) -> list[str]:
    """Each deal's steps, one line per deal; the sums checked on the way."""
    parsed = parse_record(record)
    standings = score_record(parsed)
    lines = []
    explanation = explain(GAMES[parsed.game], parsed, standings)
    for steps, result in zip(explanation, standings.deals, strict=True):
        sums = tuple(sum(s.deltas[seat] for s in steps) for seat in range(len(parsed.players)))
        assert sums == result.deltas
        lines.append(" ".join(s.text(parsed.players, lang) for s in steps))
    return lines


BOULMOUS_CASES = [
    (
        played(1, 4, [1, 4, 1, 0]),
        "Bruno bid 4 and took 4: made, +4. The others score their tricks: Ana +1, Chloé +1.",
        "Bruno a demandé 4 et fait 4\u202f: réussi, +4. "
        "Les autres marquent leurs levées\u202f: Ana +1, Chloé +1.",
    ),
    (
        played(1, 4, [1, 3, 1, 1]),
        "Bruno bid 4 and took 3: boîte, −4. The others score their tricks: Ana +1, Chloé +1, "
        "Driss +1.",
        "Bruno a demandé 4 et fait 3\u202f: boîte, −4. "
        "Les autres marquent leurs levées\u202f: Ana +1, Chloé +1, Driss +1.",
    ),
    (
        played(2, "boulmous", [0, 0, 6, 0]),
        "Chloé bid boulmous and took all 6 tricks: made, +6.",
        "Chloé a demandé boulmous et fait les 6 levées\u202f: réussi, +6.",
    ),
    (
        played(3, "boulmous", [1, 0, 0, 5]),
        "Driss bid boulmous and took 5: boîte, −6. The others score their tricks: Ana +1.",
        "Driss a demandé boulmous et fait 5\u202f: boîte, −6. "
        "Les autres marquent leurs levées\u202f: Ana +1.",
    ),
    (PASSED, "Everyone passed: nobody scores.", "Tout le monde a passé\u202f: personne ne marque."),
]


@pytest.mark.parametrize(("deal", "english", "french"), BOULMOUS_CASES)
def test_boulmous_deals_explained(deal: dict[str, Any], english: str, french: str) -> None:
    record = boulmous_record([deal])
    assert explained(record, "en") == [english]
    assert explained(record, "fr") == [french]


def test_the_winning_deal_says_who_wins() -> None:
    record = boulmous_record([played(1, 4, [1, 4, 1, 0])], rules={"target": 4})
    assert explained(record, "en")[0].endswith("Bruno reaches 4 and wins.")
    assert explained(record, "fr")[0].endswith("Bruno atteint 4 et gagne.")


BOMBU_CASES = [
    (
        BOMBU_MANCHE[0],
        "+10 a trick: Marius +10, Fanny +30, César +20, Honorine +20.",
        "+10 par pli\u202f: Marius +10, Fanny +30, César +20, Honorine +20.",
    ),
    (
        BOMBU_MANCHE[3],
        "The Bombu (K♥): César +80.",
        "Le Bombu (R♥)\u202f: César +80.",
    ),
    (
        BOMBU_MANCHE[4],
        "+10 a trick: Marius +20, Fanny +30, César +10, Honorine +20. "
        "+10 a heart: Marius +20, Fanny +30, Honorine +30. "
        "+20 a queen: Marius +20, Fanny +40, Honorine +20. The Bombu (K♥): Honorine +80.",
        "+10 par pli\u202f: Marius +20, Fanny +30, César +10, Honorine +20. "
        "+10 par cœur\u202f: Marius +20, Fanny +30, Honorine +30. "
        "+20 par dame\u202f: Marius +20, Fanny +40, Honorine +20. "
        "Le Bombu (R♥)\u202f: Honorine +80.",
    ),
    (
        BOMBU_MANCHE[5],
        "First out of the Réussite: Fanny −200. Second out: Honorine −120.",
        "Premier sorti de la Réussite\u202f: Fanny −200. Deuxième sorti\u202f: Honorine −120.",
    ),
    (
        {"contract": "no-tricks", "tricks": [0, 0, 8, 0]},
        "Capot: César took all 8 tricks, −320; nothing else counts.",
        "Capot\u202f: César a fait les 8 plis, −320\u202f; rien d’autre ne compte.",
    ),
]


@pytest.mark.parametrize(("deal", "english", "french"), BOMBU_CASES)
def test_bombu_deals_explained(deal: dict[str, Any], english: str, french: str) -> None:
    record = bombu_record([deal])
    assert explained(record, "en") == [english]
    assert explained(record, "fr") == [french]


def test_pitch_hands_explained() -> None:
    made = hand(1, 5, pitch_points(default=1, ace=0, jack=2))  # Rhonda & Peggy 8, Dale 1…
    record = pitch_record([made], rules={"target": 52})
    (english,) = explained(record, "en")
    assert english.startswith("Rhonda & Peggy took 8 of the 10 points; the others 2.")
    assert "Rhonda bid 5: made, Rhonda & Peggy +5." in english
    # The defending team scores as one side: said once, for the team (issue 38, item 8).
    assert english.endswith("The defenders score their points: Dale & Earl +2.")
    set_hand = hand(0, 6, pitch_points(default=1))
    (english,) = explained(pitch_record([set_hand]), "en")
    assert "Dale bid 6: set, Dale & Earl −6." in english
    (french,) = explained(pitch_record([set_hand]), "fr")
    assert "Dale a annoncé 6\u202f: défini, Dale & Earl −6." in french


def test_a_moon_made_and_a_moon_failed() -> None:
    moon = hand(3, "moon", pitch_points(default=3))
    lines = explained(pitch_record([moon]), "en")
    assert lines == [
        # A team in seat order, as the scoreboard shows it, whoever bid.
        "Rhonda & Peggy took 10 of the 10 points; the others 0. Moon made from 0: "
        "Rhonda & Peggy go to 52. Rhonda & Peggy win the game."
    ]
    five = pitch_record([hand(4, "moon", pitch_points(default=4, two=0), partner=None)], five=True)
    (french,) = explained(five, "fr")
    assert "Lune manquée\u202f: Walt a pris 9 des 10 points et perd." in french
    (english,) = explained(five, "en")
    assert "Moon failed: Walt took 9 of the 10 points and loses." in english


def test_five_handed_says_why_a_rule_surprises() -> None:
    """Five-handed (issue 38, item 8): the defenders score as one side, and a defender
    who took no point card is told why he scores; a partner at the target beside the
    bidder who went out first is told why he does not win."""
    won = pitch_points(default=0, two=4, three=1)  # Dale & Walt 7, Rhonda the three's 3
    record = pitch_record([hand(0, 5, won, partner=4)], five=True, rules={"target": 5})
    (english,) = explained(record, "en")
    assert "The defenders score their points together: Rhonda, Earl & Peggy +3 each." in english
    assert (
        "Earl & Peggy took no point card, yet each defender scores what the defenders took "
        "together." in english
    )
    assert english.endswith(
        "Dale wins the game. Walt reached 5 too, but the bidder goes out first: Dale alone wins."
    )
    (french,) = explained(record, "fr")
    assert (
        "Walt a aussi atteint 5, mais l’enchérisseur sort le premier\u202f: Dale gagne seul."
        in french
    )
    # Nobody at the target: no word of it; every defender took a card: none of that.
    played_all = pitch_points(default=0, two=4, three=1, ten=2, ace=3)
    (english,) = explained(pitch_record([hand(0, 4, played_all, partner=4)], five=True), "en")
    assert "took no point card" not in english
    assert "goes out first" not in english


def test_every_step_has_its_french_with_the_same_placeholders() -> None:
    """The same values in both languages; a verb's number ({n|a pris|ont pris}) may be
    chosen in one language only (English "took" is both)."""
    field = re.compile(r"\{(\w+)\}")
    plural = re.compile(r"\{(\w+)\|")
    for code, text in EXPLANATIONS.items():
        french = translate("fr", text)
        assert french != text, code
        assert sorted(field.findall(french)) == sorted(field.findall(text)), code
        assert set(plural.findall(french + text)) <= {"n"}, code


@given(boulmous_games())
def test_property_boulmous_steps_add_up(record: dict[str, Any]) -> None:
    explained(record, "en")


@given(bombu_manche())
def test_property_bombu_steps_add_up(manche: tuple[list[dict[str, Any]], int, int]) -> None:
    explained(bombu_record(manche[0]), "fr")


@st.composite
def pitch_games(draw: st.DrawFn) -> dict[str, Any]:
    """Hands of a Pitch game (any variant, four or five players), up to its end."""
    total = draw(st.sampled_from(sorted(VARIANTS)))
    five = draw(st.booleans())
    players = 5 if five else 4
    deals: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 12))):
        bidder = draw(st.integers(0, players - 1))
        bid: int | str = draw(st.sampled_from([*range(4, total + 1), "moon"]))
        cards = {
            card.value: draw(st.one_of(st.none(), st.integers(0, players - 1)))
            for card in VARIANTS[total].points
        }
        extra = {"partner": draw(st.one_of(st.none(), st.integers(0, players - 1)))} if five else {}
        if extra.get("partner") == bidder:
            extra["partner"] = None
        deals.append(hand(bidder, bid, cards, **extra))
        record = pitch_record(deals, five=five, rules={"points": total})
        if score_record(parse_record(record)).finished:
            break
    return pitch_record(deals, five=five, rules={"points": total})


@given(pitch_games())
def test_property_pitch_steps_add_up(record: dict[str, Any]) -> None:
    explained(record, "en")


def outcomes(record: dict[str, Any]) -> dict[str, Any]:
    parsed = parse_record(record)
    return {o.bid: o for o in GAMES[parsed.game].bids_now(parsed, score_record(parsed))}


def test_what_each_boulmous_bid_gives_now() -> None:
    rules = {"target": 5, "taker_scores": "bid", "failed_taker_keeps_tricks": True}
    bids = outcomes(boulmous_record([played(1, 3, [1, 3, 1, 1])], rules=rules))
    assert list(bids) == ["3", "4", "5", "boulmous"]
    three = bids["3"]
    assert (three.made, three.more, three.failed, three.plus_taken) == (3, False, -3, True)
    assert three.wins == (1,)  # Bruno: 3 + 3 reaches 5
    assert bids["4"].wins == (0, 1, 2, 3)  # everyone with 1 or more
    assert (bids["boulmous"].made, bids["boulmous"].stakes) == (6, 1)
    default = outcomes(boulmous_record([]))["4"]
    assert (default.more, default.plus_taken, default.wins) == (True, False, ())


def test_what_each_pitch_bid_and_the_moon_give_now() -> None:
    set_hand = hand(0, 6, pitch_points(default=1))  # Dale & Earl −6; Rhonda & Peggy +10
    bids = outcomes(pitch_record([set_hand], rules={"target": 14}))
    assert list(bids) == ["4", "5", "6", "7", "8", "9", "10", "moon"]
    assert (bids["4"].made, bids["4"].failed, bids["4"].wins) == (4, -4, (1, 3))
    moon = bids["moon"]
    assert (moon.made, moon.failed) == (None, None)  # a failed moon loses the game
    assert moon.reaches == (0, 14, 0, 14)  # from −6: to 0; from 10: to the target
    assert moon.wins == (1, 3)
    won = outcomes(pitch_record([hand(3, "moon", pitch_points(default=3))]))
    assert won["moon"].wins == ()  # the game is over
