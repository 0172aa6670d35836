"""French tarot's record as the engine reads it, rule by rule (FFT; docs/RULES.md,
"Tarot"): every refusal in the players' words, the defence's chelem, the half point
at three and five, the explanation in steps that add up to the deal, and a property:
every deal of every record adds up to zero."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RulesError
from referee.engine.records import parse_record, score_record
from referee.games import GAMES
from referee.games.tarot.rules import POIGNEE_TRUMPS, parse_deal
from referee.games.tarot.words import MESSAGES as TAROT_MESSAGES

#: The message codes these tests raise (tests/engine/test_errors.py reads it).
CODES = set(TAROT_MESSAGES)

NAMES = ["Ana", "Bruno", "Chloé", "Driss", "Émile"]
GARDE = {"taker": 0, "contract": "garde", "bouts": 2, "points": 47}


def tarot(deals: list[Any], players: int = 4, **fields: Any) -> dict[str, Any]:
    return {
        "format": "referee-game/1",
        "game": "tarot",
        "players": NAMES[:players],
        "first_dealer": 0,
        "rules": fields.pop("rules", {}),
        "deals": deals,
        **fields,
    }


def refused(raw: Any, players: int = 4, lang: str = "en") -> list[str]:
    with pytest.raises(RulesError) as caught:
        parse_deal(raw, players)
    return caught.value.messages(lang)


def test_every_refusal_is_in_the_players_words() -> None:
    """Each code of the game, raised by the deal that cannot be, in both languages."""
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"taker": None, "bouts": 1}, 4, "everyone passed: this deal has no bouts"),
        ({**GARDE, "points": 92}, 4, "points: 92 is not a whole or half number"),
        ({**GARDE, "points": 40.5}, 4, "at four players each side ends with an even"),
        ({**GARDE, "bouts": 3, "points": 12}, 4, "12 points cannot hold 3 bouts"),
        ({**GARDE, "partner": 1}, 4, "only a table of five calls a king, not of 4"),
        ({**GARDE, "poignees": [0]}, 4, "each poignée is simple (1), double (2) or triple"),
        ({**GARDE, "poignees": [3, 2]}, 4, "2 poignées of these sizes need 28 trumps"),
        ({**GARDE, "points": 80, "chelem": "made"}, 4, "87 points or more"),
        ({**GARDE, "bouts": 1, "points": 87, "chelem": "made"}, 3, "2 or 3 bouts, not 1"),
        ({**GARDE, "defence": 30}, 4, "add up to 91, not 47 and 30"),
        ({**GARDE, "bouts": 3, "points": 91, "chelem": "announced_failed"}, 4, "was made"),
        ({**GARDE, "bouts": 0, "points": 20, "chelem": "defence"}, 5, "at most 17 points"),
        (
            {**GARDE, "contract": "garde_contre", "bouts": 0, "points": 8, "chelem": "defence"},
            4,
            "at most 4 points",
        ),
    ]
    for raw, players, words in cases:
        message = refused(raw, players)[-1]
        assert words in message.lower(), (raw, message)
        french = refused(raw, players, "fr")[-1]
        assert french != message
        assert "\u202f:" in french
    with pytest.raises(RulesError) as caught:
        score_record(parse_record(tarot([{**GARDE, "last": True}, GARDE])))
    assert caught.value.problems[0].code == "tarot_after_end"
    assert "the game ended at deal 1" in caught.value.messages("en")[0]


def test_a_deal_not_told_is_not_a_deal_everyone_passed() -> None:
    """No taker at all (an empty form) is refused; only `"taker": null` passed."""
    with pytest.raises(RulesError) as caught:
        parse_deal({}, 4)
    fields = [p.field for p in caught.value.problems]
    assert fields == ["taker", "contract", "bouts", "points"]
    assert parse_deal({"taker": None}, 4).taker is None


def test_the_defence_s_points_give_the_taker_s_as_the_rest_of_91() -> None:
    deal = parse_deal({"taker": 0, "contract": "garde", "bouts": 2, "defence": 44}, 4)
    assert deal.points == 47
    both = parse_deal({**GARDE, "defence": 44}, 4)
    assert both.points == 47
    assert "Defence's points: 92 is not" in refused({**GARDE, "defence": 92} | {"points": 0})[0]


def test_a_half_point_goes_to_the_side_that_wins_at_three_and_five() -> None:
    """40½ of 41: failed by 1; 41½: made by 1 (FFT, three and five players)."""
    short = parse_deal({**GARDE, "points": 40.5}, 3)
    assert short.deltas(3) == (-104, 52, 52)
    over = parse_deal({**GARDE, "points": 41.5, "partner": 2}, 5)
    assert over.deltas(5) == (104, -52, 52, -52, -52)


def test_the_defence_s_chelem_is_200_a_defender_on_top_of_the_contract() -> None:
    """The defence takes every trick: the contract fails as it fails, and each
    defender gets 200 more, never multiplied (FFT, "Le chelem")."""
    deal = parse_deal(
        {"taker": 1, "contract": "garde", "bouts": 0, "points": 0, "chelem": "defence"}, 4
    )
    assert deal.deltas(4) == (362, -1086, 362, 362)  # (25 + 56) × 2 + 200 = 362


def test_a_chelem_at_a_garde_contre_says_nothing_of_the_points() -> None:
    """At a garde contre the dog is the defence's: a chelem may leave it points."""
    deal = parse_deal(
        {"taker": 0, "contract": "garde_contre", "bouts": 3, "points": 80, "chelem": "made"}, 4
    )
    assert deal.deltas(4)[0] == 3 * ((25 + 44) * 6 + 200)


