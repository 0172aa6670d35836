"""The engine's messages, keyed by problem code, in the one catalogue's words.

The engine raises codes with parameters; this module turns them into the sentence
a player reads, in French or English (`catalog.translate`: the French is in
`translations/fr/LC_MESSAGES/messages.po`). Field names are shown in the player's
words too (`tricks` → "levées"), and the bad input is quoted as it was given.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final

from referee.engine.catalog import N_, NC_, translate
from referee.engine.names import isolate

LANGUAGES: Final = ("fr", "en")
DEFAULT_LANGUAGE: Final = "en"
_QUOTE_LIMIT: Final = 40

#: code -> message id (English). Placeholders: {field} is the field in the player's
#: words, {value} the bad input quoted; the others are numbers or names.
MESSAGES: Final[dict[str, str]] = {
    "bad_json": N_("the file cannot be read: it is damaged at line {line}, column {column}"),
    "bad_encoding": N_("the file is not UTF-8 text"),
    "too_large": N_("the file is larger than {high} KB; a game's file is far smaller"),
    "too_deep": N_("the file does not hold a game: its entries nest too deep"),
    "number_too_long": N_("the file holds a number of more than {high} digits; no game needs one"),
    "not_json_value": N_("the file holds {value}, which is not a number"),
    "duplicate_key": N_("the file names {value} twice in one place: which one counts?"),
    "text_unusable": N_("{field}: character {position} ({char}) cannot be stored or printed"),
    "file_text_unusable": N_(
        "the file holds a text whose character {position} ({char}) cannot be stored"
    ),
    "record_not_object": N_("the file does not hold a game"),
    "format_unknown": N_("this file is of a kind Referee cannot read as a game ({value})"),
    "game_unknown": N_("unknown game {value}; known games: {games}"),
    "trump_unknown": N_("{value} is not a trump of this game"),
    "trump_missing": N_("which trump? One of: {choices}"),
    "trump_none": N_("this game is played without trump, so {value} cannot be one"),
    "players_not_list": N_("the game needs the names of its {expected} players"),
    "players_count": N_("this game is played by {expected} players, not {count}"),
    "player_name": N_("the player at seat {seat} needs a name"),
    "player_name_long": N_(
        "the name of the player at seat {seat} is longer than {high} characters"
    ),
    "player_twice": N_("two players have the same name: {name} (seats {seat} and {other_seat})"),
    # A table and its people (engine/tables.py).
    "table_name": N_("a table needs a name"),
    "table_name_long": N_("a name is at most {high} characters long"),
    "person_unknown": N_("nobody called {value} has played at this table"),
    "person_same": N_("{value} is one person already"),
    "person_together": N_(
        "{name} and {other} played in the same game: they are two people, not one"
    ),
    "table_not_object": N_("the file does not hold a table"),
    "table_format": N_("this file is of a kind Referee cannot read as a table ({value})"),
    "table_field_unknown": N_("a table's file holds nothing called {value}"),
    "table_people": N_("{field}: each must be the name of a person who plays at the table"),
    "table_aliases": N_(
        "each name merged at the table must lead to one person, without going round in a circle"
    ),
    "table_games": N_("a table's file holds its games (at most {high})"),
    "rule_unknown": N_("unknown house rule {value}"),
    "stake_not_string": N_('the stake {value} is not written as an amount, like "0.50"'),
    "stake_malformed": N_(
        'the stake {value} is not an amount like "0.50" (digits, a point, two decimals at most)'
    ),
    "stake_too_high": N_("the stake {value} is more than {high}"),
    "stake_per_unknown": N_('stakes are paid per "game" or per "point", not {value}'),
    "currency_malformed": N_('the currency {value} is not a three-letter code like "EUR"'),
    "place_malformed": N_("the place {value} is not the name of a place"),
    "place_long": N_("the place is longer than {high} characters"),
    "date_malformed": N_('the date {value} is not a day like "2026-12-01"'),
    "stake_not_positive": N_("the stake {value} must be more than zero"),
    "stake_precision": N_("the stake {value} has more than {places} decimals"),
    "deals_not_list": N_("the deals cannot be read"),
    "deals_too_many": N_("the game has {count} deals, more than {high}"),
    "not_object": N_("{field} cannot be read"),
    "unknown_field": N_("Referee does not know {value} here"),
    "missing": N_("{field} is missing"),
    "not_integer": N_("{field} must be a whole number, not {value}"),
    "out_of_range": N_("{field} {value} is out of range: {low} to {high}"),
    "not_boolean": N_("{field} is either on or off, not {value}"),
    "not_text": N_("{field} must be words, not {value}"),
    "text_long": N_("{field} is longer than {high} characters"),
    "unknown_choice": N_("{field}: {value} is not one of: {choices}"),
    "seat_not_integer": N_("{field} must be a player's seat number, not {value}"),
    "seat_missing": N_("{field}: choose a player"),
    "seat_unknown": N_("{field} names a player who is not at this table"),
    "not_counts": N_("{field}: one number per player is needed ({players})"),
    "counts_length": N_("{field}: {count} {count|number|numbers}, but one per player is {players}"),
    "count_range": N_(
        "{field} of the player at seat {seat}: {value} is not a number from 0 to {high}"
    ),
    "tricks_total": N_("tricks add up to {total}, a deal has {expected}"),
    "auction_not_list": N_('the auction is a series of calls, each "pass" or a bid, not {value}'),
    "auction_length": N_("the auction has {count} {count|call|calls}; one round has {players}"),
    "auction_not_rising": N_("call {call} of the auction, {value}, does not rise above {standing}"),
    "auction_bid": N_("the auction ends at {auction}, but the bid is {bid}"),
    "dealer_wrong": N_("the dealer is {name}, not {given}"),
    "after_win": N_("the game was won at deal {won_at}; no deal may follow"),
    "card_unknown": N_("{value} is not a card (write it like JH, 10♥ or AS)"),
    "card_not_in_deck": N_("{value} is not in this game's deck"),
    "card_twice": N_("{value} appears twice"),
    "trick_empty": N_("a trick needs at least one card"),
    "trick_too_long": N_("a trick has at most {players} cards, not {count}"),
    "card_not_in_hand": N_("{value} is not in the hand"),
    "draw_partners_four": N_("partners sit at tables of 4, not {value}"),
    "draw_pairs_odd": N_("fixed pairs need an even number of players, not {value}"),
    "event_text": N_("{field} must be written as text, not {value}"),
    "event_text_long": N_("{field} is longer than {high} characters"),
    "event_time": N_("{field} {value} is not a date and time like 2026-12-07T18:30:00"),
    "event_too_many": N_("{field}: {count} is more than {high}"),
    "event_game_size": N_("this game is not played at tables of {value}"),
    "event_length": N_("a round lasts a number of deals or a number of minutes (one of the two)"),
    "event_amount": N_('{field} {value} is not an amount like "10.00"'),
    "event_prizes_drawn": N_("the prizes are stated before the first round, not after"),
    "prize_number": N_("{field} {value} is not a number from 0 to {high}"),
    "prize_decimals": N_("{field} {value} has more than two decimals"),
    "prize_places": N_("{field}: from 1 to {high} places"),
    "prize_total": N_("{field}: the percentages add up to {total}%, not 100%"),
    "season_points": N_(
        "{field}: from 1 to {high} whole numbers from 0 to 10000, first place first"
    ),
    "season_points_rise": N_("{field} {value}: a place scores no more than the place before it"),
    "season_whole": N_("{field} {value} is not a whole number from 0 to {high}"),
    "event_twice": N_("{field}: {value} appears twice"),
    "event_numbers": N_("{field} {value} is out of order: {expected} was expected"),
    "event_left_before": N_(
        "{field}: a player cannot leave (after round {value}) before joining (round {joined})"
    ),
    "event_player_unknown": N_("{field}: {value} is not the number of a player of the event"),
    "event_player_absent": N_("{field}: {value} is not in the event at round {round}"),
    "event_player_twice": N_("{field}: {value} sits twice in round {round}"),
    "event_player_seatless": N_(
        "{field}: {value} is in the event at round {round} but has no seat and no bye"
    ),
    "event_table_size": N_("{field}: {count} {count|seat|seats}, a table has {size}"),
    "event_game_other": N_("{field}: a game of {value}, the event plays {game}"),
    "event_game_players": N_("{field}: its players ({value}) are not the table's, in seat order"),
    "event_scores_differ": N_("{field} {value} are not the game's totals {scores}"),
    "event_rounds_more": N_("{count} rounds played, but the event has {high}"),
    "event_round_open": N_(
        "round {round} is still being played: {count} {count|table has|tables have} no accepted result"
    ),
    "event_over": N_("every round of the event has been played ({high})"),
    "event_player_drawn": N_(
        "a round is drawn: a player who leaves now withdraws (their rounds stay in the ranking)"
    ),
    "event_deal_in_play": N_(
        "time is up, but the deal in play is the last: enter it first, or say that no deal "
        "was in play at the bell"
    ),
    "event_accept_own": N_(
        "this phone entered the deals: an opponent accepts on their own phone, or the "
        "director types the director's PIN"
    ),
    "event_bell": N_(
        "time is up: the deal in play at the bell was the last, and it is in. The director "
        "can let the table play on"
    ),
    "event_pin_wrong": N_("this is not the director's PIN: ask the director to type it"),
    "event_key": N_(
        "this phone does not hold the table's code: scan the QR code of the table's card"
    ),
    "event_not_over": N_(
        "the round is not over: the table plays {deals} deals, or until the time is up"
    ),
    "correction_changed": N_(
        "the game no longer gives the accepted result {value}: apply the correction, "
        "or put the deals back first"
    ),
    "concours_few": N_("{count} {count|player|players} present: a round needs {low} at least"),
    "key_malformed": N_("{field} must be 8 to 64 letters, digits, - or _, not {value}"),
    "must_follow": N_(
        "{value} does not follow suit: the hand holds {cards}, which must be played on {suit}"
    ),
}

#: Field names as players say them: base name -> (English, French).
FIELD_NAMES: Final[dict[str, str]] = {
    "taker": NC_("field", "taker"),
    "bid": NC_("field", "bid"),
    "contract": NC_("field", "contract"),
    "tricks": NC_("field", "tricks"),
    "auction": NC_("field", "auction"),
    "dealer": NC_("field", "dealer"),
    "first_dealer": NC_("field", "first dealer"),
    "passed": NC_("field", "passed"),
    "players": NC_("field", "players"),
    "rules": NC_("field", "house rules"),
    "stake": NC_("field", "stake"),
    "stake_per": NC_("field", "stakes"),
    "currency": NC_("field", "currency"),
    "place": NC_("field", "place"),
    "date": NC_("field", "date"),
    "deals": NC_("field", "deals"),
    "card": NC_("field", "card"),
    "trump": NC_("field", "trump"),
    "partner": NC_("field", "partner"),
    "trick": NC_("field", "trick"),
    "hand": NC_("field", "hand"),
    "format": NC_("field", "format"),
    "game": NC_("field", "game"),
    # What a program sends with a deal (the API: docs/API.md).
    "deal": NC_("field", "deal"),
    "key": NC_("field", "one-time key"),
    "number": NC_("field", "deal number"),
    "version": NC_("field", "version"),
    # A concours (`referee rank`, the event file: docs/EVENT-FORMAT.md).
    "name": NC_("field", "name"),
    "ordinal": NC_("field", "number"),
    "length": NC_("field", "round length"),
    "minutes": NC_("field", "minutes"),
    "entry_fee": NC_("field", "entry fee"),
    "ranking": NC_("field", "ranking"),
    "prizes": NC_("field", "prizes"),
    "split": NC_("field", "prizes by place"),
    "kept": NC_("field", "share kept by the club"),
    "by": NC_("field", "split by"),
    "beyond": NC_("field", "points past the table"),
    "drop_worst": NC_("field", "worst results dropped"),
    "rule": NC_("field", "ranking rule"),
    "places": NC_("field", "points by place"),
    "tie_breaks": NC_("field", "tie-breaks"),
    "bye": NC_("field", "bye"),
    "seats": NC_("field", "seats"),
    "scores": NC_("field", "scores"),
    "byes": NC_("field", "byes"),
    "tables": NC_("field", "tables"),
    "table": NC_("field", "table"),
    "round": NC_("field", "round"),
    "reason": NC_("field", "reason"),
    "joined": NC_("field", "round joined"),
    "left": NC_("field", "round left after"),
    "seed": NC_("field", "seed"),
    "rounds_planned": NC_("field", "rounds"),
    "accepted": NC_("field", "accepted"),
    "who": NC_("field", "who accepts"),
    "pin": NC_("field", "director's PIN"),
    "slides": NC_("field", "the TV's slides"),
    "seconds": NC_("field", "seconds a slide"),
    "late": NC_("field", "late arrivals' missed rounds"),
    "time_zone": NC_("field", "time zone"),
    "missed": NC_("field", "rounds missed"),
    "paid": NC_("field", "paid"),
    "started": NC_("field", "started"),
    "history": NC_("field", "history"),
    # A concours's draw (`referee draw`).
    "rounds": NC_("field", "rounds"),
    "table_size": NC_("field", "table size"),
}


#: What the record names with a key, in the players' words: contracts, trumps,
#: cards (English, French); each game adds its own (`referee.engine.words`).
WORDS: Final[dict[str, str]] = {
    "no-trump": N_("no trump"),
    "spades": N_("spades"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "clubs": N_("clubs"),
}

_DEAL_PREFIX: Final = N_("deal {deal}: ")
#: Between the last two of several numbers a player may choose from ("4 or 5").
_OR: Final = N_("{some} or {last}")
#: What a problem that names no field blames: the deal, else the file.
_WHOLE_DEAL: Final = N_("the deal")
_WHOLE_FILE: Final = N_("the file")
#: What a record's `null`, `true` and `false` are at the table.
_CONSTANTS: Final = {None: N_("nothing"), True: N_("yes"), False: N_("no")}
_INDEX: Final = re.compile(r"\[\d+\]")
#: A list's player's name (an event file's `players[12].name`): said with the
#: player's number, one of hundreds (the trial of issue 51).
_PLAYER_NAME: Final = re.compile(r"players\[(\d+)\]\.name")
_PLAYER_NAME_LABEL: Final = N_("the name of player {number}")


def language(lang: str | None) -> str:
    """Reduce a locale (`fr_FR.UTF-8`, `en-GB`) to a supported language, English by default."""
    code = (lang or "").strip().lower()[:2]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def field_label(field: str | None, lang: str) -> str:
    """A field path (`rules.target`, `auction[2]`, `points.ace`) in the player's words."""
    if not field:
        return ""
    if (player := _PLAYER_NAME.fullmatch(field)) is not None:
        return translate(lang, _PLAYER_NAME_LABEL).format(number=int(player[1]) + 1)
    base = _INDEX.sub("", field).rsplit(".", 1)[-1]
    names = FIELD_NAMES.get(base) or WORDS.get(base)
    if names is None:
        return base.replace("_", " ")  # never the file's path: its last word
    return translate(lang, names, "field" if base in FIELD_NAMES else None)


