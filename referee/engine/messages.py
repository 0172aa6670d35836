"""The engine's messages, in French and English, keyed by problem code.

The engine raises codes with parameters; this catalogue turns them into the
sentence a player reads. Field names are shown in the player's words too
(`tricks` → "levées"), and the bad input is quoted as it was given.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final

LANGUAGES: Final = ("fr", "en")
DEFAULT_LANGUAGE: Final = "en"
_QUOTE_LIMIT: Final = 40

#: code -> (English, French). Placeholders: {field} is the field in the player's
#: words, {value} the bad input quoted; the others are numbers or names.
MESSAGES: Final[dict[str, tuple[str, str]]] = {
    # the record as a whole
    "bad_json": (
        "the file is not valid JSON: {detail} (line {line}, column {column})",
        "le fichier n'est pas du JSON valide : {detail} (ligne {line}, colonne {column})",
    ),
    "bad_encoding": ("the file is not UTF-8 text", "le fichier n'est pas du texte UTF-8"),
    "too_large": (
        "the file is larger than {high} KB; a game record is far smaller",
        "le fichier dépasse {high} Ko ; un relevé de partie est bien plus petit",
    ),
    "too_deep": ("the file is nested too deeply", "le fichier est imbriqué trop profondément"),
    "number_too_long": (
        "the file holds a number of more than {high} digits; no game needs one",
        "le fichier contient un nombre de plus de {high} chiffres ; aucune partie n'en a besoin",
    ),
    "not_json_value": (
        "the file holds {value}, which is not a JSON value",
        "le fichier contient {value}, qui n'est pas une valeur JSON",
    ),
    "text_unusable": (
        "{field}: character {position} ({char}) cannot be stored or printed",
        "{field} : le caractère {position} ({char}) ne peut être ni enregistré ni imprimé",
    ),
    "file_text_unusable": (
        "the file holds a text whose character {position} ({char}) cannot be stored",
        "le fichier contient un texte dont le caractère {position} ({char}) "
        "ne peut pas être enregistré",
    ),
    "record_not_object": (
        "a game record is a JSON object ({{...}})",
        "un relevé de partie est un objet JSON ({{...}})",
    ),
    "format_unknown": (
        'format {value} is not supported; expected "referee-game/1"',
        'le format {value} n\'est pas pris en charge ; attendu : "referee-game/1"',
    ),
    "game_unknown": (
        "unknown game {value}; known games: {games}",
        "jeu inconnu {value} ; jeux connus : {games}",
    ),
    "players_not_list": (
        "players must be a list of {expected} names",
        "les joueurs doivent être une liste de {expected} noms",
    ),
    "players_count": (
        "this game needs {expected} players, the record has {count}",
        "ce jeu se joue à {expected}, le relevé compte {count} {count|joueur|joueurs}",
    ),
    "player_name": (
        "the player at seat {seat} needs a name, not {value}",
        "le joueur de la place {seat} doit avoir un nom, pas {value}",
    ),
    "player_name_long": (
        "the name of the player at seat {seat} is longer than {high} characters",
        "le nom du joueur de la place {seat} dépasse {high} caractères",
    ),
    "player_twice": (
        "the name {value} is used for two players",
        "le nom {value} est donné à deux joueurs",
    ),
    "rule_unknown": ("unknown house rule {value}", "règle maison inconnue : {value}"),
    "stake_not_string": (
        'the stake must be written as text, like "0.50", not {value}',
        'la mise s\'écrit comme un texte, par exemple "0.50", pas {value}',
    ),
    "stake_malformed": (
        'the stake {value} is not an amount like "0.50" (digits, a point, two decimals at most)',
        'la mise {value} n\'est pas un montant comme "0.50" '
        "(des chiffres, un point, deux décimales au plus)",
    ),
    "stake_too_high": (
        "the stake {value} is more than {high}",
        "la mise {value} dépasse {high}",
    ),
    "stake_per_unknown": (
        'stakes {value} are not supported here; "game" is',
        'les mises {value} ne sont pas prises en charge ici ; "game" l\'est',
    ),
    "currency_malformed": (
        'the currency {value} is not a three-letter code like "EUR"',
        'la devise {value} n\'est pas un code de trois lettres comme "EUR"',
    ),
    "place_malformed": (
        "the place must be written as text, not {value}",
        "le lieu s'écrit comme un texte, pas {value}",
    ),
    "place_long": (
        "the place is longer than {high} characters",
        "le lieu dépasse {high} caractères",
    ),
    "date_malformed": (
        'the date {value} is not a day like "2026-12-01"',
        'la date {value} n\'est pas un jour comme "2026-12-01"',
    ),
    "stake_not_positive": (
        "the stake {value} must be more than zero",
        "la mise {value} doit être supérieure à zéro",
    ),
    "stake_precision": (
        "the stake {value} has more than {places} decimals",
        "la mise {value} a plus de {places} décimales",
    ),
    "deals_not_list": ("deals must be a list", "les donnes doivent être une liste"),
    "deals_too_many": (
        "the record has {count} deals, more than {high}",
        "le relevé compte {count} donnes, plus de {high}",
    ),
    # generic field checks
    "not_object": ("{field} must be a JSON object", "{field} doit être un objet JSON"),
    "unknown_field": ("unknown field {value}", "champ inconnu : {value}"),
    "missing": ("{field} is missing", "{field} : manquant"),
    "not_integer": (
        "{field} must be a whole number, not {value}",
        "{field} doit être un nombre entier, pas {value}",
    ),
    "out_of_range": (
        "{field} {value} is out of range: {low} to {high}",
        "{field} {value} hors limites : de {low} à {high}",
    ),
    "not_boolean": (
        "{field} must be true or false, not {value}",
        "{field} doit valoir true ou false, pas {value}",
    ),
    "unknown_choice": (
        "{field}: {value} is not one of: {choices}",
        "{field} : {value} n'est pas parmi : {choices}",
    ),
    "seat_not_integer": (
        "{field} must be one of the players, not {value}",
        "{field} doit être l'un des joueurs, pas {value}",
    ),
    "seat_unknown": (
        "{field}: there is no player {value} (a record numbers the players from 0 to {high})",
        "{field} : il n'y a pas de joueur {value} (un relevé numérote les joueurs de 0 à {high})",
    ),
    "not_counts": (
        "{field} must be a list of {players} numbers, one per player",
        "{field} doit être une liste de {players} nombres, un par joueur",
    ),
    "counts_length": (
        "{field}: {count} {count|number|numbers}, but one per player is {players}",
        "{field} : {count} {count|nombre|nombres}, mais un par joueur, cela fait {players}",
    ),
    "count_range": (
        "{field} of the player at seat {seat}: {value} is not a number from 0 to {high}",
        "{field} du joueur de la place {seat} : {value} n'est pas un nombre de 0 à {high}",
    ),
    # Boulmous
    "tricks_total": (
        "tricks add up to {total}, a deal has {expected}",
        "les levées font {total} au total, une donne en compte {expected}",
    ),
    "bid_range": (
        '{field} {value} is not a bid: {low} to {high} tricks, or "boulmous"',
        '{field} {value} n\'est pas une enchère : de {low} à {high} levées, ou "boulmous"',
    ),
    "auction_not_list": (
        'the auction must be a list of calls ("pass" or a bid), not {value}',
        'les enchères doivent être une liste d\'annonces ("pass" ou une enchère), pas {value}',
    ),
    "auction_length": (
        "the auction has {count} {count|call|calls}; one round has {players}",
        "les enchères comptent {count} {count|annonce|annonces} ; un tour en compte {players}",
    ),
    "auction_not_rising": (
        "call {call} of the auction, {value}, does not rise above {standing}",
        "l'annonce {call} des enchères, {value}, ne dépasse pas {standing}",
    ),
    "auction_all_passed": (
        "everyone passed in the auction, yet the deal has a taker",
        "tout le monde a passé aux enchères, et pourtant la donne a un preneur",
    ),
    "auction_bid": (
        "the auction ends at {auction}, but the bid is {bid}",
        "les enchères finissent à {auction}, mais l'enchère indiquée est {bid}",
    ),
    "auction_taker": (
        "the highest bid of the auction was made by {name}, not by the taker",
        "la plus haute enchère a été faite par {name}, pas par le preneur",
    ),
    "passed_not_true": (
        "passed must be true for a void deal, not {value}",
        "passed doit valoir true pour une donne nulle, pas {value}",
    ),
    "passed_with_bid": (
        "a void deal's auction has a bid; everyone must have passed",
        "les enchères d'une donne nulle contiennent une enchère ; tous doivent avoir passé",
    ),
    "dealer_wrong": (
        "the dealer is {name}, not {given}",
        "le donneur est {name}, pas {given}",
    ),
    "after_win": (
        "the game was won at deal {won_at}; no deal may follow",
        "la partie a été gagnée à la donne {won_at} ; aucune donne ne peut suivre",
    ),
    # Bombu provençal
    "not_for_contract": (
        "{field}: not counted in {contract}",
        "{field} : ne se compte pas dans {contract}",
    ),
    "hearts_total": (
        "hearts add up to {total}, there are {expected}",
        "les cœurs font {total} au total, il y en a {expected}",
    ),
    "queens_total": (
        "queens add up to {total}, there are {expected}",
        "les dames font {total} au total, il y en a {expected}",
    ),
    "no_trick_hearts": (
        "{name} took no trick, so cannot have {count} {count|heart|hearts}",
        "{name} n'a fait aucun pli, donc ne peut pas avoir {count} {count|cœur|cœurs}",
    ),
    "no_trick_queens": (
        "{name} took no trick, so cannot have {count} {count|queen|queens}",
        "{name} n'a fait aucun pli, donc ne peut pas avoir {count} {count|dame|dames}",
    ),
    "no_trick_bombu": (
        "{name} took no trick, so cannot have the Bombu (K♥)",
        "{name} n'a fait aucun pli, donc ne peut pas avoir le Bombu (R♥)",
    ),
    "too_many_cards": (
        "{name} took {tricks} {tricks|trick|tricks}, {cards} cards, but {hearts} "
        "{hearts|heart|hearts} and {queens} {queens|queen|queens} make at least {needed} cards",
        "{name} a fait {tricks} {tricks|pli|plis}, soit {cards} cartes, mais {hearts} "
        "{hearts|cœur|cœurs} et {queens} {queens|dame|dames} font au moins {needed} cartes",
    ),
    "bombu_without_heart": (
        "the Bombu (K♥) is a heart, but {name} who took it has no heart",
        "le Bombu (R♥) est un cœur, mais {name} qui l'a pris n'a aucun cœur",
    ),
    "queen_of_hearts": (
        "these counts leave nobody who can hold the Q♥, which is both a heart and a queen",
        "avec ces comptes, personne ne peut avoir la D♥, qui est à la fois un cœur et une dame",
    ),
    "finish_length": (
        "the Réussite order lists {count} {count|player|players}; give at least the first two, "
        "at most {players}",
        "l'ordre de sortie de la Réussite compte {count} {count|joueur|joueurs} ; donnez au moins "
        "les deux premiers, au plus {players}",
    ),
    "finish_repeated": (
        "{name} goes out twice in the Réussite order",
        "{name} sort deux fois dans l'ordre de la Réussite",
    ),
    "contract_twice": (
        "{value} was already played in manche {manche}, at deal {earlier}",
        "{value} a déjà été joué dans la manche {manche}, à la donne {earlier}",
    ),
    "contract_out_of_order": (
        "contracts are played in order here: {expected} comes next, not {value}",
        "les contrats se jouent dans l'ordre ici : {expected} vient maintenant, pas {value}",
    ),
    "after_last_deal": (
        "a game of Bombu has {deals} deals; no deal may follow",
        "une partie de Bombu compte {deals} donnes ; aucune donne ne peut suivre",
    ),
    "reussite_not_open": (
        "{value} cannot open its suit: a suit opens only with the {rank}",
        "{value} ne peut pas ouvrir sa couleur : une couleur ne s'ouvre qu'avec le {rank}",
    ),
    "reussite_no_fit": (
        "{value} does not follow on its suit's run, up or down",
        "{value} ne se pose pas à la suite de sa couleur, ni en montant ni en descendant",
    ),
    "reussite_must_play": (
        "no pass while a card can be laid: {cards}",
        "pas de passe quand une carte peut être posée : {cards}",
    ),
    # Pitch
    "pitch_variant": (
        "{value}-point pitch does not exist; the variants are {variants}",
        "le pitch à {value} points n'existe pas ; les variantes sont {variants}",
    ),
    "pitch_bid_range": (
        '{field} {value} is not a bid: {low} to {high}, or "moon"',
        '{field} {value} n\'est pas une enchère : de {low} à {high}, ou "moon"',
    ),
    "point_missing": (
        "who won {card}? Choose the player, or dead if it was burned or thrown away",
        "qui a gagné {card} ? Choisissez le joueur, ou morte si elle a été brûlée ou jetée",
    ),
    "point_not_in_variant": (
        "{value} is not a point card in {variant}-point pitch",
        "{value} ne compte pas dans le pitch à {variant} points",
    ),
    "partner_four_handed": (
        "a four-handed game has no called partner: partners sit opposite",
        "à quatre il n'y a pas de partenaire appelé : les partenaires sont face à face",
    ),
    "partner_is_bidder": (
        "{name}, the bidder, cannot be his own partner",
        "{name}, l'enchérisseur, ne peut pas être son propre partenaire",
    ),
    "auction_dealer_stuck": (
        "everyone else passed, so the dealer must bid",
        "tous les autres ont passé : le donneur doit enchérir",
    ),
    "auction_dealer_four": (
        "everyone else passed, so the dealer must take the bid at {bid}, not {value}",
        "tous les autres ont passé : le donneur doit prendre à {bid}, pas {value}",
    ),
    "auction_bidder": (
        "the highest bid of the auction was made by {name}, not by the bidder",
        "la plus haute enchère a été faite par {name}, pas par l'enchérisseur",
    ),
    "card_not_trump": (
        "{value} is not a trump; only trumps are played once {suit} is trump",
        "{value} n'est pas un atout ; à {suit} atout, seuls les atouts se jouent",
    ),
    # cards and tricks
    "card_unknown": (
        "{value} is not a card (write it like JH, 10♥ or AS)",
        "{value} n'est pas une carte (écrivez-la comme JH, 10♥ ou AS)",
    ),
    "card_not_in_deck": (
        "{value} is not in this game's deck",
        "{value} ne fait pas partie du jeu de cartes de ce jeu",
    ),
    "card_twice": ("{value} appears twice", "{value} apparaît deux fois"),
    "trick_empty": ("a trick needs at least one card", "un pli compte au moins une carte"),
    "trick_too_long": (
        "a trick has at most {players} cards, not {count}",
        "un pli compte au plus {players} cartes, pas {count}",
    ),
    "card_not_in_hand": ("{value} is not in the hand", "{value} n'est pas dans la main"),
    "must_follow": (
        "{value} does not follow suit: the hand holds {cards}, which must be played on {suit}",
        "{value} ne fournit pas : la main contient {cards}, à jouer sur {suit}",
    ),
}

#: Field names as players say them: base name -> (English, French).
FIELD_NAMES: Final[dict[str, tuple[str, str]]] = {
    "taker": ("taker", "preneur"),
    "bid": ("bid", "enchère"),
    "contract": ("contract", "contrat"),
    "tricks": ("tricks", "levées"),
    "auction": ("auction", "enchères"),
    "dealer": ("dealer", "donneur"),
    "first_dealer": ("first dealer", "premier donneur"),
    "passed": ("passed", "passe"),
    "players": ("players", "joueurs"),
    "rules": ("house rules", "règles maison"),
    "target": ("target score", "score à atteindre"),
    "taker_scores": ("taker's score", "score du preneur"),
    "failed_taker_keeps_tricks": ("failed taker keeps tricks", "le preneur chuté garde ses levées"),
    "stake": ("stake", "mise"),
    "stake_per": ("stakes", "mises"),
    "currency": ("currency", "devise"),
    "place": ("place", "lieu"),
    "date": ("date", "date"),
    "deals": ("deals", "donnes"),
    "card": ("card", "carte"),
    "hearts": ("hearts", "cœurs"),
    "queens": ("queens", "dames"),
    "bombu": ("Bombu (K♥)", "Bombu (R♥)"),
    "finish": ("Réussite order", "ordre de sortie"),
    "contract_order": ("contract order", "ordre des contrats"),
    "start": ("turned card", "carte retournée"),
    "bidder": ("bidder", "enchérisseur"),
    "trump": ("trump", "atout"),
    "partner": ("partner", "partenaire"),
    "bidder_scores": ("bidder's score", "score de l'enchérisseur"),
    "defenders_score": ("defenders score", "les défenseurs marquent"),
    "reverse": ("reverse order", "hiérarchie inverse"),
    "dirty": ("dirty pitch", "pitch sale"),
    "played": ("cards laid", "cartes posées"),
    "trick": ("trick", "pli"),
    "hand": ("hand", "main"),
    "format": ("format", "format"),
    "game": ("game", "jeu"),
}

_SUITS: Final[dict[str, tuple[str, str]]] = {
    "spades": ("spades", "pique"),
    "hearts": ("hearts", "cœur"),
    "diamonds": ("diamonds", "carreau"),
    "clubs": ("clubs", "trèfle"),
}

#: What the record names with a key, in the players' words: contracts, trumps,
#: point cards (English, French).
WORDS: Final[dict[str, tuple[str, str]]] = {
    "no-tricks": ("No tricks", "Pas de pli"),
    "no-hearts": ("No hearts", "Pas de cœur"),
    "no-queens": ("No queens", "Pas de dame"),
    "no-bombu": ("No Bombu", "Pas de Bombu"),
    "salad": ("Salad", "Salade"),
    "reussite": ("Réussite", "Réussite"),
    "no-trump": ("no trump", "sans atout"),
    "spades": ("spades", "pique"),
    "hearts": ("hearts", "cœur"),
    "diamonds": ("diamonds", "carreau"),
    "clubs": ("clubs", "trèfle"),
    "ace": ("the ace", "l'as"),
    "jack": ("the jack", "le valet"),
    "off_jack": ("the off-jack", "le valet de la même couleur"),
    "joker_high": ("the high joker", "le joker fort"),
    "joker_low": ("the low joker", "le joker faible"),
    "ten": ("the ten", "le dix"),
    "three": ("the three", "le trois"),
    "two": ("the two", "le deux"),
    "off_ace": ("the off-ace", "l'as de la même couleur"),
    "off_ten": ("the off-ten", "le dix de la même couleur"),
    "off_three": ("the off-three", "le trois de la même couleur"),
    "off_two": ("the off-two", "le deux de la même couleur"),
}

_DEAL_PREFIX: Final = ("deal {deal}: ", "donne {deal} : ")
_INDEX: Final = re.compile(r"\[\d+\]")


def language(lang: str | None) -> str:
    """Reduce a locale (`fr_FR.UTF-8`, `en-GB`) to a supported language, English by default."""
    code = (lang or "").strip().lower()[:2]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def field_label(field: str | None, lang: str) -> str:
    """A field path (`rules.target`, `auction[2]`, `points.ace`) in the player's words."""
    if not field:
        return ""
    base = _INDEX.sub("", field).rsplit(".", 1)[-1]
    names = FIELD_NAMES.get(base) or WORDS.get(base)
    if names is None:
        return field
    return names[1] if lang == "fr" else names[0]


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
    index = 1 if lang == "fr" else 0
    template = _plurals(MESSAGES[code][index], params, lang)
    values: dict[str, object] = dict(params)
    values.pop("as_field", None)
    label = params.get("as_field")
    values["field"] = field_label(label if isinstance(label, str) else field, lang)
    for key in ("value", "expected", "contract", "card", "given"):
        if key in values:
            values[key] = _words(values[key], index, quoted=key == "value")
    choices = values.get("choices")
    if isinstance(choices, tuple):
        values["choices"] = ", ".join(str(_words(c, index, quoted=True)) for c in choices)
    seat = values.get("seat")
    if isinstance(seat, int):
        values["seat"] = seat + 1
    if isinstance(values.get("suit"), str) and values["suit"] in _SUITS:
        values["suit"] = _SUITS[str(values["suit"])][index]
    text = template.format(**values)
    text = text[0].upper() + text[1:] if deal is None else text
    return (_DEAL_PREFIX[index].format(deal=deal) if deal is not None else "") + text


def _words(value: object, index: int, quoted: bool) -> object:
    """A record key (a contract, a point card, a trump) in the player's words; any
    other input quoted as it was given (when `quoted`)."""
    if isinstance(value, str) and value in WORDS:
        return WORDS[value][index]
    return quote(value) if quoted else value


_PLURAL: Final = re.compile(r"\{(\w+)\|([^|{}]*)\|([^{}]*)\}")


def _plurals(template: str, params: Mapping[str, object], lang: str) -> str:
    """`{count|heart|hearts}`: the word the count wants (French: 0 and 1 singular)."""

    def choose(match: re.Match[str]) -> str:
        count = params.get(match[1])
        few = isinstance(count, int) and (abs(count) < 2 if lang == "fr" else abs(count) == 1)
        return match[2] if few else match[3]

    return _PLURAL.sub(choose, template)
