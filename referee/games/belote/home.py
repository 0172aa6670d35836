"""Belote and coinche at the table: the deal form, its lines, its blank sheet.

The rules are `rules`' (this package); the templates are in `templates/`. A plain
deal is four taps and the digits at belote (the taker, the trump, the points box,
Record), five at coinche (the bid too); the capot and the belote are one tap each,
the announcements are under "More".
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

import referee.games.belote.rules as belote
from referee.engine.cards import Suit
from referee.engine.game import Standings
from referee.games.belote.scoring import ALL_POINTS, Announce, Best, Coinche, Side, Special, Variant
from referee.web.home import Home, Values, form_value, put

#: The taker's choice for a deal everyone passed (its id, `take_passed`, hides the
#: rest of the form: app.css).
PASSED: Final = "passed"
#: The announcements as the form offers them, and how many of each a side may tap.
ANNOUNCES: Final = {
    Announce.TIERCE.value: (_l("Tierce (20)"), 2),
    Announce.CINQUANTE.value: (_l("Cinquante (50)"), 2),
    Announce.CENT.value: (_l("Cent (100)"), 2),
    Announce.CARRE.value: (_l("Carré (100)"), 2),
    Announce.CARRE_9.value: (_l("Carré of nines (150)"), 1),
    Announce.CARRE_J.value: (_l("Carré of jacks (200)"), 1),
}
#: An announcement in a deal's line.
ANNOUNCE_WORDS: Final = {
    Announce.TIERCE.value: _l("tierce"),
    Announce.CINQUANTE.value: _l("cinquante"),
    Announce.CENT.value: _l("cent"),
    Announce.CARRE.value: _l("carré"),
    Announce.CARRE_9.value: _l("carré of nines"),
    Announce.CARRE_J.value: _l("carré of jacks"),
}
#: The two sides, as the form's choices name them.
SIDES: Final = {Side.TAKER.value: _l("Taking side"), Side.DEFENCE.value: _l("Defence")}
#: Whose equal best announcement is the higher, as the form offers it.
BEST: Final = {
    Best.TAKER.value: _l("Taking side"),
    Best.DEFENCE.value: _l("Defence"),
    Best.NEITHER.value: _l("Neither"),
}
#: Whose equal best announcement was the higher, as a deal's line says it.
BEST_WORDS: Final = {
    Best.TAKER.value: _l("the taking side's announcement the higher"),
    Best.DEFENCE.value: _l("the defence's announcement the higher"),
    Best.NEITHER.value: _l("equal announcements, none scores"),
}
#: The coinche levels, as the form offers them.
COINCHES: Final = {
    "": _l("No"),
    Coinche.COINCHE.value: _l("Coinché ×2"),
    Coinche.SURCOINCHE.value: _l("Surcoinché ×4"),
}
#: A deal's line: who did what, side by side.
CAPOT_WORDS: Final = {
    Side.TAKER.value: _l("capot by the taking side"),
    Side.DEFENCE.value: _l("capot by the defence"),
}
BELOTE_WORDS: Final = {
    Side.TAKER.value: _l("belote to the taking side"),
    Side.DEFENCE.value: _l("belote to the defence"),
}
COINCHE_WORDS: Final = {
    Coinche.COINCHE.value: _l("coinché"),
    Coinche.SURCOINCHE.value: _l("surcoinché"),
}
SPECIAL_WORDS: Final = {Special.CAPOT.value: _l("Capot"), Special.GENERALE.value: _l("Générale")}


class Belote(Home):
    """Four players in two teams, 32 cards; classic belote or coinche."""

    key: ClassVar[str] = belote.GAME.key
    template_folder: ClassVar[Path] = Path(__file__).parent / "templates"
    assets: ClassVar[tuple[str, ...]] = ("deal.css",)
    styles: ClassVar[tuple[str, ...]] = ("marks.css",)
    name: ClassVar[Any] = _l("Belote")
    blurb: ClassVar[Any] = _l("4 players in two teams, 162 a deal; classic belote or coinche.")
    seats_hint: ClassVar[Any] = _l(
        "Partners face each other: the 1st and 3rd names against the 2nd and 4th. The deal "
        "goes to the right."
    )
    suits: ClassVar[tuple[str, ...]] = tuple(s.value for s in Suit)
    bids: ClassVar[tuple[int, ...]] = belote.BIDS
    announces: ClassVar[Mapping[str, Any]] = ANNOUNCES
    announce_words: ClassVar[Mapping[str, Any]] = ANNOUNCE_WORDS
    side_words: ClassVar[Mapping[str, Any]] = SIDES
    best_words: ClassVar[Mapping[str, Any]] = BEST
    best_line: ClassVar[Mapping[str, Any]] = BEST_WORDS
    coinches: ClassVar[Mapping[str, Any]] = COINCHES
    capot_words: ClassVar[Mapping[str, Any]] = CAPOT_WORDS
    belote_words: ClassVar[Mapping[str, Any]] = BELOTE_WORDS
    coinche_words: ClassVar[Mapping[str, Any]] = COINCHE_WORDS
    all_points: ClassVar[int] = ALL_POINTS
    sample: ClassVar[dict[str, Any] | None] = {
        "format": "referee-game/1",
        "game": belote.KEY,
        "players": ["Ana", "Bruno", "Chloé", "Driss"],
        "first_dealer": 0,
        "rules": {},
        "stake": "1",
        "deals": [{"taker": 1, "trump": "hearts", "points": 97, "belote": "taker"}],
    }
    #: A concours de belote plays rounds of 12 deals.
    round_length: ClassVar[int] = 12
    figure_words: ClassVar[Mapping[str, Any]] = {
        "taken": _l("contracts taken"),
        "made": _l("contracts made"),
        "capots": _l("capots"),
    }

    def called(self, rules: Mapping[str, Any]) -> Any:
        """A coinche is called so wherever the game is named (its title, the table's
        evening, the home's list), as its statistics keep it apart."""
        if isinstance(rules, Mapping) and rules.get("variant") == Variant.COINCHE.value:
            return _l("Coinche")
        return self.name

    def coinche(self, rules: Any) -> bool:
        """Whether the table plays coinche (`rules`: the engine's)."""
        return getattr(rules, "variant", None) is Variant.COINCHE

    def bid_choices(self, rules: Any) -> tuple[tuple[str, Any], ...]:
        """The bids the form offers at this table: 80 to 160, capot, the générale."""
        choices: list[tuple[str, Any]] = [(str(b), str(b)) for b in self.bids]
        choices.append((Special.CAPOT.value, SPECIAL_WORDS[Special.CAPOT.value]))
        if getattr(rules, "generale", False):
            choices.append((Special.GENERALE.value, SPECIAL_WORDS[Special.GENERALE.value]))
        return tuple(choices)

    def bid_word(self, bid: str) -> Any:
        """A bid by its words: 110, Capot, Générale."""
        return SPECIAL_WORDS.get(str(bid), bid)

    def stage(self, standings: Standings) -> str | None:
        """The points a litige holds, while they wait for the next deal's winner."""
        held = standings.extras.get("held")
        if not isinstance(held, int) or not held:
            return None
        return str(
            gettext("%(held)d points in litige, for the winner of the next deal.", held=held)
        )

    def announces_line(self, side: str, listed: Any) -> str:
        """A side's announcements in a deal's line: "Taking side: tierce, carré"."""
        kinds = listed if isinstance(listed, list) else []
        words = ", ".join(str(ANNOUNCE_WORDS.get(kind, kind)) for kind in kinds)
        return str(gettext("%(side)s: %(announces)s", side=SIDES.get(side, side), announces=words))

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """The taker (or everyone passed), the trump, at coinche the bid and its
        coinche, the points (the taking side's, or the defence's), the capot and the
        belote, and what "More" holds. Whatever is typed goes to the engine as typed,
        which refuses it in words."""
        take = form.get("take", "")
        if take == PASSED:
            return {"taker": None}
        deal: dict[str, Any] = {}
        put(deal, "taker", take or None)
        for key in ("trump", "coinche", "capot", "belote", "best"):
            if form.get(key):
                deal[key] = form[key]
        put(deal, "bid", form.get("bid"))
        put(deal, "points", form.get("points"))
        put(deal, "defence", form.get("defence"))
        announces: dict[str, list[Any]] = {}
        for side in Side:
            listed: list[Any] = []
            for kind, (_words, most) in ANNOUNCES.items():
                count = form_value(form.get(f"announces_{side.value[0]}_{kind}"))
                if isinstance(count, int) and 0 <= count <= most:
                    listed.extend([kind] * count)
                elif count is not None:
                    listed.append(str(count))  # refused by the engine, in words
            if listed:
                announces[side.value] = listed
        if announces:
            deal["announces"] = announces
        return deal

    def values_from_deal(self, deal: Mapping[str, Any]) -> Values:
        """Back into the form: the taker's pill, the counts of announcements."""
        if deal.get("taker") is None:
            return {"take": PASSED}
        values: Values = {"take": str(deal["taker"])}
        for key in ("trump", "bid", "coinche", "points", "capot", "belote", "best"):
            if deal.get(key) is not None:
                values[key] = str(deal[key])
        announces = deal.get("announces")
        if isinstance(announces, Mapping):
            for side, listed in announces.items():
                for kind in ANNOUNCES:
                    count = list(listed).count(kind) if isinstance(listed, list) else 0
                    if count:
                        values[f"announces_{str(side)[:1]}_{kind}"] = str(count)
        return values

    def deal_sides(
        self, deal: Mapping[str, Any], players: int, rules: Any
    ) -> tuple[tuple[int, ...], ...]:
        """The taking team first once a taker is chosen."""
        taker = deal.get("taker")
        if isinstance(taker, int) and 0 <= taker < players:
            team = belote.team_of(taker)
            return (belote.TEAMS[team], belote.TEAMS[1 - team])
        return belote.TEAMS

    def blank_context(self, names: list[str], first_dealer: int, rules: Any) -> dict[str, Any]:
        """The teams' names and the target."""
        teams = [" & ".join(names[seat] for seat in team) for team in belote.TEAMS]
        return {"teams": teams, "coinche": self.coinche(rules), "target": rules.target}

    # --- tables branch: the deals CSV's own columns ---
    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The taker, the bid and the trump; a deal everyone passed is "passed"."""
        if deal.get("taker") is None:
            return {"contract": PASSED}
        return {"taker": deal.get("taker"), "bid": deal.get("bid"), "contract": deal.get("trump")}


HOME = Belote()
