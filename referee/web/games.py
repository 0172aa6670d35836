"""Games: new game, the scoreboard, deal entry with preview, corrections, undo, records."""

from __future__ import annotations

import re
import uuid
from typing import Any, Literal

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from referee.engine.errors import RulesError
from referee.engine.game import Standings
from referee.engine.names import clean, isolate
from referee.engine.records import MAX_DEALS
from referee.engine.settlement import StakePer
from referee.extensions import csrf, db
from referee.games import GAMES
from referee.models import Game
from referee.services import events, tables
from referee.services import games as service
from referee.services.games import Scored
from referee.web.board import Row, build
from referee.web.browser import my_tokens, phone_id, remember
from referee.web.cache import LRU, CachedPage, cached_page, game_page_key
from referee.web.catalog import CURRENCIES, default_rules
from referee.web.dealwords import DealWords, words_of
from referee.web.format import signed
from referee.web.forms import (
    NewGameForm,
    messages_by_group,
    messages_of,
    rules_from_form,
    stake_of,
    table_seats,
    values_of,
    whole,
)
from referee.web.homes import home_of
from referee.web.pages import (
    Page,
    download,
    engine_rules,
    file_name,
    game_page_tag,
    gone,
    load,
    load_shown,
    render_game_page,
    why,
    with_just,
)

bp = Blueprint("games", __name__)

# --- a new game ----------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new() -> Page:
    """Choose the game, then the players in seat order, the dealer, house rules, stake."""
    key = request.values.get("game", "")
    # Started at a table (its players' link): the game is played there.
    table = (
        tables.find_table(request.values.get("table", "")) if request.values.get("table") else None
    )
    if key not in GAMES:
        return render_template("choose.html", table=table)
    form = NewGameForm(seats=home_of(key).seats)
    errors: dict[str, list[str]] = {}
    rules = default_rules(key)
    if request.method == "POST":  # an unticked box is absent from the post: read it only then
        rules.update(rules_from_form(home_of(key).flags, request.form))
    if request.method == "POST":
        if form.validate_on_submit():
            settings = service.Settings(
                game=key,
                players=form.names(),
                first_dealer=form.dealer(),
                rules=rules_from_form(home_of(key).flags, request.form),
                stake=stake_of(form.stake.data),
                currency=form.currency.data,
                place=(form.place.data or "").strip() or None,
                stake_per=form.stake_per.data or StakePer.GAME,
                table_id=table.id if table else None,
                confirm_deals=request.form.get("confirm_deals") == "on",
            )
            try:
                game = service.create(settings)
            except RulesError as error:
                errors = messages_by_group(error.problems, None)
            else:
                remember(game.token)
                return redirect(url_for("games.show", token=game.token))
        else:
            errors = {name: list(messages) for name, messages in form.errors.items()}
    page = render_template(
        "new.html",
        key=key,
        form=form,
        flags=home_of(key).flags,
        rules=rules,
        errors=errors,
        names=_suggested(table),
        suggestions=_suggested_texts(key, table),
        # Started at a table: its people in the seats they had in its last game of
        # this kind (services.tables.last_seats); the template fills the seats with them.
        prefill=tables.last_seats(table, key) if table is not None else [],
        table=table,
        currencies=CURRENCIES,
        seats=table_seats(home_of(key).seats),
    )
    return (page, 422) if request.method == "POST" else page


def _suggested_texts(key: str, table: Any) -> dict[str, list[str]]:
    """For each house rule that is a line of text (the game a table names): this
    table's and this browser's earlier ones, then the usual ones."""
    home = home_of(key)
    out: dict[str, list[str]] = {}
    for flag in home.flags:
        if flag.kind != "text":
            continue
        earlier = service.known_texts(key, flag.name, my_tokens(), table.id if table else None)
        seen = {text.casefold() for text in earlier}
        usual = [str(text) for text in home.suggested(flag.name)]
        out[flag.name] = [*earlier, *(t for t in usual if t.casefold() not in seen)]
    return out


def _suggested(table: Any) -> list[str]:
    """Names for the new-game form: the table's people first, then this browser's."""
    names = tables.people_at(table) if table is not None else []
    return [*names, *(n for n in service.known_names(my_tokens()) if n not in names)]


# --- the scoreboard ------------------------------------------------------------------


