"""The score pad's rules: reading deals, zero-sum, teams, the three ways a game
ends, ties, stakes, explanations and statistics (pure engine, no Flask)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RulesError
from referee.engine.explain import EXPLANATIONS
from referee.engine.game import explain
from referee.engine.messages import FIELD_NAMES, MESSAGES
from referee.engine.records import dump_record, parse_record, score_record
from referee.games import GAMES
from referee.games.pad import GAME
from referee.games.pad.rules import MAX_POINTS
from referee.games.pad.words import MESSAGES as PAD_MESSAGES
from tests.engine.test_prefix import assert_prefixes_agree

NAMES = ["Ana", "Bruno", "Chloé", "Driss", "Élise", "Farid", "Gaspard", "Hugo", "Inès"]
NAMES += ["Jules", "Karim", "Léa", "Malo"]

#: Every refusal code of the pad, each raised by a test below.
#: Every code of the pad's words these tests raise (`test_every_message_has_a_test`
#: reads a game's `tests/games/<key>/test_rules.py: CODES`).
CODES = set(PAD_MESSAGES) | {"not_text", "text_long"}


def pad(deals: list[Any], players: int = 3, **fields: Any) -> dict[str, Any]:
    rules = fields.pop("rules", {})
    record: dict[str, Any] = {
        "format": "referee-game/1",
        "game": "pad",
        "players": NAMES[:players],
        "first_dealer": 0,
        "rules": rules,
        "deals": deals,
    }
    record.update(fields)
    return record


def scored(record: dict[str, Any]) -> Any:
    return score_record(parse_record(record))


def refused(record: dict[str, Any], lang: str = "en") -> list[tuple[str, str]]:
    with pytest.raises(RulesError) as caught:
        scored(record)
    return [(p.code, p.message(lang)) for p in caught.value.problems]


def test_the_pad_is_a_game_and_its_words_are_shared() -> None:
    assert GAMES["pad"] is GAME
    assert set(PAD_MESSAGES) <= set(MESSAGES)
    assert "points" in FIELD_NAMES
    assert "pad_rest" in EXPLANATIONS


def test_points_add_up_and_the_game_goes_on_without_an_end() -> None:
    standings = scored(pad([{"points": [12, -5, 0]}, {"points": [3, 4, 5]}]))
    assert standings.scores == (15, -1, 5)
    assert not standings.finished
    assert standings.next_dealer == 2
    assert standings.deals[1].dealer == 1


def test_a_deal_marked_last_ends_the_game_and_ties_all_win() -> None:
    standings = scored(pad([{"points": [5, 5, 1], "last": True}]))
    assert standings.finished
    assert standings.winners == (0, 1)
    assert standings.next_dealer is None
    problems = refused(pad([{"points": [1, 0, 0], "last": True}, {"points": [1, 0, 0]}]))
    assert problems == [("pad_after_end", "deal 2: the game ended at deal 1; no deal may follow")]


def test_the_target_ends_the_game_highest_or_lowest_wins() -> None:
    deals = [{"points": [60, 20, 40]}, {"points": [50, 10, 30]}]
    high = scored(pad(deals, rules={"goal": 100}))
    assert high.finished
    assert high.winners == (0,)
    low = scored(pad(deals, rules={"goal": 100, "lowest_wins": True}))
    assert low.winners == (1,)
    assert not scored(pad(deals[:1], rules={"goal": 100})).finished


def test_the_number_of_deals_ends_the_game() -> None:
    deals = [{"points": [1, 2, 3]}] * 3
    assert not scored(pad(deals[:2], rules={"deals": 3})).finished
    ended = scored(pad(deals, rules={"deals": 3}))
    assert ended.finished
    assert ended.winners == (2,)


def test_zero_sum_refuses_a_deal_that_does_not_add_up_naming_the_sum() -> None:
    rules = {"zero_sum": True}
    problems = refused(pad([{"points": [10, -3, -5]}], rules=rules))
    assert problems[0][0] == "pad_not_zero_sum"
    assert "add up to 2, not 0" in problems[0][1]
    fr = refused(pad([{"points": [-10, 3, 5]}], rules=rules), "fr")[0][1]
    assert "\u22122" in fr
    assert scored(pad([{"points": [10, -3, -7]}], rules=rules)).scores == (10, -3, -7)


def test_the_rest_fills_in_minus_the_others_sum() -> None:
    standings = scored(pad([{"points": [12, -5, None]}], rules={"zero_sum": True}))
    assert standings.scores == (12, -5, -7)
    record = parse_record(pad([{"points": [12, -5, None]}], rules={"zero_sum": True}))
    assert dump_record(record)["deals"] == [{"points": [12, -5, None]}]
    steps = GAME.explain_deal(record, standings, 1)
    texts = [s.text(NAMES[:3], "en") for s in steps]
    assert texts == ["Points: Ana +12, Bruno \u22125.", "The rest: Chloé \u22127."]


def test_the_rest_needs_zero_sum_and_only_one() -> None:
    problems = refused(pad([{"points": [1, None, 0]}]))
    assert problems == [
        (
            "pad_rest_not_zero_sum",
            "deal 1: Bruno has no points: only a game whose deals add up to zero or to a "
            "total fills in the rest",
        )
    ]
    twice = refused(pad([{"points": [1, None, None]}], rules={"zero_sum": True}))
    assert [code for code, _ in twice] == ["pad_rest_twice"]


def test_a_pad_names_what_the_table_plays() -> None:
    """The `name` rule: a line of text, cleaned as a player's name, 40 characters
    at most; what the statistics keep games apart by."""
    record = parse_record(pad([], rules={"name": "  Belote\u00a0 coinchée "}))
    assert record.rules.name == "Belote coinchée"
    assert GAME.title_under(record.rules) == "Belote coinchée"
    assert [c for c, _ in refused(pad([], rules={"name": 3}))] == ["not_text"]
    long = refused(pad([], rules={"name": "x" * 41}))
    assert long == [("text_long", "What the table plays is longer than 40 characters")]
    assert [c for c, _ in refused(pad([], rules={"name": "a\tb"}))] == ["text_unusable"]


def test_the_rest_stays_within_the_points_a_deal_may_give() -> None:
    """100,000 + 100,000 would leave −200,000 to the rest: refused, as any entry
    past ±100,000 is."""
    zero = {"zero_sum": True}
    problems = refused(pad([{"points": [MAX_POINTS, MAX_POINTS, None]}], rules=zero))
    assert [code for code, _ in problems] == ["pad_rest_range"]
    assert "Chloé: the rest would be −200000" in problems[0][1]
    assert scored(pad([{"points": [MAX_POINTS, 0, None]}], rules=zero)).scores[2] == -MAX_POINTS


def test_a_deal_total_fills_the_rest_and_takes_a_capot_as_typed() -> None:
    """Belote's 162: the side left empty takes the rest; 252 and 0 (a capot) as typed;
    a total and "adds up to zero" together are refused."""
    belote = {"teams": 2, "total": 162}
    record = pad([{"points": [92, None]}, {"points": [252, 0]}], players=4, rules=belote)
    assert scored(record).scores == (344, 70, 344, 70)
    assert [c for c, _ in refused(pad([{"points": [None, None]}], 4, rules=belote))] == [
        "pad_rest_twice"
    ]
    over = refused(pad([{"points": [170, None]}], 4, rules=belote))
    assert over == [
        (
            "pad_rest_negative",
            "deal 1: points of Bruno & Driss: the rest of 162 would be \u22128: the others "
            "have more points than a deal gives (a capot: type each side's points, 0 "
            "included)",
        )
    ]
    both = refused(pad([], rules={"zero_sum": True, "total": 162}))
    assert [code for code, _ in both] == ["pad_total_zero_sum"]


def test_points_are_bounded_whole_numbers_one_per_player() -> None:
    problems = refused(pad([{"points": [MAX_POINTS + 1, 1.5, "x"]}]))
    assert [code for code, _ in problems] == ["pad_point_range"] * 3
    assert "Ana: 100001 is not a whole number from \u2212100000 to 100000" in problems[0][1]
    assert scored(pad([{"points": [MAX_POINTS, -MAX_POINTS, 0]}])).scores[1] == -MAX_POINTS
    short = refused(pad([{"points": [1, 2]}]))
    assert short[0][0] == "pad_points_players"
    assert "one number per player is needed, 3 in all, not 2" in short[0][1]
    assert refused(pad([{"points": [1, 2, 3], "last": "yes"}]))[0][0] == "not_boolean"
    assert refused(pad([{"points": [1, 2, 3], "dealer": 2}]))[0][0] == "dealer_wrong"


def test_teams_one_number_per_team_seats_round_the_teams() -> None:
    rules = {"teams": 2}
    standings = scored(pad([{"points": [10, -4]}], players=4, rules=rules))
    assert standings.scores == (10, -4, 10, -4)
    problems = refused(pad([{"points": [1, 2, 3, 4]}], players=4, rules=rules))
    assert problems[0][0] == "pad_points_teams"
    record = parse_record(pad([{"points": [10, -4], "last": True}], players=4, rules=rules))
    steps = GAME.explain_deal(record, score_record(record), 1)
    texts = [s.text(NAMES[:4], "en") for s in steps]
    assert texts[:2] == ["Each of Ana & Chloé scores +10.", "Each of Bruno & Driss scores \u22124."]
    assert texts[-1] == "Ana & Chloé win the game."


def test_a_player_count_the_teams_do_not_divide_is_refused() -> None:
    problems = refused(pad([], players=5, rules={"teams": 2}))
    assert problems == [
        (
            "pad_teams_split",
            "5 players cannot sit in 2 teams of the same size; "
            "choose a number of teams that divides 5",
        )
    ]
    assert refused(pad([], players=4, rules={"teams": 1}))[0][0] == "pad_teams_one"
    assert refused(pad([], players=13))[0][0] == "players_count"
    assert not scored(pad([], players=12)).finished


def test_why_the_game_ends() -> None:
    def last_steps(record: dict[str, Any]) -> list[str]:
        parsed = parse_record(record)
        standings = score_record(parsed)
        steps = GAME.explain_deal(parsed, standings, len(parsed.deals))
        return [s.text(parsed.players, "en") for s in steps][-2:]

    assert last_steps(pad([{"points": [500, 20, 3]}], rules={"goal": 500})) == [
        "Ana reaches 500: the game is over.",
        "Ana wins the game.",
    ]
    assert last_steps(pad([{"points": [1, 2, 3]}], rules={"deals": 1})) == [
        "1 deal played: the game is over.",
        "Chloé wins the game.",
    ]
    assert last_steps(pad([{"points": [3, 3, 1], "last": True}])) == [
        "The table ended the game.",
        "Ana & Bruno win the game.",
    ]


def test_stakes_by_the_game_and_by_the_point() -> None:
    deals = [{"points": [10, 4, 1], "last": True}]
    by_game = scored(pad(deals, stake="1.00")).money
    assert by_game.net == (Decimal(2), Decimal(-1), Decimal(-1))
    by_point = scored(pad(deals, stake="0.10", stake_per="point")).money
    # Ana is 6 and 9 ahead: 1.50; Bruno gets 0.30 from Chloé and pays 0.60.
    assert by_point.net == (Decimal("1.50"), Decimal("-0.30"), Decimal("-1.20"))
    low = scored(pad(deals, stake="0.10", stake_per="point", rules={"lowest_wins": True})).money
    assert low.net == (Decimal("-1.50"), Decimal("0.30"), Decimal("1.20"))


def test_lowest_wins_under_the_rules() -> None:
    assert GAME.lowest_wins_under(GAME.parse_rules({"lowest_wins": True}))
    assert not GAME.lowest_wins_under(GAME.parse_rules({}))
    for key in ("boulmous", "bombu", "pitch"):
        game = GAMES[key]
        assert game.lowest_wins_under(game.parse_rules({})) is game.lowest_wins


def test_statistics_count_deals_won_and_points() -> None:
    record = parse_record(
        pad([{"points": [5, 5, 1]}, {"points": [0, 0, 0]}, {"points": [1, 9, 2]}])
    )
    tally = GAME.tally(record, score_record(record))
    assert tally == {"deals": (3, 3, 3), "best_deals": (1, 2, 0), "points": (6, 14, 3)}


def test_rules_round_trip() -> None:
    rules = {"teams": 3, "zero_sum": True, "lowest_wins": True, "goal": 200, "deals": 10}
    record = parse_record(pad([], players=6, rules=rules))
    assert dump_record(record)["rules"] == {"name": "", **rules, "total": 0}
    assert record.rules.target is None  # lowest wins: the scoreboard shows no "needs"
    assert parse_record(pad([], rules={"goal": 50})).rules.target == 50


side_points = st.integers(-MAX_POINTS, MAX_POINTS)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    teams = draw(st.sampled_from([0, 2, 3]))
    players = draw(st.sampled_from([6] if teams == 3 else [2, 4, 6] if teams == 2 else range(2, 7)))
    zero_sum = draw(st.booleans())
    total = 0 if zero_sum else draw(st.sampled_from([0, 162]))
    sides = teams or players
    deals = []
    # Where a side takes the rest, the others small enough for it to stay in range.
    takes_rest = zero_sum or bool(total)
    each = st.integers(-MAX_POINTS // 8, MAX_POINTS // 8) if zero_sum else side_points
    if total:  # what a deal gives out, shared: never more than the total
        each = st.integers(0, total // sides)
    for _ in range(draw(st.integers(0, 6))):
        points: list[int | None] = draw(st.lists(each, min_size=sides, max_size=sides))
        if takes_rest:
            rest = draw(st.integers(0, sides - 1))
            points[rest] = None
        deals.append({"points": points})
    rules = {"teams": teams, "zero_sum": zero_sum, "lowest_wins": draw(st.booleans())}
    rules["total"] = total
    if deals and draw(st.booleans()):
        deals[-1]["last"] = True
    return pad(deals, players=players, rules=rules)


@settings(max_examples=80, deadline=None)
@given(games())
def test_steps_add_up_to_deltas_and_totals_to_scores(record: dict[str, Any]) -> None:
    parsed = parse_record(record)
    standings = score_record(parsed)
    players = len(parsed.players)
    totals = [0] * players
    for result, steps in zip(standings.deals, explain(GAME, parsed, standings), strict=True):
        summed = [sum(s.deltas[seat] for s in steps) for seat in range(players)]
        assert summed == list(result.deltas)
        for step in steps:
            assert step.text(parsed.players, "fr")
        totals = [t + d for t, d in zip(totals, result.deltas, strict=True)]
        if parsed.rules.zero_sum:
            assert sum(result.deltas) == 0 or parsed.rules.teams
    assert tuple(totals) == standings.scores
    assert standings.finished == any(deal.get("last") for deal in record["deals"])
    assert_prefixes_agree(record)


@settings(max_examples=60, deadline=None)
@given(st.lists(side_points, min_size=3, max_size=3))
def test_zero_sum_accepts_exactly_the_deals_that_add_up_to_zero(points: list[int]) -> None:
    record = pad([{"points": points}], rules={"zero_sum": True})
    if sum(points) == 0:
        assert scored(record).scores == tuple(points)
    else:
        assert [code for code, _ in refused(record)] == ["pad_not_zero_sum"]


def test_head_to_head_follows_the_rules_winner() -> None:
    """Chloé (5) finishes ahead of Ana (6) when the lowest total wins, behind her
    when the highest does: the statistics ask `lowest_wins_under` the game's rules."""
    import datetime

    from referee.engine.statistics import Outcome, played, statistics

    deals = [{"points": [5, 0, 2]}, {"points": [1, 4, 0]}, {"points": [0, 0, 3], "last": True}]
    for lowest, chloe_ahead in ((True, 1), (False, 0)):
        record = parse_record(pad(deals, rules={"lowest_wins": lowest}))
        game = played(record, score_record(record), NAMES[:3], datetime.date(2026, 12, 5), "EUR")
        assert Outcome.load(game.outcome.dump()) == game.outcome
        line = statistics([game]).against("Chloé", "Ana")
        assert line is not None
        assert (line.together, line.ahead) == (1, chloe_ahead)
