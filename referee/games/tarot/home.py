"""French tarot at the table: its deal form, its lines, its blank sheet.

The rules are `rules`' (this package); the templates are in `templates/`. A plain
deal is four taps and the digits: the taker and his contract (one grid), the
bouts, the points box, Record; at five, the called king's player too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Final

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

import referee.games.tarot.rules as tarot
from referee.games.tarot.scoring import ALL_POINTS, Chelem, Contract, Side
from referee.games.tarot.words import VALUES
from referee.web.home import Home, Values, put

#: The taker grid's choice for a deal everyone passed.
PASSED: Final = "passed"
#: The contracts by their names (the words of `words.VALUES`, one place for them).
CONTRACTS: Final = {c.value: _l(VALUES[c.value]) for c in Contract}
#: The grid's column heads: the contracts in short.
CONTRACT_HEADS: Final = {
    Contract.PETITE.value: _l("Petite"),
    Contract.GARDE.value: _l("Garde"),
    Contract.GARDE_SANS.value: _l("G. sans"),
    Contract.GARDE_CONTRE.value: _l("G. contre"),
}
#: The poignées by size, as the form names them (1 simple, 2 double, 3 triple).
POIGNEES: Final = {1: _l("Simple"), 2: _l("Double"), 3: _l("Triple")}
#: Who took the petit au bout, as a deal's line says it.
PETIT_WORDS: Final = {
    Side.TAKER.value: _l("petit au bout to the taker's side"),
    Side.DEFENCE.value: _l("petit au bout to the defence"),
}
#: A poignée by size, as a deal's line says it.
POIGNEE_WORDS: Final = {1: _l("simple poignée"), 2: _l("double poignée"), 3: _l("triple poignée")}
#: A chelem, as a deal's line says it.
CHELEM_WORDS: Final = {
    Chelem.ANNOUNCED_MADE.value: _l("chelem announced and made"),
    Chelem.MADE.value: _l("chelem made, not announced"),
    Chelem.ANNOUNCED_FAILED.value: _l("chelem announced and failed"),
    Chelem.DEFENCE.value: _l("chelem of the defence"),
}
#: The chelem's cases, as the form offers them.
CHELEMS: Final = {
    Chelem.ANNOUNCED_MADE.value: _l("announced and made"),
    Chelem.MADE.value: _l("made, not announced"),
    Chelem.ANNOUNCED_FAILED.value: _l("announced and failed"),
    Chelem.DEFENCE.value: _l("made by the defence"),
}


#: Card points as a table types them: 47, 47,5, 47.5, 47½ (ASCII digits).
_POINTS: Final = re.compile(
    r"(?P<whole>[0-9]{1,3})?(?:[.,](?P<part>[0-9]{1,3}))?(?P<half>½)?", re.ASCII
)


def read_points(text: str | None) -> Any:
    """Card points as typed: "47", "47,5", "47.5", "47½"; a whole number as an int,
    a half as a float; anything else as typed, for the engine to refuse in words."""
    raw = " ".join((text or "").split())
    if not raw:
        return None
    found = _POINTS.fullmatch(raw)
    if found is None or not (found["whole"] or found["part"] or found["half"]):
        return raw
    whole, tenths, halved = found["whole"] or "0", found["part"], bool(found["half"])
    value = Fraction(f"{whole}.{tenths}" if tenths else whole) + (Fraction(1, 2) if halved else 0)
    return int(value) if value.denominator == 1 else float(value)


class Tarot(Home):
    """3 to 5 players, 78 cards; contracts from the petite to the garde contre."""

    key: ClassVar[str] = tarot.GAME.key
    template_folder: ClassVar[Path] = Path(__file__).parent / "templates"
    assets: ClassVar[tuple[str, ...]] = ("deal.css",)
    styles: ClassVar[tuple[str, ...]] = ("marks.css",)
    name: ClassVar[Any] = _l("Tarot")
    blurb: ClassVar[Any] = _l(
        "3 to 5 players, 78 cards, from the petite to the garde contre; the FFT's count."
    )
    seats_hint: ClassVar[Any] = _l(
        "Tarot is played to the right: each deal goes to the dealer's right-hand neighbour."
    )
    contracts: ClassVar[tuple[str, ...]] = tuple(c.value for c in Contract)
    contract_words: ClassVar[Mapping[str, Any]] = CONTRACTS
    contract_heads: ClassVar[Mapping[str, Any]] = CONTRACT_HEADS
    poignees: ClassVar[Mapping[int, Any]] = POIGNEES
    petit_words: ClassVar[Mapping[str, Any]] = PETIT_WORDS
    poignee_words: ClassVar[Mapping[int, Any]] = POIGNEE_WORDS
    chelem_words: ClassVar[Mapping[str, Any]] = CHELEM_WORDS
    chelems: ClassVar[Mapping[str, Any]] = CHELEMS
    all_points: ClassVar[int] = ALL_POINTS
    sample: ClassVar[dict[str, Any] | None] = {
        "format": "referee-game/1",
        "game": tarot.KEY,
        "players": ["Ana", "Bruno", "Chloé", "Driss"],
        "first_dealer": 0,
        "rules": {},
        "stake": "0.10",
        "stake_per": "point",
        "deals": [{"taker": 1, "contract": "garde", "bouts": 2, "points": 47}],
    }
    figure_words: ClassVar[Mapping[str, Any]] = {
        "taken": _l("contracts taken"),
        "made": _l("contracts made"),
        "points": _l("points a deal"),
    }

    def contract_word(self, contract: str, rules: Mapping[str, Any] | None = None) -> Any:
        """A contract by its name at this table (`rules`: as stored, or the engine's):
        the petite is the "prise" where the house says so."""
        small = rules.get("small") if isinstance(rules, Mapping) else getattr(rules, "small", None)
        if contract == Contract.PETITE.value and small == tarot.Small.PRISE.value:
            return _l(VALUES[tarot.Small.PRISE.value])
        return CONTRACTS.get(contract, contract)

    def contract_head(self, contract: str, rules: Any = None) -> Any:
        """A contract's column head in the taker grid."""
        small = getattr(rules, "small", None)
        if contract == Contract.PETITE.value and small == tarot.Small.PRISE.value:
            return _l("Prise")
        return CONTRACT_HEADS[contract]

    def poignee_trumps(self, players: int) -> tuple[int, ...]:
        """The trumps a poignée shows at this table, by size (1 simple … 3 triple)."""
        return tarot.POIGNEE_TRUMPS.get(players, tarot.POIGNEE_TRUMPS[4])

    def points_word(self, points: object) -> str:
        """Card points as the record keeps them (47, 47.5), as players write them."""
        if isinstance(points, bool) or not isinstance(points, int | float):
            return str(points)
        return str(gettext("%(points)s points", points=tarot.half(Fraction(points))))

    def bid_word(self, bid: str) -> Any:
        """A contract by its name."""
        return CONTRACTS.get(bid, bid)

    def deal_sides(
        self, deal: Mapping[str, Any], players: int, rules: Any
    ) -> tuple[tuple[int, ...], ...]:
        """The deal's own sides: the taker (and at five his called partner), then
        the defence; everyone alone before a taker is chosen."""
        taker, partner = deal.get("taker"), deal.get("partner")
        if not isinstance(taker, int) or not 0 <= taker < players:
            return self.sides(players)
        side: tuple[int, ...] = (taker,)
        if isinstance(partner, int) and 0 <= partner < players and partner != taker:
            side = tuple(sorted((taker, partner)))
        return (side, tuple(seat for seat in range(players) if seat not in side))

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """The taker and contract (one grid cell, "seat:contract", or everyone passed),
        the partner at five, the bouts, the points (the taker's side's, or the
        defence's), and what "More" holds. Whatever is typed goes to the engine as
        typed, which refuses it in words; nothing chosen is no deal at all."""
        take = form.get("take", "")
        if take == PASSED:
            return {"taker": None}
        deal: dict[str, Any] = {}
        taker, _colon, contract = take.partition(":")
        put(deal, "taker", taker or None)
        if contract:
            deal["contract"] = contract
        put(deal, "partner", form.get("partner"))
        put(deal, "bouts", form.get("bouts"))
        for box, key in (("points", "points"), ("defence", "defence")):
            typed = read_points(form.get(box))
            if typed is not None:
                deal[key] = typed
        if form.get("petit"):
            deal["petit_au_bout"] = form["petit"]
        sizes: list[Any] = []
        for size in POIGNEES:
            count = form.get(f"poignees{size}", "").strip()
            if count.isdigit():
                sizes.extend([size] * min(int(count), tarot.MOST_POIGNEES + 1))
            elif count:
                sizes.append(count)  # refused by the engine, in words
        if sizes:
            deal["poignees"] = sizes
        if form.get("chelem"):
            deal["chelem"] = form["chelem"]
        if form.get("last"):
            deal["last"] = True
        return deal

    def values_from_deal(self, deal: Mapping[str, Any]) -> Values:
        """Back into the form: the grid's cell, the counts of poignées by size."""
        if deal.get("taker") is None:
            values: Values = {"take": PASSED}
        else:
            values = {"take": f"{deal['taker']}:{deal.get('contract', '')}"}
        for key in ("partner", "bouts", "chelem"):
            if deal.get(key) is not None:
                values[key] = str(deal[key])
        for key in ("points", "defence"):
            if isinstance(deal.get(key), int | float) and not isinstance(deal[key], bool):
                values[key] = tarot.half(Fraction(deal[key]))  # "47½" reads back as typed
        if deal.get("petit_au_bout"):
            values["petit"] = str(deal["petit_au_bout"])
        for size in POIGNEES:
            count = list(deal.get("poignees", ())).count(size)
            if count:
                values[f"poignees{size}"] = str(count)
        if deal.get("last"):
            values["last"] = "1"
        return values

    def blank_context(self, names: list[str], first_dealer: int, rules: Any) -> dict[str, Any]:
        """The contracts' columns and the poignées' trumps at this table."""
        counts = tarot.POIGNEE_TRUMPS.get(len(names), tarot.POIGNEE_TRUMPS[4])
        return {"contracts": self.contracts, "poignee_trumps": counts[1:]}

    # --- tables branch: the deals CSV's own columns ---
    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The taker, his partner at five and the contract; a deal everyone passed
        is "passed"."""
        if deal.get("taker") is None:
            return {"contract": PASSED}
        return {
            "taker": deal.get("taker"),
            "partner": deal.get("partner"),
            "contract": deal.get("contract"),
        }


HOME = Tarot()