@bp.get("/g/<token>")
def show(token: str) -> Page:
    """The scoreboard: totals, who deals, the history of deals, the chart, the money.

    The page holds nothing of the session (no form, no token), so it is rendered
    once per game version and language and served again from memory; a page with
    a message to flash, a just-recorded deal's undo or a finished game's "same table
    again" (forms, so a session's CSRF token) is rendered fresh.
    """
    state = service.state_of(token)
    if state is None:
        gone(token)
    version, finished, confirming = state
    remember(token)
    just = _just_done(token)
    # A page of this phone's own (`page_shared`), or one with a message: drawn fresh.
    shared = service.page_shared(spectators=False, finished=finished, confirming=confirming)
    if session.get("_flashes") or not shared:
        return _drawn(token, just)
    key = game_page_key(False, token, version, str(get_locale()))
    etag = f"{version}-{key[3]}-{game_page_tag(token)}"
    page = cached_page(key, lambda: CachedPage.of(_drawn(token), etag))
    if just is not None and just.get("version") == version:
        # The phone that just recorded (or took back) a deal: the same page as the
        # table's, with its undo in place; personal, so with no entity tag.
        mine = with_just(page, token, version, just)
        return mine if mine is not None else _drawn(token, just)
    # A `just` of an older version: another phone wrote since, its undo is not this one's.
    return page.response(request.accept_encodings, request.if_none_match)


def _drawn(token: str, just: dict[str, Any] | None = None) -> str:
    """The scoreboard, drawn from a read of the game to be shown (`load_shown`: its
    deals as plain rows); with what this phone `just` did, a page of its own."""
    game, deals = load_shown(token)
    return render_game_page(game, just=just, deals=deals)


def _just_done(token: str) -> dict[str, Any] | None:
    """What this phone just did to this game (recorded or took back a deal), shown
    once above the scores with the one tap that takes it back."""
    just = session.pop("just", None)
    if not isinstance(just, dict) or just.get("token") != token:
        return None
    return just


def _did(game: Game, what: str, number: int) -> None:
    session["just"] = {
        "token": game.token,
        "what": what,
        "number": number,
        "version": game.version,
    }


# --- entering and correcting deals -----------------------------------------------------


def _deal_page(
    game: Game,
    values: dict[str, str],
    *,
    number: int,
    errors: dict[str, list[str]] | None = None,
    preview: tuple[int, ...] | None = None,
    preview_why: list[str] | None = None,
    preview_words: DealWords | None = None,
    editing: bool = False,
    status: int = 200,
    standings: Standings | None = None,
    taken: list[Row] | None = None,
    scored: Scored | None = None,
    conflict: Conflict | None = None,
    same: bool = False,
) -> Page:
    """The deal form (a new deal, or a correction: `editing`). `scored`: the game as
    the view scored it already (each scoring of a 30-deal game digests its record
    again: five a form before, issue 19). `conflict`: the kind of a 409 (`conflicted`).
    `same`: the deal `taken` by another phone is the one this form holds."""
    scored = scored if scored is not None else service.scored(game)
    standings = standings or scored.standings
    action = (
        url_for("games.edit", token=game.token, number=number)
        if editing
        else url_for("games.deal", token=game.token)
    )
    page = render_template(
        "deal.html",
        game=game,
        names=list(game.players),
        action=action,
        standings=standings,
        rules=scored.rules,
        values=values,
        number=number,
        errors=errors or {},
        preview=preview,
        preview_why=[*(preview_words.notes if preview_words else ()), *(preview_why or [])],
        preview_line=preview_words.line if preview_words else None,
        preview_ends=preview_words.ends if preview_words else None,
        editing=editing,
        dealer=_dealer_of(game, standings, number),
        offered=_contracts_offered(game, scored, number),
        taken=taken,
        same_deal=same,
        bid_outcomes=() if editing else GAMES[game.game].bids_now(scored.record, standings),
    )
    return conflicted(page, conflict) if conflict else (page, status)


#: The header of a 409 that names its conflict, for a client that does not read the
#: page (a script, a bench). Its kinds:
#: - taken: another phone recorded the deal this form was opened for;
#: - taken-back: a deal was taken back since this form was opened;
#: - busy: too many phones wrote at once, nothing was recorded: send again;
#: - other-game: the form's key was issued for another game;
#: - no-version: a correction that does not say which state it was made on;
#: - stale: the game changed since this correction's (or rename's) form was opened.
CONFLICT_HEADER = "Referee-Conflict"
Conflict = Literal["taken", "taken-back", "busy", "other-game", "no-version", "stale"]


