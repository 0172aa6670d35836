"""The API's views: read a game or a table by its spectators' token, create a game,
post, correct and take back a deal by its editors' token.

They are as thin as the pages' views and call the same services: the same rules,
the same refusals (with the field they blame), the same one-time keys that make a
deal sent twice recorded once. Every answer is built from a model of
`referee.api.schemas`, every error is a problem (`referee.api.problems`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final, TypeVar

from flask import Blueprint, Response, request
from flask_babel import gettext as _
from pydantic import BaseModel, RootModel, ValidationError

from referee.api.declare import Answer, Declarations, Parameter
from referee.api.problems import UNREADABLE, ApiProblem, from_validation, response
from referee.api.schemas import (
    Acceptance,
    Created,
    DealCorrection,
    DealLine,
    DealPost,
    EditorView,
    Evening,
    EveningMoney,
    EventRoundLine,
    EventRounds,
    EventState,
    EventTableLine,
    GameLinks,
    GameState,
    History,
    Mark,
    Money,
    NewGame,
    Posted,
    RankLine,
    Settlement,
    TableGameLine,
    TableState,
    Transfer,
)
from referee.engine import settlement as engine_settlement
from referee.engine.errors import RulesError, problem
from referee.engine.records import MAX_DEALS, MAX_DEPTH, MAX_RECORD_BYTES, decode_json, money_text
from referee.events.concours import number as figure
from referee.events.prizes import amount_text
from referee.games import GAMES
from referee.models import Event, Game
from referee.services import events as event_service
from referee.services import games as service
from referee.services import tables as table_service
from referee.web.homes import game_name
from referee.web.hosts import public_url

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.register_error_handler(ApiProblem, response)

#: A token is any text: one that opens nothing is answered 404.
_TOKEN: Final = {"type": "string"}
PARAMETERS: Final = {
    "view_token": Parameter(
        _TOKEN,
        "The spectators' token: the last part of a spectators' link (`/v/<token>` for a "
        "game, `/tv/<token>` for a table). It reads, never writes.",
    ),
    "editor_token": Parameter(
        _TOKEN,
        "The editors' token: the last part of the game's own link (`/g/<token>`). "
        "Whoever holds it may enter and correct deals: keep it private.",
    ),
    "number": Parameter(
        {"type": "integer", "minimum": 1, "maximum": MAX_DEALS}, "A deal's number, from 1."
    ),
    "event_token": Parameter(
        _TOKEN,
        "A concours's public token: the last part of its public link (`/ev/<token>`). "
        "It reads, never writes.",
    ),
    "play_token": Parameter(
        _TOKEN,
        "A concours's tables' token: the last part of the link on its table cards "
        "(`/c/<token>`). It accepts a table's result.",
    ),
    "table": Parameter(
        {"type": "integer", "minimum": 1, "maximum": 1000}, "A table's number, from 1."
    ),
}
api = Declarations(bp, PARAMETERS)

#: A deal's body is small: a record's limits are more than enough.
MAX_BODY: Final = MAX_RECORD_BYTES

_READ_PROBLEMS: Final = {404: "No game or table has this token."}
_WRITE_PROBLEMS: Final = {
    400: "The body is not JSON, or nests too deep.",
    404: "No game has this token.",
    413: "The body is larger than 1 MB.",
    422: "The request or the rules refuse it: `errors` says what, field by field.",
    429: "Too many writes from this address in a minute: wait `Retry-After` seconds.",
}


class RecordDocument(RootModel[dict[str, Any]]):
    """A game's record, in the record format (docs/RECORD-FORMAT.md)."""


# Reading --------------------------------------------------------------------------


def _viewed(view_token: str) -> Game:
    game = service.find_view(view_token)
    if game is None:
        raise ApiProblem("not-found", _("No game has this link."))
    return game


def _edited(editor_token: str) -> Game:
    game = service.find(editor_token)
    if game is None:
        raise ApiProblem("not-found", _("No game has this link."))
    return game


