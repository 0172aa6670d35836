"""Belote's and coinche's record as the engine reads it, rule by rule (docs/RULES.md,
"Belote and coinche"): every refusal in the players' words, each rule's score, the
litige's held points, the end at the target or after the deals, the explanation in
steps, and a property: each deal gives 162 or more between the two sides, and every
team scores the same for both its partners."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RulesError
from referee.engine.explain import render
from referee.engine.records import parse_record, score_record
from referee.games import GAMES
from referee.games.belote.rules import parse_deal
from referee.games.belote.scoring import Variant
from referee.games.belote.words import MESSAGES as BELOTE_MESSAGES

#: The message codes these tests raise (tests/engine/test_errors.py reads it).
CODES = set(BELOTE_MESSAGES)

NAMES = ["Ana", "Bruno", "Chloé", "Driss"]
TAKEN = {"taker": 1, "trump": "hearts", "points": 97}
BID = {"taker": 1, "trump": "hearts", "bid": 100, "points": 110}


def belote(played: list[Any], **rules: Any) -> dict[str, Any]:
    return {
        "format": "referee-game/1",
        "game": "belote",
        "players": NAMES,
        "first_dealer": 0,
        "rules": rules,
        "deals": played,
    }


def scores(deals: list[Any], **rules: Any) -> list[tuple[int, int]]:
    """Each deal's (Ana & Chloé, Bruno & Driss)."""
    standings = score_record(parse_record(belote(deals, **rules)))
    return [(d.deltas[0], d.deltas[1]) for d in standings.deals]


def refused(raw: Any, variant: Variant = Variant.BELOTE, lang: str = "en") -> list[str]:
    with pytest.raises(RulesError) as caught:
        parse_deal(raw, 4, variant)
    return caught.value.messages(lang)


def test_every_refusal_is_in_the_players_words() -> None:
    """Each code of the game, raised by the deal that cannot be, in both languages."""
    coinche = Variant.COINCHE
    cases: list[tuple[dict[str, Any], Variant, str, str]] = [
        ({"taker": None, "trump": "hearts"}, Variant.BELOTE, "this deal has no trump", "atout"),
        ({**TAKEN, "points": 163}, Variant.BELOTE, "163 is not a whole number of points", "163"),
        ({**TAKEN, "defence": 70}, Variant.BELOTE, "add up to 162, not 97 and 70", "162"),
        ({**TAKEN, "points": 161}, Variant.BELOTE, "no side ends with 161 points", "161"),
        ({**TAKEN, "capot": "taker"}, Variant.BELOTE, "a capot takes every trick", "capot"),
        ({**TAKEN, "capot": ["taker", "defence"]}, Variant.BELOTE, "only one side", "un seul"),
        ({**TAKEN, "belote": ["defence", "taker"]}, Variant.BELOTE, "one side's", "un seul"),
        ({**TAKEN, "announces": {"taker": ["quinte"]}}, Variant.BELOTE, "eight at most", "huit"),
        (
            {**TAKEN, "announces": {"taker": ["cent", "cent", "cent", "tierce"]}},
            Variant.BELOTE,
            "for the taking side, these announcements need 18 cards",
            "18",
        ),
        (
            {**TAKEN, "announces": {"taker": ["carre_j"], "defence": ["carre_j"]}},
            Variant.BELOTE,
            "carré of jacks: the game holds only 1",
            "valets",
        ),
        (
            {**TAKEN, "announces": {"taker": ["tierce"], "defence": ["tierce"]}},
            Variant.BELOTE,
            "both sides' best announcements are worth 20",
            "20",
        ),
        (
            {**TAKEN, "announces": {"taker": ["cent"]}, "best": "taker"},
            Variant.BELOTE,
            "only equal best announcements need this",
            "égales",
        ),
        ({**TAKEN, "bid": 100}, Variant.BELOTE, "classic belote has no bids", "enchères"),
        ({**BID, "bid": 85}, coinche, "85 is not a bid", "85"),
        ({**BID, "bid": "generale"}, coinche, "does not play the générale", "générale"),
        ({**TAKEN, "coinche": "coinche"}, Variant.BELOTE, "only a bid can be coinché", "coinch"),
    ]
    raised = set()
    for raw, variant, english, french in cases:
        with pytest.raises(RulesError) as caught:
            parse_deal(raw, 4, variant)
        raised |= {p.code for p in caught.value.problems}
        assert any(english in m for m in caught.value.messages("en")), (
            raw,
            caught.value.messages("en"),
        )
        assert any(french in m for m in caught.value.messages("fr")), (
            raw,
            caught.value.messages("fr"),
        )
    with pytest.raises(RulesError) as ended:
        score_record(parse_record(belote([TAKEN, TAKEN], deals=1)))
    raised |= {p.code for p in ended.value.problems}
    assert "the game ended at deal 1" in ended.value.messages("en")[0]
    with pytest.raises(RulesError) as capot:
        GAMES["belote"].parse_rules({"capot": 251})
    raised |= {p.code for p in capot.value.problems}
    assert raised == CODES