def quote(value: object) -> str:
    """Quote a bad input as it was given (JSON spelling), cut short if long.

    Whatever the input, the quote is short and printable: containers are shown two
    levels deep at most, long numbers and texts are cut before they are converted,
    and characters that cannot be encoded become U+FFFD.
    """
    text = _sketch(value, 2)
    text = text if len(text) <= _QUOTE_LIMIT else text[: _QUOTE_LIMIT - 1] + "…"
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def _sketch(value: object, depth: int) -> str:
    """A JSON-like spelling of `value`, bounded in depth and length."""
    if isinstance(value, dict):
        if depth == 0 or not value:
            return "{…}" if value else "{}"
        items = list(value.items())[:3]
        inner = ", ".join(f"{_sketch(k, 0)}: {_sketch(v, depth - 1)}" for k, v in items)
        return "{" + inner + (", …}" if len(value) > 3 else "}")
    if isinstance(value, list | tuple):
        if depth == 0 or not value:
            return "[…]" if value else "[]"
        inner = ", ".join(_sketch(v, depth - 1) for v in value[:5])
        return "[" + inner + (", …]" if len(value) > 5 else "]")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        # str() of a huge int is slow (and refused past 4,300 digits): its size will do.
        return f"{'-' if value < 0 else ''}~10^{int(value.bit_length() * 0.30103)}"
    if isinstance(value, str):
        value = value[:_QUOTE_LIMIT]
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)[:_QUOTE_LIMIT]


