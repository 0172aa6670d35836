"""A concours's ranking, its round-by-round draw and its corrections
(`referee.events.concours`): each rule and tie-break on results worked out by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from referee.engine.errors import RulesError
from referee.events.concours import (
    POINTS,
    Concours,
    Played,
    Player,
    Ranking,
    Rule,
    Table,
    TieBreak,
    draw_next,
    impact,
    rank,
    ranking_json,
)
from referee.events.draw import Format

ALONE = ((0,), (1,), (2,), (3,))
FACING = ((0, 2), (1, 3))


def concours(count: int, **given: object) -> Concours:
    players = tuple(Player(n, f"P{n}") for n in range(1, count + 1))
    base = Concours(
        game="boulmous",
        format=Format.INDIVIDUAL,
        rounds=4,
        seed=1,
        ranking=Ranking(),
        players=players,
        sides=ALONE,
    )
    return replace(base, **given)  # type: ignore[arg-type]


def table(number: int, seats: tuple[int, ...], scores: tuple[int, ...]) -> Table:
    return Table(number, seats, scores, accepted=True)


def by_name(lines: object) -> dict[str, object]:
    return {line.name: line for line in lines}  # type: ignore[attr-defined]


def test_the_sum_of_table_scores_ranks_and_names_what_separated_neighbours() -> None:
    played = (
        Played(1, (table(1, (1, 2, 3, 4), (21, 10, 5, -3)), table(2, (5, 6, 7, 8), (21, 4, 4, 0)))),
        Played(2, (table(1, (1, 5, 2, 6), (9, 21, 3, 0)), table(2, (3, 7, 4, 8), (21, 15, 2, 1)))),
    )
    lines = rank(concours(8, played=played))
    got = {line.name: (line.rank, line.points) for line in lines}
    # P1 21+9=30, P5 21+21=42, P3 5+21=26, P7 4+15=19, P2 10+3=13, P6 4+0=4, P8 0+1=1, P4 -3+2=-1
    assert got == {
        "P5": (1, 42),
        "P1": (2, 30),
        "P3": (3, 26),
        "P7": (4, 19),
        "P2": (5, 13),
        "P6": (6, 4),
        "P8": (7, 1),
        "P4": (8, -1),
    }
    assert [line.separated_by for line in lines] == [None] + [POINTS] * 7
    assert lines[0].rounds == (21, 21)
    assert lines[0].values[TieBreak.WINS] == 2  # first at both of its tables


def test_places_share_their_points_and_tie_breaks_separate_in_their_order() -> None:
    ranking = Ranking(Rule.PLACES, (4, 2, 1, 0), (TieBreak.SCORE, TieBreak.LOT))
    played = (Played(1, (table(1, (1, 2, 3, 4), (10, 10, 5, 0)),)),)
    lines = by_name(rank(concours(4, ranking=ranking, played=played)))
    # Two firsts share the first two places' points: (4 + 2) / 2 each.
    assert lines["P1"].points == lines["P2"].points == 3  # type: ignore[attr-defined]
    assert lines["P3"].points == 1
    assert lines["P4"].points == 0
    ordered = rank(concours(4, ranking=ranking, played=played))
    # P1 and P2 are level on points and table scores: the lot separates them.
    assert {ordered[0].name, ordered[1].name} == {"P1", "P2"}
    assert ordered[1].separated_by == "lot"
    assert ordered[2].separated_by == POINTS


def test_without_a_lot_level_players_share_their_rank() -> None:
    ranking = Ranking(Rule.PLACES, (3, 1, 1, 0), (TieBreak.WINS,))
    played = (Played(1, (table(1, (1, 2, 3, 4), (10, 4, 4, 0)),)),)
    lines = rank(concours(4, ranking=ranking, played=played))
    assert [(line.name, line.rank) for line in lines][:3] == [("P1", 1), ("P2", 2), ("P3", 2)]
    assert lines[2].separated_by is None


def test_a_shared_place_points_are_a_fraction_written_to_two_decimals() -> None:
    ranking = Ranking(Rule.PLACES, (4, 2, 1, 0))
    played = (Played(1, (table(1, (1, 2, 3, 4), (10, 3, 3, 3)),)),)
    line = by_name(rank(concours(4, ranking=ranking, played=played)))["P2"]
    assert line.points == Fraction(1, 1)  # type: ignore[attr-defined]
    played = (Played(1, (table(1, (1, 2, 3, 4), (3, 3, 3, 0)),)),)
    line = by_name(rank(concours(4, ranking=ranking, played=played)))["P2"]
    assert line.points == Fraction(7, 3)  # type: ignore[attr-defined]
    written = ranking_json(rank(concours(4, ranking=ranking, played=played)))
    assert {w["name"]: w["points"] for w in written}["P2"] == 2.33


def test_where_the_lowest_total_wins_it_ranks_first() -> None:
    played = (Played(1, (table(1, (1, 2, 3, 4), (50, 40, 110, 40)),)),)
    lines = rank(concours(4, lowest_wins=True, played=played))
    assert [line.name for line in lines][:2] in (["P2", "P4"], ["P4", "P2"])
    assert lines[-1].name == "P3"
    assert lines[0].values[TieBreak.WINS] == lines[1].values[TieBreak.WINS] == 1


def test_partners_score_their_sides_and_a_side_is_one_place() -> None:
    ranking = Ranking(Rule.PLACES)
    played = (Played(1, (table(1, (1, 2, 3, 4), (52, 30, 52, 30)),)),)
    lines = by_name(
        rank(concours(4, format=Format.PARTNERS, sides=FACING, ranking=ranking, played=played))
    )
    # Two sides: the default points by place are 1 and 0.
    assert lines["P1"].points == lines["P3"].points == 1  # type: ignore[attr-defined]
    assert lines["P2"].points == 0  # type: ignore[attr-defined]
    # Opponents are the other side only, never one's partner.
    assert lines["P1"].values[TieBreak.OPPONENTS] == 0  # type: ignore[attr-defined]
    assert lines["P2"].values[TieBreak.OPPONENTS] == 2  # type: ignore[attr-defined]


def test_fixed_pairs_are_ranked_as_pairs() -> None:
    played = (Played(1, (table(1, (1, 3, 2, 4), (52, 30, 52, 30)),)),)
    lines = rank(concours(4, format=Format.PAIRS, sides=FACING, played=played))
    assert [(line.name, line.players, line.points) for line in lines] == [
        ("P1 & P2", (1, 2), 52),
        ("P3 & P4", (3, 4), 30),
    ]


def test_a_bye_scores_its_stated_points_or_the_rounds_average() -> None:
    played = (Played(1, (table(1, (1, 2, 3, 4), (10, 6, 4, 0)),), byes=(5,)),)
    fixed = by_name(rank(concours(5, ranking=Ranking(bye=3), played=played)))
    assert fixed["P5"].points == 3
    assert fixed["P5"].byes == (1,)
    average = by_name(rank(concours(5, ranking=Ranking(bye=None), played=played)))
    assert average["P5"].points == 5  # type: ignore[attr-defined]


def test_a_late_arrival_scores_byes_and_a_withdrawal_ranks_last() -> None:
    players = (*(Player(n, f"P{n}") for n in range(1, 4)), Player(4, "P4", left=1))
    players += (Player(5, "P5", joined=2),)
    played = (
        Played(1, (table(1, (1, 2, 3, 4), (1, 2, 3, 4)),)),
        Played(2, (table(1, (1, 2, 3, 5), (5, 5, 5, 5)),)),
    )
    c = concours(5, players=players, played=played, ranking=Ranking(bye=None))
    lines = by_name(rank(c))
    assert lines["P4"].rounds == (4, None)
    assert lines["P4"].withdrawn
    # A late arrival scores the bye (here the round's average) for the rounds before.
    assert lines["P5"].rounds == (Fraction(5, 2), 5)  # type: ignore[attr-defined]
    assert not lines["P5"].withdrawn  # type: ignore[attr-defined]
    # Who withdrew ranks after everyone still in, whatever their points.
    ordered = rank(c)
    assert ordered[-1].name == "P4"
    assert ordered[-1].separated_by == "withdrawn"
    assert rank(replace(c, lowest_wins=True))[-1].name == "P4"


def test_a_result_not_accepted_yet_does_not_rank() -> None:
    played = (Played(1, (Table(1, (1, 2, 3, 4), (10, 0, 0, 0), accepted=False),)),)
    assert {line.points for line in rank(concours(4, played=played))} == {0}


def meetings(c: Concours) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for played in c.played:
        for t in played.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(t.seats, 2))
    return met


def play_round(c: Concours) -> Concours:
    drawn = draw_next(c)
    number = len(c.played) + 1
    tables = tuple(
        table(i, seats, tuple(range(len(seats)))) for i, seats in enumerate(drawn.tables, 1)
    )
    return replace(c, played=(*c.played, Played(number, tables, drawn.byes)))


def test_the_event_follows_the_whole_draw_while_nobody_comes_or_goes() -> None:
    c = concours(16, rounds=5)
    for _ in range(5):
        c = play_round(c)
    assert max(meetings(c).values()) == 1  # 16 players, 5 rounds: nobody meets twice


def test_each_present_player_is_seated_once_a_round_as_players_come_and_go() -> None:
    c = concours(18)
    c = play_round(c)
    c = replace(c, players=(*c.players, Player(19, "Late", joined=2)))
    c = play_round(c)
    c = replace(c, players=tuple(replace(p, left=2) if p.number == 3 else p for p in c.players))
    for _ in range(2):
        c = play_round(c)
    byes: Counter[int] = Counter()
    for played in c.played:
        seated = [p for t in played.tables for p in t.seats]
        assert sorted(seated + list(played.byes)) == sorted(c.present(played.number))
        assert {len(t.seats) for t in played.tables} == {4}
        byes.update(played.byes)
    assert 19 in [p for t in c.played[1].tables for p in t.seats] + list(c.played[1].byes)
    assert all(3 not in t.seats for p in c.played[2:] for t in p.tables)
    assert max(byes.values()) == 1  # 2, 3, 2 and 2 byes: never one player twice
    assert max(meetings(c).values()) <= 2


def test_a_round_needs_enough_players() -> None:
    with pytest.raises(RulesError) as error:
        draw_next(concours(3))
    assert error.value.problems[0].code == "concours_few"
    assert "3 joueurs" in error.value.messages("fr")[0]


def test_fixed_pairs_later_rounds_follow_the_ranking_without_a_rematch() -> None:
    c = concours(8, format=Format.PAIRS, sides=FACING)
    c = play_round(c)
    first = c.played[0]
    # The pair at seats 1 and 3 won each table: round 2 sets the winners together.
    c = replace(
        c,
        played=(
            replace(
                first,
                tables=tuple(replace(t, scores=(10, 0, 10, 0)) for t in first.tables),
            ),
        ),
    )
    second = draw_next(c)
    winners = {min(t.seats[0], t.seats[2]) for t in first.tables}
    assert {
        min(second.tables[0][0], second.tables[0][2]),
        min(second.tables[0][1], second.tables[0][3]),
    } == winners


def test_a_correction_shows_the_ranks_it_moves_and_the_draws_it_would_have_changed() -> None:
    c = concours(8, format=Format.PAIRS, sides=FACING, rounds=3)
    c = play_round(c)
    c = play_round(c)
    first = c.played[0]
    corrected = replace(
        c,
        played=(
            replace(
                first, tables=(replace(first.tables[0], scores=(50, 0, 50, 0)), *first.tables[1:])
            ),
            *c.played[1:],
        ),
    )
    found = impact(c, corrected)
    assert found.moves, "the pairs of the corrected table swap their ranks"
    assert found.redrawn == (2,)
    # An individual event's draw never depends on the results.
    i = play_round(play_round(concours(16)))
    t = i.played[0].tables[0]
    changed = replace(
        i,
        played=(
            replace(
                i.played[0], tables=(replace(t, scores=(99, 0, 0, 0)), *i.played[0].tables[1:])
            ),
            i.played[1],
        ),
    )
    assert impact(i, changed).redrawn == ()