def conflicted(page: str, kind: Conflict) -> Response:
    """A 409 of this page, naming its kind of conflict in `CONFLICT_HEADER`."""
    response = make_response(page, 409)
    response.headers[CONFLICT_HEADER] = kind
    return response


def _dealer_of(game: Game, standings: Standings, number: int) -> int | None:
    if number <= len(standings.deals):
        return standings.deals[number - 1].dealer
    return standings.next_dealer


def _contracts_offered(game: Game, scored: Scored, number: int) -> list[str]:
    """The contracts deal `number` may be, where the game has a set to choose among."""
    return list(GAMES[game.game].contracts_for(scored.record, number))


@bp.route("/g/<token>/deal", methods=["GET", "POST"])
def deal(token: str) -> Page:
    """Enter the next deal; "preview" shows the deltas before it is recorded."""
    if request.method == "GET":
        # The form only shows the game: read without its deals' ORM objects.
        game, deals = load_shown(token)
        _round_played(game, len(deals))
        number = len(deals) + 1
        scored = service.scored(game, deals)
        if scored.standings.finished:
            flash(_("The game is over: no deal may follow."))
            return redirect(url_for("games.show", token=token))
        if len(deals) >= MAX_DEALS:
            flash(
                _("A game holds at most %(n)d deals: the table goes on in a new game.", n=MAX_DEALS)
            )
            return redirect(url_for("games.show", token=token))
        contract = request.args.get("contract", "")
        offered = _contracts_offered(game, scored, number)
        if not contract and len(offered) == 1:  # the last one left (or a fixed order)
            contract = offered[0]
        values = {"key": uuid.uuid4().hex, "contract": contract}
        return _deal_page(game, values, number=number, scored=scored)
    # Read to be shown, as the form was: the deal is appended to the game as scored
    # (`add_deal(shown=)`), its 30 deals neither loaded as objects nor read again.
    game, deals = load_shown(token)
    _round_played(game, len(deals), form_key(request.form.get("key")))
    number = len(deals) + 1
    scored = service.scored(game, deals)
    values = values_of(request.form)
    home, rules = home_of(game.game), scored.rules
    entered = home.deal_from_form(request.form, len(game.players), rules)
    if g.get("rate_limited"):
        slow = _slow_down()
        return _deal_page(game, values, number=number, errors=slow, status=429, scored=scored)
    opened_for = whole(request.form.get("number"))
    filled = home.completed(values, rules)
    if filled is not None:  # a "fill in" button (no JavaScript): shown again, not recorded
        return _deal_page(game, filled, number=number, scored=scored)
    posted = service.post_deal(
        game,
        deals,
        scored,
        entered,
        preview=request.form.get("action") == "preview",
        key=form_key(values.get("key")),
        number=opened_for,
        phone=phone_id(),
    )
    return _deal_posted(token, posted, values, entered, opened_for)


def _round_played(game: Game, deals: int, key: str | None = None) -> None:
    """A concours table's game whose round is over there takes no more deals: its
    round's deals are all in, or its timed round's bell rang and the deal in play
    then is in (unless the director let it play on). Its phone is led to the
    table's card, where an opponent accepts the result. A post of a deal its `key`
    recorded already (sent again, its answer lost) goes on to be answered as such
    (the key looked up only then: a deal that fits is written without it)."""
    found = events.closed(game.id, deals)
    if found is None:
        return
    event, table, why = found
    if request.method == "POST" and service.recorded_by(key) is not None:
        return
    if request.headers.get("X-Referee-Ahead"):  # the page's copy kept ahead: no words
        abort(409)
    if why == events.BELL:
        _flash_once(
            _(
                "Time is up: the deal in play at the bell was the last, and it is in. "
                "An opponent accepts the result on the table's card (the director can "
                "let the table play on)."
            )
        )
    elif request.method == "POST":  # another phone recorded the round's last deal first
        _flash_once(
            _(
                "Another phone recorded the round's last deal meanwhile: yours was not "
                "recorded. Check the totals on the table's card."
            )
        )
    else:
        _flash_once(
            ngettext(
                "The round's %(num)d deal is played: an opponent accepts the result on the "
                "table's card.",
                "The round's %(num)d deals are played: an opponent accepts the result on the "
                "table's card.",
                event.length_deals or 0,
            )
        )
    abort(redirect(url_for("events.card", play_token=event.play_token, number=table.number)))