def state_of(game: Game) -> GameState:
    """The game as it stands, scored from its deals."""
    done = service.scored(game)
    standings, record = done.standings, done.record
    engine = GAMES[game.game]
    money = None
    if standings.money is not None:
        money = Money(
            stake=money_text(standings.money.stake),
            stake_per="point" if game.stake_per == "point" else "game",
            currency=game.currency,
            net=[money_text(n) for n in standings.money.net],
            transfers=[_transfer(t) for t in standings.money.transfers],
        )
    view = game.view_token
    return GameState(
        game=game.game,
        name=str(game_name(game)),
        players=list(record.players),
        sides=[list(side) for side in engine.sides_under(record.rules, len(record.players))],
        lowest_wins=engine.lowest_wins_under(record.rules),
        version=game.version,
        deals=len(standings.deals),
        finished=standings.finished,
        winners=list(standings.winners),
        scores=list(standings.scores),
        next_dealer=standings.next_dealer,
        played_on=game.day.isoformat(),
        place=game.place,
        money=money,
        figures={
            name: list(value) if isinstance(value, tuple) else value
            for name, value in standings.extras.items()
        },
        links=GameLinks(
            page=public_url("share.spectate", view_token=view),
            api=public_url("api.game", view_token=view),
            deals=public_url("api.deals", view_token=view),
            settlement=public_url("api.settlement", view_token=view),
            record=public_url("api.record", view_token=view),
            picture=public_url("share.picture", view_token=view, v=game.version),
        ),
    )


def _transfer(paid: engine_settlement.Transfer) -> Transfer:
    """A payment of the settlement, as the record format writes it (`from`, `to`)."""
    return Transfer.model_validate(
        {"from": paid.payer, "to": paid.payee, "amount": money_text(paid.amount)}
    )