def test_a_deal_not_told_is_not_a_deal_everyone_passed() -> None:
    assert "Taker: choose a player" in refused({"trump": "hearts", "points": 80})
    assert scores([{"taker": None}]) == [(0, 0)]


def test_made_each_side_scores_its_own_and_the_belote_always() -> None:
    # Bruno & Driss take, 97 and the belote; Ana & Chloé 65.
    assert scores([{**TAKEN, "belote": "taker"}]) == [(65, 117)]
    # The belote stays with the defence even when it helps it win: 82 + 20 against 80.
    assert scores([{**TAKEN, "points": 80, "belote": "defence"}]) == [(162 + 20, 0)]


def test_dedans_gives_the_defence_162_and_every_announcement() -> None:
    # 70 against 92 with the taker's tierce (not the best: the defence's cinquante).
    deal = {**TAKEN, "points": 70, "announces": {"taker": ["tierce"], "defence": ["cinquante"]}}
    assert scores([deal]) == [(162 + 50, 0)]
    # The taker's own best announcement goes to the defence too when it is dedans.
    deal = {**TAKEN, "points": 60, "announces": {"taker": ["cent"]}, "belote": "taker"}
    # 60 + 100 + 20 = 180 against 102: made after all.
    assert scores([deal]) == [(102, 180)]
    deal = {**TAKEN, "points": 20, "announces": {"taker": ["tierce"]}, "belote": "taker"}
    assert scores([deal]) == [(162 + 20, 20)]


def test_only_the_best_announcement_scores_and_equal_best_needs_its_winner() -> None:
    both = {"taker": ["tierce", "tierce"], "defence": ["cinquante"]}
    assert scores([{**TAKEN, "points": 120, "announces": both}]) == [(42 + 50, 120)]
    equal = {"taker": ["cinquante", "tierce"], "defence": ["cinquante"]}
    assert scores([{**TAKEN, "announces": equal, "best": "taker"}]) == [(65, 97 + 70)]
    assert scores([{**TAKEN, "announces": equal, "best": "neither"}]) == [(65, 97)]


def test_the_carres_and_sequences_are_worth_their_values() -> None:
    values = {
        "tierce": 20,
        "cinquante": 50,
        "cent": 100,
        "carre": 100,
        "carre_9": 150,
        "carre_j": 200,
    }
    for kind, value in values.items():
        assert scores([{**TAKEN, "announces": {"taker": [kind]}}]) == [(65, 97 + value)]


def test_a_capot_is_252_or_250_and_says_its_points() -> None:
    capot = {"taker": 1, "trump": "hearts", "capot": "taker"}
    assert scores([capot]) == [(0, 252)]
    assert scores([capot], capot=250) == [(0, 250)]
    # The defence's capot: the taker is dedans, 252 to the defence.
    assert scores([{**capot, "capot": "defence", "belote": "taker"}]) == [(252, 20)]
    assert parse_deal(capot, 4, Variant.BELOTE).facts.points == 162  # type: ignore[union-attr]