def _flash_once(message: str) -> None:
    """Flash `message` unless it waits to be shown already: the deal form may be
    asked in the background too (the offline copy the page keeps), and the phone
    would then read the same words twice."""
    waiting = session.get("_flashes") or []
    if not any(text == message for _category, text in waiting):
        flash(message)


def _same_deal(game: Game, scored: Scored, entered: dict[str, Any], rows: list[Row]) -> bool:
    """Whether the deal entered is one of `rows` (recorded meanwhile by another
    phone), as the engine reads both, whoever said the dealer: then the first
    thing to offer is the scores, not recording it twice."""
    engine = GAMES[game.game]
    players = tuple(game.players)

    def read(deal: dict[str, Any]) -> dict[str, object]:
        written = engine.dump_deal(engine.parse_deal(deal, players, scored.rules))
        written.pop("dealer", None)
        return written

    try:
        mine = read(entered)
        return any(read(row.deal) == mine for row in rows)
    except RulesError:
        return False


def _deal_posted(
    token: str,
    posted: service.Posted,
    values: dict[str, str],
    entered: dict[str, Any],
    opened_for: int | None,
) -> Page:
    """The page that answers a new deal's post: the preview, the scoreboard after
    Record, or the form again with its entries and the reason."""
    game, number, answer = posted.game, posted.number, posted.answer
    match answer:
        case service.Answer.PREVIEW:
            assert posted.after is not None
            assert posted.scored is not None
            after, home, rules = posted.after, home_of(game.game), posted.scored.rules
            names = list(game.players)
            return _deal_page(
                game,
                values,
                number=number,
                preview=after.standings.deals[-1].deltas,
                preview_why=why(game, after.record, after.standings, number),
                preview_words=words_of(home, entered, after.standings, number, names, rules),
                scored=posted.scored,
            )
        case service.Answer.TAKEN | service.Answer.TAKEN_BACK:
            # Another phone recorded the deal this form was opened for: show it, keep
            # these entries, offer them as the next deal (one tap: the form's button).
            assert posted.scored is not None
            rows = build(game, posted.scored).rows[(opened_for or number) - 1 :]
            same = _same_deal(game, posted.scored, entered, rows)
            values["number"] = str(number)
            errors = {}
            kind: Conflict = "taken"
            if answer is service.Answer.TAKEN_BACK:
                kind = "taken-back"
                message = _(
                    "Meanwhile another phone took back a deal: yours would be deal %(n)d. "
                    "Your entries are kept: check them, then record.",
                    n=number,
                )
                errors = {"": [message]}
            return _deal_page(
                game, values, number=number, taken=rows, errors=errors, conflict=kind, same=same
            )
        case service.Answer.REFUSED:
            errors = messages_by_group(posted.problems, number)
            return _deal_page(game, values, number=number, errors=errors, status=422)
        case service.Answer.BUSY:
            message = _(
                "Many phones are writing to this game at once: nothing was recorded yet. "
                "Your entries are kept: send them again."
            )
            return _deal_page(game, values, number=number, errors={"": [message]}, conflict="busy")
        case service.Answer.OTHER_GAME:
            values["key"] = uuid.uuid4().hex
            message = _("This form was opened for another game: check the entries, then record.")
            return _deal_page(
                game, values, number=number, errors={"": [message]}, conflict="other-game"
            )
        case service.Answer.GONE:
            abort(404)
        case service.Answer.ALREADY:
            flash(_("That deal was already recorded."))
        case service.Answer.UNDONE:
            flash(_("That deal was recorded, then taken back: it was not recorded again."))
        case _:  # recorded
            session["just"] = {
                "token": token,
                "what": "recorded",
                "number": number,
                "version": posted.version,
            }
    return redirect(url_for("games.show", token=token))


#: A form key as deal forms carry them (the server's are 32 hex digits).
FORM_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}", re.ASCII)


def form_key(text: str | None) -> str | None:
    """The form's one-time key, if it is one a form could carry (else none at all)."""
    return text if text and FORM_KEY.fullmatch(text) else None


