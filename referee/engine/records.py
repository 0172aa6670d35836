"""The game record, format `referee-game/1`: parse, validate, dump; and standings as JSON.

See `docs/RECORD-FORMAT.md`. Parsing refuses unknown fields and flags and reports
every structural problem of every deal at once; scoring then checks what depends on
a deal's place in the game (the dealer, a deal after the win).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.fields import read_object, read_seat, text_problem
from referee.engine.game import Record, Standings
from referee.engine.names import PERSON_MAX, TITLE_MAX, alike, clean
from referee.engine.settlement import StakePer
from referee.games import GAMES

FORMAT: Final = "referee-game/1"
MAX_NAME: Final = PERSON_MAX
MAX_PLACE: Final = TITLE_MAX
#: Stakes are whole cents at most ("0.50"): money is exact, never a float.
STAKE_PLACES: Final = 2
#: The largest stake, in currency units (docs/RULES.md): more is no card table's.
MAX_STAKE: Final = Decimal(10_000)
#: A stake as the record writes it: ASCII digits, a point, at most two decimals.
STAKE_PATTERN: Final = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,2})?", re.ASCII)
#: The longest game a table can reach (docs/RULES.md): a game of a fixed length has
#: far fewer deals, and one of more than 300 deals is not a real game.
MAX_DEALS: Final = 300
#: The largest record text read (a finished 24-deal game is about 4 KB).
MAX_RECORD_BYTES: Final = 1024 * 1024
#: How deeply a record's JSON may nest: a record needs four levels; allow some more.
MAX_DEPTH: Final = 8
#: The most digits a JSON number may have: no count, seat or score needs more.
MAX_DIGITS: Final = 15
_CURRENCY: Final = re.compile(r"[A-Z]{3}", re.ASCII)
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)
_RECORD_FIELDS: Final = frozenset(
    {
        "format",
        "game",
        "players",
        "first_dealer",
        "rules",
        "stake",
        "stake_per",
        "currency",
        "place",
        "date",
        "deals",
    }
)

AnyRecord = Record[Any, Any]


class _NumberTooLong(ValueError):
    """A JSON number with more digits than any field of a record can hold."""


class _NotJson(ValueError):
    """NaN or Infinity: Python's parser reads them, JSON has no such values."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _NumberTooLong(text)
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise _NumberTooLong(text)
    value = float(text)
    if not math.isfinite(value):  # 1e999: no number a record holds
        raise _NumberTooLong(text)
    return value


class _DuplicateKey(ValueError):
    """An object that names one key twice: which one counts is not said by JSON."""


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found: dict[str, object] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


def _parse_constant(text: str) -> object:
    raise _NotJson(text)


def load_record(text: str | bytes, stored: bool = False) -> AnyRecord:
    """Parse a record from JSON text; bad JSON is a `RulesError` like any other.

    Whatever the JSON parser would accept but no record can hold is refused here,
    before any field is read: numbers of more than `MAX_DIGITS` digits, NaN and
    Infinity, nesting deeper than `MAX_DEPTH`, text that cannot be encoded.
    """
    return parse_record(decode_json(text, MAX_RECORD_BYTES, MAX_DEPTH), stored=stored)