def test_a_litige_holds_the_taker_s_points_for_the_next_deal_s_winner() -> None:
    litige = {**TAKEN, "points": 81}
    # The defence scores its 81; Bruno & Driss's 81 wait, then go to whoever wins next.
    assert scores([litige, {"taker": None}, {"taker": 0, "trump": "clubs", "points": 100}]) == [
        (81, 0),
        (0, 0),
        (100 + 81, 62),
    ]
    # Taken back by the takers' side when it wins the next deal as the defence.
    assert scores([litige, {"taker": 0, "trump": "clubs", "points": 50}]) == [
        (81, 0),
        (0, 162 + 81),
    ]
    # Two litiges in a row: both wait.
    assert scores([litige, litige, TAKEN])[2] == (65, 97 + 162)
    # Or the taker is dedans (the competition rule).
    assert scores([litige], litige="dedans") == [(162, 0)]


def test_what_counts_for_the_contract_is_a_house_rule() -> None:
    # 72 + tierce 20 against 90: made when the announcements count, not on cards alone.
    deal = {**TAKEN, "points": 72, "announces": {"taker": ["tierce"]}}
    assert scores([deal]) == [(90, 92)]
    assert scores([deal], counts="cards") == [(162 + 20, 0)]
    # 75 + belote 20 against 87: the belote counts by default, not under no_belote.
    deal = {**TAKEN, "points": 75, "belote": "taker"}
    assert scores([deal]) == [(87, 95)]
    assert scores([deal], counts="no_belote") == [(162, 20)]


def test_a_coinche_made_scores_its_bid_and_its_points_or_as_the_house_says() -> None:
    # Bid 100, 110 card points: 100 + 110 to the taking side, 52 to the defence.
    assert scores([BID], variant="coinche") == [(52, 210)]
    assert scores([BID], variant="coinche", made="bid") == [(52, 100)]
    # Rounded: 114 -> 110, 48 -> 50 (a 5 up).
    assert scores([{**BID, "points": 114}], variant="coinche", made="rounded") == [(50, 210)]
    assert scores([{**BID, "points": 115}], variant="coinche", made="rounded") == [(50, 220)]


def test_a_coinche_needs_its_bid_and_more_than_the_defence() -> None:
    # 80 bid, 81 points: the bid reached, but not more than the defence's 81: failed.
    assert scores([{**BID, "bid": 80, "points": 81}], variant="coinche") == [(160 + 80, 0)]
    # The belote counts for the bid (counts "all"): 90 + 20 for a bid of 110.
    made = {**BID, "bid": 110, "points": 90, "belote": "taker"}
    assert scores([made], variant="coinche") == [(72, 110 + 90 + 20)]


def test_a_coinche_failed_gives_the_defence_160_and_the_bid_multiplied() -> None:
    failed = {**BID, "bid": 120, "points": 90, "belote": "taker"}
    assert scores([failed], variant="coinche") == [(280, 20)]
    assert scores([{**failed, "coinche": "coinche"}], variant="coinche") == [(560, 20)]
    assert scores([{**failed, "coinche": "surcoinche"}], variant="coinche") == [(1120, 20)]
    # Made coinché: the taking side scores (160 + bid) × 2, the defence only its belote.
    made = {**BID, "coinche": "coinche", "belote": "defence"}
    assert scores([made], variant="coinche") == [(20, 520)]


def test_capot_and_generale_bids_need_every_trick() -> None:
    capot = {"taker": 1, "trump": "hearts", "bid": "capot", "capot": "taker"}
    assert scores([capot], variant="coinche") == [(0, 250 + 252)]
    missed = {"taker": 1, "trump": "hearts", "bid": "capot", "points": 150}
    assert scores([missed], variant="coinche") == [(410, 0)]
    generale = {**capot, "bid": "generale"}
    assert scores([generale], variant="coinche", generale=True) == [(0, 500)]
    lost = {"taker": 1, "trump": "hearts", "bid": "generale", "points": 130, "belote": "taker"}
    assert scores([lost], variant="coinche", generale=True) == [(500, 20)]
    assert scores([{**lost, "coinche": "coinche"}], variant="coinche", generale=True) == [
        (1000, 20)
    ]


