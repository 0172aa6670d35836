"""The event file, `referee-event/1`: a concours in one JSON file (docs/EVENT-FORMAT.md).

Read and written here, checked as strictly as a game's record: every problem
found is reported at once, each naming the field it blames
(`rounds[0].tables[2].seats`). A table's result is its game when the file holds
it (scored by the game's rules, as `referee score` would) and its `scores`
otherwise (a result copied from paper); when both are there they must agree.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from referee.engine.errors import Problem, RulesError, problem
from referee.engine.fields import text_problem
from referee.engine.messages import LANGUAGES
from referee.engine.names import PERSON_MAX, TITLE_MAX, clean, fault, skeleton
from referee.engine.records import (
    MAX_PLACE,
    decode_json,
    dump_record,
    parse_record,
    score_record,
)
from referee.events.concours import (
    Concours,
    Late,
    Played,
    Player,
    Ranking,
    Rule,
    Table,
    TieBreak,
)
from referee.events.draw import MAX_PLAYERS, MAX_ROUNDS, TABLE_SIZES, Format
from referee.events.prizes import Prizes
from referee.events.prizes import as_json as prizes_json
from referee.events.prizes import parse as parse_prizes
from referee.games import GAMES

FORMAT: Final = "referee-event/1"
#: An amount as the file writes it: "10", "10.5", "10.00".
_AMOUNT: Final = re.compile(r"\d{1,9}(?:\.\d{1,2})?")
#: An event file's size at most: 100 tables × 30 rounds of long games.
MAX_EVENT_BYTES: Final = 32 * 1024 * 1024
#: Nesting at most (a game's record is nested under a table of a round).
MAX_EVENT_DEPTH: Final = 12
MAX_NAME: Final = TITLE_MAX
#: A player's name: the names of a game's seats, since each draw seats them in one.
MAX_PLAYER_NAME: Final = PERSON_MAX
MAX_REASON: Final = 200
#: A round's length: at most this many deals or minutes.
MAX_DEALS: Final = 100
MAX_MINUTES: Final = 600
MAX_POINTS: Final = 1000
MAX_SCORE: Final = 10**9
#: Problems reported at most (one mistake can make hundreds: the first are the clue).
MAX_PROBLEMS: Final = 20

_KEYS: Final = frozenset(
    {
        "format",
        "name",
        "date",
        "place",
        "game",
        "rules",
        "draw",
        "rounds_planned",
        "length",
        "entry_fee",
        "currency",
        "prizes",
        "language",
        "ranking",
        "players",
        "rounds",
        "history",
        "time_zone",
        "log",
    }
)
#: A line of the event's log: what was done (a short word), as the app names it.
_ACTION: Final = re.compile(r"[a-z][a-z-]{0,11}")
#: A time zone's name as the IANA database writes it ("Europe/Paris", "UTC").
_ZONE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_+-]{0,30}(?:/[A-Za-z0-9_+-]{1,30}){0,2}")


@dataclass(frozen=True)
class Length:
    """How long a round is: a number of deals, or minutes after which the deal in
    play is the last."""

    deals: int | None = None
    minutes: int | None = None


@dataclass(frozen=True)
class Correction:
    """A result changed by the director after it was accepted, and why."""

    round: int
    table: int
    reason: str
    before: tuple[int, ...] | None
    after: tuple[int, ...] | None
    at: str | None = None


@dataclass(frozen=True)
class Logged:
    """A line of an event's log: what was done, where, why, and when."""

    action: str
    at: str
    round: int | None = None
    table: int | None = None
    reason: str | None = None
    before: object = None
    after: object = None


@dataclass(frozen=True)
class EventRecord:
    """An event file, read: the concours and what the ranking does not need."""

    name: str
    concours: Concours
    rules: Mapping[str, object]
    length: Length
    entry_fee: Decimal | None = None
    currency: str = "EUR"
    date: datetime.date | None = None
    place: str | None = None
    #: The tables' games as the file gave them, by (round, table).
    games: Mapping[tuple[int, int], Mapping[str, object]] | None = None
    history: tuple[Correction, ...] = ()
    #: The prize rule stated before the event (None: no prizes).
    prizes: Prizes | None = None
    #: The event's language: its printed cards and sheets speak it.
    language: str = "fr"
    #: The club's time zone: its pages and prints say every time in it.
    time_zone: str = "Europe/Paris"
    #: When each round's clock started, by round, as the file wrote it.
    started: Mapping[int, str] | None = None
    #: The event's whole log, each line with its time (what its director's page
    #: shows as the history): kept by an export and an import.
    log: tuple[Logged, ...] = ()


