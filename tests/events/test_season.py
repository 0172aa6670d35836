"""A club's season (issue 42): points by final place, each player's worst results
dropped, the stated tie-breaks; `referee rank --season` over three event files."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from referee.cli import main, season_command
from referee.engine.errors import RulesError
from referee.events.concours import Concours, Played, Player, Ranking, Table
from referee.events.draw import Format
from referee.events.season import (
    Held,
    SeasonRules,
    SeasonTieBreak,
    held_of,
    parse_rules,
    season_rank,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "season"
FILES = sorted(str(p) for p in EXAMPLES.glob("*.json"))


#: The message codes these tests raise (tests/engine/test_errors.py).
SEASON_CODES = {"season_points", "season_whole", "season_points_rise"}


def held(name: str, *lines: tuple[str, int]) -> Held:
    return Held(name, None, tuple(((n,), r) for n, r in lines))


def test_the_worst_result_dropped_and_the_tie_broken_by_the_latest_event() -> None:
    """The three example concours, points 10/6/4/3, the worst dropped: Amélie 10,
    6, 3 and Bruno 6, 10, 6 both count 16; each won one concours, both reached
    first place; Bruno did better in the latest: he leads."""
    rules = SeasonRules(points=(10, 6, 4, 3), drop_worst=1)
    events = [
        held("janvier", ("Amélie", 1), ("Bruno", 2), ("Chantal", 3), ("Didier", 4)),
        held("février", ("Bruno", 1), ("Amélie", 2), ("Didier", 3), ("Chantal", 4)),
        held("mars", ("Chantal", 1), ("Bruno", 2), ("Émile", 3), ("amélie ", 4)),
    ]
    lines = season_rank(rules, events)
    table = [(x.rank, x.name, x.points, x.results, x.dropped, x.separated_by) for x in lines]
    assert table == [
        (1, "Bruno", 16, (6, 10, 6), (0,), None),
        (2, "Amélie", 16, (10, 6, 3), (2,), "last"),
        (3, "Chantal", 14, (4, 3, 10), (1,), "points"),
        (4, "Didier", 7, (3, 4, None), (), "points"),
        (5, "Émile", 4, (None, None, 4), (), "points"),
    ]


def test_shared_places_share_their_points_and_level_players_share_a_rank() -> None:
    rules = SeasonRules(points=(10, 6, 4), tie_breaks=(SeasonTieBreak.WINS,))
    lines = season_rank(rules, [held("a", ("A", 1), ("B", 2), ("C", 2), ("D", 4))])
    assert [(x.rank, x.name, x.points) for x in lines] == [
        (1, "A", 10),
        (2, "B", 5),
        (2, "C", 5),
        (4, "D", 0),
    ]
    assert lines[2].separated_by is None
    three = season_rank(rules, [held("a", ("A", 1), ("B", 1), ("C", 1))])
    assert {x.points for x in three} == {Fraction(20, 3)}


def test_more_dropped_than_played_still_counts_the_best() -> None:
    rules = SeasonRules(points=(10, 6), drop_worst=5)
    lines = season_rank(rules, [held("a", ("A", 1), ("B", 2)), held("b", ("B", 1), ("A", 2))])
    assert [(x.name, x.points, x.dropped) for x in lines] == [("B", 10, (0,)), ("A", 10, (1,))]


def test_a_concours_without_a_result_ranks_nobody() -> None:
    concours = Concours(
        game="pad",
        format=Format.INDIVIDUAL,
        rounds=2,
        seed=1,
        ranking=Ranking(),
        players=tuple(Player(n, f"P{n}") for n in range(1, 9)),
    )
    assert held_of("empty", None, concours).lines == ()
    drawn = replace(concours, played=(Played(1, (Table(1, (1, 2, 3, 4)), Table(2, (5, 6, 7, 8)))),))
    assert held_of("drawn", None, drawn).lines == ()
    played = replace(
        concours,
        played=(Played(1, (Table(1, (1, 2, 3, 4), (4, 3, 2, 1), True), Table(2, (5, 6, 7, 8)))),),
    )
    got = held_of("played", None, played)
    assert got.lines[0] == (("P1",), 1)
    assert not got.final


def test_a_missed_event_is_the_first_dropped() -> None:
    rules = SeasonRules(points=(10, 6), drop_worst=1)
    lines = season_rank(rules, [held("a", ("A", 1), ("B", 2)), held("b", ("B", 1))])
    # A missed "b": A's one result counts whole; B's worst (6) is dropped. Level on
    # 10, one win each, both first once: B did better in the latest.
    assert [(x.name, x.points, x.dropped) for x in lines] == [("B", 10, (0,)), ("A", 10, ())]
    assert lines[1].separated_by == "last"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"points": []}, "season.points"),
        ({"points": [10, -1]}, "season.points"),
        ({"drop_worst": -1}, "season.drop_worst"),
        ({"beyond": "x"}, "season.beyond"),
        ({"tie_breaks": ["wins", "best", "wins"]}, "season.tie_breaks"),
        ({"tie_breaks": ["luck"]}, "season.tie_breaks"),
        ({"other": 1}, "season.other"),
        ({"points": [25, 5, 20]}, "season.points"),  # "25,5; 20" read as three places
    ],
)
def test_season_rules_refused_by_field(raw: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(raw)
    assert caught.value.problems[0].field == field
    assert caught.value.problems[0].code in SEASON_CODES | {
        "unknown_field",
        "unknown_choice",
        "event_twice",
    }
    assert caught.value.problems[0].message("fr")


def test_referee_rank_season_ranks_three_event_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(FILES) == 3
    code = main(["rank", "--season", *FILES, "--points", "10,6,4,3", "--drop-worst", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert [(x["rank"], x["name"], x["points"], x["dropped"]) for x in out] == [
        (1, "Bruno", 16, [1]),
        (2, "Amélie", 16, [3]),
        (3, "Chantal", 14, [2]),
        (4, "Didier", 7, []),
        (5, "Émile", 4, []),
    ]
    assert out[1]["separated_by"] == "last"
    stdout = io.StringIO()
    assert season_command(FILES, 1, "10,6,4,3", False, "fr", stdout, io.StringIO()) == 0
    text = stdout.getvalue()
    assert "Saison\u202f: 3 concours, les 2 meilleurs comptés" in text
    assert "  1. Bruno  16  [(6) 10 6]" in text
    assert "  2. Amélie  16  [10 6 (3)]  (au dernier concours)" in text
    # Without the worst dropped: Amélie 19, Bruno 22.
    plain = io.StringIO()
    season_command(FILES, 0, "10,6,4,3", False, "en", plain, io.StringIO())
    assert "  1. Bruno  22" in plain.getvalue()


def test_referee_rank_season_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", *FILES]) == 2  # several files need --season
    assert "--season" in capsys.readouterr().err
    assert main(["rank", "--season", *FILES, "--points", "10,x"]) == 2
    assert "--points" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "referee-event/1"}', encoding="utf-8")
    assert main(["rank", "--season", FILES[0], str(broken)]) == 1
    assert "broken.json" in capsys.readouterr().err
    assert main(["rank", "--season", str(tmp_path / "missing.json")]) == 2
    capsys.readouterr()
    assert main(["rank", "--season", FILES[0], FILES[0]]) == 2  # one concours, counted once
    assert "twice" in capsys.readouterr().err
    assert main(["rank", FILES[0], "--drop-worst", "1"]) == 2  # a season's option alone
    assert "--season" in capsys.readouterr().err


def test_referee_rank_says_the_prizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(Path(FILES[0]).read_text(encoding="utf-8"))
    data["prizes"] = {"split": ["50", "30", "20"], "kept": "10"}
    path = tmp_path / "prizes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    # 4 × 5 € = 20 €, 2 € kept: 18 €, 9 / 5.40 / 3.60.
    assert main(["rank", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [x.get("prize") for x in out] == ["9.00", "5.40", "3.60", "0.00"]
    assert main(["--lang", "fr", "rank", str(path)]) == 0
    assert "[9,00 EUR]" in capsys.readouterr().out


def test_referee_rank_season_reads_standard_input_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(Path(FILES[2]).read_text(encoding="utf-8")))
    assert main(["rank", "--season", FILES[0], FILES[1], "-", "--points", "10,6,4,3"]) == 0
    assert "Concours de mars" in capsys.readouterr().out


def test_names_that_differ_by_accents_case_or_spaces_are_proposed_not_merged() -> None:
    from referee.events.season import Held, bare, proposals, season_rank

    assert bare("Éric  Lefèvre") == bare("eric lefevre") == bare("Eric Lefevre")
    assert bare("Jean-Marc") == bare("Jean Marc")
    assert bare("Ana") != bare("Anna")
    events = (
        Held("A", None, ((("Eric Lefevre",), 1), (("Bruno",), 2))),
        Held("B", None, ((("Éric Lefèvre",), 1), (("bruno",), 2), (("Ana",), 3))),
    )
    # "Bruno" and "bruno" are one player already (case aside): no question asked.
    assert proposals(events) == (("Eric Lefevre", "Éric Lefèvre"),)
    rules = parse_rules({"points": [10, 5, 1]})
    apart = {line.name: line.points for line in season_rank(rules, events)}
    assert apart["Eric Lefevre"] == 10
    assert apart["Éric Lefèvre"] == 10
    merged = {"Eric Lefevre": "Éric Lefèvre"}
    together = {line.name: line.points for line in season_rank(rules, events, merged)}
    assert together["Éric Lefèvre"] == 20
    assert "Eric Lefevre" not in together
    assert proposals(events, merged) == ()