def _slow_down() -> dict[str, list[str]]:
    """The message of a deal form sent past the rate limit: its entries are kept."""
    return {
        "": [
            _(
                "Too many entries from this network in a minute: wait a moment, "
                "then send again. Your entries are kept."
            )
        ]
    }


@bp.post("/g/<token>/preview.json")
def preview_json(token: str) -> Response:
    """What the deal being typed would give, for the live preview (nothing is written).

    `?number=N` previews a correction of deal N instead of the next deal.
    """
    game = load(token)
    deals = [d.data for d in game.deals]
    number = whole(request.args.get("number")) or len(deals) + 1
    home, rules = home_of(game.game), engine_rules(game)
    entered = home.deal_from_form(request.form, len(game.players), rules)
    if 1 <= number <= len(deals):
        deals[number - 1] = entered
    else:
        deals.append(entered)
        number = len(deals)
    try:
        after, _deals, record = service.replay(game, deals)
    except RulesError as error:
        # Only the reasons of what was entered (and the deal's own): the page shows no
        # other, and a deal half tapped would fetch every card's "missing" each time.
        entries = [name for name, value in request.form.items() if value]
        errors = {
            group: messages
            for group, messages in messages_by_group(error.problems, number).items()
            if not group or any(name.startswith(group) for name in entries)
        }
        return jsonify(ok=False, errors=errors)
    # The deal in one line (per team in team games), whether it ends the game, and
    # the game's short reasons where a rule surprises (the form's bar, before Record).
    words = words_of(home, entered, after, number, list(game.players), rules)
    return jsonify(
        ok=True,
        deltas=[signed(d) for d in after.deals[number - 1].deltas],
        line=words.line,
        ends=words.ends,
        notes=list(words.notes),
        why=why(game, record, after, number),
    )


@bp.route("/g/<token>/deal/<int:number>/edit", methods=["GET", "POST"])
def edit(token: str, number: int) -> Page:
    """Correct a past deal; the whole game is re-scored and must still hold."""
    game = load(token)
    if not 1 <= number <= len(game.deals):
        abort(404)
    if request.method == "GET":
        values = home_of(game.game).values_from_deal(game.deals[number - 1].data)
        if request.args.get("contract"):
            values["contract"] = request.args["contract"]
        values["version"] = str(game.version)
        if request.args.get("from") == "agree":
            # "Not so": the deal as the other phone recorded it, beside the form
            # that corrects it (the same rows as a taken deal's "Now:").
            board = build(game, service.scored(game))
            return _deal_page(
                game, values, number=number, editing=True, taken=[board.rows[number - 1]]
            )
        return _deal_page(game, values, number=number, editing=True)
    values = values_of(request.form)
    home, rules = home_of(game.game), engine_rules(game)
    entered = home.deal_from_form(request.form, len(game.players), rules)
    if g.get("rate_limited"):
        return _deal_page(
            game, values, number=number, errors=_slow_down(), editing=True, status=429
        )
    filled = home.completed(values, rules)
    if filled is not None:
        return _deal_page(game, filled, number=number, editing=True)
    version = whole(request.form.get("version"))
    if version is None:
        values["version"] = str(game.version)
        message = _(
            "This correction does not say which state of the game it was made on: "
            "check it against the game as it is now, then correct again."
        )
        return _deal_page(
            game, values, number=number, errors={"": [message]}, editing=True, conflict="no-version"
        )
    posted = service.post_correction(game, number, entered, version, phone=phone_id())
    match posted.answer:
        case service.Answer.STALE:
            # Made on a game that changed meanwhile: the form comes back with its
            # entries, beside that deal as it is now, to be saved again on the new state.
            assert posted.scored is not None
            values["version"] = str(posted.game.version)
            row = build(posted.game, posted.scored).rows[number - 1]
            message = _(
                "Someone else changed the game meanwhile. Deal %(n)d is now as shown here; "
                "your correction is kept below: save it again to replace it.",
                n=number,
            )
            return _deal_page(
                posted.game,
                values,
                number=number,
                errors={"": [message]},
                editing=True,
                taken=[row],
                conflict="stale",
            )
        case service.Answer.GONE:
            flash(_("Someone else took that deal back meanwhile: there is nothing to correct."))
        case service.Answer.REFUSED:
            errors = messages_by_group(posted.problems, number)
            return _deal_page(game, values, number=number, errors=errors, editing=True, status=422)
        case _:  # corrected
            flash(_("Deal %(number)d corrected.", number=number))
    return redirect(url_for("games.show", token=token))