def load_event(text: str | bytes) -> EventRecord:
    """Read an event file (`RulesError` listing every problem)."""
    return parse_event(decode_json(text, MAX_EVENT_BYTES, MAX_EVENT_DEPTH))


def concours_facts(game: str, rules: Mapping[str, object], table_size: int) -> tuple[bool, Any]:
    """What the concours asks the game: whether the lowest total leads, and who
    scores together at a table of `table_size`."""
    known = GAMES[game]
    parsed = known.parse_rules(rules)
    return known.lowest_wins_under(parsed), known.sides_under(parsed, table_size)


class _Reader:
    """Collects the problems of a file while reading it."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, code: str, field: str | None, **params: object) -> None:
        found = problem(code, field, **params)
        if field is not None and field.endswith(".number"):
            found = found.shown_as("ordinal")  # a player's or a round's, not a deal's
        self.problems.append(found)

    def whole(
        self,
        obj: Mapping[str, object],
        key: str,
        field: str,
        low: int,
        high: int,
        default: int | None = None,
        required: bool = True,
    ) -> int | None:
        value = obj.get(key)
        if value is None:
            if required and default is None:
                self.add("missing", field)
            return default
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            self.add("not_integer", field, value=value)
            return None
        if not low <= value <= high:
            self.add("out_of_range", field, value=value, low=low, high=high)
            return None
        return value

    def text(self, value: object, field: str, high: int, required: bool = True) -> str | None:
        if value is None:
            if required:
                self.add("missing", field)
            return None
        if isinstance(value, str) and not value.strip():
            self.add("missing", field)
            return None
        if not isinstance(value, str):
            self.add("event_text", field, value=value)
            return None
        if (bad := text_problem(value, field, controls=True)) is not None:
            self.problems.append(bad)
            return None
        # The names' one rule (engine.names): cleaned, then measured, as a game's.
        wrong = fault(value, high)
        if wrong == "empty":
            self.add("missing", field)
            return None
        if wrong == "long":
            self.add("event_text_long", field, high=high)
            return None
        return clean(value)

    def obj(self, value: object, field: str) -> Mapping[str, object] | None:
        if not isinstance(value, dict):
            self.add("not_object", field)
            return None
        return value

    def items(self, value: object, field: str, high: int) -> Sequence[object]:
        if not isinstance(value, list):
            self.add("not_object", field)
            return []
        if len(value) > high:
            self.add("event_too_many", field, count=len(value), high=high)
            return []
        return value

    def only(self, obj: Mapping[str, object], keys: frozenset[str], field: str | None) -> None:
        for key in obj:
            if key not in keys:
                self.add("unknown_field", field, value=key)


def parse_event(data: object) -> EventRecord:
    """Read an event file's JSON data."""
    r = _Reader()
    top = r.obj(data, "format")
    if top is None:
        raise RulesError(r.problems)
    if top.get("format") != FORMAT:
        r.add("unknown_choice", "format", value=top.get("format"), choices=(FORMAT,))
        raise RulesError(r.problems)
    r.only(top, _KEYS, None)
    name = r.text(top.get("name"), "name", MAX_NAME)
    game = top.get("game")
    if game not in GAMES:
        r.add("unknown_choice", "game", value=game, choices=tuple(GAMES))
        raise RulesError(r.problems)
    assert isinstance(game, str)
    rules = top.get("rules", {})
    drawn = r.obj(top.get("draw", {}), "draw") or {}
    r.only(drawn, frozenset({"format", "table_size", "seed"}), "draw")
    try:
        format = Format(str(drawn.get("format", Format.INDIVIDUAL)))
    except ValueError:
        r.add(
            "unknown_choice",
            "draw.format",
            value=drawn.get("format"),
            choices=tuple(f.value for f in Format),
        )
        format = Format.INDIVIDUAL
    size = drawn.get("table_size", 4)
    if size not in TABLE_SIZES or isinstance(size, bool):
        r.add("unknown_choice", "draw.table_size", value=size, choices=TABLE_SIZES)
        size = 4
    assert isinstance(size, int)
    seed = r.whole(drawn, "seed", "draw.seed", 0, 2**53, default=0) or 0
    lowest, sides = False, tuple((i,) for i in range(size))
    rules_obj = r.obj(rules, "rules")
    if rules_obj is not None:
        if size not in GAMES[game].player_counts:
            r.add(
                "event_game_size", "draw.table_size", value=size, counts=GAMES[game].player_counts
            )
        try:
            lowest, sides = concours_facts(game, rules_obj, size)
        except RulesError as error:
            r.problems.extend(p.under("rules") for p in error.problems)
    planned = r.whole(top, "rounds_planned", "rounds_planned", 1, MAX_ROUNDS) or 1
    length = _length(r, top.get("length"))
    fee = _amount(r, top.get("entry_fee"), "entry_fee")
    currency = top.get("currency", "EUR")
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isalpha():
        r.add("currency_malformed", "currency", value=currency)
        currency = "EUR"
    date = None
    if top.get("date") is not None:
        try:
            date = datetime.date.fromisoformat(str(top.get("date")))
        except ValueError:
            r.add("date_malformed", "date", value=top.get("date"))
    place = r.text(top.get("place"), "place", MAX_PLACE, required=False)
    prizes = None
    try:
        prizes = parse_prizes(top.get("prizes"))
    except RulesError as error:
        r.problems.extend(error.problems)
    language = top.get("language", "fr")
    if language not in LANGUAGES:
        r.add("unknown_choice", "language", value=language, choices=tuple(LANGUAGES))
        language = "fr"
    zone = top.get("time_zone", default_zone(str(language)))
    if not isinstance(zone, str) or not _ZONE.fullmatch(zone):
        r.add("unknown_choice", "time_zone", value=zone, choices=("Europe/Paris", "UTC"))
        zone = "UTC"
    ranking = _ranking(r, top.get("ranking", {}))
    players = _players(r, top.get("players"), planned)
    numbers = {p.number: p for p in players}
    played: list[Played] = []
    games: dict[tuple[int, int], Mapping[str, object]] = {}
    started: dict[int, str] = {}
    for i, raw in enumerate(r.items(top.get("rounds", []), "rounds", MAX_ROUNDS)):
        found = _round(r, raw, i, numbers, size, game, games)
        if found is not None:
            played.append(found)
        at = raw.get("started") if isinstance(raw, dict) else None
        if at is not None:
            if isinstance(at, str) and _is_moment(at):
                started[i + 1] = at
            else:
                r.add("event_time", f"rounds[{i}].started", value=at)
    if len(played) > planned:
        r.add("event_rounds_more", "rounds", count=len(played), high=planned)
    history = _history(r, top.get("history", []))
    log = _log(r, top.get("log", []))
    if r.problems:
        raise RulesError(r.problems[:MAX_PROBLEMS])
    assert name is not None
    concours = Concours(
        game=game,
        format=format,
        rounds=planned,
        seed=seed,
        ranking=ranking,
        players=tuple(players),
        played=tuple(played),
        table_size=size,
        lowest_wins=lowest,
        sides=tuple(sides),
    )
    return EventRecord(
        name,
        concours,
        dict(rules_obj or {}),
        length,
        fee,
        currency.upper(),
        date,
        place,
        games,
        history,
        prizes,
        str(language),
        zone,
        started,
        log,
    )


