"""The score pad at the table (Flask side): its deal form, its one-line summary,
its blank sheet. The rules are `rules`' (this package); the templates are in
`templates/`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from flask_babel import lazy_gettext as _l

import referee.games.pad.rules as pad
import referee.games.pad.words as words
from referee.web.home import Home, Values, form_value, together

#: The form's buttons that fill in a box without recording (`completed`).
FLIP = "flip"
REST = "rest"
#: The box the form comes back focused on (after a "±" without JavaScript).
FOCUS = "focus"


def side_names(names: list[str], teams: int) -> list[str]:
    """Each row of the form: a player, or a team ("Ana & Chloé")."""
    return [together([names[s] for s in side]) for side in pad.sides_of(len(names), teams)]


class Pad(Home):
    """Any game: each deal's points, per player or per team."""

    key: ClassVar[str] = pad.KEY
    name: ClassVar[Any] = _l(words.NAME)
    blurb: ClassVar[Any] = _l(words.BLURB)
    seats_hint: ClassVar[Any] = _l(
        "From 2 to 12 players. With teams, seat 1 plays with seat 1 + the number of teams."
    )
    blank_landscape: ClassVar[bool] = True
    assets: ClassVar[tuple[str, ...]] = ("deal.js",)
    template_folder: ClassVar[Path] = Path(__file__).parent / "templates"
    sample: ClassVar[dict[str, Any] | None] = {
        "format": "referee-game/1",
        "game": pad.KEY,
        "players": ["Ana", "Bruno", "Chloé", "Driss", "Élise"],
        "first_dealer": 0,
        "rules": {"zero_sum": True, "goal": 100},
        "stake": "0.10",
        "stake_per": "point",
        "deals": [
            {"points": [40, -10, -10, -10, -10]},
            {"points": [-20, 60, -20, -20, None]},
            {"points": [75, -25, 0, -25, None]},
        ],
    }
    figure_words: ClassVar[Mapping[str, Any]] = {
        key: _l(text) for key, text in words.FIGURE_WORDS.items()
    }

    def called(self, rules: Mapping[str, Any]) -> Any:
        """What the table said it plays on this pad ("Belote"), else "Score pad"."""
        name = rules.get("name") if isinstance(rules, Mapping) else None
        return name if isinstance(name, str) and name else self.name

    def suggested(self, flag: str) -> tuple[Any, ...]:
        """What a table plays on a pad, most often (after its own earlier names)."""
        return tuple(_l(text) for text in words.USUAL_NAMES) if flag == "name" else ()

    def side_rows(self, names: list[str], rules: Any) -> list[str]:
        """The form's rows, the summary's parts: the players, or the teams (`rules`:
        the parsed rules, or a game's rules as stored)."""
        teams = rules.get("teams", 0) if isinstance(rules, Mapping) else rules.teams
        return side_names(list(names), teams if isinstance(teams, int) else 0)

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        """One box per player (or team): an empty box counts 0, and the last one
        left empty is the rest where a deal adds up to zero or to a total; all
        empty, the points are missing. "This is the last deal" ends the game."""
        rows = len(pad.sides_of(players, rules.teams))
        values = [form_value(form.get(f"points{row}")) for row in range(rows)]
        deal: dict[str, Any] = {}
        if any(value is not None for value in values):
            takes_rest = rules.zero_sum or rules.total
            rest = rows - 1 if takes_rest and values[-1] is None else None
            deal["points"] = [
                None if row == rest else (0 if value is None else value)
                for row, value in enumerate(values)
            ]
        if form.get("last"):
            deal["last"] = True
        return deal

    def values_from_deal(self, deal: Mapping[str, Any]) -> Values:
        """The boxes `points0`…; the rest is an empty box, the last deal ticked."""
        values: Values = {}
        for row, points in enumerate(deal.get("points") or ()):
            values[f"points{row}"] = "" if points is None else str(points)
        if deal.get("last"):
            values["last"] = "1"
        if "dealer" in deal:
            values["dealer"] = str(deal["dealer"])
        return values

    def completed(self, values: Values, rules: Any) -> Values | None:
        """The ± button (`flip`: a row) turns a box's sign; "the rest" fills the last
        box with what the others leave of the deal's total (0 in a zero-sum game).
        Shown again, not recorded: the form without JavaScript (`deal.js` does both
        in the page)."""
        if not values.get(FLIP) and not values.get(REST):
            return None
        filled = {k: v for k, v in values.items() if k not in (FLIP, REST, FOCUS)}
        flip = values.get(FLIP, "")
        if flip:
            box = f"points{flip}"
            number = form_value(filled.get(box))
            if isinstance(number, int):
                filled[box] = str(-number)
            filled[FOCUS] = box  # the page comes back with the cursor in that box
        if values.get(REST):
            rows = [key for key in filled if key.startswith("points") and key[6:].isdigit()]
            last = max((int(key[6:]) for key in rows), default=-1)
            others = [form_value(filled.get(f"points{row}")) for row in range(last)]
            if last > 0 and all(v is None or isinstance(v, int) for v in others):
                known = sum(v for v in others if isinstance(v, int))
                filled[f"points{last}"] = str(rules.total - known)
        return filled

    def blank_context(self, names: list[str], first_dealer: int, rules: Any) -> dict[str, Any]:
        """A column per player, or per team."""
        return {"sides": side_names(names, rules.teams), "rows": 25}

    def csv_columns(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """No taker, bid or contract: a deal is its points."""
        return {}


HOME = Pad()