@bp.route("/g/<token>/undo", methods=["GET", "POST"])
@csrf.exempt  # type: ignore[untyped-decorator]  # Flask-WTF has no types
def undo(token: str) -> Page:
    """Take back the last deal (it stays in the history), in one tap, with "Put it
    back" on the page after it: the one way to undo (issue 38, item 11), from the
    toast after a deal or from the game page's "More". The GET page asks first
    (old links, and a browser that does not say where its request comes from).

    The game page's form holds no CSRF token (the page of a running game is one page
    for every phone, kept once drawn): a POST without a token is taken when the
    browser says it comes from this site (`_same_site`); a form with a token (the
    toast, the GET page) is checked as any other."""
    game = load(token)
    if request.method == "GET":
        last = game.deals[-1].data if game.deals else None
        return render_template("undo.html", game=game, last=last, number=len(game.deals))
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        if "csrf_token" in request.form:
            csrf.protect()
        elif not _same_site():
            return redirect(url_for("games.undo", token=token))
    try:
        version = whole(request.form.get("version"))
        if version is None:
            raise service.StaleVersion()
        number = len(game.deals)
        if service.undo_last(game, version):
            _did(game, "undone", number)
    except service.StaleVersion:
        flash(_("Someone else changed the game meanwhile: nothing was undone."))
    return redirect(url_for("games.show", token=token))


def _same_site() -> bool:
    """Whether the browser says this request comes from a page of this site: its
    `Sec-Fetch-Site`, else its `Origin` (every current browser sends one of them
    with a form's POST). Neither: not known, so not taken."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site == "same-origin"
    origin = request.headers.get("Origin")
    return origin is not None and origin == request.host_url.rstrip("/")


@bp.post("/g/<token>/put-back")
def put_back(token: str) -> Page:
    """Put back the deal just taken back (undo the undo), if nothing changed since."""
    game = load(token)
    version = whole(request.form.get("version"))
    try:
        if version is None:
            raise service.StaleVersion()
        number = service.put_back(game, version, phone=phone_id())
    except service.StaleVersion:
        flash(_("Someone else changed the game meanwhile: the deal was not put back."))
    except RulesError:
        flash(_("That deal no longer fits the game: it was not put back."))
    else:
        if number is not None:
            _did(game, "recorded", number)
    return redirect(url_for("games.show", token=token))


@bp.route("/g/<token>/players", methods=["GET", "POST"])
def players(token: str) -> Page:
    """Rename a player (a typo, a substitute): every line and the sheet follow. Not
    in a concours: its players' names are the director's (the ranking's, the draw's)."""
    game = load(token)
    found = events.table_of_game(game.id)
    if found is not None:
        flash(_("In a concours, the players' names are the director's: ask the director."))
        return redirect(
            url_for("events.card", play_token=found[0].play_token, number=found[1].number)
        )
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        seat = whole(request.form.get("seat"))
        version = whole(request.form.get("version"))
        name = request.form.get("name", "")
        try:
            if seat is None or not 0 <= seat < len(game.players):
                abort(400)
            if version is None:
                raise service.StaleVersion()
            if service.rename(game, seat, name, version):
                flash(_("%(name)s renamed.", name=isolate(clean(name))))
            return redirect(url_for("games.show", token=token))
        except service.StaleVersion:
            db.session.rollback()
            game = load(token)
            errors = {"": [_("Someone else changed the game meanwhile: check, then rename again.")]}
        except RulesError as error:
            db.session.rollback()
            errors = {f"name{seat}": messages_of(error.problems)}
        page = render_template("players.html", game=game, errors=errors, typed=request.form)
        return conflicted(page, "stale") if "" in errors else (page, 422)
    return render_template("players.html", game=game, errors=errors, typed={})


@bp.post("/g/<token>/deal/<int:number>/confirm")
def confirm(token: str, number: int) -> Page:
    """Another phone agrees to deal `number` as it stands (the table agrees)."""
    game = load(token)
    try:
        service.confirm(game, number - 1, phone_id(), whole(request.form.get("version")) or -1)
    except service.StaleVersion:
        flash(_("The game changed meanwhile: look at the deal again before agreeing."))
    except service.CannotConfirm:
        flash(_("Another phone confirms this deal: not the one that recorded it."))
    else:
        flash(_("Deal %(n)d confirmed.", n=number))
    return redirect(url_for("games.show", token=token))


@bp.post("/g/<token>/sign")
def sign(token: str) -> Page:
    """A player signs the finished game's result from his phone."""
    game = load(token)
    seat = whole(request.form.get("seat"))
    try:
        service.sign(
            game,
            seat if seat is not None else -1,
            phone_id(),
            whole(request.form.get("version")) or -1,
        )
    except service.StaleVersion:
        flash(_("The game changed meanwhile: look at the result again before signing."))
    except service.CannotConfirm:
        flash(_("Only a finished game's result can be signed, by one of its players."))
    else:
        flash(_("%(name)s signed the result.", name=isolate(game.players[seat or 0])))
    return redirect(url_for("games.show", token=token))