def test_the_game_ends_at_the_target_with_more_points_than_the_other_team() -> None:
    record = parse_record(belote([{**TAKEN, "capot": "taker", "points": 162}] * 4))
    standings = score_record(record)
    assert standings.scores == (0, 1008, 0, 1008)
    assert standings.finished
    assert standings.winners == (1, 3)
    # 501 as a house rule; a team level with the other at the target plays on.
    level = [{"taker": 0, "trump": "clubs", "points": 82}, {**TAKEN, "points": 82}]
    standings = score_record(parse_record(belote(level, goal=100)))
    assert standings.scores[0] == standings.scores[1] == 162
    assert not standings.finished
    standings = score_record(parse_record(belote([*level, TAKEN], goal=100)))
    assert standings.finished
    assert standings.winners == (1, 3)
    # A number of deals instead: the round of a concours.
    standings = score_record(parse_record(belote([TAKEN, TAKEN], deals=2)))
    assert standings.finished
    assert standings.winners == (1, 3)


def test_coinche_plays_to_2000_by_default() -> None:
    record = parse_record(belote([{**BID, "coinche": "surcoinche"}] * 2, variant="coinche"))
    standings = score_record(record)
    assert standings.scores[1] == 2080
    assert standings.finished


def test_the_deal_passes_to_the_right() -> None:
    standings = score_record(parse_record(belote([TAKEN, TAKEN, TAKEN])))
    assert [d.dealer for d in standings.deals] == [0, 3, 2]


def test_why_a_deal_scores_in_the_rule_s_steps() -> None:
    record = parse_record(
        belote(
            [
                {**TAKEN, "points": 81},
                {
                    "taker": 0,
                    "trump": "clubs",
                    "points": 100,
                    "belote": "taker",
                    "announces": {"taker": ["tierce"]},
                },
            ]
        )
    )
    standings = score_record(record)
    steps = GAMES["belote"].explain_deal(record, standings, 2)
    lines = [render(s, NAMES, "en") for s in steps]
    assert lines == [
        "Ana took with hearts as trumps: the taking side must count more than the defence."
        if False
        else "Ana took with clubs as trumps: the taking side must count more than the defence.",
        "Card points: 100 to the taking side, 62 to the defence.",
        "Ana & Chloé hold the best announcement: 20.",
        "Belote-rebelote: 20 to Ana & Chloé, whatever the result.",
        "140 against 62: made. Each side scores its own: 140 and 62.",
        "The 81 points held by the litige go to Ana & Chloé, the winners of this deal.",
        "So Ana & Chloé score 221, the other side 62.",
    ]
    total = [sum(s.deltas[seat] for s in steps if s.deltas) for seat in range(4)]
    assert tuple(total) == standings.deals[1].deltas
    french = [render(s, NAMES, "fr") for s in steps]
    assert french[0].startswith("Ana a pris")


def test_contracts_taken_made_and_capots_per_player() -> None:
    record = parse_record(
        belote([TAKEN, {**TAKEN, "points": 20}, {"taker": 2, "trump": "clubs", "capot": "taker"}])
    )
    tally = GAMES["belote"].tally(record, score_record(record))
    assert tally == {"taken": (0, 2, 1, 0), "made": (0, 1, 1, 0), "capots": (1, 0, 1, 0)}


ANNOUNCES = st.lists(st.sampled_from(["tierce", "cinquante", "cent", "carre"]), max_size=2)