def test_a_poignee_s_trumps_follow_the_players() -> None:
    assert POIGNEE_TRUMPS == {3: (0, 13, 15, 18), 4: (0, 10, 13, 15), 5: (0, 8, 10, 13)}
    # Two triples at five are 26 trumps: more than the game's 22 (excuse counted).
    five = {**GARDE, "partner": 1, "poignees": [3, 3]}
    assert "26 trumps" in refused(five, 5)[0]
    assert parse_deal({**GARDE, "partner": 1, "poignees": [2, 2]}, 5).poignees == (2, 2)


def test_why_a_deal_scores_in_the_ffts_steps() -> None:
    record = parse_record(
        tarot(
            [
                {**GARDE, "petit_au_bout": "defence", "poignees": [1]},
                {"taker": None},
                {"taker": 2, "contract": "petite", "bouts": 3, "points": 91, "chelem": "made"},
            ]
        )
    )
    game = GAMES["tarot"]
    standings = score_record(record)
    lines = [s.text(NAMES[:4], "en") for s in game.explain_deal(record, standings, 1)]
    assert lines == [
        "Ana took a garde (×2) with 2 bouts: 41 points needed.",
        "47 points: made by 6, (25 + 6) × 2 = 62.",
        "Petit au bout won by the defence: 10 × 2 = 20, theirs.",
        "1 poignée shown: 20, never multiplied, to the side that won the deal.",
        (
            "So 62 to the taker's side from each defender: "
            "Ana +186, Bruno −62, Chloé −62, Driss −62."
        ),
    ]
    passed = [s.text(NAMES[:4], "fr") for s in game.explain_deal(record, standings, 2)]
    assert passed == ["Tout le monde a passé\u202f: le donneur suivant redistribue."]
    chelem = [s.text(NAMES[:4], "fr") for s in game.explain_deal(record, standings, 3)]
    assert chelem[0] == "Chloé a pris une petite (×1) avec 3 bouts\u202f: 36 points à faire."
    assert "Chelem fait sans annonce\u202f: 200." in chelem


def test_contracts_taken_and_made_per_player() -> None:
    record = parse_record(
        tarot([GARDE, {**GARDE, "points": 30}, {"taker": None}, {**GARDE, "taker": 3}])
    )
    tally = GAMES["tarot"].tally(record, score_record(record))
    assert tally["taken"] == (2, 0, 0, 1)
    assert tally["made"] == (1, 0, 0, 1)
    assert tally["deals"] == (4, 4, 4, 4)


