"""A game's home on the web side: the base each game's `home` module subclasses.

A home says what the game means to the table's pages: its name and blurb, its
house rules as the new-game form shows them, how its deal form reads into a deal of
the record format and back, how a deal reads in one line, what its trick judge
takes, its blank score sheet, what the scoreboard shows of its progress. Its
templates live in its package (`referee/games/<key>/templates/`: `deal.html`,
`summary.html`, `rules.html`, `blank.html`), found as `<key>/<part>.html`. The
rules and the facts stay in the game's `rules`, which the home imports instead of
restating. Outside the games' packages, no code or template names a game: it asks
`referee.web.homes.home_of(key)` (in templates: `home(game)`).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from flask import Blueprint
from flask_babel import get_locale, gettext, lazy_gettext, ngettext
from markupsafe import Markup

from referee.engine import flags as engine_flags
from referee.engine.game import Game, Standings
from referee.games import GAMES
from referee.web.format import money as money_text

Values = dict[str, str]

#: ASCII digits and one sign ("+10" as a player writes a gain): Python's int() would
#: also read "٣" or "1_0".
_WHOLE = re.compile(r"\s*[-+]?[0-9]{1,6}\s*", re.ASCII)
#: Digits in groups of three after the first, as the app writes them ("1 086", with
#: a space, a no-break or a narrow no-break space; in English "1,086" too): read as
#: one number. In French a comma is a decimal point, never a group's.
_GROUPED = re.compile(r"\s*[-+]?[0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3})+\s*")
_GROUPED_EN = re.compile(r"\s*[-+]?[0-9]{1,3}(?:,[0-9]{3})+\s*")
#: Minus signs a phone may type or paste: the app's own (U+2212, as it shows
#: scores), the en dash and the small and full-width hyphen-minus.
_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-"})


@dataclass(frozen=True)
class Flag:
    """A house rule as the new-game form shows it, in the player's words (derived
    from the engine's declaration, `referee.engine.flags.Flag`)."""

    name: str
    label: Any
    help: Any
    kind: str  # "int", "bool" or "choice"
    choices: tuple[tuple[str, Any], ...] = ()
    low: int = 1
    high: int = 999
    #: What 0 means, for a number that may be 0 ("no target"); else none.
    zero: Any = None

    def words(self, value: object) -> Any:
        """The value as the rules page and the sheet say it."""
        if self.kind == "choice":
            return next((text for v, text in self.choices if v == str(value)), value)
        if value == 0 and self.zero is not None:
            return self.zero
        return value


def form_value(text: str | None) -> Any:
    """A form value for the engine: a whole number when it is one, else the text
    (so that the engine's message quotes it); None for an empty box."""
    if text is None or not text.strip():
        return None
    typed = text.translate(_MINUSES)
    if _GROUPED.fullmatch(typed):
        typed = "".join(typed.split())
    elif _GROUPED_EN.fullmatch(typed) and str(get_locale() or "") == "en":
        typed = typed.replace(",", "")
    return int(typed) if _WHOLE.fullmatch(typed) else text.strip()


def put(deal: dict[str, Any], key: str, text: str | None) -> None:
    """Put a form value in the deal, unless the box was empty (the engine then says
    that the field is missing)."""
    value = form_value(text)
    if value is not None:
        deal[key] = value


def counts(form: Mapping[str, str], name: str, players: int, total: int) -> Any:
    """One count per player; empty boxes count 0, and a single empty box is filled
    with what the others leave of the deal's total."""
    values = [form_value(form.get(f"{name}{seat}")) for seat in range(players)]
    if all(v is None for v in values):
        return None
    empty = [seat for seat, v in enumerate(values) if v is None]
    known = [v for v in values if isinstance(v, int)]
    if len(empty) == 1 and len(known) == players - 1 and total - sum(known) >= 0:
        values[empty[0]] = total - sum(known)
    return [0 if v is None else v for v in values]