def _length(r: _Reader, raw: object) -> Length:
    obj = r.obj(raw if raw is not None else {"deals": 8}, "length")
    if obj is None:
        return Length()
    r.only(obj, frozenset({"deals", "minutes"}), "length")
    if ("deals" in obj) == ("minutes" in obj):
        r.add("event_length", "length")
        return Length()
    if "deals" in obj:
        return Length(deals=r.whole(obj, "deals", "length.deals", 1, MAX_DEALS))
    return Length(minutes=r.whole(obj, "minutes", "length.minutes", 1, MAX_MINUTES))


def _amount(r: _Reader, raw: object, field: str) -> Decimal | None:
    if raw is None:
        return None
    try:
        if not isinstance(raw, str) or not _AMOUNT.fullmatch(raw):
            raise InvalidOperation
        amount = Decimal(raw)
        if not amount.is_finite() or amount < 0 or amount != round(amount, 2):
            raise InvalidOperation
    except InvalidOperation:
        r.add("event_amount", field, value=raw)
        return None
    return amount


def _ranking(r: _Reader, raw: object) -> Ranking:
    obj = r.obj(raw, "ranking")
    if obj is None:
        return Ranking()
    r.only(obj, frozenset({"rule", "places", "tie_breaks", "bye", "late"}), "ranking")
    try:
        rule = Rule(str(obj.get("rule", Rule.SCORE)))
    except ValueError:
        r.add(
            "unknown_choice",
            "ranking.rule",
            value=obj.get("rule"),
            choices=tuple(x.value for x in Rule),
        )
        rule = Rule.SCORE
    places: list[int] = []
    for i, value in enumerate(r.items(obj.get("places", []), "ranking.places", 10)):
        got = r.whole({"p": value}, "p", f"ranking.places[{i}]", 0, MAX_POINTS)
        if got is not None:
            places.append(got)
    breaks: list[TieBreak] = []
    default = [t.value for t in Ranking().tie_breaks]
    for i, value in enumerate(r.items(obj.get("tie_breaks", default), "ranking.tie_breaks", 5)):
        try:
            chosen = TieBreak(str(value))
        except ValueError:
            r.add(
                "unknown_choice",
                f"ranking.tie_breaks[{i}]",
                value=value,
                choices=tuple(t.value for t in TieBreak),
            )
            continue
        if chosen in breaks:
            r.add("event_twice", f"ranking.tie_breaks[{i}]", value=value)
        breaks.append(chosen)
    bye: int | None = 0
    if "bye" in obj:
        bye = (
            None
            if obj["bye"] is None
            else r.whole(obj, "bye", "ranking.bye", -MAX_SCORE, MAX_SCORE)
        )
    late = Late.BYE
    try:
        late = Late(str(obj.get("late", Late.BYE)))
    except ValueError:
        r.add(
            "unknown_choice",
            "ranking.late",
            value=obj.get("late"),
            choices=tuple(x.value for x in Late),
        )
    return Ranking(rule, tuple(places), tuple(breaks), bye, late)