def render(
    code: str, field: str | None, params: Mapping[str, object], deal: int | None, lang: str
) -> str:
    """The message of one problem, in `lang`, prefixed with its deal number.

    It speaks the table's words, not the record's: seats counted from 1, contracts,
    cards and choices by their names, plurals as the count wants them.
    """
    lang = language(lang)
    template = _plurals(translate(lang, MESSAGES[code]), params, lang)
    values: dict[str, object] = dict(params)
    values.pop("as_field", None)
    label = params.get("as_field")
    if isinstance(label, str) and label not in FIELD_NAMES:
        values["field"] = translate(lang, label)  # a house rule, by its own label
    else:
        values["field"] = field_label(label if isinstance(label, str) else field, lang)
    if not values["field"]:
        # The deal itself, or the whole file, is what cannot be read.
        values["field"] = translate(lang, _WHOLE_DEAL if deal is not None else _WHOLE_FILE)
    for key in ("value", "expected", "contract", "card", "given"):
        if key in values:
            values[key] = _words(values[key], lang, quoted=key == "value")
    expected = params.get("expected")
    if isinstance(expected, tuple):
        values["expected"] = alternatives(expected, lang)
    choices = values.get("choices")
    if isinstance(choices, tuple):
        values["choices"] = ", ".join(str(_words(c, lang, quoted=True)) for c in choices)
    for key in ("seat", "other_seat"):
        seat = values.get(key)
        if isinstance(seat, int):
            values[key] = seat + 1
    for key in ("name", "other", "given", "value"):
        if isinstance(values.get(key), str):
            values[key] = isolate(str(values[key]))  # a name cannot reorder the line
    if isinstance(values.get("suit"), str) and values["suit"] in WORDS:
        values["suit"] = translate(lang, WORDS[str(values["suit"])])
    text = template.format(**values)
    text = text[0].upper() + text[1:] if deal is None else text
    prefix = translate(lang, _DEAL_PREFIX).format(deal=deal) if deal is not None else ""
    return prefix + text


