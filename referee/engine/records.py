"""The game record, format `referee-game/1`: parse, validate, dump; and standings as JSON.

See `shared/RECORD-FORMAT.md`. Parsing refuses unknown fields and flags and reports
every structural problem of every deal at once; scoring then checks what depends on
a deal's place in the game (the dealer, a deal after the win).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from referee.engine import GAMES
from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.fields import read_object, read_seat
from referee.engine.game import Record, Standings

FORMAT: Final = "referee-game/1"
MAX_NAME: Final = 40
#: Stakes are whole cents at most ("0.50"): money is exact, never a float.
STAKE_PLACES: Final = 2
MAX_DEALS: Final = 10_000
#: The largest record text read (a finished 24-deal game is about 4 KB).
MAX_RECORD_BYTES: Final = 1024 * 1024
_RECORD_FIELDS: Final = frozenset(
    {"format", "game", "players", "first_dealer", "rules", "stake", "deals"}
)

AnyRecord = Record[Any, Any]


def load_record(text: str | bytes) -> AnyRecord:
    """Parse a record from JSON text; bad JSON is a `RulesError` like any other."""
    if len(text) > MAX_RECORD_BYTES:
        raise RulesError([problem("too_large", None, high=MAX_RECORD_BYTES // 1024)])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RulesError(
            [problem("bad_json", None, detail=error.msg, line=error.lineno, column=error.colno)]
        ) from None
    except UnicodeDecodeError:
        raise RulesError([problem("bad_encoding")]) from None
    except RecursionError:
        raise RulesError([problem("too_deep")]) from None
    return parse_record(data)


def parse_record(data: object) -> AnyRecord:
    """Check a decoded JSON record and build a `Record` of typed deals."""
    problems: list[Problem] = []
    obj = read_object(data, _RECORD_FIELDS, problems)
    if obj is None:
        raise RulesError([problem("record_not_object", None)])
    if obj.get("format") != FORMAT:
        problems.append(problem("format_unknown", "format", value=obj.get("format")))
    key = obj.get("game")
    game = GAMES.get(key) if isinstance(key, str) else None
    if game is None:
        problems.append(problem("game_unknown", "game", value=key, games=", ".join(GAMES)))
        raise RulesError(problems)
    players = _parse_players(obj.get("players"), game.player_counts, problems)
    count = len(players) if players is not None else game.player_counts[0]
    names = players if players is not None else ("?",) * count
    first_dealer = read_seat(obj, "first_dealer", count, problems, optional=True)
    rules = _parse_rules(game, obj.get("rules", {}), problems)
    stake = _parse_stake(obj["stake"], problems) if "stake" in obj else None
    # Deals are read under the game's rules; with broken rules only those are reported.
    deals = _parse_deals(game, obj.get("deals", []), names, rules, problems) if rules else ()
    check(problems)
    assert players is not None
    return Record(
        game=game.key,
        players=players,
        first_dealer=first_dealer or 0,
        rules=rules,
        stake=stake,
        deals=deals,
    )


def _parse_players(
    raw: object, counts: tuple[int, ...], problems: list[Problem]
) -> tuple[str, ...] | None:
    """Names in clockwise seat order: non-empty, distinct, short enough for a score sheet."""
    expected = " or ".join(str(n) for n in counts)
    if not isinstance(raw, list):
        problems.append(problem("players_not_list", "players", value=raw, expected=expected))
        return None
    if len(raw) not in counts:
        problems.append(problem("players_count", "players", count=len(raw), expected=expected))
        return None
    found = len(problems)
    names: list[str] = []
    for seat, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            problems.append(problem("player_name", f"players[{seat}]", seat=seat, value=name))
        elif len(name.strip()) > MAX_NAME:
            problems.append(
                problem("player_name_long", f"players[{seat}]", seat=seat, high=MAX_NAME)
            )
        else:
            names.append(name.strip())
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            problems.append(problem("player_twice", "players", value=name))
        seen.add(name.casefold())
    return tuple(names) if len(problems) == found else None


def _parse_rules(game: Any, raw: object, problems: list[Problem]) -> Any:
    if not isinstance(raw, dict):
        problems.append(problem("not_object", "rules", value=raw))
        return None
    try:
        return game.parse_rules(raw)
    except RulesError as error:
        problems.extend(_rule_problem(p) for p in error.problems)
        return None


def _rule_problem(p: Problem) -> Problem:
    """Locate a flag's problem under `rules`; an unknown field of `rules` is an unknown rule."""
    if p.code == "unknown_field":
        return Problem("rule_unknown", f"rules.{p.field}", None, p.params)
    return p.under("rules")


def _parse_stake(raw: object, problems: list[Problem]) -> Decimal | None:
    """A stake is a decimal string of currency units, more than zero, at most in cents."""
    if not isinstance(raw, str):
        problems.append(problem("stake_not_string", "stake", value=raw))
        return None
    try:
        stake = Decimal(raw.strip())
    except InvalidOperation:
        problems.append(problem("stake_malformed", "stake", value=raw))
        return None
    if not stake.is_finite() or stake <= 0:
        problems.append(problem("stake_not_positive", "stake", value=raw))
        return None
    exponent = stake.as_tuple().exponent
    assert isinstance(exponent, int)
    if exponent < -STAKE_PLACES:
        problems.append(problem("stake_precision", "stake", value=raw, places=STAKE_PLACES))
        return None
    return stake


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
    """The standings as `referee score` prints them (RECORD-FORMAT.md)."""
    out: dict[str, object] = {
        "game": standings.game,
        "finished": standings.finished,
        "winners": list(standings.winners),
        "scores": list(standings.scores),
        "deals": [
            {
                "deltas": list(result.deltas),
                "dealer": result.dealer,
                "marks": [_mark_json(m.kind.value, m.seat) for m in result.marks],
            }
            for result in standings.deals
        ],
        "next_dealer": standings.next_dealer,
    }
    if standings.boites is not None:
        out["boites"] = list(standings.boites)
    if standings.contracts_left is not None:
        out["manche"] = standings.manche
        out["contracts_left"] = list(standings.contracts_left)
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