def _players(r: _Reader, raw: object, planned: int) -> list[Player]:
    players: list[Player] = []
    seen_names: set[str] = set()
    for i, item in enumerate(r.items(raw, "players", MAX_PLAYERS)):
        field = f"players[{i}]"
        obj = r.obj(item, field)
        if obj is None:
            continue
        r.only(obj, frozenset({"number", "name", "joined", "left", "missed", "paid"}), field)
        number = r.whole(obj, "number", f"{field}.number", 1, MAX_PLAYERS)
        name = r.text(obj.get("name"), f"{field}.name", MAX_PLAYER_NAME)
        joined = r.whole(obj, "joined", f"{field}.joined", 1, MAX_ROUNDS, default=1) or 1
        left = r.whole(obj, "left", f"{field}.left", 0, MAX_ROUNDS, required=False)
        missed: list[int] = []
        for k, value in enumerate(r.items(obj.get("missed", []), f"{field}.missed", MAX_ROUNDS)):
            got = r.whole({"m": value}, "m", f"{field}.missed[{k}]", joined, MAX_ROUNDS)
            if got is not None and got not in missed:
                missed.append(got)
        paid = obj.get("paid", False)
        if not isinstance(paid, bool):
            r.add("not_boolean", f"{field}.paid", value=paid)
            paid = False
        if number is None or name is None:
            continue
        if number != i + 1:
            r.add("event_numbers", f"{field}.number", value=number, expected=i + 1)
        if skeleton(name) in seen_names:  # "Ana", "ana", "Аna" (Cyrillic А): one name
            r.add("event_twice", f"{field}.name", value=name)
        seen_names.add(skeleton(name))
        if left is not None and left < joined - 1:
            r.add("event_left_before", f"{field}.left", value=left, joined=joined)
        players.append(Player(number, name, joined, left, tuple(sorted(missed)), paid))
    del planned
    return players