def decode_json(text: str | bytes, max_bytes: int, max_depth: int) -> object:
    """Decode a file's JSON, refusing what no record holds (see `load_record`): more
    than `max_bytes`, nesting deeper than `max_depth`, overlong numbers, NaN."""
    if len(text) > max_bytes:
        raise RulesError([problem("too_large", None, high=max_bytes // 1024)])
    # A byte-order mark, as Windows' Notepad saves UTF-8, is not part of the text.
    if isinstance(text, bytes) and text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]
    elif isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as error:
        raise RulesError(
            [problem("bad_json", None, detail=error.msg, line=error.lineno, column=error.colno)]
        ) from None
    except UnicodeDecodeError:
        raise RulesError([problem("bad_encoding")]) from None
    except RecursionError:
        raise RulesError([problem("too_deep")]) from None
    except _NumberTooLong:
        raise RulesError([problem("number_too_long", None, high=MAX_DIGITS)]) from None
    except _NotJson as error:
        raise RulesError([problem("not_json_value", None, value=str(error))]) from None
    except _DuplicateKey as error:
        raise RulesError([problem("duplicate_key", None, value=str(error))]) from None
    _check_shape(data, max_depth)
    return data


def _check_shape(data: object, max_depth: int) -> None:
    """Refuse nesting deeper than a record has, and text that cannot be encoded.

    Walked with a stack, not recursion, so that no depth of input can overflow it.
    """
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            found = text_problem(value, None)
            if found is not None:
                raise RulesError([found])
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > max_depth:
            raise RulesError([problem("too_deep")])
        if isinstance(value, dict):
            stack.extend((key, depth) for key in value)
            stack.extend((item, depth + 1) for item in value.values())
        else:
            stack.extend((item, depth + 1) for item in value)


def parse_record(data: object, stored: bool = False) -> AnyRecord:
    """Check a decoded JSON record and build a `Record` of typed deals.

    `stored`: a record this app kept (a game's rows, a backup), read as it was
    accepted then where a newer rule would refuse it (`_parse_players`)."""
    problems: list[Problem] = []
    obj = read_object(data, _RECORD_FIELDS, problems)
    if obj is None:
        raise RulesError([problem("record_not_object", None)])
    if "format" not in obj:
        problems.append(problem("missing", "format"))
    elif obj["format"] != FORMAT:
        problems.append(problem("format_unknown", "format", value=obj["format"]))
    key = obj.get("game")
    game = GAMES.get(key) if isinstance(key, str) else None
    if key is None:
        problems.append(problem("missing", "game"))
        raise RulesError(problems)
    if game is None:
        problems.append(problem("game_unknown", "game", value=key, games=", ".join(GAMES)))
        raise RulesError(problems)
    players = _parse_players(obj.get("players"), game.player_counts, problems, stored)
    count = len(players) if players is not None else game.player_counts[0]
    first_dealer = read_seat(obj, "first_dealer", count, problems, optional=True)
    rules = _parse_rules(game, obj.get("rules", {}), problems)
    stake = _parse_stake(obj["stake"], problems) if "stake" in obj else None
    stake_per = _parse_stake_per(obj, problems)
    currency = _parse_pattern(obj, "currency", _CURRENCY, problems)
    place = _parse_place(obj, problems)
    date = _parse_date(obj, problems)
    # Deals are read under the game's rules, for its players: with broken rules or
    # players only those are reported (a deal read for a count of players the record
    # does not have would blame every deal falsely).
    deals = (
        _parse_deals(game, obj.get("deals", []), players, rules, problems)
        if rules and players is not None
        else ()
    )
    check(problems)
    assert players is not None
    return Record(
        game=game.key,
        players=players,
        first_dealer=first_dealer or 0,
        rules=rules,
        stake=stake,
        deals=deals,
        currency=currency,
        place=place,
        date=date,
        stake_per=stake_per,
    )


def _parse_players(
    raw: object, counts: tuple[int, ...], problems: list[Problem], stored: bool = False
) -> tuple[str, ...] | None:
    """Names in clockwise seat order, cleaned (`names.clean`): not empty once their
    invisible characters are gone, short enough for a score sheet, and no two that
    read the same (`names.skeleton`: "Ana" and "Аna" with a Cyrillic А are one name).

    A `stored` record (one this app accepted before these rules) keeps a name as it
    was where cleaning would leave it empty or reading like another seat's: its game
    still opens; a new name given to it is checked in full (`services.games.rename`).
    """
    expected = tuple(counts)  # said "4 or 5" in the player's language
    if not isinstance(raw, list):
        problems.append(problem("players_not_list", "players", value=raw, expected=expected))
        return None
    if len(raw) not in counts:
        problems.append(problem("players_count", "players", count=len(raw), expected=expected))
        return None
    found = len(problems)
    names: list[str] = []
    for seat, name in enumerate(raw):
        field = f"players[{seat}]"
        if not isinstance(name, str) or not name.strip():
            problems.append(problem("player_name", field, seat=seat, value=name))
        elif (bad := text_problem(name, field, controls=True)) is not None:
            problems.append(bad)
        elif not (cleaned := clean(name)) and not stored:
            problems.append(problem("player_name", field, seat=seat, value=name))
        elif len(cleaned or name.strip()) > MAX_NAME:
            problems.append(problem("player_name_long", field, seat=seat, high=MAX_NAME))
        else:
            names.append(cleaned or name.strip())
    if len(problems) > found:
        return None
    pairs = alike(names)
    if stored and pairs:
        # These seats read as stored (stripped only): as many people as they were.
        for seat in {seat for pair in pairs for seat in pair}:
            names[seat] = str(raw[seat]).strip()
        folded = [name.casefold() for name in names]
        pairs = [(folded.index(f), seat) for seat, f in enumerate(folded) if folded.index(f) < seat]
    for seat, other in pairs:
        problems.append(
            problem("player_twice", "players", name=names[seat], seat=seat, other_seat=other)
        )
    return tuple(names) if len(problems) == found else None


def _parse_rules(game: Any, raw: object, problems: list[Problem]) -> Any:
    if not isinstance(raw, dict):
        problems.append(problem("not_object", "rules", value=raw))
        return None
    try:
        return game.parse_rules(raw)
    except RulesError as error:
        labels = {flag.name: flag.label for flag in game.flags}
        problems.extend(_rule_problem(p, labels) for p in error.problems)
        return None


def _rule_problem(p: Problem, labels: Mapping[str, str]) -> Problem:
    """Locate a flag's problem under `rules`, named by the flag's own label (its one
    declaration); an unknown field of `rules` is an unknown rule."""
    if p.field is not None and p.field in labels:
        p = p.shown_as(labels[p.field])
    if p.code == "unknown_field":
        return Problem("rule_unknown", f"rules.{p.field}", None, p.params)
    return p.under("rules")


def _parse_stake_per(obj: Mapping[str, object], problems: list[Problem]) -> StakePer:
    """`stake_per`: "game" (the default) or "point"."""
    raw = obj.get("stake_per", StakePer.GAME.value)
    if isinstance(raw, str) and raw in {per.value for per in StakePer}:
        return StakePer(raw)
    problems.append(problem("stake_per_unknown", "stake_per", value=raw))
    return StakePer.GAME


def _parse_stake(raw: object, problems: list[Problem]) -> Decimal | None:
    """A stake is a plain decimal string of currency units ("0.50"): ASCII digits, a
    point and at most two decimals; more than zero and at most `MAX_STAKE`.

    No exponent, sign, underscore or other digits: what `Decimal()` or `int()` would
    also read is not how people write money.
    """
    if not isinstance(raw, str):
        problems.append(problem("stake_not_string", "stake", value=raw))
        return None
    text = raw.strip()
    if not STAKE_PATTERN.fullmatch(text):
        if re.fullmatch(r"[0-9]+\.[0-9]{3,}", text, re.ASCII):
            problems.append(problem("stake_precision", "stake", value=raw, places=STAKE_PLACES))
        else:
            problems.append(problem("stake_malformed", "stake", value=raw))
        return None
    stake = Decimal(text)
    if stake <= 0:
        problems.append(problem("stake_not_positive", "stake", value=raw))
        return None
    if stake > MAX_STAKE:
        problems.append(problem("stake_too_high", "stake", value=raw, high=money_text(MAX_STAKE)))
        return None
    return stake


def _parse_pattern(
    obj: Mapping[str, object], key: str, pattern: re.Pattern[str], problems: list[Problem]
) -> str | None:
    if key not in obj:
        return None
    value = obj[key]
    if not isinstance(value, str) or not pattern.fullmatch(value):
        problems.append(problem(f"{key}_malformed", key, value=value))
        return None
    return value


def _parse_place(obj: Mapping[str, object], problems: list[Problem]) -> str | None:
    """Where the game was played: free text, one line, short enough for a sheet."""
    value = obj.get("place")
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(problem("place_malformed", "place", value=value))
        return None
    if (bad := text_problem(value, "place", controls=True)) is not None:
        problems.append(bad)
        return None
    if len(value.strip()) > MAX_PLACE:
        problems.append(problem("place_long", "place", high=MAX_PLACE))
        return None
    return value.strip() or None


def _parse_date(obj: Mapping[str, object], problems: list[Problem]) -> datetime.date | None:
    """The day the game was played, `YYYY-MM-DD`."""
    text = _parse_pattern(obj, "date", _DATE, problems)
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        problems.append(problem("date_malformed", "date", value=text))
        return None


def _parse_deals(
    game: Any, raw: object, players: tuple[str, ...], rules: Any, problems: list[Problem]
) -> tuple[Any, ...]:
    if not isinstance(raw, list):
        problems.append(problem("deals_not_list", "deals", value=raw))
        return ()
    if len(raw) > MAX_DEALS:
        problems.append(problem("deals_too_many", "deals", count=len(raw), high=MAX_DEALS))
        return ()
    deals = []
    for number, item in enumerate(raw, start=1):
        try:
            deals.append(game.parse_deal(item, players, rules))
        except RulesError as error:
            problems.extend(p.at_deal(number) for p in error.problems)
    return tuple(deals)


def with_deal(record: AnyRecord, raw: object) -> AnyRecord:
    """The record with one more deal, `raw`, read as `parse_record` reads the deals:
    the same deal or the same problems (at the deal's number).

    The deals before it are read already: a deal recorded reads one deal instead of
    the whole record again (issue 19). What depends on a deal's place in the game
    (its dealer, a deal after the win) is scoring's, as for a whole record.
    """
    number = len(record.deals) + 1
    if number > MAX_DEALS:
        raise RulesError([problem("deals_too_many", "deals", count=number, high=MAX_DEALS)])
    try:
        deal = GAMES[record.game].parse_deal(raw, record.players, record.rules)
    except RulesError as error:
        raise RulesError([p.at_deal(number) for p in error.problems]) from None
    return dataclasses.replace(record, deals=(*record.deals, deal))


def dump_record(record: AnyRecord) -> dict[str, object]:
    """Write a record back as JSON data; every rule flag is stated, defaults included."""
    game = GAMES[record.game]
    out: dict[str, object] = {
        "format": FORMAT,
        "game": record.game,
        "players": list(record.players),
        "first_dealer": record.first_dealer,
        "rules": game.dump_rules(record.rules),
    }
    if record.stake is not None:
        out["stake"] = str(record.stake)
    if record.stake_per is not StakePer.GAME:
        out["stake_per"] = record.stake_per.value
    if record.currency is not None:
        out["currency"] = record.currency
    if record.place is not None:
        out["place"] = record.place
    if record.date is not None:
        out["date"] = record.date.isoformat()
    out["deals"] = [game.dump_deal(deal) for deal in record.deals]
    return out


def score_record(record: AnyRecord) -> Standings:
    """Score a parsed record with its game's rules."""
    return GAMES[record.game].score(record)


def money_text(amount: Decimal) -> str:
    """An amount as the record format writes money: at least two decimals ("3.00")."""
    places = max(STAKE_PLACES, -int(amount.as_tuple().exponent))
    return f"{amount:.{places}f}"


def standings_json(standings: Standings) -> dict[str, object]:
    """The standings as `referee score` prints them (docs/RECORD-FORMAT.md)."""
    out: dict[str, object] = {
        "game": standings.game,
        "finished": standings.finished,
        "winners": list(standings.winners),
        "scores": list(standings.scores),
        "deals": [
            {
                "deltas": list(result.deltas),
                "dealer": result.dealer,
                "marks": [_mark_json(str(m.kind), m.seat) for m in result.marks],
            }
            for result in standings.deals
        ],
        "next_dealer": standings.next_dealer,
    }
    for name, value in standings.extras.items():  # the game's own figures
        out[name] = list(value) if isinstance(value, tuple) else value
    if standings.money is not None:
        out["money"] = {
            "stake": money_text(standings.money.stake),
            "net": [money_text(n) for n in standings.money.net],
            "transfers": [
                {"from": t.payer, "to": t.payee, "amount": money_text(t.amount)}
                for t in standings.money.transfers
            ],
        }
    return out


def _mark_json(kind: str, seat: int | None) -> Mapping[str, object]:
    return {"kind": kind} if seat is None else {"kind": kind, "seat": seat}
