"""What a concours prints (PDF, A4 or US Letter, in the event's language, black on
white): the table cards, the players' route slips, the ranking sheet and each
player's results.

The table cards and route slips are the director's (`/e/<token>/print/…`); the
ranking sheet and the personal results are public (`/ev/<view_token>/…`): names
and results only, the same as the public page. Each document is drawn once per
event version, paper size and language, then kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint, Response, abort, render_template, request
from flask_babel import force_locale

from referee.events.concours import Concours, Figure, Line
from referee.events.draw import Format
from referee.events.plan import Planned, changed_since, planned
from referee.extensions import db
from referee.models import Event, EventChange
from referee.services import events as service
from referee.web.browser import remember_in
from referee.web.events import common, loaded_event
from referee.web.hosts import public_url
from referee.web.share import qr_svg
from referee.web.sheets import PAGE_SIZES, ascii_name, cached_pdf, paper_size

bp = Blueprint("event_prints", __name__)

#: The documents, by the name in their address: (template, who may ask).
DOCUMENTS = {
    "cards": "pdf/events/cards.html",
    "slips": "pdf/events/slips.html",
    "ranking": "pdf/events/ranking.html",
    "results": "pdf/events/results.html",
}


@dataclass(frozen=True)
class Seat:
    """Where a player sat in one round, and what came of it."""

    round: int
    table: int | None  # None: the player sat out (a bye), or was not in the event
    seat: int | None
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    score: int | None  # the table score accepted for the player
    points: Figure | None  # the ranking points of the round
    bye: bool = False
    #: The player was not in the event that round (late, or away for a time).
    late: bool = False


def table_count(event: Event) -> int:
    """The tables the event needs at most: those drawn so far, or the tables the
    players now in fill."""
    drawn = max((t.number for t in event.tables), default=0)
    present = sum(1 for p in event.players if p.left is None)
    return max(drawn, present // max(event.table_size, 1), 1)


def _points(line: Line | None, round: int) -> Figure | None:
    """A ranking line's points in round `round` (None: none counted there)."""
    return None if line is None or round > len(line.rounds) else line.rounds[round - 1]


def routes(event: Event, concours: Concours, lines: tuple[Line, ...]) -> dict[int, list[Seat]]:
    """Each player's rounds so far (the draw's tables and seats, the byes), with
    their partners and opponents by name, the accepted table score and the round's
    ranking points."""
    names = {p.number: p.name for p in event.players}
    line_of = {n: line for line in lines for n in line.players}
    side_of: dict[int, int] = {}
    for side, seats in enumerate(concours.sides):
        for seat in seats:
            side_of[seat] = side
    out: dict[int, list[Seat]] = {p.number: [] for p in event.players}
    for r in event.rounds:
        seen: set[int] = set()
        for t in event.tables:
            if t.round != r.number:
                continue
            for i, number in enumerate(t.seats):
                seen.add(number)
                others = [(j, n) for j, n in enumerate(t.seats) if n != number]
                out.setdefault(number, []).append(
                    Seat(
                        r.number,
                        t.number,
                        i + 1,
                        tuple(names[n] for j, n in others if side_of.get(j) == side_of.get(i)),
                        tuple(names[n] for j, n in others if side_of.get(j) != side_of.get(i)),
                        None if t.accepted is None else t.accepted[i],
                        _points(line_of.get(number), r.number),
                    )
                )
        for number in r.byes:
            if number not in seen:
                points = _points(line_of.get(number), r.number)
                out.setdefault(number, []).append(
                    Seat(r.number, None, None, (), (), None, points, True)
                )
                seen.add(number)
        # A late arrival's rounds before they came, a round missed while away: a row
        # each, with what it scored, so that the rows add up to the total.
        for player in concours.players:
            if player.number not in seen and player.absent(r.number):
                points = _points(line_of.get(player.number), r.number)
                out.setdefault(player.number, []).append(
                    Seat(r.number, None, None, (), (), None, points, late=True)
                )
    return out


def remember_slips(event: Event, plan: Planned) -> None:
    """Keep the draw the route slips were printed with (its code and each player's
    seats), once per draw: the slips of a later draw are compared with it. Not a
    change of the concours (its version stays: nothing it shows moved)."""
    if any(c.action == "slips" and (c.after or {}).get("code") == plan.code for c in event.changes):
        return
    seats = {
        str(p): {str(r): (list(at) if at else None) for r, at in rounds.items()}
        for p, rounds in plan.seats.items()
    }
    db.session.add(
        EventChange(event_id=event.id, action="slips", after={"code": plan.code, "seats": seats})
    )
    db.session.commit()


def document_html(event: Event, kind: str, size: str, since: str | None = None) -> str:
    """A concours's printed document as HTML, in the event's language (`since`: the
    route slips only of the players whose slip changed since that draw's)."""
    with force_locale(event.language or "fr"):
        shown = common(event)

        def play(number: int) -> str:
            # The table's own code in its QR: its phone enters and accepts; the
            # tables' link alone only reads.
            return public_url(
                "events.table_game",
                play_token=event.play_token,
                number=number,
                k=service.table_key(event, number),
            )

        view_url = public_url("events.public", view_token=event.view_token)
        plan = planned(shown["concours"]) if kind == "slips" else None
        only = None
        if plan is not None and since:
            printed = next(
                (
                    c.after
                    for c in event.changes
                    if c.action == "slips" and (c.after or {}).get("code") == since
                ),
                None,
            )
            only = changed_since(plan, printed)
        return render_template(
            DOCUMENTS[kind],
            **shown,
            page_size=PAGE_SIZES[size],
            tables=range(1, table_count(event) + 1),
            table_url=play,
            qr=qr_svg,
            view_url=view_url,
            routes=routes(event, shown["concours"], shown["lines"]),
            plan=plan,
            only=only,
            lang=event.language or "fr",
        )


def _document(event: Event | None, kind: str, since: str | None = None) -> Response:
    """A document of `event` (found by a link, not yet read whole: a document
    already drawn for its version is sent without reading it)."""
    if event is None:
        abort(404)
    size = paper_size()

    def html_of() -> tuple[str, str]:
        loaded = loaded_event(event)
        html = document_html(loaded, kind, size, since)
        paper = "" if size == "a4" else f"-{size}"
        return html, ascii_name(f"{loaded.name}-{kind}{paper}") + ".pdf"

    return cached_pdf(("event", event.uid, event.version, kind, size, since), html_of)


@bp.get("/e/<token>/print/<kind>.pdf")
def director_print(token: str, kind: str) -> Response:
    """The director's prints: the table cards and route slips (and the public two)."""
    if kind not in DOCUMENTS:
        abort(404)
    event = service.find(token)
    if event is not None:
        remember_in("events", token)
    since = request.args.get("since") if kind == "slips" else None
    if event is not None and kind == "slips":
        loaded = loaded_event(event)
        if loaded.format != Format.PAIRS.value:
            remember_slips(loaded, planned(service.concours_of(loaded)))
    return _document(event, kind, since if since and re.fullmatch(r"[0-9A-F]{4}", since) else None)


@bp.get("/ev/<view_token>/<kind>.pdf")
def public_print(view_token: str, kind: str) -> Response:
    """The ranking sheet and the personal results: names and results only."""
    if kind not in ("ranking", "results"):
        abort(404)
    return _document(service.find_view(view_token), kind)