def _round(
    r: _Reader,
    raw: object,
    i: int,
    players: Mapping[int, Player],
    size: int,
    game: str,
    games: dict[tuple[int, int], Mapping[str, object]],
) -> Played | None:
    field = f"rounds[{i}]"
    obj = r.obj(raw, field)
    if obj is None:
        return None
    r.only(obj, frozenset({"number", "tables", "byes", "started"}), field)
    number = i + 1
    if obj.get("number", number) != number:
        r.add("event_numbers", f"{field}.number", value=obj.get("number"), expected=number)
    sat: set[int] = set()

    def seat(value: object, where: str) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool) or value not in players:
            r.add("event_player_unknown", where, value=value)
            return None
        if not players[value].plays(number):
            r.add("event_player_absent", where, value=players[value].name, round=number)
        if value in sat:
            r.add("event_player_twice", where, value=players[value].name, round=number)
        sat.add(value)
        return value

    tables: list[Table] = []
    for t, item in enumerate(r.items(obj.get("tables"), f"{field}.tables", MAX_PLAYERS)):
        where = f"{field}.tables[{t}]"
        table = r.obj(item, where)
        if table is None:
            continue
        r.only(table, frozenset({"table", "seats", "scores", "accepted", "game"}), where)
        if table.get("table", t + 1) != t + 1:
            r.add("event_numbers", f"{where}.table", value=table.get("table"), expected=t + 1)
        seats = [
            seat(v, f"{where}.seats") for v in r.items(table.get("seats"), f"{where}.seats", 5)
        ]
        if len(seats) != size:
            r.add("event_table_size", f"{where}.seats", count=len(seats), size=size)
        scores = _scores(r, table, where, len(seats), game, players, seats, games, (number, t + 1))
        accepted = table.get("accepted", scores is not None)
        if not isinstance(accepted, bool):
            r.add("not_boolean", f"{where}.accepted", value=accepted)
            accepted = False
        if all(s is not None for s in seats):
            tables.append(Table(t + 1, tuple(s for s in seats if s is not None), scores, accepted))
    byes = [
        seat(v, f"{field}.byes") for v in r.items(obj.get("byes", []), f"{field}.byes", MAX_PLAYERS)
    ]
    missing = [p.name for p in players.values() if p.plays(number) and p.number not in sat]
    if missing:
        r.add("event_player_seatless", f"{field}.tables", value=missing[0], round=number)
    return Played(number, tuple(tables), tuple(b for b in byes if b is not None))


def _scores(
    r: _Reader,
    table: Mapping[str, object],
    where: str,
    seats: int,
    game: str,
    players: Mapping[int, Player],
    seated: Sequence[int | None],
    games: dict[tuple[int, int], Mapping[str, object]],
    at: tuple[int, int],
) -> tuple[int, ...] | None:
    """A table's result: its game's totals, else its scores as written."""
    written: tuple[int, ...] | None = None
    if table.get("scores") is not None:
        values = r.items(table.get("scores"), f"{where}.scores", 5)
        if len(values) != seats or not all(
            isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SCORE for v in values
        ):
            r.add("not_counts", f"{where}.scores", players=seats)
        else:
            written = tuple(int(v) for v in values if isinstance(v, int))
    if table.get("game") is None:
        return written
    raw = table.get("game")
    if isinstance(raw, dict) and raw.get("game") != game:
        r.add("event_game_other", f"{where}.game", value=raw.get("game"), game=game)
        return None
    try:
        record = parse_record(table.get("game"))
    except RulesError as error:
        r.problems.extend(p.under(f"{where}.game") for p in error.problems)
        return None
    if record.game != game:
        r.add("event_game_other", f"{where}.game", value=record.game, game=game)
        return None
    names = [players[s].name if s is not None and s in players else None for s in seated]
    if list(record.players) != names:
        r.add("event_game_players", f"{where}.game", value=", ".join(record.players))
        return None
    scores = score_record(record).scores
    if written is not None and written != tuple(scores):
        r.add("event_scores_differ", f"{where}.scores", value=list(written), scores=list(scores))
        return None
    games[at] = dump_record(record)
    return tuple(scores)


def _is_moment(text: str) -> bool:
    """An ISO 8601 date and time, as an export writes a history entry's."""
    try:
        datetime.datetime.fromisoformat(text)
    except ValueError:
        return False
    return len(text) > 10  # a time, not a day alone


def _history(r: _Reader, raw: object) -> tuple[Correction, ...]:
    found: list[Correction] = []
    for i, item in enumerate(r.items(raw, "history", 10_000)):
        field = f"history[{i}]"
        obj = r.obj(item, field)
        if obj is None:
            continue
        r.only(obj, frozenset({"round", "table", "reason", "before", "after", "at"}), field)
        number = r.whole(obj, "round", f"{field}.round", 1, MAX_ROUNDS)
        table = r.whole(obj, "table", f"{field}.table", 1, MAX_PLAYERS)
        reason = r.text(obj.get("reason"), f"{field}.reason", MAX_REASON)
        at = r.text(obj.get("at"), f"{field}.at", 40, required=False)
        if at is not None and not _is_moment(at):
            r.add("event_time", f"{field}.at", value=at)
            at = None

        def scores(
            key: str, obj: Mapping[str, object] = obj, field: str = field
        ) -> tuple[int, ...] | None:
            value = obj.get(key)
            if value is None:
                return None
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                r.add(
                    "not_counts",
                    f"{field}.{key}",
                    players=len(value) if isinstance(value, list) else 0,
                )
                return None
            return tuple(value)

        if number is not None and table is not None and reason is not None:
            found.append(Correction(number, table, reason, scores("before"), scores("after"), at))
    return tuple(found)


