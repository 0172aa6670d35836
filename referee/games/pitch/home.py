"""10-point Pitch at the table: bid, trump, and who won each point card.

The rules are `rules`' (this package); the templates are in `templates/`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _pl

import referee.games.pitch.rules as pitch
from referee.engine.cards import Card, Rank, Suit
from referee.engine.game import Standings
from referee.web.home import Home, Values, form_value, put, together

#: The point cards as a grid's row names them.
POINT_CARDS = {
    "ace": _l("Ace"),
    "jack": _l("Jack"),
    "off_jack": _l("Off-jack"),
    "joker_high": _l("High joker"),
    "joker_low": _l("Low joker"),
    "ten": _l("Ten"),
    "three": _l("Three"),
    "two": _l("Two"),
    "off_ace": _l("Off-ace"),
    "off_ten": _l("Off-ten"),
    "off_three": _l("Off-three"),
    "off_two": _l("Off-two"),
}

#: The same, as short as a grid row's header holds (the full name is read out).
POINT_CARDS_SHORT = {
    "ace": _pl("point card", "A"),
    "jack": _pl("point card", "J"),
    "off_jack": _pl("point card", "Off J"),
    "joker_high": _pl("point card", "JK+"),
    "joker_low": _pl("point card", "JK−"),
    "ten": _pl("point card", "10"),
    "three": _pl("point card", "3"),
    "two": _pl("point card", "2"),
    "off_ace": _pl("point card", "Off A"),
    "off_ten": _pl("point card", "Off 10"),
    "off_three": _pl("point card", "Off 3"),
    "off_two": _pl("point card", "Off 2"),
}


class Pitch(Home):
    """Teams (or five alone), bids and moon shots, jokers and the off-jack; first to 52."""

    key: ClassVar[str] = pitch.GAME.key
    template_folder: ClassVar[Path] = Path(__file__).parent / "templates"
    assets: ClassVar[tuple[str, ...]] = ("deal.css", "deal.js")
    styles: ClassVar[tuple[str, ...]] = ("marks.css",)
    name: ClassVar[Any] = _l("10-point Pitch")
    blurb: ClassVar[Any] = _l("4 players in teams (or 5 alone), bids and moon shots; first to 52.")
    seats_hint: ClassVar[Any] = _l(
        "Four players: partners sit opposite (seats 1 and 3 against 2 and 4). Fill in a "
        "fifth name for the five-handed game."
    )
    judge_trumps: ClassVar[tuple[str, ...]] = tuple(s.value for s in Suit)
    judge_hint: ClassVar[Any] = _l("Jokers: JK+ (high) and JK- (low).")
    blank_landscape: ClassVar[bool] = True
    min_bid: ClassVar[int] = pitch.MIN_BID
    figure_words: ClassVar[Mapping[str, Any]] = {
        "bids": _l("bids"),
        "sets": _l("sets"),
        "moons": _l("moons tried"),
        "moons_made": _l("moons made"),
    }

    point_cards: ClassVar[Mapping[str, Any]] = POINT_CARDS
    point_cards_short: ClassVar[Mapping[str, Any]] = POINT_CARDS_SHORT

    def point_card_word(self, card: str) -> Any:
        """A point card by its name ("Off-jack")."""
        return POINT_CARDS.get(card, card)

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """The bidder, bid, trump, who won each point card of the variant ("dead":
        nobody), and five-handed the partner ("alone")."""
        deal: dict[str, Any] = {}
        put(deal, "bidder", form.get("bidder"))
        bid = form.get("bid", "")
        if bid:
            deal["bid"] = bid if bid == "moon" else form_value(bid)
        put(deal, "trump", form.get("trump"))
        points: dict[str, Any] = {}
        for card in pitch.VARIANTS[rules.points].points:
            text = form.get(f"p_{card}", "")
            if text == "dead":
                points[card.value] = None
            elif text:
                points[card.value] = form_value(text)
        deal["points"] = points
        if players == 5:
            partner = form.get("partner", "")
            if partner:
                deal["partner"] = None if partner == "alone" else form_value(partner)
        return deal

    def deal_sides(
        self, deal: Mapping[str, Any], players: int, rules: Any
    ) -> tuple[tuple[int, ...], ...]:
        """Five-handed, the hand's own sides: bidder and called partner, then the
        defenders; four-handed, the teams."""
        bidder = deal.get("bidder")
        if players != 5 or not isinstance(bidder, int) or not 0 <= bidder < players:
            return self.sides(players)
        partner = deal.get("partner")
        side = pitch.partners(bidder, partner if isinstance(partner, int) else None, players)
        return (side, tuple(seat for seat in range(players) if seat not in side))

    def money_notes(
        self,
        standings: Standings,
        names: Sequence[str],
        rules: Any,
        per_point: bool,
        currency: str,
    ) -> list[str]:
        """Five-handed, a player at the target who does not win pays the bidder like
        the others: said first, why (the bidder goes out first)."""
        notes = super().money_notes(standings, names, rules, per_point, currency)
        if not notes or len(names) != 5 or len(standings.winners) != 1:
            return notes
        target = rules.target
        beside = [
            seat
            for seat, score in enumerate(standings.scores)
            if seat not in standings.winners and score >= target
        ]
        reasons = [
            _(
                "%(name)s reaches %(target)d too, but the bidder goes out first.",
                name=names[seat],
                target=target,
            )
            for seat in beside
        ]
        return [*reasons, *notes]

    def preview_notes(
        self,
        deal: Mapping[str, Any],
        deltas: Sequence[int],
        before: Sequence[int] | None,
        winners: Sequence[int],
        names: Sequence[str],
        rules: Any,
    ) -> list[str]:
        """Five-handed, what surprises a table: a defender who took no point card yet
        scores his side's points; a partner who reaches the target but does not win
        (the bidder goes out first)."""
        sides = self.deal_sides(deal, len(names), rules)
        if len(names) != 5 or len(sides) != 2:
            return []
        side, defenders = sides
        points = deal.get("points") or {}
        took = {seat for seat in points.values() if isinstance(seat, int)}
        notes = []
        idle = [s for s in defenders if deltas[s] and s not in took]
        if idle:
            who = together([names[s] for s in idle])
            if len(idle) == 1:
                notes.append(
                    _("%(names)s took no point card but scores the defenders' points.", names=who)
                )
            else:
                notes.append(
                    _("%(names)s took no point card but score the defenders' points.", names=who)
                )
        if before is not None and winners:
            target = rules.target
            short = [s for s in side if s not in winners and before[s] + deltas[s] >= target]
            for seat in short:
                notes.append(
                    _(
                        "%(name)s reaches %(target)d too, but the bidder goes out first.",
                        name=names[seat],
                        target=target,
                    )
                )
        return notes

    def completed(self, values: Values, rules: Any) -> Values | None:
        """ "The rest" (a seat or "dead"): every point card of the variant not yet
        ticked goes to it."""
        rest = values.get("rest", "")
        if not rest:
            return None
        filled = {k: v for k, v in values.items() if k != "rest"}
        for card in pitch.VARIANTS[rules.points].points:
            if not filled.get(f"p_{card}"):
                filled[f"p_{card}"] = rest
        return filled

    def values_from_deal(self, deal: Mapping[str, Any]) -> Values:
        """Point cards are the `p_…` boxes ("dead": nobody); no partner is "alone"."""
        plain = {k: v for k, v in deal.items() if k not in ("points", "partner", "auction")}
        values = super().values_from_deal(plain)
        for card, seat in deal.get("points", {}).items():
            values[f"p_{card}"] = "dead" if seat is None else str(seat)
        if "partner" in deal:
            values["partner"] = "alone" if deal["partner"] is None else str(deal["partner"])
        for position, call in enumerate(deal.get("auction", ())):
            values[f"call{position}"] = str(call)
        return values

    def may_play(self, trump: str, led: str | None, card: str, hand: list[str], rules: Any) -> None:
        """Only trumps are played: the judge of one card is the judge of a trick."""
        pitch.judge_trick([(0, pitch.parse_card(card))], Suit(trump), rules)

    def bid_word(self, bid: str) -> Any:
        """The moon by its name."""
        return _l("Moon") if bid == pitch.MOON_WORD else bid

    def judge_deck(self, rules: Any) -> list[list[str]]:
        """52 cards (only trumps may be played: the judge says so), and the jokers
        where the variant has them."""
        rows = [[str(Card(rank, suit)) for rank in sorted(Rank)] for suit in Suit]
        if rules.variant.jokers:
            rows.append([str(pitch.Joker.HIGH), str(pitch.Joker.LOW)])
        return rows

    def judge(self, trump: str, cards: list[str], rules: Any, players: int) -> dict[str, Any]:
        """Trumps only; who wins, and who scores each point card (a 2: its player)."""
        plays = [(seat, pitch.parse_card(text)) for seat, text in enumerate(cards)]
        result = pitch.judge_trick(plays, Suit(trump), rules, players=players)
        return {
            "winner": result.winner,
            "points": list(result.points),
            "reasons": list(result.reasons),
        }

    def blank_context(self, names: list[str], first_dealer: int, rules: Any) -> dict[str, Any]:
        """A column per point card of the variant, one per side."""
        from flask_babel import ngettext

        sides = [" & ".join(names[s] for s in side) for side in self.sides(len(names))]
        points = rules.variant.total
        subtitle = ngettext("%(num)d point", "%(num)d points", points) if points != 10 else None
        return {
            "point_cards": [c.value for c in rules.variant.points],
            "sides": sides,
            "subtitle": subtitle,
        }

    # --- tables branch: the deals CSV's own columns ---
    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The bidder, the bid ("moon" too), the trump, five-handed the partner."""
        return {
            "taker": deal.get("bidder"),
            "bid": deal.get("bid"),
            "contract": deal.get("trump"),
            "partner": deal.get("partner"),
        }


HOME = Pitch()
