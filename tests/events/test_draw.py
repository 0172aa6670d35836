"""The draw of a concours (`referee.events.draw`, `referee draw`): every property
the issue names, on the counts it names."""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter

import pytest

from referee.cli import draw_command
from referee.engine.errors import RulesError
from referee.events.draw import Draw, Format, draw, swiss

#: The engine's messages only the draw raises (tests/engine/test_errors.py).
DRAW_CODES = {"draw_partners_four", "draw_pairs_odd"}


def meetings(
    drawn: Draw, seats: tuple[tuple[int, int], ...] | None = None
) -> Counter[frozenset[int]]:
    """How often each two players sat at one table (only these seat pairs, if given)."""
    met: Counter[frozenset[int]] = Counter()
    for played in drawn.rounds:
        for table in played.tables:
            pairs = seats or tuple(itertools.combinations(range(len(table)), 2))
            met.update(frozenset((table[i], table[j])) for i, j in pairs)
    return met


def repeats(met: Counter[frozenset[int]], allowed: int = 1) -> int:
    return sum(count - allowed for count in met.values() if count > allowed)


def check_rounds(drawn: Draw, players: int, rounds: int, size: int) -> None:
    """Each player once a round (at a table or sitting out), every table full,
    byes only for what the tables cannot seat, and to different players."""
    assert len(drawn.rounds) == rounds
    byes: Counter[int] = Counter()
    for played in drawn.rounds:
        seated = [p for table in played.tables for p in table]
        assert sorted(seated + list(played.byes)) == list(range(1, players + 1))
        assert {len(table) for table in played.tables} == {size}
        assert len(played.byes) == players % size
        byes.update(played.byes)
    if rounds * (players % size) <= players:
        assert all(count == 1 for count in byes.values())


@pytest.mark.parametrize(
    ("players", "rounds", "size"),
    [
        (16, 5, 4),
        (20, 5, 4),
        (24, 6, 4),
        # As many rounds as tables of 4 allow (every pair met at most once): the
        # draws kept in `referee.events.known`.
        (24, 7, 4),
        (28, 9, 4),
        (36, 11, 4),
        (32, 8, 4),
        (40, 8, 4),
        (25, 6, 5),
        # Counts that leave byes.
        (18, 5, 4),
        (21, 5, 4),
        (22, 4, 4),
        (27, 5, 5),
    ],
)
def test_individual_nobody_meets_anyone_twice(players: int, rounds: int, size: int) -> None:
    drawn = draw(players, rounds, Format.INDIVIDUAL, size, seed=7)
    check_rounds(drawn, players, rounds, size)
    assert repeats(meetings(drawn)) == 0


def test_the_affine_planes_meet_every_pair_exactly_once() -> None:
    for players, size in ((16, 4), (25, 5)):
        met = meetings(draw(players, size + 1, Format.INDIVIDUAL, size, seed=1))
        assert len(met) == players * (players - 1) // 2
        assert set(met.values()) == {1}


def test_more_rounds_than_a_draw_without_repeats_allows_repeat_as_little_as_it_can() -> None:
    # 16 players meet 3 new ones a round: after 5 rounds nobody is left to meet.
    drawn = draw(16, 7, Format.INDIVIDUAL, 4, seed=3)
    check_rounds(drawn, 16, 7, 4)
    # 7 rounds make 168 meetings of 120 pairs: 48 repeats at the least.
    assert 48 <= repeats(meetings(drawn)) <= 60


def test_400_players_in_6_rounds() -> None:
    drawn = draw(400, 6, Format.INDIVIDUAL, 4, seed=1)
    check_rounds(drawn, 400, 6, 4)
    assert repeats(meetings(drawn)) == 0


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (20, 5), (17, 4), (32, 7), (24, 6)])
def test_partners_nobody_partners_twice_nor_opposes_thrice(players: int, rounds: int) -> None:
    drawn = draw(players, rounds, Format.PARTNERS, 4, seed=5)
    check_rounds(drawn, players, rounds, 4)
    assert repeats(meetings(drawn, ((0, 2), (1, 3)))) == 0
    assert repeats(meetings(drawn, ((0, 1), (0, 3), (2, 1), (2, 3))), allowed=2) == 0


def test_fixed_pairs_sit_facing_and_never_meet_twice() -> None:
    drawn = draw(20, 5, Format.PAIRS, seed=2)  # 10 pairs
    met: Counter[frozenset[int]] = Counter()
    for played in drawn.rounds:
        assert played.byes == ()
        for a1, b1, a2, b2 in played.tables:
            assert (a2, b2) == (a1 + 1, b1 + 1)  # partners face each other
            assert a1 % 2 == b1 % 2 == 1
            met[frozenset((a1, b1))] += 1
    assert set(met.values()) == {1}
    # An odd count of pairs: one sits out, a different one each round.
    odd = draw(14, 4, Format.PAIRS, seed=2)  # 7 pairs
    assert len({r.byes for r in odd.rounds}) == 4
    assert all(len(r.byes) == 2 for r in odd.rounds)


