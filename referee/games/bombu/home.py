"""Bombu provençal at the table: a contract chosen first, then its counts.

The rules are `rules`' (this package); the templates are in `templates/`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

from flask import Blueprint
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import referee.games.bombu.reussite as reussite
import referee.games.bombu.rules as bombu
from referee.engine.cards import parse_cards
from referee.engine.game import Standings
from referee.games.bombu.rules import Contract
from referee.games.bombu.words import VALUES
from referee.web.home import Home, counts, form_value, put

#: How many of each count a deal holds.
TOTALS: dict[str, int] = {"tricks": bombu.TRICKS, "hearts": bombu.HEARTS, "queens": bombu.QUEENS}
#: The counts each contract asks for, in the form's order (the engine's fields).
COUNTS: dict[str, tuple[str, ...]] = {
    c.value: tuple(name for name in TOTALS if name in bombu.CONTRACT_FIELDS[c]) for c in Contract
}


#: The contracts by their names (the words of `words.VALUES`, one place for them).
CONTRACTS: Final = {c.value: _l(VALUES[c.value]) for c in Contract}
#: What each contract scores, under its name on the deal form.
CONTRACT_HELP = {
    "no-tricks": _l("+10 a trick; all 8 tricks: capot, −320"),
    "no-hearts": _l("+10 a heart"),
    "no-queens": _l("+20 a queen"),
    "no-bombu": _l("+80 for the K♥"),
    "salad": _l("all four at once; all 8 tricks: capot, −320"),
    "reussite": _l("first out −200, second −120"),
}


class Bombu(Home):
    """24 deals of six penalty contracts, capot, Réussite; lowest wins."""

    key: ClassVar[str] = bombu.GAME.key
    template_folder: ClassVar[Path] = Path(__file__).parent / "templates"
    assets: ClassVar[tuple[str, ...]] = ("deal.css",)
    styles: ClassVar[tuple[str, ...]] = ("marks.css",)
    name: ClassVar[Any] = _l("Bombu provençal")
    blurb: ClassVar[Any] = _l(
        "4 players, 32 cards, 24 deals of six penalty contracts; lowest wins."
    )
    judge_hint: ClassVar[Any] = _l("No trump: A 10 K Q J 9 8 7, follow suit.")
    totals: ClassVar[dict[str, int]] = TOTALS
    counts: ClassVar[dict[str, tuple[str, ...]]] = COUNTS
    contracts: ClassVar[tuple[str, ...]] = tuple(c.value for c in Contract)
    #: The contracts whose form asks who took the Bombu (K♥).
    with_bombu: ClassVar[frozenset[str]] = frozenset(
        c.value for c in Contract if "bombu" in bombu.CONTRACT_FIELDS[c]
    )
    #: The contract whose form asks the order of going out (the Réussite).
    with_finish: ClassVar[frozenset[str]] = frozenset(
        c.value for c in Contract if "finish" in bombu.CONTRACT_FIELDS[c]
    )
    with_capot: ClassVar[frozenset[str]] = frozenset(c.value for c in Contract if c.allows_capot)
    #: The contracts that ask more than one count (the Salad): capot leaves the rest empty.
    several_counts: ClassVar[frozenset[str]] = frozenset(c for c, n in COUNTS.items() if len(n) > 1)
    blueprint: ClassVar[Blueprint | None] = reussite.bp
    tools: ClassVar[tuple[tuple[str, Any], ...]] = (("bombu.reussite", _l("Réussite referee")),)
    figure_words: ClassVar[Mapping[str, Any]] = {
        "capots": _l("capots"),
        "reussite_first": _l("Réussite: first out"),
        "reussite_second": _l("Réussite: second out"),
    }

    def contracts_for_field(self, name: str) -> frozenset[str]:
        """The contracts whose form asks the count `name` (tricks, hearts, queens): the
        one-page form draws each count once and shows it for these contracts."""
        return frozenset(c for c, asked in COUNTS.items() if name in asked)

    contract_words: ClassVar[Mapping[str, Any]] = CONTRACTS
    contract_help: ClassVar[Mapping[str, Any]] = CONTRACT_HELP

    def stage(self, standings: Standings) -> str | None:
        """The manche being played."""
        manche = standings.extras.get("manche")
        return self.round_title(manche) if isinstance(manche, int) else None

    def stage_hint(self, standings: Standings) -> str | None:
        """The contracts the manche has still to play."""
        left = standings.extras.get("contracts_left")
        if not left or not isinstance(left, tuple):
            return None
        names = ", ".join(str(CONTRACTS[c]) for c in left)
        return f"{_('Contracts left in this manche:')} {names}"

    def round_title(self, number: int) -> str:
        """ "Manche 2 of 4"."""
        manches = bombu.DEALS // bombu.DEALS_PER_MANCHE
        return str(_("Manche %(m)d of %(of)d", m=number, of=manches))

    def figure_word(self, key: str) -> Any:
        """A figure in the player's words; a contract's average points by its name."""
        if key.startswith("points:"):
            return _l("points a deal, %(contract)s", contract=CONTRACTS[key.split(":", 1)[1]])
        return super().figure_word(key)

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """The contract, and what it counts: tricks, hearts, queens, the Bombu, the
        order of going out. Only the chosen contract's fields are read: the one-page
        form posts every contract's fields (those not shown included)."""
        contract = form.get("contract", "")
        deal: dict[str, Any] = {}
        put(deal, "contract", contract)
        for name in COUNTS.get(contract, ()):
            found = counts(form, name, players, TOTALS[name])
            if found is not None:
                deal[name] = found
        if contract in self.with_bombu:
            put(deal, "bombu", form.get("bombu"))
        if contract == Contract.REUSSITE:
            order = [form_value(form.get(f"finish{place}")) for place in range(players)]
            deal["finish"] = [seat for seat in order if seat is not None]
        return deal

    def may_play(self, trump: str, led: str | None, card: str, hand: list[str], rules: Any) -> None:
        """Follow suit if able; no obligation to go over."""
        (played,) = parse_cards([card], "card")
        held = list(parse_cards(hand, "hand"))
        lead = parse_cards([led], "trick")[0] if led else None
        bombu.check_play(played, [played, *held], lead)

    def judge_deck(self, rules: Any) -> list[list[str]]:
        """32 cards: 7 to the ace of each suit."""
        return [[str(card) for card in row] for row in reussite.reussite_deck()]

    def judge(self, trump: str, cards: list[str], rules: Any, players: int) -> dict[str, Any]:
        """No trump: the highest card of the suit led, A 10 K Q J 9 8 7."""
        played = parse_cards(cards, "trick")
        return {"winner": bombu.trick_winner(played), "reasons": [bombu.trick_reason(played)]}

    def blank_context(self, names: list[str], first_dealer: int, rules: Any) -> dict[str, Any]:
        """A table per manche, each manche's dealer to the right of the last."""
        manches = bombu.DEALS // bombu.DEALS_PER_MANCHE
        return {
            "contracts": self.contracts,
            "manches": [(m + 1, (first_dealer - m) % len(names)) for m in range(manches)],
        }

    # --- tables branch: the deals CSV's own columns ---
    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The contract played (nobody bids in Bombu)."""
        return {"contract": deal.get("contract")}


HOME = Bombu()