def counted(lang: str, template: str, **params: object) -> str:
    """A catalogue's line in `lang` with its numbers put in, plurals as they want
    ("{count|round|rounds}")."""
    return _plurals(translate(lang, template), params, lang).format(**params)


def _words(value: object, lang: str, quoted: bool) -> object:
    """A record key (a contract, a card, a trump) in the player's words, and
    `null`, `true`, `false` as the table says them; any other input quoted as it
    was given (when `quoted`)."""
    if isinstance(value, str) and value in WORDS:
        return translate(lang, WORDS[value])
    if quoted and (value is None or isinstance(value, bool)):
        return translate(lang, _CONSTANTS[value])
    return quote(value) if quoted else value


def alternatives(choices: tuple[object, ...], lang: str) -> str:
    """`(4, 5)` as "4 or 5" ("4 ou 5"); one choice alone as itself."""
    texts = [str(choice) for choice in choices]
    if len(texts) < 2:
        return "".join(texts)
    return translate(lang, _OR).format(some=", ".join(texts[:-1]), last=texts[-1])


_PLURAL: Final = re.compile(r"\{(\w+)\|([^|{}]*)\|([^{}]*)\}")


def _plurals(template: str, params: Mapping[str, object], lang: str) -> str:
    """`{count|heart|hearts}`: the word the count wants (French: 0 and 1 singular)."""

    def choose(match: re.Match[str]) -> str:
        count = params.get(match[1])
        few = isinstance(count, int) and (abs(count) < 2 if lang == "fr" else abs(count) == 1)
        return match[2] if few else match[3]

    return _PLURAL.sub(choose, template)