def together(names: Sequence[str]) -> str:
    """Names of one side, as a table says them: "Ana", "Ana & Chloé", "Rhonda, Earl & Peggy"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def shown(flag: engine_flags.Flag, default: object) -> Flag:
    """An engine flag as the form shows it: its words translated when they are read."""
    kind = engine_flags.kind_of(flag, default)
    if flag.numbers:
        choices: tuple[tuple[str, Any], ...] = tuple((str(n), str(n)) for n in flag.numbers)
    else:
        choices = tuple((value, lazy_gettext(words)) for value, words in flag.choices.items())
    return Flag(
        flag.name,
        lazy_gettext(flag.label),
        lazy_gettext(flag.help),
        kind,
        choices,
        flag.low,
        flag.high,
        lazy_gettext(flag.zero) if flag.zero else None,
    )


class Home(ABC):
    """A game's home on the web side. Subclass it per game and `register` it."""

    key: ClassVar[str]
    #: What players call the game, and what it is in one line (lazy strings).
    name: ClassVar[Any]
    blurb: ClassVar[Any]
    #: A line under the seats of the new-game form, if the game needs one.
    seats_hint: ClassVar[Any] = None
    #: Trumps the trick judge offers; none: the game has no trump.
    judge_trumps: ClassVar[tuple[str, ...]] = ()
    #: A line of help beside the judge's card box, if the game needs one.
    judge_hint: ClassVar[Any] = None
    #: The blank sheet is printed across the page.
    blank_landscape: ClassVar[bool] = False
    #: The folder of this home's templates (`deal.html`, `summary.html`…): its
    #: package's `templates/`.
    template_folder: ClassVar[Path]
    #: The files of its package's `static/` that its deal form loads (its own
    #: styles and script), served as `static/games/<key>/<file>` (`web.assets`).
    assets: ClassVar[tuple[str, ...]] = ()
    #: The style sheets of its package's `static/` that every page showing its
    #: deals loads after the app's (its marks' colours): the scoreboard, the deal
    #: form, the TVs, the sample game. Served and kept as `assets` are.
    styles: ClassVar[tuple[str, ...]] = ()
    #: A short record of the game with a deal and a stake (the sheets warm up on it).
    sample: ClassVar[dict[str, Any] | None] = None
    #: The game's own pages (its tools at the table), registered with the app, and
    #: the links the game page offers to them: (endpoint, words) pairs, each
    #: endpoint taking the game's `token`.
    blueprint: ClassVar[Blueprint | None] = None
    tools: ClassVar[tuple[tuple[str, Any], ...]] = ()
    #: The words of the game's statistics (`Game.figures`' keys), as players say them.
    figure_words: ClassVar[Mapping[str, Any]] = {}
    #: The deals of a concours round when the director leaves its length empty: the
    #: game's usual round.
    round_length: ClassVar[int] = 8

    def called(self, rules: Mapping[str, Any]) -> Any:
        """What a game of this kind with these rules (as stored) is called: the
        game's name, unless a house rule names it (`game_name`)."""
        del rules
        return self.name

    def suggested(self, flag: str) -> tuple[Any, ...]:
        """The usual values of a house rule that is a line of text (the new-game
        form's suggestions, after the table's own)."""
        del flag
        return ()

    @property
    def static_folder(self) -> Path:
        """The folder of the files of `assets` and `styles`: beside the templates' folder."""
        return self.template_folder.parent / "static"

    @property
    def sample_file(self) -> Path | None:
        """A finished game of this kind, as a record (`sample.json` in its package):
        what "See a sample game" shows; None: the game has none."""
        path = self.template_folder.parent / "sample.json"
        return path if path.is_file() else None

    @property
    def picture(self) -> str | None:
        """Its picture on the home page (`static/picture.svg` in its package), as
        `url_for('static', filename=...)` names it; None: it has none."""
        return self.asset("picture.svg") if (self.static_folder / "picture.svg").is_file() else None

    def asset(self, name: str) -> str:
        """One of `assets` or `styles` as `url_for('static', filename=...)` names it."""
        return f"games/{self.key}/{name}"

    @property
    def print_styles(self) -> Markup:
        """Its own rules for its PDF sheets (`static/print.css` in its package: its
        blank sheet's layout), which the sheets put after the app's `print.css`;
        empty: it has none."""
        path = self.static_folder / "print.css"
        return Markup(path.read_text(encoding="utf-8") if path.is_file() else "")

    @property
    def engine(self) -> Game[Any, Any]:
        """The game's rules and facts."""
        return GAMES[self.key]

    def template(self, part: str) -> str:
        """The name of one of the home's templates: `deal`, `summary`, `rules`, `blank`."""
        return f"{self.key}/{part}.html"

    def may_play(self, trump: str, led: str | None, card: str, hand: list[str], rules: Any) -> None:
        """Whether `card` may go on a trick led by `led` (None: he leads) from a hand
        holding `hand` besides it; a `RulesError` says why not. Games without the
        rule let any card be played."""
        del trump, led, card, hand, rules  # any card goes

    def bid_word(self, bid: str) -> Any:
        """A bid as the record writes it, in the player's words (a number as is)."""
        return bid

    def judge_deck(self, rules: Any) -> list[list[str]]:
        """The cards the trick judge offers to tap, a row per suit (the game's deck
        under these rules); none: the cards are typed."""
        return []

    def figure_word(self, key: str) -> Any:
        """One of the game's statistics (a key of `Game.figures`) in the player's words."""
        return self.figure_words.get(key, key)

    @property
    def flags(self) -> tuple[Flag, ...]:
        """The house rules the new-game form offers, in the engine's order and words."""
        defaults = self.engine.parse_rules({})
        return tuple(shown(flag, getattr(defaults, flag.name)) for flag in self.engine.flags)

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Who scores together (the engine's fact)."""
        return self.engine.sides(players)

    def deal_sides(
        self, deal: Mapping[str, Any], players: int, rules: Any
    ) -> tuple[tuple[int, ...], ...]:
        """Who scores together in this deal, as the deal form's preview speaks of it
        (`rules`: the engine's): the game's sides under these rules, unless a hand
        makes its own (a called partner)."""
        return self.engine.sides_under(rules, players)

    def preview_notes(
        self,
        deal: Mapping[str, Any],
        deltas: Sequence[int],
        before: Sequence[int] | None,
        winners: Sequence[int],
        names: Sequence[str],
        rules: Any,
    ) -> list[str]:
        """Short reasons beside the deal form's preview where a rule surprises (`deal`:
        as the form entered it; `before`: the scores before it, when it is the last
        deal; `winners`: if it ends the game). Most games have none."""
        return []

    def stage(self, standings: Standings) -> str | None:
        """Where the game stands beyond its totals, in one line beside the next
        dealer (the round being played); None: nothing to say."""
        del standings
        return None

    def stage_hint(self, standings: Standings) -> str | None:
        """A line of help under it (what is left to play in the round)."""
        del standings
        return None

    def money_notes(
        self,
        standings: Standings,
        names: Sequence[str],
        rules: Any,
        per_point: bool,
        currency: str,
    ) -> list[str]:
        """Why the money is what it is, beside the payments of a finished game played
        for a stake by the game: who won and what that costs the others, and, where a
        payment is more than one stake, how it adds up. `rules`: the engine's."""
        del rules
        money = standings.money
        if per_point or money is None or not standings.finished or not standings.winners:
            return []
        if not self.engine.stakes_to_winners:
            return []
        winners = standings.winners
        others = len(names) - len(winners)
        if others < 1:
            return []
        won = together([names[seat] for seat in winners])
        notes = [
            ngettext(
                "%(names)s won the game: each other player pays the winner the stake.",
                "%(names)s won the game: each other player pays each winner the stake.",
                len(winners),
                names=won,
            )
        ]
        if others > 1:  # a winner collects more than one stake
            notes.append(
                ngettext(
                    "So the winner collects %(amount)s: a stake from each opponent.",
                    "So each winner collects %(amount)s: a stake from each opponent.",
                    len(winners),
                    amount=money_text(money.net[winners[0]], currency),
                )
            )
        if len(winners) > 1:  # a player who did not win pays more than one stake
            loser = next(seat for seat in range(len(names)) if seat not in winners)
            notes.append(
                gettext(
                    "And each opponent pays %(amount)s: a stake to each winner.",
                    amount=money_text(-money.net[loser], currency),
                )
            )
        return notes

    def seat_note(self, standings: Standings, seat: int) -> str | None:
        """A short note beside a player's total (his failed bids), if any."""
        del standings, seat
        return None

    def round_title(self, number: int) -> str:
        """The heading of round `number` on the score sheet (games with rounds:
        `Game.round_deals`)."""
        return str(number)

    def point_card_word(self, card: str) -> Any:
        """A card that scores (the trick judge's verdict) in the player's words."""
        return card

    @property
    def seats(self) -> int:
        """The most players the game takes: the seats of the new-game form."""
        return max(self.engine.player_counts)

    @abstractmethod
    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """The deal the form describes, in the record format's terms. Nothing here
        decides what is legal: the engine does."""

    def values_from_deal(self, deal: Mapping[str, Any]) -> Values:
        """The form entries that describe a stored deal (to correct it): lists become
        one box per seat (`tricks0`…), the rest keep their key."""
        values: Values = {}
        for key, value in deal.items():
            if isinstance(value, list):
                for index, item in enumerate(value):
                    values[f"{key}{index}"] = str(item)
            elif isinstance(value, bool):
                values[key] = "1" if value else ""
            else:
                values[key] = str(value)
        return values

    def completed(self, values: Values, rules: Any) -> Values | None:
        """The entries with what a "fill in" button of the form asked for (such as
        "the rest"), to be shown again without recording; None: no such button."""
        return None

    @property
    def judges_tricks(self) -> bool:
        """Whether the game has a trick judge ("Who wins this trick?"): a game of
        tricks states `judge`; a game without tricks does not."""
        return type(self).judge is not Home.judge

    def judge(self, trump: str, cards: list[str], rules: Any, players: int) -> dict[str, Any]:
        """Judge one trick typed as cards in play order: `{"winner": index}`, and for a
        game with cards that score `{"points": [(card, index), ...]}`. Raise RulesError or
        ValueError for what cannot be judged."""
        raise ValueError("this game has no trick judge")

    def blank_context(self, names: list[str], first_dealer: int, rules: Any) -> dict[str, Any]:
        """What the blank sheet's template needs beyond the names."""
        return {}

    # --- tables branch: the deals CSV's own columns (services.tables.DEAL_COLUMNS) ---
    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """What a stored deal puts in the table's deals CSV beside its points:
        "taker" (a seat: who took, bid or chose), "partner" (a seat), "bid",
        "contract" (the trump or contract named). A game fills the ones it has."""
        return {}
