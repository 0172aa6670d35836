"""Boulmous at the table: its deal form, its trick judge, its blank sheet.

The rules are `rules`' (this package); the templates are in `templates/`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

import referee.games.boulmous.rules as boulmous
from referee.engine.cards import Card, Suit, parse_cards
from referee.engine.game import Standings
from referee.web.home import Home, Values, counts, form_value, put

#: The taker grid's choice for a deal everyone passed.
PASSED = "passed"


class Boulmous(Home):
    """Bids of 3 to 6 tricks, bowers, boîtes, first to 21."""

    key: ClassVar[str] = boulmous.GAME.key
    template_folder: ClassVar[Path] = Path(__file__).parent / "templates"
    styles: ClassVar[tuple[str, ...]] = ("marks.css",)
    name: ClassVar[Any] = _l("Boulmous")
    blurb: ClassVar[Any] = _l("4 players, 24 cards, bid 3 to 6 tricks; first to 21.")
    judge_trumps: ClassVar[tuple[str, ...]] = tuple(c.value for c in boulmous.Contract)
    #: The bids of the form, lowest first: "boulmous" is the six.
    bids: ClassVar[tuple[str, ...]] = (
        *(str(n) for n in range(boulmous.MIN_BID, boulmous.BOULMOUS)),
        boulmous.BOULMOUS_WORD,
    )
    tricks: ClassVar[int] = boulmous.TRICKS
    sample: ClassVar[dict[str, Any] | None] = {
        "format": "referee-game/1",
        "game": boulmous.GAME.key,
        "players": ["Ana", "Bruno", "Chloé", "Driss"],
        "first_dealer": 0,
        "rules": {},
        "stake": "1",
        "deals": [{"taker": 0, "bid": 3, "contract": "hearts", "tricks": [3, 1, 1, 1]}],
    }
    figure_words: ClassVar[Mapping[str, Any]] = {
        "bids": _l("bids taken"),
        "made": _l("bids made"),
        "boites": _l("boîtes"),
        "boulmous_made": _l("boulmous made"),
        "boulmous_failed": _l("boulmous failed"),
    }

    def seat_note(self, standings: Standings, seat: int) -> str | None:
        """The boîtes a player has had (each failed bid is one)."""
        boites = standings.extras.get("boites")
        if not isinstance(boites, tuple) or not boites[seat]:
            return None
        return str(ngettext("%(num)d boîte", "%(num)d boîtes", boites[seat]))

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """A deal everyone passed, or a taker's bid, trump and everyone's tricks, with
        the optional auction (given only when a call is chosen)."""
        # Everyone passed: a choice of the taker grid (`take=passed`), recorded with
        # Record; `passed=1` is the former one-tap button's (an offline queue may hold one).
        if form.get("passed") or form.get("take") == PASSED:
            return {"passed": True}
        deal: dict[str, Any] = {}
        taker, bid = form.get("taker"), form.get("bid", "")
        take = form.get("take", "")
        if take:  # the taker-and-bid grid: "seat:bid"
            taker, _colon, bid = take.partition(":")
        put(deal, "taker", taker)
        value = bid if bid == boulmous.BOULMOUS_WORD else form_value(bid)
        if value is not None:
            deal["bid"] = value
        put(deal, "contract", form.get("contract"))
        tricks = counts(form, "tricks", players, boulmous.TRICKS)
        if tricks is not None:
            deal["tricks"] = tricks
        calls = [form.get(f"call{position}", "") for position in range(players)]
        if any(calls):
            deal["auction"] = [
                c if c in ("pass", boulmous.BOULMOUS_WORD) else form_value(c) for c in calls
            ]
        return deal

    def values_from_deal(self, deal: Mapping[str, Any]) -> Values:
        """The auction's calls are the `call0`… boxes; taker and bid one grid cell."""
        values = super().values_from_deal({k: v for k, v in deal.items() if k != "auction"})
        if deal.get("passed"):
            values["take"] = PASSED
        if "taker" in deal and "bid" in deal:
            values["take"] = f"{deal['taker']}:{deal['bid']}"
        for position, call in enumerate(deal.get("auction", ())):
            values[f"call{position}"] = str(call)
        return values

    def may_play(self, trump: str, led: str | None, card: str, hand: list[str], rules: Any) -> None:
        """Follow suit if able; the same-colour jack follows trumps."""
        (played,) = parse_cards([card], "card")
        held = list(parse_cards(hand, "hand"))
        lead = parse_cards([led], "trick")[0] if led else None
        boulmous.check_play(played, [played, *held], lead, boulmous.Contract(trump))

    def bid_word(self, bid: str) -> Any:
        """The six tricks' bid by its name."""
        return _l("Boulmous (6)") if bid == boulmous.BOULMOUS_WORD else bid

    def judge_deck(self, rules: Any) -> list[list[str]]:
        """24 cards: 9 to the ace of each suit."""
        return [[str(Card(rank, suit)) for rank in boulmous.RANKS] for suit in Suit]

    def judge(self, trump: str, cards: list[str], rules: Any, players: int) -> dict[str, Any]:
        """The bowers, then the trumps, then the suit led."""
        played = parse_cards(cards, "trick")
        contract = boulmous.Contract(trump)
        return {
            "winner": boulmous.trick_winner(played, contract),
            "reasons": [boulmous.trick_reason(played, contract)],
        }

    # --- tables branch: the deals CSV's own columns ---
    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The taker, the bid and the trump named; a void deal's contract is "passed"."""
        if deal.get("passed"):
            return {"contract": "passed"}
        return {
            "taker": deal.get("taker"),
            "bid": deal.get("bid"),
            "contract": deal.get("contract"),
        }


HOME = Boulmous()