def test_swiss_pairs_by_ranking_without_a_rematch() -> None:
    ranking = [3, 0, 5, 1, 4, 2]  # best first
    tables, bye = swiss(ranking, {frozenset((3, 0))})
    assert bye is None
    assert tables == [(3, 5), (0, 1), (4, 2)]
    # Backtracking: the greedy pairing would strand 4 and 2, who met.
    tables, _ = swiss([0, 1, 2, 3], {frozenset((0, 2)), frozenset((2, 3))})
    assert tables == [(0, 3), (1, 2)]
    tables, bye = swiss([0, 1, 2], set(), byes_had={2})
    assert bye == 1


def test_the_same_seed_gives_the_same_draw() -> None:
    for format in Format:
        one = draw(20, 4, format, 4, seed=11)
        assert one == draw(20, 4, format, 4, seed=11)
        assert one != draw(20, 4, format, 4, seed=12)
    assert draw(17, 5, seed=4) == draw(17, 5, seed=4)


@pytest.mark.parametrize(
    ("players", "rounds", "format", "size", "code", "field"),
    [
        (3, 2, "individual", 4, "out_of_range", "players"),
        (16, 0, "individual", 4, "out_of_range", "rounds"),
        (16, 2, "swiss", 4, "unknown_choice", "format"),
        (10_000_000, 2, "individual", 4, "out_of_range", "players"),
        (16, 2, "individual", 6, "unknown_choice", "table_size"),
        (20, 2, "partners", 5, "draw_partners_four", "table_size"),
        (15, 2, "pairs", 4, "draw_pairs_odd", "players"),
        (16, 2, "individual", True, "unknown_choice", "table_size"),
    ],
)
def test_what_cannot_be_drawn_is_refused_with_the_field(
    players: int, rounds: int, format: str, size: int, code: str, field: str
) -> None:
    with pytest.raises(RulesError) as refused:
        draw(players, rounds, format, size)
    (found,) = refused.value.problems
    assert (found.code, found.field) == (code, field)


def test_the_command_prints_json_and_refuses_in_one_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert draw_command(17, 3, "individual", 4, 9, True, "en", out, err) == 0
    printed = json.loads(out.getvalue())
    assert printed == draw(17, 3, seed=9).as_json()
    assert printed["rounds"][0]["byes"]
    assert len(printed["rounds"][0]["tables"]) == 4
    for args, line in (
        ((3, 2, "individual", 4), "Players 3 is out of range: 4 to 1000"),
        ((16, 0, "individual", 4), "Rounds 0 is out of range: 1 to 30"),
        ((16, 2, "bogus", 4), 'Format: "bogus" is not one of: "individual", "partners", "pairs"'),
        ((10_000_000, 2, "individual", 4), "Players 10000000 is out of range: 4 to 1000"),
    ):
        out, err = io.StringIO(), io.StringIO()
        assert draw_command(*args, 0, True, "en", out, err) == 1
        assert err.getvalue() == line + "\n"
        assert out.getvalue() == ""
    err = io.StringIO()
    draw_command(16, 0, "individual", 4, 0, True, "fr", io.StringIO(), err)
    assert err.getvalue() == "Tours 0 hors limites\u202f: de 1 à 30\n"


def test_the_command_speaks_to_a_director() -> None:
    out = io.StringIO()
    assert draw_command(18, 1, "individual", 4, 1, False, "fr", out, io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "Tour 1"
    assert lines[1].startswith("  table 1\u202f: ")
    assert lines[-1].startswith("  exempts\u202f: ")


def test_the_cli_draws_24_players_7_rounds_with_no_repeated_meeting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from referee.cli import main

    assert main(["draw", "--players", "24", "--rounds", "7"]) == 0
    rounds = capsys.readouterr().out.split("Round ")[1:]
    assert len(rounds) == 7
    met: Counter[frozenset[int]] = Counter()
    for text in rounds:
        for line in text.splitlines()[1:]:
            if "table" in line:
                seats = [int(n) for n in line.split(":")[1].split()]
                met.update(frozenset((a, b)) for a in seats for b in seats if a < b)
    assert len(met) == 7 * 6 * 6  # 7 rounds of 6 tables of 6 pairs, all apart
    assert set(met.values()) == {1}
