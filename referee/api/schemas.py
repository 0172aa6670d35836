"""What the API takes and answers, declared once as pydantic models.

The same declarations check a request's envelope (`DealPost`, `DealCorrection`),
build every answer (each view returns one of these models) and write the OpenAPI
document (`referee.api.declare`): the document cannot say one thing while the code
does another. What a deal or a game's record holds is the record format's
(docs/RECORD-FORMAT.md), read and refused by the engine with its own messages;
here it is an object.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.config import JsonDict, JsonValue

from referee.engine.records import FORMAT, MAX_DEALS
from referee.games import GAMES

#: A one-time key as the deal forms carry them (`web.games.FORM_KEY`).
KEY_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"


def _whole(value: object) -> object:
    """A JSON number with no fraction (`3.0`) is a whole number, as JSON Schema says."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: A deal's number in a request (3 or 3.0, never "3" nor true), from 1.
DealNumber = Annotated[int, Field(ge=1, le=MAX_DEALS), BeforeValidator(_whole)]
#: A game's version in a request.
Version = Annotated[int, Field(ge=0, le=2**31 - 1), BeforeValidator(_whole)]


class Declared(BaseModel):
    """A model of the API: closed (an unknown field is refused), strict (a number
    is not read from text, nor a boolean as a number), frozen."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# Requests ----------------------------------------------------------------------------


def _optional(description: str, **constraints: Any) -> Any:
    """A field of the record that may be left out, but is never null: the document
    shows no default (the engine's is the rule)."""
    return Field(None, description=description, json_schema_extra=_no_default, **constraints)


def _no_default(schema: JsonDict) -> None:
    schema.pop("default", None)


def _game_keys() -> list[JsonValue]:
    """The registered games' keys, for the document."""
    return [key for key in sorted(GAMES)]


def _example() -> JsonDict:
    """A new game of the first registered game, with as few players as it takes."""
    game = next(iter(GAMES.values()))
    names: list[JsonValue] = ["Ana", "Bruno", "Chloé", "David", "Emma", "Farid"]
    return {"format": FORMAT, "game": game.key, "players": names[: game.player_counts[0]]}


class NewGame(Declared):
    """A game's record (docs/RECORD-FORMAT.md): the game, its players, its house rules
    and stake, and the deals played already, if any. The engine reads it as it reads
    an imported file, and refuses what cannot be with the field it blames."""

    model_config = ConfigDict(json_schema_extra={"examples": [_example()]})

    format: Literal["referee-game/1"] = Field(description="The record format's name and version.")
    game: str = Field(description="The game's key.", json_schema_extra={"enum": _game_keys()})
    players: list[str] = Field(description="The players' names, in clockwise seat order.")
    first_dealer: int = _optional("The seat (from 0) of the first dealer.")
    rules: dict[str, Any] = _optional("House rules, by name (each game lists its own).")
    stake: str = _optional('The stake, as an amount: "0.50".')
    stake_per: Literal["game", "point"] = _optional("What the stake is paid for.")
    currency: str = _optional('A three-letter code: "EUR".')
    place: str = _optional("Where the game is played.")
    date: str = _optional('The day it was played: "2026-12-01".')
    deals: list[dict[str, Any]] = _optional(
        "Deals played already, in the record format.", max_length=MAX_DEALS
    )


class DealPost(Declared):
    """A new deal, with what makes it safe to send twice."""

    deal: dict[str, Any] = Field(description="The deal, as the record format writes it.")
    key: str | None = Field(
        None,
        pattern=KEY_PATTERN,
        description="A one-time key of your choosing: the same key sent again (a retry "
        "after a dropped connection) records the deal once.",
    )
    number: DealNumber | None = Field(
        None,
        description="The deal's number as you counted it: if another client recorded "
        "that deal first, the answer is 409 and nothing is written.",
    )


class DealCorrection(Declared):
    """A deal written again, on the game as it was at `version`."""

    deal: dict[str, Any] = Field(description="The deal, as the record format writes it.")
    version: Version = Field(
        description="The game's version the correction was made on: if the game changed "
        "since, the answer is 409 and nothing is written.",
    )


# Answers -----------------------------------------------------------------------------


class Transfer(Declared):
    """One payment that settles the money: seat `from` pays seat `to`."""

    model_config = ConfigDict(populate_by_name=True)

    payer: int = Field(alias="from", description="The paying seat (from 0).")
    payee: int = Field(alias="to", description="The receiving seat (from 0).")
    amount: str = Field(description='An amount, written like "1.50".')


class Money(Declared):
    """The game's money: each seat's net (positive: receives) and who pays whom."""

    stake: str = Field(description='The stake, as an amount: "0.50".')
    stake_per: Literal["game", "point"] = Field(description="What the stake is paid for.")
    currency: str = Field(description='A three-letter code: "EUR".')
    net: list[str] = Field(description="Each seat's net amount (positive: receives).")
    transfers: list[Transfer] = Field(description="The fewest payments that settle it.")


class GameLinks(Declared):
    """Addresses of the game: its spectators' page and this API's answers."""

    page: str = Field(description="The spectators' page.")
    api: str = Field(description="This game in the API (read only).")
    deals: str = Field(description="Its history in this API.")
    settlement: str = Field(description="Its money in this API.")
    record: str = Field(description="Its record (the record format) in this API.")
    picture: str = Field(
        description="Its result as a PNG picture (1080×1350), to send where players talk."
    )


class GameState(Declared):
    """A game as it stands: who plays, the totals, who won."""

    game: str = Field(description="The game's key.")
    name: str = Field(
        description="The game's name, in the answer's language, or what the table said "
        "it plays, where a game takes any name (its `name` rule)."
    )
    players: list[str] = Field(description="Names, in seat order (seats from 0).")
    sides: list[list[int]] = Field(description="Seats that score together (teams).")
    lowest_wins: bool = Field(description="Whether the lowest total leads.")
    version: int = Field(description="Goes up by one at each change of the game.")
    deals: int = Field(description="How many deals are recorded.")
    finished: bool = Field(description="Whether the game is over.")
    winners: list[int] = Field(description="The winning seats, once finished.")
    scores: list[int] = Field(description="Each seat's total.")
    next_dealer: int | None = Field(description="The seat dealing next (none once finished).")
    played_on: str = Field(description="The day, as YYYY-MM-DD.")
    place: str | None = Field(description="Where it is played, if said.")
    money: Money | None = Field(description="Present when the game is played for a stake.")
    figures: dict[str, Any] = Field(
        description="The game's own figures (its round, what each seat has won...), by the "
        "names `referee score` prints them with (docs/RECORD-FORMAT.md)."
    )
    links: GameLinks


class Mark(Declared):
    """Something a deal did beyond its points, by its kind's key (the game's own
    words name it); `seat` where it names one player."""

    kind: str = Field(description="The kind of mark: a key of the game's.")
    seat: int | None = Field(None, description="The seat it names, if one.")


class DealLine(Declared):
    """One recorded deal: as entered, and what it gave."""

    number: int = Field(description="From 1.")
    deal: dict[str, Any] = Field(description="The deal, as the record format writes it.")
    dealer: int | None = Field(description="The seat that dealt it, where the game says.")
    deltas: list[int] = Field(description="Each seat's points from this deal.")
    totals: list[int] = Field(description="Each seat's total after it.")
    marks: list[Mark] = Field(description="What the deal did beyond its points.")


class History(Declared):
    """Every deal of the game, in order."""

    version: int = Field(description="The game's version.")
    players: list[str] = Field(description="Names, in seat order.")
    deals: list[DealLine] = Field(description="Every deal recorded, in order.")


class Settlement(Declared):
    """Who pays whom (no money: a game without a stake)."""

    version: int = Field(description="The game's version.")
    finished: bool = Field(description="Whether the game is over (the money is final).")
    players: list[str] = Field(description="Names, in seat order.")
    money: Money | None = Field(description="None: the game is played for no stake.")


class Created(Declared):
    """A new game: its two links. Keep the editor's token: whoever holds it may
    enter and correct deals. The spectators' token may be shared."""

    editor_token: str = Field(description="Writes: keep it private.")
    view_token: str = Field(description="Reads: share it.")
    editor_page: str = Field(description="The page to play it from (editors).")
    game: GameState = Field(description="The game as it stands.")


class EditorView(Declared):
    """A game as its editors see it: its state and its spectators' token."""

    view_token: str = Field(description="The spectators' token, to share.")
    game: GameState = Field(description="The game as it stands.")


class Posted(Declared):
    """What became of a deal sent: recorded (201), already recorded by the same key
    (200), recorded then taken back meanwhile (200), corrected or taken back."""

    outcome: Literal["recorded", "already", "undone", "corrected", "taken-back"] = Field(
        description="What became of it."
    )
    number: int = Field(
        description="The deal's number: the one recorded, corrected or taken back; for "
        "`already` and `undone`, the one this key recorded."
    )
    game: GameState = Field(description="The game after it.")


class TableGameLine(Declared):
    """One of a table's games, in short."""

    game: str = Field(description="The game's key.")
    players: list[str] = Field(description="The people in each seat (the table's names).")
    played_on: str = Field(description="The day, as YYYY-MM-DD.")
    finished: bool = Field(description="Whether the game is over.")
    winners: list[int] = Field(description="The winning seats, once finished.")
    scores: list[int] = Field(description="Each seat's total.")
    deals: int = Field(description="How many deals were played.")
    api: str = Field(description="The game in this API.")


class EveningMoney(Declared):
    """An evening's money in one currency: each person's net and who pays whom."""

    currency: str = Field(description='A three-letter code: "EUR".')
    people: list[str] = Field(description="Everyone who played for money that evening.")
    net: list[str] = Field(description="Each person's net amount (positive: receives).")
    transfers: list[Transfer] = Field(description="Seats are indices into `people`.")


class Evening(Declared):
    """One day at the table."""

    day: str = Field(description="YYYY-MM-DD.")
    games: int = Field(description="How many games were played that day.")
    money: list[EveningMoney] = Field(description="One settlement per currency.")


class TableState(Declared):
    """A table: its people, its games (newest first) and each evening's money."""

    name: str = Field(description="The table's name.")
    version: int = Field(description="Goes up at each change of the table itself.")
    people: list[str] = Field(description="Everyone who played at it.")
    games: list[TableGameLine] = Field(description="Its games, newest first.")
    evenings: list[Evening] = Field(description="Its evenings, newest first.")


class RankLine(Declared):
    """A line of a concours's ranking."""

    rank: int = Field(description="The place; players level on every tie-break share it.")
    name: str = Field(description="The player (a pair: both names).")
    players: list[int] = Field(description="Their numbers in the event.")
    points: int | float = Field(description="The ranking's points (a shared place: 2 decimals).")
    tie_breaks: dict[str, int | float] = Field(
        description="Each stated tie-break's value, in the stated order."
    )
    separated_by: str | None = Field(
        description='What put this line below the one above: "points", a tie-break, '
        '"withdrawn"; null for the first line and for a line level with the one above.'
    )
    withdrawn: bool = Field(description="Whether the player withdrew.")
    prize: str | None = Field(
        description="The line's prize, an amount like \"81.00\" in the event's currency "
        "(shared places share their prizes to the cent); null without prizes or before "
        "the first result."
    )


class EventState(Declared):
    """A concours: its rules as stated before it started, where it stands, its ranking."""

    name: str = Field(description="The concours's name.")
    game: str = Field(description="The game's key (the record format's).")
    format: Literal["individual", "partners", "pairs"] = Field(description="Who plays with whom.")
    table_size: int = Field(description="Players at a table.")
    rounds_planned: int = Field(description="The rounds it plays (the director may change it).")
    rounds_drawn: int = Field(description="The rounds drawn so far.")
    round_deals: int | None = Field(description="A round's deals, or null for a timed round.")
    round_minutes: int | None = Field(description="A timed round's minutes, or null.")
    round_ends_at: str | None = Field(
        description="When the timed round in play ends, ISO 8601 in UTC, or null."
    )
    rule: Literal["score", "places"] = Field(description="How table results become points.")
    tie_breaks: list[str] = Field(description="The tie-breaks, in order.")
    provisional: bool = Field(description="Whether rounds or results are still to come.")
    version: int = Field(description="Goes up at each change of the concours.")
    currency: str = Field(description="The currency of the entry fee and the prizes.")
    pot: str | None = Field(
        description='The prize pot, an amount like "162.00": the entry fees of everyone '
        "checked in, minus the share the club keeps; null without prizes."
    )
    ranking: list[RankLine] = Field(description="Best first.")


class EventTableLine(Declared):
    """A table of a round."""

    table: int = Field(description="Its number, from 1.")
    players: list[str] = Field(description="Its players, in seat order.")
    scores: list[int] | None = Field(description="The accepted totals, seat by seat; null before.")
    game: str | None = Field(description="Its game in this API (by the spectators' token).")


class EventRoundLine(Declared):
    """A round: its tables and who sat out."""

    number: int = Field(description="From 1.")
    tables: list[EventTableLine] = Field(description="Its tables, in order.")
    byes: list[str] = Field(description="Who sat out.")


class EventRounds(Declared):
    """Every round drawn so far."""

    rounds: list[EventRoundLine] = Field(description="In order.")


class Acceptance(Declared):
    """An opponent accepts a table's result (the round is over at that table)."""

    who: str = Field(description="The name of a player of the table (an opponent of the entrant).")
    key: str = Field(
        description="The table's code, from the QR code of its table card (`k=` in its "
        "address): the tables' public link alone accepts nothing."
    )
    none_in_play: bool = Field(
        default=False,
        description="A timed round: no deal was in play when time was up (else the deal "
        "in play is entered first).",
    )


class Refusal(Declared):
    """One thing refused: its code, the field it blames (a path in the body, such
    as `deal.tricks` or `players[2]`), the deal (from 1) where it is one, and the
    message a player reads, in the answer's language."""

    code: str = Field(description="What is refused, for programs (stable).")
    field: str | None = Field(description="The field blamed: a path in what was sent.")
    deal: int | None = Field(description="The deal (from 1) where it is one.")
    message: str = Field(description="The message to show a player.")


class ProblemDetails(Declared):
    """An error, as RFC 9457 (application/problem+json) writes it."""

    type: str = Field(description="What kind of problem: a URN, `urn:referee:<kind>`.")
    title: str = Field(description="The kind, in the answer's language.")
    status: int
    detail: str = Field(description="What happened, in the answer's language.")
    errors: list[Refusal] = Field(default_factory=list)
    number: int | None = Field(
        None, description="When a deal was taken: the number the next deal would take."
    )
    version: int | None = Field(None, description="When the game changed: its version now.")
