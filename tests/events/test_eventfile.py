"""The event file, `referee-event/1` (docs/EVENT-FORMAT.md), and `referee rank`."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import rank_command
from referee.engine.errors import RulesError
from referee.events.concours import rank, ranking_json
from referee.events.eventfile import dump_event, load_event, parse_event

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "concours.json"

#: The engine's messages only the event file and the concours raise (tests/engine/test_errors.py).
EVENT_CODES = {
    "concours_few",
    "event_text",
    "event_text_long",
    "event_time",
    "event_too_many",
    "event_game_size",
    "event_length",
    "event_amount",
    "event_twice",
    "event_numbers",
    "event_left_before",
    "event_player_unknown",
    "event_player_absent",
    "event_player_twice",
    "event_player_seatless",
    "event_table_size",
    "event_game_other",
    "event_game_players",
    "event_scores_differ",
    "event_rounds_more",
}


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_the_documented_example_reads_and_writes_back_the_same() -> None:
    event = parse_event(example())
    again = parse_event(json.loads(json.dumps(dump_event(event))))
    assert rank(again.concours) == rank(event.concours)
    assert dump_event(again) == dump_event(event)
    assert event.concours.players[-1].joined == 2  # the late arrival
    assert any(p.left == 2 for p in event.concours.players)  # the withdrawal


def test_a_table_with_its_game_is_scored_by_the_games_rules() -> None:
    data = example()
    table = data["rounds"][0]["tables"][0]
    assert "game" in table
    event = parse_event(data)
    scored = event.concours.played[0].tables[0].scores
    assert scored is not None
    assert list(scored) == table["scores"]
    wrong = copy.deepcopy(data)
    wrong["rounds"][0]["tables"][0]["scores"] = [0, 0, 0, 0]
    with pytest.raises(RulesError) as error:
        parse_event(wrong)
    assert error.value.problems[0].code == "event_scores_differ"
    assert error.value.problems[0].field == "rounds[0].tables[0].scores"


def refused(change: Any) -> RulesError:
    data = example()
    change(data)
    with pytest.raises(RulesError) as error:
        parse_event(data)
    return error.value


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (
            lambda d: d["rounds"][0]["tables"][0]["seats"].__setitem__(0, 99),
            "event_player_unknown",
            "rounds[0].tables[0].seats",
        ),
        (
            lambda d: d["rounds"][0]["tables"][1]["seats"].__setitem__(
                0, d["rounds"][0]["tables"][0]["seats"][1]
            ),
            "event_player_twice",
            "rounds[0].tables[1].seats",
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["seats"].pop(),
            "event_table_size",
            "rounds[0].tables[0].seats",
        ),
        (
            lambda d: d["players"][1].__setitem__("name", d["players"][0]["name"].upper()),
            "event_twice",
            "players[1].name",
        ),
        (lambda d: d["players"][2].__setitem__("number", 7), "event_numbers", "players[2].number"),
        (
            lambda d: d["players"][2].update(joined=3, left=1),
            "event_left_before",
            "players[2].left",
        ),
        (lambda d: d.__setitem__("length", {"deals": 4, "minutes": 30}), "event_length", "length"),
        (lambda d: d.__setitem__("entry_fee", "ten"), "event_amount", "entry_fee"),
        (lambda d: d.__setitem__("rounds_planned", 1), "event_rounds_more", "rounds"),
        (lambda d: d.__setitem__("name", 12), "event_text", "name"),
        (lambda d: d.__setitem__("name", "x" * 81), "event_text_long", "name"),
        # A player's name is a game's seat's: 40 characters, look-alikes one name.
        (
            lambda d: d["players"][1].__setitem__("name", "x" * 41),
            "event_text_long",
            "players[1].name",
        ),
        (
            lambda d: d["players"][1].__setitem__(
                "name", d["players"][0]["name"].replace("a", "\u0430")
            ),
            "event_twice",
            "players[1].name",
        ),
        (lambda d: d["history"][0].__setitem__("at", "hier"), "event_time", "history[0].at"),
        (lambda d: d.__setitem__("draw", {"table_size": 5}), "event_game_size", "draw.table_size"),
        (
            lambda d: d["ranking"].__setitem__("tie_breaks", ["wins", "wins"]),
            "event_twice",
            "ranking.tie_breaks[1]",
        ),
        (lambda d: d["ranking"].__setitem__("rule", "elo"), "unknown_choice", "ranking.rule"),
        (lambda d: d.__setitem__("colour", "red"), "unknown_field", None),
        (lambda d: d.__setitem__("rounds_planned", "4"), "not_integer", "rounds_planned"),
        (lambda d: d.__setitem__("rounds_planned", True), "not_integer", "rounds_planned"),
        (lambda d: d.pop("rounds_planned"), "missing", "rounds_planned"),
        (lambda d: d.__setitem__("name", "   "), "missing", "name"),
        (lambda d: d.__setitem__("name", None), "missing", "name"),
        (lambda d: d.__setitem__("name", "Grand\x07prix"), "text_unusable", "name"),
        (lambda d: d.__setitem__("format", "referee-event/9"), "unknown_choice", "format"),
        (lambda d: d.__setitem__("game", "uno"), "unknown_choice", "game"),
        (lambda d: d["draw"].__setitem__("format", "swiss"), "unknown_choice", "draw.format"),
        (lambda d: d["draw"].__setitem__("table_size", True), "unknown_choice", "draw.table_size"),
        (lambda d: d["draw"].__setitem__("seed", -1), "out_of_range", "draw.seed"),
        (lambda d: d.__setitem__("draw", []), "not_object", "draw"),
        (lambda d: d.__setitem__("rules", 3), "not_object", "rules"),
        (lambda d: d.__setitem__("currency", "EURO"), "currency_malformed", "currency"),
        (lambda d: d.__setitem__("date", "2026-13-01"), "date_malformed", "date"),
        (lambda d: d.__setitem__("length", []), "not_object", "length"),
        (lambda d: d.__setitem__("length", {"minutes": 0}), "out_of_range", "length.minutes"),
        (lambda d: d.__setitem__("entry_fee", 5), "event_amount", "entry_fee"),
        (lambda d: d.__setitem__("entry_fee", "-5"), "event_amount", "entry_fee"),
        (lambda d: d.__setitem__("ranking", "score"), "not_object", "ranking"),
        (
            lambda d: d["ranking"].__setitem__("places", [3, "two"]),
            "not_integer",
            "ranking.places[1]",
        ),
        (lambda d: d["ranking"].__setitem__("places", 3), "not_object", "ranking.places"),
        (lambda d: d["ranking"].__setitem__("bye", 10**18), "out_of_range", "ranking.bye"),
        (
            lambda d: d["ranking"].__setitem__("tie_breaks", ["luck"]),
            "unknown_choice",
            "ranking.tie_breaks[0]",
        ),
        (lambda d: d.__setitem__("players", {}), "not_object", "players"),
        (lambda d: d["players"].__setitem__(0, "Ana"), "not_object", "players[0]"),
        (lambda d: d["players"][0].__setitem__("age", 30), "unknown_field", "players[0]"),
        (
            lambda d: d["rounds"][0]["tables"][0]["game"].__setitem__("game", "pitch"),
            "event_game_other",
            "rounds[0].tables[0].game",
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["game"]["players"].reverse(),
            "event_game_players",
            "rounds[0].tables[0].game",
        ),
    ],
)
def test_what_no_concours_holds_is_refused_naming_its_field(
    change: Any, code: str, field: str | None
) -> None:
    error = refused(change)
    assert (error.problems[0].code, error.problems[0].field) == (code, field)
    assert error.messages("fr")[0] != error.messages("en")[0]


def test_a_player_absent_or_seatless_is_refused() -> None:
    def seat_the_late_arrival_in_round_one(d: Any) -> None:
        d["rounds"][0]["byes"].append(d["players"][-1]["number"])

    assert refused(seat_the_late_arrival_in_round_one).problems[0].code == "event_player_absent"

    def forget_a_bye(d: Any) -> None:
        d["rounds"][0]["byes"].pop()

    assert refused(forget_a_bye).problems[0].code == "event_player_seatless"


def test_many_tables_at_once_are_refused_without_reading_them() -> None:
    error = refused(lambda d: d.__setitem__("players", [{}] * 1001))
    assert error.problems[0].code == "event_too_many"
    # One wrong number does not bury the file under a hundred messages.
    error = refused(
        lambda d: [t.update(seats=[99, 98, 97, 96]) for r in d["rounds"] for t in r["tables"]]
    )
    assert len(error.problems) <= 20


def run(args: list[str], data: str | None = None, lang: str = "en") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = rank_command(args[0], "--json" in args, lang, out, err, io.StringIO(data or ""))
    return code, out.getvalue(), err.getvalue()


def test_referee_rank_prints_the_ranking_and_what_separated_neighbours() -> None:
    code, out, _ = run([str(EXAMPLE)])
    assert code == 0
    event = load_event(EXAMPLE.read_bytes())
    lines = rank(event.concours)
    text = out.splitlines()
    assert text[0] == event.name
    assert text[1].startswith("Final ranking")
    first = next(t for t in text if t.lstrip().startswith("1. "))
    assert lines[0].name in first
    assert "(on points)" in out or "(on tables won)" in out
    assert "withdrawn" in out
    code, out, _ = run([str(EXAMPLE)], lang="fr")
    assert "Classement final" in out
    assert "abandon" in out


def test_referee_rank_counts_the_rounds_whose_results_are_all_in() -> None:
    data = example()
    data["rounds"][-1]["tables"][0]["accepted"] = False  # round 4 still in play
    code, out, _ = run(["-"], data=json.dumps(data))
    assert code == 0
    assert out.splitlines()[1] == "Provisional ranking after 3 rounds of 4"


def test_referee_rank_json_is_the_ranking() -> None:
    code, out, _ = run([str(EXAMPLE), "--json"])
    assert code == 0
    assert json.loads(out) == ranking_json(rank(load_event(EXAMPLE.read_bytes()).concours))


def test_referee_rank_refuses_a_bad_file_in_one_line_each() -> None:
    code, out, err = run(["-"], data='{"format": "referee-event/1", "name": "x", "game": "uno"}')
    assert code == 1
    assert not out
    assert len(err.splitlines()) == 1
    assert "uno" in err
    code, _, err = run(["/nonexistent/event.json"])
    assert code == 2
    assert "/nonexistent/event.json" in err