# --- the next game, a game removed (issue "the table at first sight", item 6) -------


@bp.app_template_global()
def next_game_of(game: Game) -> Game | None:
    """The game that follows this finished one at its table, if made (the finished
    game's page links to it instead of offering "Same table again")."""
    return service.next_game(game) if game.token else None


@bp.post("/g/<token>/again")
def again(token: str) -> Page:
    """The next game at the same table: same players, seats, rules, stake and place.
    Made once: a second tap or a second phone is led to that same game."""
    try:
        game = service.again(load(token))
    except service.InConcours:
        flash(_("This game is a concours table's: only the director changes it."))
        return redirect(url_for("games.show", token=token))
    except service.Busy:
        flash(_("Many phones are writing at once: nothing was made yet. Tap again."))
        return redirect(url_for("games.show", token=token))
    remember(game.token)
    return redirect(url_for("games.show", token=game.token))


@bp.route("/g/<token>/remove", methods=["GET", "POST"])
def remove(token: str) -> Page:
    """Remove a game that has no deal, after a confirmation: it leaves its table and
    the evening's money. A game with a deal stays (its history is its own)."""
    game = load(token)
    if request.method == "GET":
        return render_template("remove.html", game=game, concours=service.in_concours(game))
    table = game.table
    try:
        version = whole(request.form.get("version"))
        service.remove(game, -1 if version is None else version)
    except service.StaleVersion:
        flash(_("Someone else changed the game meanwhile: it was not removed."))
        return redirect(url_for("games.show", token=token))
    except service.InConcours:
        flash(_("This game is a concours table's: only the director changes it."))
        return redirect(url_for("games.show", token=token))
    except service.CannotRemove:
        flash(_("This game has deals: it cannot be removed."))
        return redirect(url_for("games.show", token=token))
    flash(_("The game was removed."))
    if table is not None:
        return redirect(url_for("tables.show", token=table.token))
    return redirect(url_for("main.home"))


@bp.get("/g/<token>/history")
def history(token: str) -> str:
    """Every change to the game, newest first."""
    game = load(token)
    return render_template("history.html", game=game, changes=list(reversed(game.changes)))


# --- records -------------------------------------------------------------------------


@bp.get("/g/<token>/export.json")
def export(token: str) -> Response:
    """Download the game's record (`referee-game/1`)."""
    version = service.version_of(token)
    if version is None:
        abort(404)
    cache: LRU[tuple[str, str]] = current_app.extensions["record_cache"]

    def make() -> tuple[str, str]:
        game = load(token)
        return service.export_json(game), file_name(game, "json")

    # A hit costs one small query: the game and its deals are read only on a miss.
    text, name = cache.get_or_make((token, version), make)
    return download(text, "application/json", name)


@bp.route("/import", methods=["GET", "POST"])
def import_game() -> Page:
    """Load a record file as a new game."""
    if request.method == "GET":
        return render_template("import.html", errors=[])
    upload = request.files.get("record")
    data = upload.read() if upload else b""
    if not data:
        return render_template("import.html", errors=[_("Choose a record file.")]), 422
    try:
        game = service.import_record(data)
    except RulesError as error:
        messages = messages_of(error.problems)
        return render_template("import.html", errors=messages), 422
    remember(game.token)
    flash(_("Game imported."))
    return redirect(url_for("games.show", token=game.token))