def _deal(players: int) -> st.SearchStrategy[dict[str, Any]]:
    """Any deal the engine accepts (or everyone passed)."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        if draw(st.booleans()) and draw(st.booleans()):
            return {"taker": None}
        bouts = draw(st.integers(0, 3))
        step = 2 if players == 4 else 1
        low, high = 9 * bouts, 182 - 9 * (3 - bouts)
        halves = step * draw(st.integers(-(-low // step), high // step))
        points = halves // 2 if halves % 2 == 0 else halves / 2
        deal: dict[str, Any] = {
            "taker": draw(st.integers(0, players - 1)),
            "contract": draw(st.sampled_from(["petite", "garde", "garde_sans", "garde_contre"])),
            "bouts": bouts,
            "points": points,
        }
        if players == 5:
            deal["partner"] = draw(st.integers(0, 4))
        petits = [None, *(["taker"] if bouts else []), *(["defence"] if bouts < 3 else [])]
        petit = draw(st.sampled_from(petits))
        if petit:
            deal["petit_au_bout"] = petit
        sizes = draw(st.lists(st.integers(1, 3), max_size=1))
        if sizes:
            deal["poignees"] = sizes
        chelems: list[str | None] = [None] if 0 < points < 91 else []
        if points == 91:
            chelems.append("made")
        if points < 91:
            chelems.append("announced_failed")
        if points <= 4:
            chelems.append("defence")
        chelem = draw(st.sampled_from(chelems))
        if chelem:
            deal["chelem"] = chelem
        return deal

    return build()


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([3, 4, 5]).flatmap(
        lambda n: st.tuples(st.just(n), st.lists(_deal(n), max_size=8))
    )
)
def test_every_deal_of_every_record_adds_up_to_zero(
    drawn: tuple[int, list[dict[str, Any]]],
) -> None:
    players, deals = drawn
    record = parse_record(tarot(deals, players, stake="0.10", stake_per="point"))
    standings = score_record(record)
    assert all(sum(deal.deltas) == 0 for deal in standings.deals)
    assert sum(standings.scores) == 0
    assert standings.money is not None
    assert sum(standings.money.net) == 0
    game = GAMES["tarot"]
    for number in range(1, len(deals) + 1):
        steps = game.explain_deal(record, standings, number)
        summed = [sum(s.deltas[seat] for s in steps if s.deltas) for seat in range(players)]
        assert tuple(summed) == standings.deals[number - 1].deltas


def test_the_table_may_call_the_petite_a_prise() -> None:
    """A house rule of words only: the record keeps `petite`, the steps say "prise"."""
    record = parse_record(
        tarot([{**GARDE, "contract": "petite", "points": 50}], rules={"small": "prise"})
    )
    standings = score_record(record)
    first = GAMES["tarot"].explain_deal(record, standings, 1)[0]
    assert first.text(NAMES[:4], "en").startswith("Ana took a prise (×1)")
    assert standings.deals[0].deltas == (102, -34, -34, -34)  # 9 over 41: 25 + 9
    with pytest.raises(RulesError) as caught:
        parse_record(tarot([], rules={"small": "mini"}))
    assert caught.value.problems[0].code == "unknown_choice"


def test_the_petit_is_a_bout_and_every_card_is_a_chelem() -> None:
    """The side that took the petit in the last trick holds a bout; every card to one
    side is every trick, which the table says as a chelem; a reason about the points
    goes to the box the table typed (the defence's)."""
    taker_petit = {**GARDE, "bouts": 0, "points": 60, "petit_au_bout": "taker"}
    assert "not with 0 bouts" in refused(taker_petit)[-1]
    defence_petit = {**GARDE, "bouts": 3, "points": 60, "petit_au_bout": "defence"}
    assert "not with 3 bouts" in refused(defence_petit)[-1]
    assert "say which chelem" in refused({**GARDE, "bouts": 3, "points": 91})[-1]
    garde_contre = {"taker": 0, "contract": "garde_contre", "bouts": 0, "points": 0}
    assert "say which chelem" in refused(garde_contre)[-1]
    assert parse_deal({**garde_contre, "chelem": "defence"}, 4).deltas(4)[0] == -3 * (81 * 6 + 200)
    defence = {"taker": 0, "contract": "garde", "bouts": 3, "defence": 79}
    with pytest.raises(RulesError) as caught:
        parse_deal(defence, 4)
    (problem,) = caught.value.problems
    assert (problem.code, problem.field) == ("tarot_bouts_defence", "defence")
    assert "79 points to the defence leave the taker's side 12" in caught.value.messages("en")[0]
    half_at_four = {"taker": 0, "contract": "garde", "bouts": 2, "defence": 40.5}
    with pytest.raises(RulesError) as caught:
        parse_deal(half_at_four, 4)
    assert caught.value.problems[0].field == "defence"
    assert "not 40½" in caught.value.messages("en")[0]