def answer(model: BaseModel, status: int = 200, *, private: bool = False) -> Response:
    """The model as JSON. An answer naming an editor's token is never kept by a cache."""
    response = Response(model.model_dump_json(by_alias=True), status, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store" if private else "no-cache"
    return response


@api.operation(
    "GET",
    "/games/<view_token>",
    tag="games",
    answers=(Answer(200, GameState, "The game as it stands."),),
    problems=_READ_PROBLEMS,
)
def game(view_token: str) -> Response:
    """A game's standings: players, totals, winners, money."""
    return answer(state_of(_viewed(view_token)))


@api.operation(
    "GET",
    "/games/<view_token>/deals",
    tag="games",
    answers=(Answer(200, History, "Every deal, as entered and as scored."),),
    problems=_READ_PROBLEMS,
)
def deals(view_token: str) -> Response:
    """A game's history: each deal as entered, its points and the totals after it."""
    found = _viewed(view_token)
    done = service.scored(found)
    entered = service.export(found)["deals"]
    totals = [0] * len(done.record.players)
    lines = []
    for number, (deal, result) in enumerate(zip(entered, done.standings.deals, strict=True), 1):
        totals = [t + d for t, d in zip(totals, result.deltas, strict=True)]
        lines.append(
            DealLine(
                number=number,
                deal=deal,
                dealer=result.dealer,
                deltas=list(result.deltas),
                totals=totals,
                marks=[Mark(kind=str(m.kind), seat=m.seat) for m in result.marks],
            )
        )
    return answer(History(version=found.version, players=list(done.record.players), deals=lines))


@api.operation(
    "GET",
    "/games/<view_token>/settlement",
    tag="games",
    answers=(Answer(200, Settlement, "Who pays whom (no money without a stake)."),),
    problems=_READ_PROBLEMS,
)
def settlement(view_token: str) -> Response:
    """A game's money: each player's net and the fewest payments that settle it."""
    state = state_of(_viewed(view_token))
    return answer(
        Settlement(
            version=state.version,
            finished=state.finished,
            players=state.players,
            money=state.money,
        )
    )


@api.operation(
    "GET",
    "/games/<view_token>/record",
    tag="games",
    answers=(Answer(200, RecordDocument, "The game's record (`referee score` reads it)."),),
    problems=_READ_PROBLEMS,
)
def record(view_token: str) -> Response:
    """A game's record, in the record format: what `referee score` and the import read."""
    return answer(RecordDocument(service.export(_viewed(view_token))))


@api.operation(
    "GET",
    "/tables/<view_token>",
    tag="tables",
    answers=(Answer(200, TableState, "The table, its games and each evening's money."),),
    problems=_READ_PROBLEMS,
)
def table(view_token: str) -> Response:
    """A table: its people, its games (newest first) and each evening's money."""
    found = table_service.find_table_view(view_token)
    if found is None:
        raise ApiProblem("not-found", _("No table has this link."))
    played = table_service.table_games(found)
    lines = [
        TableGameLine(
            game=tg.game.game,
            players=list(tg.played.people),
            played_on=tg.game.day.isoformat(),
            finished=tg.outcome.finished,
            winners=list(tg.outcome.winners),
            scores=list(tg.outcome.scores),
            deals=tg.outcome.deals,
            api=public_url("api.game", view_token=tg.game.view_token),
        )
        for tg in reversed(played)
    ]
    evenings = [
        Evening(
            day=evening.key,
            games=len(evening.games),
            money=[
                EveningMoney(
                    currency=s.currency,
                    people=list(s.people),
                    net=[money_text(n) for n in s.net],
                    transfers=[_transfer(t) for t in s.transfers],
                )
                for s in evening.settlements
            ],
        )
        for evening in table_service.evenings(played)
    ]
    return answer(
        TableState(
            name=found.name,
            version=found.version,
            people=table_service.people_at(found),
            games=lines,
            evenings=evenings,
        )
    )


# A concours -----------------------------------------------------------------------


def _event(found: Event | None) -> Event:
    if found is None:
        raise ApiProblem("not-found", _("No concours has this link."))
    loaded = event_service.loaded(found.id)
    assert loaded is not None
    return loaded


def event_state(event: Event) -> EventState:
    ends = event_service.ends_at(event)
    latest = [t for t in event.tables if t.round == len(event.rounds)]
    lines = event_service.ranking(event)
    purse = event_service.purse(event, lines)
    results = any(t.accepted is not None for t in event.tables)
    prizes = purse.lines if purse is not None and results else ()
    return EventState(
        name=event.name,
        game=event.game,
        format=event.format,  # type: ignore[arg-type]
        table_size=event.table_size,
        rounds_planned=event.rounds_planned,
        rounds_drawn=len(event.rounds),
        round_deals=event.length_deals,
        round_minutes=event.length_minutes,
        round_ends_at=None if ends is None else ends.isoformat(timespec="seconds") + "Z",
        rule=(event.ranking or {}).get("rule", "score"),
        tie_breaks=list((event.ranking or {}).get("tie_breaks", [])),
        provisional=len(event.rounds) < event.rounds_planned
        or any(t.accepted is None for t in latest),
        version=event.version,
        currency=event.currency,
        pot=None if purse is None else amount_text(purse.pot.pot),
        ranking=[
            RankLine(
                rank=line.rank,
                name=line.name,
                players=list(line.players),
                points=figure(line.points),
                tie_breaks={t.value: figure(v) for t, v in line.values.items()},
                separated_by=line.separated_by,
                withdrawn=line.withdrawn,
                prize=amount_text(prizes[i]) if i < len(prizes) else None,
            )
            for i, line in enumerate(lines)
        ],
    )


@api.operation(
    "GET",
    "/events/<event_token>",
    tag="concours",
    answers=(Answer(200, EventState, "The concours, its rules and its ranking."),),
    problems={404: "No concours has this token."},
)
def event(event_token: str) -> Response:
    """A concours: its rules as stated, where it stands, its ranking (tie-breaks shown)."""
    return answer(event_state(_event(event_service.find_view(event_token))))


@api.operation(
    "GET",
    "/events/<event_token>/rounds",
    tag="concours",
    answers=(Answer(200, EventRounds, "Every round drawn: its tables and results."),),
    problems={404: "No concours has this token."},
)
def event_rounds(event_token: str) -> Response:
    """The rounds drawn so far: each table's players in seat order and its accepted
    totals, and who sat out."""
    found = _event(event_service.find_view(event_token))
    names = {p.number: p.name for p in found.players}
    rounds = [
        EventRoundLine(
            number=r.number,
            tables=[
                EventTableLine(
                    table=t.number,
                    players=[names[s] for s in t.seats],
                    scores=None if t.accepted is None else list(t.accepted),
                    game=None
                    if t.game_row is None
                    else public_url("api.game", view_token=t.game_row.view_token),
                )
                for t in found.tables
                if t.round == r.number
            ],
            byes=[names[b] for b in r.byes],
        )
        for r in found.rounds
    ]
    return answer(EventRounds(rounds=rounds))


@api.operation(
    "POST",
    "/concours/<play_token>/tables/<int:table>/accept",
    tag="concours",
    body=Acceptance,
    answers=(Answer(200, EventState, "Accepted: the concours as it now stands."),),
    problems={
        400: _WRITE_PROBLEMS[400],
        404: "No concours has this token, or no table this number in the round in play.",
        403: "The table's code (`key`) is missing or not this table's.",
        409: "The result was accepted already (`accepted`), or a deal was recorded at the "
        "table as it was (`stale`).",
        413: _WRITE_PROBLEMS[413],
        422: "The round is not over at that table, or `who` is not one of its players.",
        429: _WRITE_PROBLEMS[429],
    },
)
def accept(play_token: str, table: int) -> Response:
    """An opponent accepts a table's result once the round is over there (its deals
    played, or its time up): the totals count in the ranking, and the table's game
    can no longer be changed by its editors' token (the director alone can)."""
    found = _event(event_service.find_play(play_token))
    body = _envelope(Acceptance)
    at = event_service.table_of(found, table)
    if at is None:
        raise ApiProblem("not-found", _("No table %(number)d in this round.", number=table))
    if not event_service.key_fits(found, table, body.key):
        raise ApiProblem(
            "forbidden",
            _("This needs the table's code, from the QR code of its table card."),
            problems=[problem("event_key", "key")],
        )
    try:
        event_service.accept(found, at, body.who, none_in_play=body.none_in_play)
    except LookupError:
        raise ApiProblem("accepted", _("This result was accepted already.")) from None
    except service.StaleVersion:  # a deal recorded at the table as it was accepted
        raise ApiProblem(
            "stale", _("The event changed meanwhile: look, then accept again.")
        ) from None
    except RulesError as error:
        raise ApiProblem(
            "refused",
            _("The request is refused: see what each field says."),
            problems=error.problems,
        ) from None
    return answer(event_state(_event(event_service.find_play(play_token))))


# Writing --------------------------------------------------------------------------


def _raw() -> bytes:
    """The request's body, whole, whatever its Content-Type says (it is JSON). Over
    `MAX_BODY`, 413: a body that announces its length was refused before it was
    read; a chunked one announces none, so one byte more than the limit is read to
    know, and it is never cut short."""
    if request.content_length is not None:
        return request.get_data(cache=False)
    data = bytes(request.environ["wsgi.input"].read(MAX_BODY + 1))
    if len(data) > MAX_BODY:
        raise ApiProblem("too-large", _("The body is larger than 1 MB."))
    return data


def _body() -> object:
    """The request's JSON, refused (400) when it is not JSON a record could hold:
    malformed, nested deeper than a record, numbers longer than any count, a key
    named twice in one object."""
    try:
        return decode_json(_raw(), MAX_BODY, MAX_DEPTH)
    except RulesError as error:
        raise ApiProblem(
            "invalid", _("The body is not JSON that Referee can read."), problems=error.problems
        ) from None


M = TypeVar("M", bound=BaseModel)


def _envelope(model: type[M]) -> M:
    """The body, checked against its model: what is missing, unknown or of the
    wrong kind is refused (422) with the field it blames."""
    data = _body()
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as error:
        raise ApiProblem(
            "refused",
            _("The request is refused: see what each field says."),
            problems=from_validation(error, model),
        ) from None


@api.operation(
    "POST",
    "/games",
    tag="games",
    body=NewGame,
    answers=(Answer(201, Created, "The game, created: keep its editor's token."),),
    problems={k: v for k, v in _WRITE_PROBLEMS.items() if k != 404},
)
def create() -> Response:
    """Create a game from its record (the game, the players, the house rules, and
    deals played already, if any).

    The record is read as an imported file is: every problem is listed with the
    field it blames."""
    data = _raw()
    try:
        made = service.import_record(data)
    except RulesError as error:
        if any(p.code in UNREADABLE for p in error.problems):
            raise ApiProblem(
                "invalid", _("The body is not JSON that Referee can read."), problems=error.problems
            ) from None
        raise ApiProblem(
            "refused", _("The rules refuse it: see what each field says."), problems=error.problems
        ) from None
    body = Created(
        editor_token=made.token,
        view_token=made.view_token,
        editor_page=public_url("games.show", token=made.token),
        game=state_of(made),
    )
    response = answer(body, 201, private=True)
    response.headers["Location"] = body.game.links.api
    return response


@api.operation(
    "GET",
    "/edit/<editor_token>",
    tag="editing",
    answers=(Answer(200, EditorView, "The game and its spectators' token."),),
    problems={404: "No game has this token."},
)
def editor(editor_token: str) -> Response:
    """A game by its editors' token: its state, and the spectators' token to share."""
    found = _edited(editor_token)
    return answer(EditorView(view_token=found.view_token, game=state_of(found)), private=True)


@api.operation(
    "POST",
    "/edit/<editor_token>/deals",
    tag="editing",
    body=DealPost,
    answers=(
        Answer(201, Posted, "The deal is recorded."),
        Answer(200, Posted, "This key recorded the deal before (`already`, or `undone`)."),
    ),
    problems={
        **_WRITE_PROBLEMS,
        409: "The deal `number` was recorded by another client first, or the game has "
        "fewer deals than counted (`number` says the next one); or this key recorded "
        "another deal; or the game is a concours table's whose round is over there "
        "(`round-over`).",
        503: "So many clients wrote at once that nothing was written: try again.",
    },
)
def post_deal(editor_token: str) -> Response:
    """Record the next deal.

    Send a one-time `key` of your choosing with it: sent again after a dropped
    connection, the same key records the deal once. Send its `number` too: if
    another client recorded that deal first, nothing is written and the answer says
    which number the next deal would take."""
    sent = _envelope(DealPost)
    shown = service.shown(editor_token)
    if shown is None:
        raise ApiProblem("not-found", _("No game has this link."))
    found, entered = shown
    _round_open(found, len(entered), _scoped(found, sent.key))
    before = service.scored(found, entered)
    posted = service.post_deal(
        found, entered, before, sent.deal, key=_scoped(found, sent.key), number=sent.number
    )
    if posted.answer is service.Answer.ALREADY:
        _same_deal(found, posted.number, sent.deal)
    return _posted(posted)


def _round_open(game: Game, deals: int, key: str | None) -> None:
    """A concours table's game takes no deal once its round is over there (its
    deals all in, or the deal in play at the bell in): 409 `round-over`, but for a
    deal this key recorded already (its answer lost), answered as such."""
    closed = event_service.closed(game.id, deals)
    if closed is None or (key is not None and service.recorded_by(key) is not None):
        return
    code = "event_bell" if closed[2] == event_service.BELL else "event_not_over"
    raise ApiProblem(
        "round-over",
        _("The round is over at this table: an opponent accepts the result."),
        problems=[problem(code, None, deals=closed[0].length_deals or 0)],
    )


def _scoped(game: Game, key: str | None) -> str | None:
    """A program's one-time key, kept per game: the same key sent to two games
    records a deal in each, and says nothing of the other game."""
    if key is None:
        return None
    return "api-" + hashlib.sha256(f"{game.uid}\x00{key}".encode()).hexdigest()[:56]


def _same_deal(game: Game, number: int, sent: dict[str, Any]) -> None:
    """A key sent again must come with the deal it recorded: another deal under a
    used key is a mistake of the program (409), not a retry to answer `already`."""
    now = service.find(game.token)
    if now is None or number > len(now.deals):
        return  # taken back since: the key's deal is gone, nothing to compare
    done = service.scored(now)
    engine = GAMES[now.game]
    try:
        written = engine.dump_deal(engine.parse_deal(sent, done.record.players, done.rules))
    except RulesError:
        written = None
    if written != now.deals[number - 1].data:
        raise ApiProblem(
            "key-reused",
            _(
                "This key recorded deal %(number)d, which was another deal: use a new key.",
                number=number,
            ),
            number=number,
        )


def _posted(posted: service.Posted) -> Response:
    """A deal's post, answered (`services.games.Answer`)."""
    match posted.answer:
        case service.Answer.RECORDED:
            return answer(Posted(outcome="recorded", number=posted.number, game=_now(posted)), 201)
        case service.Answer.ALREADY:
            return answer(Posted(outcome="already", number=posted.number, game=_now(posted)))
        case service.Answer.UNDONE:
            return answer(Posted(outcome="undone", number=posted.number, game=_now(posted)))
        case service.Answer.CORRECTED:
            return answer(Posted(outcome="corrected", number=posted.number, game=_now(posted)))
        case service.Answer.REFUSED:
            raise ApiProblem(
                "refused",
                _("The rules refuse this deal: see what each field says."),
                problems=posted.problems,
                under="deal",
            )
        case service.Answer.TAKEN:
            raise ApiProblem(
                "taken",
                _(
                    "Deal %(number)d was recorded by another client first: nothing was written.",
                    number=posted.number - 1,
                ),
                number=posted.number,
                version=posted.game.version,
            )
        case service.Answer.TAKEN_BACK:
            raise ApiProblem(
                "taken-back",
                _(
                    "The game has fewer deals than you counted: the next one is %(number)d. "
                    "Nothing was written.",
                    number=posted.number,
                ),
                number=posted.number,
                version=posted.game.version,
            )
        case service.Answer.STALE:
            raise ApiProblem(
                "stale",
                _("The game changed meanwhile: nothing was written."),
                version=posted.game.version,
            )
        case service.Answer.GONE:
            raise ApiProblem("gone", _("This deal was taken back meanwhile: nothing was written."))
        case service.Answer.OTHER_GAME:
            raise ApiProblem("other-game", _("This key was used for another game: use a new one."))
        case service.Answer.BUSY:
            raise ApiProblem(
                "busy",
                _("So many phones wrote at once that nothing was written: try again."),
                headers={"Retry-After": "1"},
            )
    raise AssertionError(posted.answer)  # pragma: no cover - every answer is above


def _now(posted: service.Posted) -> GameState:
    """The game after the write, read again (its version and standings)."""
    found = service.find(posted.game.token)
    if found is None:  # removed meanwhile
        raise ApiProblem("gone", _("This game was removed meanwhile."))
    return state_of(found)


@api.operation(
    "PUT",
    "/edit/<editor_token>/deals/<int:number>",
    tag="editing",
    body=DealCorrection,
    answers=(Answer(200, Posted, "The deal is corrected."),),
    problems={
        **_WRITE_PROBLEMS,
        404: "No game has this token, or no deal this number.",
        409: "The game changed since `version` (`version` says its version now), or the "
        "deal was taken back meanwhile.",
    },
)
def correct(editor_token: str, number: int) -> Response:
    """Correct a deal: write it again, on the game at `version`."""
    sent = _envelope(DealCorrection)
    found = _edited(editor_token)
    if not 1 <= number <= len(found.deals):
        raise ApiProblem("not-found", _("This game has no deal %(number)d.", number=number))
    return _posted(service.post_correction(found, number, sent.deal, sent.version))


@api.operation(
    "DELETE",
    "/edit/<editor_token>/deals/<int:number>",
    tag="editing",
    answers=(Answer(200, Posted, "The deal is taken back (it stays in the game's history)."),),
    problems={
        404: "No game has this token, or no deal this number.",
        409: "The deal is not the last one (`number` says the last): only the last deal "
        "can be taken back; correct the others.",
        429: _WRITE_PROBLEMS[429],
    },
)
def undo(editor_token: str, number: int) -> Response:
    """Take back the last deal, `number` (it stays in the game's history).

    The number guards the undo: if another client recorded a deal meanwhile, the
    deal named is no longer the last, and nothing is taken back."""
    found = _edited(editor_token)
    count = len(found.deals)
    if not 1 <= number <= count:
        raise ApiProblem("not-found", _("This game has no deal %(number)d.", number=number))
    if number != count:
        raise ApiProblem(
            "not-last",
            _(
                "Only the last deal, %(number)d, can be taken back: correct the others.",
                number=count,
            ),
            number=count,
        )
    try:
        service.undo_last(found, found.version)
    except service.StaleVersion:
        now = service.find(editor_token)
        raise ApiProblem(
            "stale",
            _("The game changed meanwhile: nothing was taken back."),
            version=None if now is None else now.version,
        ) from None
    return answer(Posted(outcome="taken-back", number=number, game=state_of(_edited(editor_token))))


#: What anyone may read (by a spectators' token, or the document): a club's page
#: in a browser may read it too, from another site.
PUBLIC_READS: Final = frozenset(
    {
        "api.game",
        "api.deals",
        "api.settlement",
        "api.record",
        "api.table",
        "api.event",
        "api.event_rounds",
        "api.openapi",
    }
)


@bp.after_request
def _headers(response: Response) -> Response:
    """The answer depends on the language asked (names, messages); public reads
    may be fetched from any site's page (no cookie is ever read)."""
    response.vary.add("Accept-Language")
    if request.method == "GET" and request.endpoint in PUBLIC_READS:
        response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def document() -> dict[str, Any]:
    """The OpenAPI document of this API, served at this server's address."""
    return api.document(public_url("api.openapi").rsplit("/", 1)[0], "Referee", "1")


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API (not one of its own operations)."""
    return Response(json.dumps(document()), mimetype="application/json")