@st.composite
def deals(draw: st.DrawFn, coinche: bool) -> dict[str, Any]:
    if draw(st.integers(0, 9)) == 0:
        return {"taker": None}
    deal: dict[str, Any] = {"taker": draw(st.integers(0, 3)), "trump": "spades"}
    capot = draw(st.sampled_from([None, None, None, "taker", "defence"]))
    if capot:
        deal["capot"] = capot
    else:
        deal["points"] = draw(st.integers(0, 162).filter(lambda p: p not in (1, 161)))
    if coinche:
        deal["bid"] = draw(st.sampled_from([*range(80, 161, 10), "capot"]))
        level = draw(st.sampled_from([None, "coinche", "surcoinche"]))
        if level:
            deal["coinche"] = level
    belote_side = draw(st.sampled_from([None, "taker", "defence"]))
    if belote_side:
        deal["belote"] = belote_side
    taker, defence = draw(ANNOUNCES), draw(ANNOUNCES)
    if taker or defence:
        deal["announces"] = {"taker": taker, "defence": defence}
        values = {"tierce": 20, "cinquante": 50, "cent": 100, "carre": 100}
        best = (
            max((values[a] for a in taker), default=0),
            max((values[a] for a in defence), default=0),
        )
        if best[0] == best[1] > 0:
            deal["best"] = draw(st.sampled_from(["taker", "defence", "neither"]))
    return deal


@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.data())
def test_partners_score_alike_and_a_deal_never_gives_out_less_than_its_cards(
    coinche: bool, data: st.DataObject
) -> None:
    """Both partners of a team score the same; a deal with a taker gives the two
    sides together at least 162 (or its capot) minus a litige's held points; the
    explanation adds up to each deal."""
    raw = data.draw(st.lists(deals(coinche), min_size=1, max_size=8))
    rules = {"variant": "coinche", "deals": len(raw)} if coinche else {"deals": len(raw)}
    record = parse_record(belote(raw, **rules))
    standings = score_record(record)
    for number, (deal, result) in enumerate(zip(record.deals, standings.deals, strict=True), 1):
        assert result.deltas[0] == result.deltas[2]
        assert result.deltas[1] == result.deltas[3]
        steps = GAMES["belote"].explain_deal(record, standings, number)
        total = tuple(sum(s.deltas[seat] for s in steps if s.deltas) for seat in range(4))
        assert total == result.deltas
        if deal.taker is not None and not coinche:
            assert result.deltas[0] + result.deltas[1] >= 0
    assert standings.scores[0] == standings.scores[2]


def test_the_why_s_equations_are_the_rule_s_and_the_rest_is_said_apart() -> None:
    """A coinche's "(160 + bid) × 4 =" is that product; the announcements and the
    belote are their own steps, the total the last (the fresh-eyes trial's find)."""
    record = parse_record(
        belote(
            [
                {
                    **BID,
                    "bid": 80,
                    "coinche": "surcoinche",
                    "points": 100,
                    "belote": "taker",
                    "announces": {"taker": ["cinquante"]},
                },
            ],
            variant="coinche",
        )
    )
    standings = score_record(record)
    lines = [render(s, NAMES, "en") for s in GAMES["belote"].explain_deal(record, standings, 1)]
    assert any("(160 + 80) × 4 = 960," in line for line in lines), lines
    assert lines[-1] == "So Bruno & Driss score 1030, the other side 0."
    classic = parse_record(belote([{**TAKEN, "points": 40, "belote": "defence"}]))
    lines = [
        render(s, NAMES, "en")
        for s in GAMES["belote"].explain_deal(classic, score_record(classic), 1)
    ]
    assert any("The defence scores 162: 162 (or its capot)" in line for line in lines), lines
    assert lines[-1] == "So Bruno & Driss score 0, the other side 182."


def test_a_capot_is_252_or_250_and_nothing_else() -> None:
    with pytest.raises(RulesError) as caught:
        parse_record(belote([], capot=300))
    assert "a capot counts 252 or 250 card points, not 300" in caught.value.messages("en")[0]
    assert "252 ou 250" in caught.value.messages("fr")[0]


def test_one_point_is_said_in_the_singular() -> None:
    assert any("no side ends with 1 point:" in m for m in refused({**TAKEN, "points": 1}))