def _log(r: _Reader, raw: object) -> tuple[Logged, ...]:
    found: list[Logged] = []
    for i, item in enumerate(r.items(raw, "log", 100_000)):
        field = f"log[{i}]"
        obj = r.obj(item, field)
        if obj is None:
            continue
        keys = frozenset({"action", "round", "table", "reason", "before", "after", "at"})
        r.only(obj, keys, field)
        action = obj.get("action")
        if not isinstance(action, str) or not _ACTION.fullmatch(action):
            r.add("unknown_choice", f"{field}.action", value=action, choices=("draw", "accept"))
            continue
        at = obj.get("at")
        if not isinstance(at, str) or not _is_moment(at):
            r.add("event_time", f"{field}.at", value=at)
            continue
        number = r.whole(obj, "round", f"{field}.round", 0, MAX_ROUNDS, required=False)
        table = r.whole(obj, "table", f"{field}.table", 0, MAX_PLAYERS, required=False)
        reason = obj.get("reason")
        if reason is not None:
            reason = r.text(reason, f"{field}.reason", MAX_REASON)
        found.append(Logged(action, at, number, table, reason, obj.get("before"), obj.get("after")))
    return tuple(found)


def dump_event(event: EventRecord) -> dict[str, object]:
    """Write an event as its file's JSON data."""
    c = event.concours
    out: dict[str, object] = {"format": FORMAT, "name": event.name}
    if event.date is not None:
        out["date"] = event.date.isoformat()
    if event.place is not None:
        out["place"] = event.place
    out["game"] = c.game
    out["rules"] = dict(event.rules)
    out["draw"] = {"format": c.format.value, "table_size": c.table_size, "seed": c.seed}
    out["rounds_planned"] = c.rounds
    length = event.length
    out["length"] = {"deals": length.deals} if length.deals else {"minutes": length.minutes}
    if event.entry_fee is not None:
        out["entry_fee"] = f"{event.entry_fee:.2f}"
    out["currency"] = event.currency
    if event.prizes is not None:
        out["prizes"] = prizes_json(event.prizes)
    out["language"] = event.language
    ranking: dict[str, object] = {
        "rule": c.ranking.rule.value,
        "tie_breaks": [t.value for t in c.ranking.tie_breaks],
        "bye": c.ranking.bye,
        "late": c.ranking.late.value,
    }
    if c.ranking.places:
        ranking["places"] = list(c.ranking.places)
    out["ranking"] = ranking
    out["time_zone"] = event.time_zone
    out["players"] = [player_json(p) for p in c.players]
    games = event.games or {}
    rounds = []
    for played in c.played:
        tables = []
        for table in played.tables:
            item: dict[str, object] = {"table": table.number, "seats": list(table.seats)}
            if table.scores is not None:
                item["scores"] = list(table.scores)
                item["accepted"] = table.accepted
            if (played.number, table.number) in games:
                item["game"] = dict(games[played.number, table.number])
            tables.append(item)
        item = {"number": played.number, "tables": tables, "byes": list(played.byes)}
        if event.started and played.number in event.started:
            item["started"] = event.started[played.number]
        rounds.append(item)
    out["rounds"] = rounds
    out["history"] = [
        {
            "round": h.round,
            "table": h.table,
            "reason": h.reason,
            "before": None if h.before is None else list(h.before),
            "after": None if h.after is None else list(h.after),
            **({"at": h.at} if h.at else {}),
        }
        for h in event.history
    ]
    if event.log:
        out["log"] = [
            {
                "action": line.action,
                "round": line.round,
                "table": line.table,
                "reason": line.reason,
                "before": line.before,
                "after": line.after,
                "at": line.at,
            }
            for line in event.log
        ]
    return out


def player_json(player: Player) -> dict[str, object]:
    """A player as the event file writes it (`missed` and `paid` only when said)."""
    out: dict[str, object] = {
        "number": player.number,
        "name": player.name,
        "joined": player.joined,
        "left": player.left,
    }
    if player.missed:
        out["missed"] = list(player.missed)
    if player.paid:
        out["paid"] = True
    return out


def default_zone(language: str) -> str:
    """The time zone a club of this language is in, unless it says: Paris for a
    French one, UTC otherwise."""
    return "Europe/Paris" if language == "fr" else "UTC"
