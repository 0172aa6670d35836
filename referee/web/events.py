"""A club's concours, run from one phone (the director's), played at the tables'
phones, shown on a TV.

Three links, no accounts: the director's (`/e/<token>`: check-in, rounds, the
timer, corrections), the tables' (`/c/<play_token>`, on every table card: a
table's game, its acceptance) and the public one (`/ev/<view_token>`: the
ranking, the seating, the results; `/ev/<view_token>/tv` for a big screen). The
views parse forms, call `services.events` and redirect.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import time
import unicodedata
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import format_decimal, get_locale, ngettext
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from referee.engine.errors import RulesError, problem
from referee.engine.records import MAX_RECORD_BYTES
from referee.events.concours import (
    NAMES,
    SEPARATED,
    Figure,
    Line,
    Rule,
    TieBreak,
    figure,
    rank,
)
from referee.events.concours import number as plain
from referee.events.draw import Format
from referee.events.eventfile import MAX_EVENT_BYTES, default_zone
from referee.events.plan import changed_since, planned
from referee.events.prizes import Split
from referee.games import GAMES
from referee.lru import LRU
from referee.models import Event, EventTable, utcnow
from referee.services import events as service
from referee.services.games import StaleVersion
from referee.services.tables import people_at
from referee.web.board import ordinal
from referee.web.browser import REMEMBERED, phone_id, remember_in
from referee.web.cache import CachedPage
from referee.web.catalog import default_rules
from referee.web.format import money
from referee.web.forms import messages_of, rules_from_form, whole
from referee.web.home import Home
from referee.web.homes import home_of
from referee.web.hosts import public_url
from referee.web.pages import MAX_FILE_NAME, Page, download
from referee.web.sheets import ascii_name
from referee.web.tables import my_tables

bp = Blueprint("events", __name__)

#: The pages everyone of a concours reads (public, TV, tables), drawn once per
#: version and language and kept: 400 phones and 50 TVs told of a new version at
#: once ask for the same few pages (`bench/concours.py`).
SHOWN: LRU[CachedPage] = LRU(256)

#: Each shared page's latest drawing: when, and its key in SHOWN (`_shown`).
LATEST: dict[tuple[str, str, str], tuple[float, tuple[str, str, int, str]]] = {}
#: A shared page is drawn at most this often, in seconds (`_shown`).
FRESH = 3.0

#: The time zones a club picks among (the French-speaking world's first); any
#: other stays possible in an event file.
ZONES = (
    "Europe/Paris",
    "Europe/Brussels",
    "Europe/Zurich",
    "Europe/Luxembourg",
    "Europe/Monaco",
    "America/Montreal",
    "Indian/Reunion",
    "America/Martinique",
    "America/Guadeloupe",
    "Pacific/Noumea",
    "Pacific/Tahiti",
    "Africa/Casablanca",
    "Africa/Dakar",
    "Africa/Abidjan",
    "Europe/London",
    "America/New_York",
    "UTC",
)

#: The TV's slides the director may choose among.
SLIDES = service.SLIDES

#: The tie-breaks a director may choose among, in the order offered.
TIE_BREAKS = tuple(t.value for t in TieBreak)


def club_zone(event: Event) -> datetime.tzinfo:
    """The club's time zone (UTC when this machine does not know its name)."""
    try:
        return ZoneInfo(event.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return datetime.UTC


@bp.app_template_filter("club_time")
def club_time(moment: datetime.datetime | None, event: Event, pattern: str = "%H:%M") -> str:
    """A time stored in UTC, as the club's clock on the wall says it."""
    if moment is None:
        return ""
    return moment.replace(tzinfo=datetime.UTC).astimezone(club_zone(event)).strftime(pattern)


@bp.app_template_global()
def round_ends(event: Event) -> datetime.datetime | None:
    """When the event's round in play ends (a timed round): for the game page's clock."""
    return service.ends_at(event)


@bp.app_template_global()
def round_alarm() -> int:
    """Minutes before a timed round's end when every screen warns."""
    return service.PRE_ALARM


@bp.app_template_global()
def server_now() -> str:
    return utcnow().isoformat(timespec="seconds") + "Z"


def _remember(token: str) -> None:
    remember_in("events", token)


def my_events() -> list[Event]:
    """The concours this phone directs (created, imported or opened by their
    director's link), the latest first: the way back to them from the home page."""
    tokens = [t for t in session.get("events", []) if isinstance(t, str)]
    return service.events_of(tokens[:REMEMBERED])


def loaded_event(event: Event | None) -> Event:
    if event is None:
        abort(404)
    found = service.loaded(event.id)
    if found is None:
        abort(404)
    return found


def director_event(token: str) -> Event:
    event = loaded_event(service.find(token))
    _remember(token)
    return event


def _version() -> int | None:
    return whole(request.form.get("version"))


def _back(event: Event) -> BaseResponse:
    return redirect(url_for("events.director", token=event.token))


def words(event: Event) -> dict[str, Any]:
    """What every page of the event says of its rules, in the reader's language."""
    ranking = event.ranking or {}
    rule = _(NAMES[f"rule-{ranking.get('rule', Rule.SCORE.value)}"])
    breaks = [_(NAMES[t]) for t in ranking.get("tie_breaks", [])]
    this = home_of(event.game)
    stated = event.rules or {}
    usual = default_rules(event.game)
    # The house rules every table plays by, where they are not the game's usual ones.
    house = [
        _("%(rule)s: %(value)s", rule=flag.label, value=flag.words(stated[flag.name]))
        for flag in this.flags
        if flag.name in stated and stated[flag.name] != usual.get(flag.name)
    ]
    return {"rule": rule, "breaks": breaks, "game_name": this.called(stated), "house": house}


def _clock(event: Event) -> dict[str, Any]:
    """What the round's clock needs."""
    return {
        "ends_at": service.ends_at(event),
        "pre_alarm": service.PRE_ALARM,
        "now_iso": utcnow().isoformat(timespec="seconds") + "Z",
    }


def common(event: Event, *, statuses: bool = False) -> dict[str, Any]:
    """What the director's, the public and the TV pages all show (`statuses`: each
    table of the round in play, its deals and totals so far: the director's)."""
    concours = service.concours_of(event)
    lines = rank(concours)
    names = {p.number: p.name for p in event.players}
    latest = [t for t in event.tables if t.round == len(event.rounds)]
    states = {t.id: service.status(event, t) for t in latest} if statuses else {}
    clock = _clock(event)
    if latest and all(t.accepted is not None for t in latest):
        clock["ends_at"] = None  # the round is over everywhere: no countdown
    results = [t for t in sorted(event.tables, key=lambda t: (-t.round, t.number)) if t.accepted]
    return {
        "event": event,
        "concours": concours,
        "lines": lines,
        "names": names,
        "latest": latest,
        "statuses": states,
        "results": results[:12],
        **clock,
        "separated": {k: _(v) for k, v in SEPARATED.items()},
        "tie_names": {t: _(NAMES[t]) for t in TIE_BREAKS},
        "figure": figure,
        "screen": service.screen_of(event),
        "words": words(event),
        "seated": _seated_by_name(event, latest),
        "ranked": bool(results),
        "fee": money(Decimal(event.entry_fee), event.currency) if event.entry_fee else None,
        "provisional": len(event.rounds) < event.rounds_planned
        or any(t.accepted is None for t in latest),
        "done": sum(
            1
            for r in event.rounds
            if all(t.accepted is not None for t in event.tables if t.round == r.number)
        ),
        **prize_words(event, lines),
    }


def _cash(cents: int, currency: str) -> str:
    return money(Decimal(cents) / 100, currency)


def percent(value: Decimal) -> str:
    """A percentage as the reader writes it: "12,5 %" in French (a narrow space
    before the sign), "12.5%" in English."""
    number = format_decimal(value.normalize())
    return f"{number}\u202f%" if str(get_locale()) == "fr" else f"{number}%"


def prize_words(event: Event, lines: tuple[Line, ...]) -> dict[str, Any]:
    """What the pages and sheets say of the prizes: the pot and how it was made,
    each place's prize, each ranking line's (`line_prizes`, in the lines' order,
    None without prizes), and what fixed sums lack if they exceed the pot."""
    found = service.purse(event, lines)
    if found is None:
        return {"purse": None, "line_prizes": None}
    currency = event.currency
    places = []
    for place, cents in enumerate(found.places, 1):
        share = found.prizes.split[place - 1]
        stated = percent(share) if found.prizes.by is Split.PERCENT else ""
        label = ordinal(place) if place <= 20 else _("place %(n)d", n=place)
        places.append((label, _cash(cents, currency), stated))
    fixed = found.prizes.by is Split.AMOUNT
    unpaid = sum(found.places[len(lines) :]) if lines else 0
    short = sum(found.places) - found.pot.pot if fixed else 0
    return {
        "purse": {
            "pot": _cash(found.pot.pot, currency),
            "fees": _cash(found.pot.fees, currency),
            "kept": _cash(found.pot.kept, currency) if found.pot.kept else None,
            "kept_share": percent(found.prizes.kept),
            "places": places,
            "short": _cash(short, currency) if short > 0 else None,
            # What fixed sums leave of the pot (the club's), and a pot of nothing.
            "rest": _cash(-short, currency) if short < 0 else None,
            "empty": found.pot.pot == 0 and not fixed,
            # Prizes of places no player took (more prizes than players).
            "unpaid": _cash(unpaid, currency) if unpaid > 0 else None,
            "paid": _cash(found.paid, currency),
        },
        "line_prizes": [_cash(c, currency) if c else "" for c in found.lines],
    }


def _seated_by_name(event: Event, latest: list[EventTable]) -> list[tuple[str, str]]:
    """Each player of the round in play with their table and seat, by name."""
    where: dict[int, str] = {}
    for t in latest:
        for seat, number in enumerate(t.seats, 1):
            where[number] = _("table %(table)d, seat %(seat)d", table=t.number, seat=seat)
    if event.rounds:
        for number in event.rounds[-1].byes:
            where[number] = _("sits out")
    return sorted(
        ((p.name, where[p.number]) for p in event.players if p.number in where),
        key=lambda x: name_key(x[0]),
    )


def name_key(name: str) -> tuple[str, str]:
    """A name's place in an alphabetical list: accents and case aside (Élodie among
    the E), then as written (so the order is the same every time)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return bare.casefold(), name


@bp.route("/events/new", methods=["GET", "POST"])
def new() -> Page:
    """A new concours: its game, format, rounds, their length, the ranking rule and
    tie-breaks (stated before it starts), its players (typed or pasted)."""
    errors: list[str] = []
    form = request.form
    if request.method == "POST":
        try:
            setup = _setup(form)
            event = service.create(setup)
        except RulesError as error:
            errors = messages_of(error.problems)
        else:
            _remember(event.token)
            return _back(event)
    page = render_template(
        "events/new.html",
        errors=errors,
        form=form,
        games=[(key, home_of(key).name) for key in GAMES],
        usual_rounds=_usual_rounds(),
        game_rules=[(key, home_of(key).flags, default_rules(key)) for key in GAMES],
        formats=[f.value for f in Format],
        tie_breaks=[(t, _(NAMES[t])) for t in TIE_BREAKS],
        tables_here=_tables_here(),
        today=utcnow().date().isoformat(),
        zones=ZONES,
        default_zone=default_zone(str(get_locale())),
    )
    return (page, 422) if errors else page


def _house_rules(form: Any) -> dict[str, Any]:
    """The chosen game's house rules, as the form states them: each game's boxes are
    named `rule_<game>_<flag>` (the form holds every game's, the chosen one's shown),
    read as the new-game form reads its own; the engine checks them."""
    game = form.get("game", "")
    if game not in GAMES:
        return {}
    prefix = f"rule_{game}_"
    own = {f"rule_{k.removeprefix(prefix)}": v for k, v in form.items() if k.startswith(prefix)}
    given = rules_from_form(home_of(game).flags, own)
    # Only what differs from the game's usual rules: the file states the house's own.
    usual = default_rules(game)
    return {name: value for name, value in given.items() if usual.get(name) != value}


def _usual_rounds() -> str:
    """Each game's usual round, as the new-concours form says it under the length:
    "8 deals (Rami 12)" (the games whose round differs from most, by name)."""
    usual = Home.round_length
    others = [
        f"{home_of(key).name} {home_of(key).round_length}"
        for key in GAMES
        if home_of(key).round_length != usual
    ]
    said = ngettext("%(num)d deal", "%(num)d deals", usual)
    return f"{said} ({', '.join(others)})" if others else said


def _tables_here() -> list[tuple[str, str, int]]:
    """This phone's tables (their token, name and how many people), to check their
    people in at once."""
    return [(t.token, t.name, len(people_at(t))) for t in my_tables()]


def _with_table_people(form: Any) -> str:
    """The names typed or pasted, then the people of the table chosen among this
    phone's own (a token it does not hold adds no one), each name once."""
    text = form.get("names", form.get("players", "")) or ""
    chosen = form.get("from_table", "")
    table = next((t for t in my_tables() if t.token == chosen), None) if chosen else None
    if table is None:
        return text
    typed = {n.casefold() for n in service.names_from(text)}
    more = [p for p in people_at(table) if p.casefold() not in typed]
    return "\n".join([text, *more])


#: A whole number as a director types it, a minus sign allowed (its range is the
#: event's to check, which says it with the number).
_SIGNED = re.compile(r"\s*([-−]?)\s*([0-9]{1,9})\s*")


def _setup(form: Any) -> service.Setup:
    """The new concours's form as a `Setup`; what is not a number where one is
    wanted is refused here, naming its field and what was typed."""
    problems = []

    def number(text: str | None, field: str, default: int | None = None) -> int | None:
        if text is None or not text.strip():
            return default
        found = _SIGNED.fullmatch(text)
        if found is None:
            problems.append(problem("not_integer", field, value=text.strip()[:20]))
            return None
        return int(found.group(2)) * (-1 if found.group(1) else 1)

    kind = form.get("length_kind", "deals")
    length = number(form.get("length"), f"length.{'minutes' if kind == 'minutes' else 'deals'}")
    if length is None and kind != "minutes" and form.get("game") in GAMES:
        length = home_of(form["game"]).round_length  # left empty: the game's usual round
    bye_text = form.get("bye", "0").strip()
    places = [
        number(p, f"ranking.places[{i}]")
        for i, p in enumerate(form.get("places", "").replace(";", ",").split(","))
        if p.strip()
    ]
    ranking: dict[str, Any] = {
        "late": form.get("late", "zero"),
        "rule": form.get("rule", "score"),
        "tie_breaks": [t for t in form.getlist("tie_breaks") if t] or ["lot"],
        "bye": None if bye_text == "average" else number(bye_text, "ranking.bye", 0),
    }
    if places:
        ranking["places"] = places
    rounds = number(form.get("rounds"), "rounds_planned")
    if rounds is None and not (form.get("rounds") or "").strip():
        problems.append(problem("missing", "rounds_planned"))
    size = number(form.get("table_size"), "draw.table_size", 4)
    prizes = prizes_from(form)
    if problems:
        raise RulesError(problems)
    return service.Setup(
        name=form.get("name", ""),
        game=form.get("game", ""),
        rules=_house_rules(form),
        format=form.get("format", "individual"),
        table_size=size or 4,
        rounds=rounds if rounds is not None else 0,
        deals=length if kind == "deals" else None,
        minutes=length if kind == "minutes" else None,
        ranking=ranking,
        players=service.names_from(_with_table_people(form)),
        entry_fee=_fee(form),
        place=(form.get("place") or "").strip() or None,
        prizes=prizes,
        language=str(get_locale()),
        played_on=(form.get("played_on") or "").strip() or None,
        time_zone=(form.get("time_zone") or "").strip() or None,
    )


#: What separates the prizes typed in one box once it holds a space, a semicolon
#: or a slash: those, and a comma followed by a space ("50, 30, 20"); a comma between
#: digits is then a decimal comma ("48,60 32,40"). Without any, commas separate
#: ("50,30,20").
_PRIZE_SPLIT = re.compile(r"[;/\s]+|,(?=\s)")


def prizes_from(form: Any) -> dict[str, Any] | None:
    """The prize rule of a form (None: no prizes): the split by place, the kept
    share, how the split is stated. The numbers are the event file's to check,
    which names the one refused with what was typed."""
    text = (form.get("prize_split") or "").replace("%", " ").strip()
    if not text:
        return None
    parts = _PRIZE_SPLIT.split(text) if re.search(r"[;/\s]", text) else text.split(",")
    kept = (form.get("prize_kept") or "").replace("%", "").strip().replace(",", ".")
    return {
        "split": [p.replace(",", ".") for p in parts if p],
        "by": "amount" if form.get("prize_by") == "amount" else "percent",
        "kept": kept or "0",
    }


def _fee(form: Any) -> str | None:
    """The entry fee as typed ("7,50", "7,50 €", "€7.50", "1 000"): its currency
    sign and spaces are the form's, a decimal comma a point."""
    return re.sub(r"[\s€$£]", "", form.get("entry_fee") or "").replace(",", ".") or None


@bp.post("/e/<token>/prizes")
def prizes(token: str) -> BaseResponse:
    """State or change the entry fee and the prizes (before the first round)."""
    event = director_event(token)
    return _act(
        event,
        lambda: service.set_prizes(
            event, _fee(request.form), prizes_from(request.form), _version()
        ),
    )


@bp.get("/e/<token>")
def director(token: str) -> str:
    """The director's page: the round in play (its tables, their state, the
    clock), what to do next, the players, the ranking, the history."""
    event = director_event(token)
    corrections = {
        t.id: (service.pending(event, t), service.impact_of(event, t))
        for t in event.tables
        if t.correcting
    }
    shown = common(event, statuses=True)
    collected = service.money(event)
    # The route slips printed with an earlier draw: those changed since, to reprint.
    printed = [c.after for c in event.changes if c.action == "slips" and c.after]
    reprint = None
    if printed and event.format != Format.PAIRS.value:
        plan = planned(shown["concours"])
        last = printed[-1]
        if last.get("code") != plan.code:
            changed = changed_since(plan, last) or set()
            reprint = {"since": last.get("code"), "code": plan.code, "count": len(changed)}
    return render_template(
        "events/director.html",
        **shown,
        corrections=corrections,
        ready_ids=[i for i, st in shown["statuses"].items() if st.ready],
        tables_here=_tables_here(),
        typed_names=session.pop("typed_names", ""),
        play_url=public_url("events.tables", play_token=event.play_token),
        view_url=public_url("events.public", view_token=event.view_token),
        pin=service.director_pin(event),
        reprint=reprint,
        slide_names=slide_names(),
        pot_words=None
        if collected is None
        else ngettext(
            "%(amount)s (%(num)d player)",
            "%(amount)s (%(num)d players)",
            service.paying(event),
            amount=money(collected, event.currency),
        ),
        history_words={
            "create": _("concours created"),
            "import": _("concours imported"),
            "check-in": _("players checked in"),
            "withdraw": _("a player withdrew"),
            "come-back": _("a player came back"),
            "remove": _("a player taken off the list"),
            "removed": _("a player taken off the list, then put back"),
            "put-back": _("a player put back on the list"),
            "rename": _("a player renamed"),
            "paid": _("an entry fee marked"),
            "rounds": _("rounds in all changed"),
            "prizes": _("entry fee and prizes stated"),
            "draw": _("round drawn"),
            "accept": _("result accepted"),
            "by-hand": _("result entered by the director"),
            "reopen": _("game opened again by the director"),
            "overtime": _("a table let play on after the bell, or stopped"),
            "settings": _("settings changed"),
            "slips": _("route slips printed"),
            "correct": _("correction opened"),
            "apply": _("correction applied"),
            "cancel": _("correction given up"),
            "corrected": _("result corrected"),
        },
    )


def slide_names() -> list[tuple[str, str]]:
    """The TV's slides, named for the director."""
    names = {
        "ranking": _("Ranking"),
        "tables": _("The tables"),
        "names": _("By name"),
        "prizes": _("Prizes"),
        "results": _("Latest results"),
    }
    return [(s, names[s]) for s in SLIDES]


@bp.get("/ev/<view_token>/ranking.csv")
def ranking_csv(view_token: str) -> Response:
    """The ranking for a spreadsheet: rank, name, points, each tie-break, each round."""
    event = loaded_event(service.find_view(view_token))
    lines = service.ranking(event)
    breaks = [t for t in (event.ranking or {}).get("tie_breaks", []) if t != "lot"]
    head = [_("Rank"), _("Player"), _("Points"), *(_(NAMES[t]) for t in breaks)]
    head += [_("Round %(n)d", n=r + 1) for r in range(len(event.rounds))]
    head += [_("Separated by")]
    lang = str(get_locale())
    found = service.purse(event, lines)
    if found is not None:
        head.append(_("Prize"))
    rows = [head]
    for i, line in enumerate(lines):
        rows.append(
            [
                str(line.rank),
                line.name + (f" ({_('withdrawn')})" if line.withdrawn else ""),
                cell(line.points, lang),
                *(cell(line.values[TieBreak(t)], lang) for t in breaks),
                *("" if r is None else cell(r, lang) for r in line.rounds),
                _(SEPARATED[line.separated_by]) if line.separated_by else "",
                *([cents(found.lines[i], lang)] if found is not None else []),
            ]
        )
    name = ascii_name(event.name)[:MAX_FILE_NAME] or "concours"
    return download(csv_text(rows, lang), "text/csv", f"{name}-ranking.csv")


def cents(amount: int, lang: str) -> str:
    """An amount in cents as a spreadsheet reads it: 130.00, or 130,00 in French."""
    text = f"{amount // 100}.{amount % 100:02d}"
    return text.replace(".", ",") if lang == "fr" else text


@bp.get("/e/<token>/players.csv")
def players_csv(token: str) -> Response:
    """The players for a spreadsheet: number, name, from and to which round, paid."""
    event = director_event(token)
    rows = [[_("No."), _("Player"), _("From round"), _("Withdrew after round"), _("Paid")]]
    for p in event.players:
        rows.append(
            [
                str(p.number),
                p.name,
                str(p.joined),
                "" if p.left is None else str(p.left),
                _("yes") if p.paid else "",
            ]
        )
    name = ascii_name(event.name)[:MAX_FILE_NAME] or "concours"
    lang = str(get_locale())
    return download(csv_text(rows, lang), "text/csv", f"{name}-players.csv")


def csv_text(rows: list[list[str]], lang: str) -> str:
    """Rows as a spreadsheet opens them in the reader's language: a French
    spreadsheet reads semicolons (its decimal mark is the comma), an English one
    commas; a byte order mark so that accents read right. A cell that a spreadsheet
    would take for a formula is quoted as text."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if lang == "fr" else ",", lineterminator="\r\n")
    for row in rows:
        writer.writerow(
            ["'" + c if c[:1] in _FORMULA and not _NUMBER.fullmatch(c) else c for c in row]
        )
    return "\ufeff" + out.getvalue()


#: What a spreadsheet takes for the start of a formula in a cell.
_FORMULA = frozenset("=+-@")
#: A number as a CSV cell writes it (a spreadsheet reads it as one).
_NUMBER = re.compile(r"-?[0-9]+(?:[.,][0-9]+)?")


def cell(value: Figure, lang: str) -> str:
    """A ranking figure in a CSV cell: a plain minus, the language's decimal mark."""
    text = str(plain(value))
    return text.replace(".", ",") if lang == "fr" else text


def _act(event: Event, action: Any) -> BaseResponse:
    """Run a director's action: a refusal flashed in words, a stale form said so."""
    try:
        action()
    except StaleVersion:
        flash(_("The event changed meanwhile (another phone?): look, then try again."))
    except RulesError as error:
        for message in messages_of(error.problems):
            flash(message)
    except LookupError:
        abort(404)
    return _back(event)


#: Refusals of a check-in said at most (the rest counted): they travel in the
#: session's cookie, as does the list given back if it is no longer than this.
SAID = 8
MAX_GIVEN_BACK = 1500

#: A problem of the n-th player of the event (from 1), as the event file's checks blame it.
_PLAYER_FIELD = re.compile(r"players\[(\d+)\]")


@bp.post("/e/<token>/players")
def check_in(token: str) -> BaseResponse:
    event = director_event(token)
    typed, before = request.form.get("names", ""), len(event.players)
    # Those already in (a list pasted again, a table's people) are said, not refused;
    # a name twice in what was typed counts once.
    here = {p.name.casefold() for p in event.players}
    wanted: list[str] = []
    already: list[str] = []
    taken: set[str] = set()
    for name in service.names_from(_with_table_people(request.form)):
        if name.casefold() in here:
            already.append(name)
        elif name.casefold() not in taken:
            wanted.append(name)
            taken.add(name.casefold())
    text = "\n".join(wanted)

    def act() -> None:
        if already:
            flash(_("Already checked in: %(names)s.", names=", ".join(already)))
        if not wanted and already:
            return
        try:
            added = service.check_in(event, text, _version())
        except RulesError as error:
            said = _naming(error, wanted, before)
            for message in said[:SAID]:
                flash(message)
            if len(said) > SAID:
                flash(_("And %(n)d more.", n=len(said) - SAID))
            # Given back to be corrected, when it fits the session's cookie.
            if len(typed.encode()) <= MAX_GIVEN_BACK:
                session["typed_names"] = typed
            return
        flash(_("Checked in: %(names)s.", names=", ".join(added)))

    return _act(event, act)


def _naming(error: RulesError, typed: list[str], before: int) -> list[str]:
    """The check-in's refusals, each name's problem with the name it is about
    ("players[19].name" is the typed list's line 19 - `before`, from 0)."""
    said = []
    for found in error.problems:
        place = _PLAYER_FIELD.match(found.field or "")
        line = int(place.group(1)) - before if place else -1
        message = messages_of([found])[0]
        if 0 <= line < len(typed):
            name = typed[line] if len(typed[line]) <= 24 else typed[line][:20] + "…"
            message = _("%(name)s: %(problem)s", name=name, problem=message)
        said.append(message)
    return said


def _player_name(event: Event, number: int) -> str:
    name = next((p.name for p in event.players if p.number == number), None)
    if name is None:
        abort(404)
    return name


@bp.post("/e/<token>/players/<int:number>/withdraw")
def withdraw(token: str, number: int) -> BaseResponse:
    event = director_event(token)
    name = _player_name(event, number)

    def act() -> None:
        service.withdraw(event, number, _version())
        flash(
            _(
                "%(name)s withdrew: not drawn again, and ranked after those who play to the end.",
                name=name,
            )
        )
        _say_pot(event)

    return _act(event, act)


@bp.post("/e/<token>/players/<int:number>/back")
def come_back(token: str, number: int) -> BaseResponse:
    """Undo a withdrawal: the player is back from the next round."""
    event = director_event(token)
    name = _player_name(event, number)

    def act() -> None:
        missed = service.come_back(event, number, _version())
        if missed:
            flash(
                ngettext(
                    "%(name)s is back from round %(next)d; round %(rounds)s is missed, "
                    "scored as a late arrival's.",
                    "%(name)s is back from round %(next)d; rounds %(rounds)s are missed, "
                    "scored as a late arrival's.",
                    len(missed),
                    name=name,
                    next=len(event.rounds) + 1,
                    rounds=", ".join(map(str, missed)),
                )
            )
        else:
            flash(
                _(
                    "%(name)s is back: drawn from round %(next)d.",
                    name=name,
                    next=len(event.rounds) + 1,
                )
            )
        _say_pot(event)

    return _act(event, act)


@bp.post("/e/<token>/players/<int:number>/remove")
def remove_player(token: str, number: int) -> BaseResponse:
    """Take a player off the list before round 1 (a name typed by mistake)."""
    event = director_event(token)

    def act() -> None:
        name = service.remove_player(event, number, _version())
        flash(_("Off the list: %(name)s (“Put back” undoes it).", name=name))
        _say_pot(event)

    return _act(event, act)


@bp.post("/e/<token>/players/put-back/<int:change>")
def put_back(token: str, change: int) -> BaseResponse:
    """Undo a removal: the player is back at their number."""
    event = director_event(token)

    def act() -> None:
        name = service.put_back(event, change, _version())
        flash(_("%(name)s is back on the list.", name=name))
        _say_pot(event)

    return _act(event, act)


@bp.post("/e/<token>/players/<int:number>/rename")
def rename_player(token: str, number: int) -> BaseResponse:
    """Another name for a player (a typo): ranking, prints and season follow."""
    event = director_event(token)
    before = _player_name(event, number)

    def act() -> None:
        if service.rename_player(event, number, request.form.get("name", ""), _version()):
            after = _player_name(event, number)
            flash(_("%(before)s is now %(after)s.", before=before, after=after))

    return _act(event, act)


@bp.post("/e/<token>/players/<int:number>/paid")
def paid(token: str, number: int) -> BaseResponse:
    """Mark a player's entry fee paid, or not."""
    event = director_event(token)
    _player_name(event, number)

    def act() -> None:
        service.set_paid(event, number, request.form.get("paid") == "1", _version())
        _say_pot(event)

    return _act(event, act)


def _say_pot(event: Event) -> None:
    """After a change of players, what the pot is now (when there is an entry fee)."""
    collected = service.money(event)
    if collected is None:
        return
    count = service.paying(event)
    flash(
        ngettext(
            "The entry fees: %(amount)s (%(num)d player).",
            "The entry fees: %(amount)s (%(num)d players).",
            count,
            amount=money(collected, event.currency),
        )
    )


@bp.post("/e/<token>/rounds")
def rounds(token: str) -> BaseResponse:
    event = director_event(token)
    given = request.form.get("rounds", "")
    count = whole(given)

    def act() -> None:
        if count is None:
            raise RulesError([problem("not_integer", "rounds_planned", value=given)])
        service.set_rounds(event, count, _version())

    return _act(event, act)


@bp.post("/e/<token>/draw")
def draw(token: str) -> BaseResponse:
    event = director_event(token)

    def act() -> None:
        played = service.draw_round(event, _version())
        flash(_("Round %(n)d drawn: the tables can play.", n=played.number))

    return _act(event, act)


def _table(event: Event, round: int, number: int) -> EventTable:
    table = service.table_of(event, number, round)
    if table is None:
        abort(404)
    return table


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/correct")
def correct(token: str, round: int, number: int) -> BaseResponse:
    """The director opens an accepted result, with a reason; the game's page follows."""
    event = director_event(token)
    table = _table(event, round, number)
    try:
        service.correct(event, table, request.form.get("reason", ""), _version())
    except StaleVersion:
        flash(_("The event changed meanwhile (another phone?): look, then try again."))
        return _back(event)
    except RulesError as error:
        for message in messages_of(error.problems):
            flash(message)
        return _back(event)
    except LookupError:
        abort(404)
    if table.game_row is None:
        return _back(event)
    flash(_("Change the game, then come back to apply the correction."))
    return redirect(url_for("games.show", token=table.game_row.token))


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/apply")
def apply(token: str, round: int, number: int) -> BaseResponse:
    return _on_table(
        token, round, number, service.apply, _("Correction applied: the ranking counts it.")
    )


def _on_table(token: str, round: int, number: int, action: Any, said: str) -> BaseResponse:
    """A director's action on one table's result (`action(event, table, version)`),
    then `said`; a refusal flashed in words (`_act`)."""
    event = director_event(token)
    table = _table(event, round, number)

    def act() -> None:
        action(event, table, _version())
        flash(said)

    return _act(event, act)


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/cancel")
def cancel(token: str, round: int, number: int) -> BaseResponse:
    """The director gives up a correction opened by mistake: the result stays."""
    return _on_table(
        token, round, number, service.cancel, _("Correction given up: the accepted result stays.")
    )


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/accept")
def director_accept(token: str, round: int, number: int) -> BaseResponse:
    """The director accepts a table's result in its players' stead, saying why."""
    event = director_event(token)
    table = _table(event, round, number)
    reason = request.form.get("reason", "")
    return _act(event, lambda: service.accept(event, table, None, _version(), reason=reason))


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/reopen")
def reopen(token: str, round: int, number: int) -> BaseResponse:
    """The director opens the table's game again: same players, same seats."""
    event = director_event(token)
    table = _table(event, round, number)

    def act() -> None:
        service.reopen(event, table, request.form.get("reason", ""), _version())
        flash(_("Table %(n)d has a new game: its phone opens it from the table card.", n=number))

    return _act(event, act)


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/by-hand")
def by_hand(token: str, round: int, number: int) -> BaseResponse:
    """The director enters a table's result by hand (its phone lost)."""
    event = director_event(token)
    table = _table(event, round, number)
    scores: list[int] = []
    problems = []
    for i in range(len(table.seats)):
        typed = (request.form.get(f"score{i}") or "").strip()
        found = _SIGNED.fullmatch(typed)
        if found is None:
            problems.append(problem("not_integer", f"scores[{i}]", value=typed[:20]))
            continue
        scores.append(int(found.group(2)) * (-1 if found.group(1) else 1))

    def act() -> None:
        if problems:
            raise RulesError(problems)
        service.by_hand(event, table, scores, request.form.get("reason", ""), _version())
        flash(_("Table %(n)d: the result entered counts in the ranking.", n=number))

    return _act(event, act)


@bp.post("/e/<token>/round/<int:round>/table/<int:number>/overtime")
def overtime(token: str, round: int, number: int) -> BaseResponse:
    """Let a table play on after the bell, or stop it."""
    event = director_event(token)
    table = _table(event, round, number)
    on = request.form.get("on") == "1"
    return _act(event, lambda: service.let_play_on(event, table, on, _version()))


@bp.post("/e/<token>/settings")
def settings(token: str) -> BaseResponse:
    """Who may accept at a table, and what the TV shows."""
    event = director_event(token)
    slides = [s for s in request.form.getlist("slides") if s in SLIDES]
    seconds = whole(request.form.get("seconds"))

    def act() -> None:
        service.set_settings(
            event,
            self_accept=request.form.get("self_accept") == "1",
            slides=slides,
            seconds=seconds,
            version=_version(),
        )
        flash(_("Settings saved."))

    return _act(event, act)


@bp.get("/e/<token>/export.json")
def export(token: str) -> Response:
    event = director_event(token)
    name = ascii_name(event.name)[:MAX_FILE_NAME] or "concours"
    return download(service.export_json(event), "application/json", f"{name}.json")


@bp.route("/events/import", methods=["GET", "POST"])
def import_event() -> Page:
    """A concours from its file (referee-event/1)."""
    errors: list[str] = []
    if request.method == "POST":
        upload = request.files.get("file")
        data = upload.read(MAX_EVENT_BYTES + 1) if upload else b""
        for part in request.files.values():  # a large one was spooled to a file
            part.close()
        try:
            if not data:
                raise RulesError([])
            event = service.import_event(data)
        except (RulesError, ValueError) as error:
            problems = getattr(error, "problems", ())
            errors = messages_of(problems) or [_("Choose an event file (.json).")]
        else:
            _remember(event.token)
            return _back(event)
    page = render_template("events/import.html", errors=errors, limit=MAX_RECORD_BYTES)
    return (page, 422) if errors else page


def _shown(event: Event | None, template: str, **more: Any) -> Response:
    """A page every reader of the event sees alike, drawn and compressed once per
    version and language; a reload of an unchanged page is a 304.

    Drawn at most once every `FRESH` seconds: when 100 tables accept their results
    within a few seconds (the end of a round), each acceptance is a version, and
    450 phones and TVs reloading would draw the 400-line ranking once each. A page
    younger than that is served as it is; its own version is older than the
    event's, so its script loads it again (after its `data-calm`) and catches up."""
    if event is None:
        abort(404)
    lang = str(get_locale())
    key = (template, event.uid, event.version, lang)
    etag = f"e{event.uid}-{event.version}-{lang}-{template.rsplit('/', 1)[-1]}"
    recent = LATEST.get((template, event.uid, lang))
    if recent is not None and recent[1] != key and time.monotonic() - recent[0] < FRESH:
        held = SHOWN.peek(recent[1])
        if held is not None:
            return held.response(request.accept_encodings, request.if_none_match)

    def draw() -> CachedPage:
        page = CachedPage.of(render_template(template, **common(loaded_event(event)), **more), etag)
        LATEST[template, event.uid, lang] = (time.monotonic(), key)
        return page

    page = SHOWN.get_or_make(key, draw)
    return page.response(request.accept_encodings, request.if_none_match)


@bp.get("/c/<play_token>")
def tables(play_token: str) -> Response:
    """The tables' page (the QR of every table card): the round in play, table by
    table, and each player's table by name."""
    return _shown(service.find_play(play_token), "events/tables.html")


#: The tables whose code this phone holds, at most (a phone serves one table a
#: round, a few over an afternoon).
KEYS_KEPT = 12


def keyed(event: Event, number: int) -> bool:
    """Whether this phone holds table `number`'s code: given now (`k`, from the QR
    code of its table card), or before (kept in its session, which the server
    signs). Only such a phone enters the table's deals and accepts its result."""
    mark = f"{event.uid}:{number}"
    held = [m for m in session.get("table_keys", []) if isinstance(m, str)]
    given = request.values.get("k")
    if given is not None and service.key_fits(event, number, given):
        if mark not in held:
            session["table_keys"] = [mark, *held][:KEYS_KEPT]
        return True
    return mark in held


@bp.route("/c/<play_token>/<int:number>", methods=["GET", "POST"])
def card(play_token: str, number: int) -> Page:
    """A table's card: its players this round, its game (to play it), and once the
    round is over, an opponent's acceptance of the result. Read by anyone with the
    tables' link; written only by a phone that holds the table's code (`keyed`)."""
    found = service.card_of(play_token, number)
    if found is None:
        abort(404)
    event, table = found
    errors: list[str] = []
    mine = keyed(event, number)
    phone = phone_id()  # named from the first visit: its cookie outlives any race
    if request.method == "POST":
        try:
            if not mine:
                raise RulesError([problem("event_key", None)])
            service.accept(
                event,
                table,
                request.form.get("who", ""),
                _version(),
                phone=phone,
                pin=request.form.get("pin"),
                none_in_play=request.form.get("none_in_play") == "1",
            )
        except StaleVersion:
            errors = [_("The event changed meanwhile: look, then accept again.")]
        except service.PinLocked as locked:
            errors = [
                ngettext(
                    "Too many wrong PINs: the PIN is checked again in %(num)d minute.",
                    "Too many wrong PINs: the PIN is checked again in %(num)d minutes.",
                    locked.minutes,
                )
            ]
        except LookupError:
            errors = [_("This result was accepted already.")]
        except RulesError as error:
            errors = messages_of(error.problems)
        else:
            flash(_("Result accepted: it counts in the ranking."))
            return redirect(url_for("events.card", play_token=play_token, number=number))
    state = service.status(event, table)
    page = render_template(
        "events/card.html",
        **_clock(event),
        event=event,
        names={p.number: p.name for p in event.players},
        table=table,
        state=state,
        errors=errors,
        mine=mine,
        wrong_code=not mine and bool(request.values.get("k")),
        own_phone=mine and service.entered_by(table, phone) and not event.self_accept,
    )
    return (page, 422) if errors else page


@bp.get("/c/<play_token>/<int:number>/play")
def table_game(play_token: str, number: int) -> BaseResponse:
    """The table card's QR code, the same all event (with the table's code, `k`):
    the game of table `number` in the round in play (to enter its deals), or its
    card once its result is in (to accept it, to see it); before the first round,
    the tables' page. Without the table's code: the card, to read."""
    found = service.card_of(play_token, number)
    if found is None:
        event = service.find_play(play_token)
        if event is None:
            abort(404)
        keyed(event, number)  # kept for the rounds to come
        return redirect(url_for("events.tables", play_token=play_token))
    _event, table = found
    if (
        keyed(_event, number)
        and table.game_row is not None
        and table.accepted is None
        and not service.status(_event, table).ready
    ):
        return redirect(url_for("games.show", token=table.game_row.token))
    return redirect(url_for("events.card", play_token=play_token, number=number))


@bp.get("/c/<play_token>/<int:number>/director")
def back_to_director(play_token: str, number: int) -> BaseResponse:
    """From a table's game under correction, back to the director's page: on the
    director's own phone (which knows the concours), else the table's card (the
    director's link is never written in a page the tables may see)."""
    event = service.find_play(play_token)
    if event is None:
        abort(404)
    if event.token in session.get("events", []):
        return _back(event)
    return redirect(url_for("events.card", play_token=play_token, number=number))


@bp.get("/ev/<view_token>")
def public(view_token: str) -> Response:
    """The public page: the ranking (tie-breaks shown), the seating, the results."""
    return _shown(service.find_view(view_token), "events/public.html", tv=False)


@bp.get("/ev/<view_token>/tv")
def tv(view_token: str) -> Response:
    """The TV (1920×1080, read across a room): the ranking, the seating by table and
    by name, the latest results, in turn; the round's clock on top; live."""
    return _shown(service.find_view(view_token), "events/tv.html", tv=True)


@bp.get("/ev/<view_token>/version.json")
def version(view_token: str) -> Response:
    """The event's version (its pages reload when it changes) and the server's
    time (its clock counts from it, whatever the phone's own clock says)."""
    found = service.version_of(view_token)
    if found is None:
        abort(404)
    response = jsonify(version=found, now=utcnow().isoformat(timespec="milliseconds") + "Z")
    response.headers["Cache-Control"] = "no-store"
    return response
