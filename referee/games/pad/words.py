"""Every word of the score pad, marked for the catalogue (`N_`): its refusals, its
field names, the steps of its explanations and its statistics.

The shared tables (`referee.engine.messages.MESSAGES`, `FIELD_NAMES`,
`referee.engine.explain.EXPLANATIONS`) take them in from `referee/games/__init__.py`.
Standard library only.
"""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_, NC_
from referee.engine.words import Words

#: Problem code -> message id. Codes are the pad's own (`pad_`), so that they never
#: clash with another game's.
MESSAGES: Final[dict[str, str]] = {
    "pad_teams_split": N_(
        "{count} {count|player|players} cannot sit in {teams} teams of the same size; "
        "choose a number of teams that divides {count}"
    ),
    "pad_points_players": N_(
        "{field}: one number per player is needed, {expected} in all, not {count}"
    ),
    "pad_points_teams": N_(
        "{field}: one number per team is needed, {expected} in all, not {count}"
    ),
    "pad_point_range": N_("{field} of {name}: {value} is not a whole number from {low} to {high}"),
    "pad_not_zero_sum": N_(
        "the points add up to {total}, not 0: under this house rule a deal adds up to zero"
    ),
    "pad_rest_not_zero_sum": N_(
        "{name} has no points: only a game whose deals add up to zero or to a total "
        "fills in the rest"
    ),
    "pad_rest_range": N_(
        "{field} of {name}: the rest would be {rest}, but a deal's points go from {low} to {high}"
    ),
    "pad_rest_negative": N_(
        "{field} of {name}: the rest of {total} would be {rest}: the others have more "
        "points than a deal gives (a capot: type each side's points, 0 included)"
    ),
    "pad_total_zero_sum": N_(
        "a deal cannot add up to zero and to {total}: choose one of these house rules"
    ),
    "pad_rest_twice": N_("only one player can take the rest, but {count} have no points"),
    "pad_teams_one": N_("one team is everyone together: choose 0 (each alone), or 2 teams or more"),
    "pad_after_end": N_("the game ended at deal {ended_at}; no deal may follow"),
}

#: Field names as players say them (record name -> message id, context "field").
FIELD_NAMES: Final[dict[str, str]] = {
    "points": NC_("field", "points"),
    "last": NC_("field", "last deal"),
    "teams": NC_("field", "teams"),
}

#: Explanation step code -> message id (`referee.engine.explain`).
EXPLANATIONS: Final[dict[str, str]] = {
    "pad_points": N_("Points: {gains}."),
    "pad_rest": N_("The rest: {who} {amount}."),
    "pad_team_rest": N_("The rest: each of {side} scores {amount}."),
    "pad_team": N_("Each of {side} scores {amount}."),
    "pad_reaches": N_("{side} {n|reaches|reach} {total}: the game is over."),
    "pad_deals_done": N_("{count} {n|deal|deals} played: the game is over."),
    "pad_table_ends": N_("The table ended the game."),
    "pad_wins": N_("{side} {n|wins|win} the game."),
}

#: The statistics a table counts of its pad games (`Pad.figures`), as players say them.
FIGURE_WORDS: Final[dict[str, str]] = {
    "deals": N_("deals played"),
    "best_deals": N_("deals won"),
    "points": N_("points a deal"),
}

#: The game's name and blurb (the home shows them).
NAME: Final = N_("Score pad")
BLURB: Final = N_("2 to 12 players, any game: each deal's points, teams if you like.")

#: What tables play most on a pad: the new-game form suggests them (`Pad.suggested`).
USUAL_NAMES: Final = (
    N_("Belote"),
    N_("Coinche"),
    N_("Tarot"),
    N_("Rummy"),
    N_("Yahtzee"),
    N_("President"),
)

#: The house rules' words (`rules.FLAGS`).
#: What 0 means for the house rules that may be 0.
ZERO_WORDS: Final[dict[str, str]] = {
    "teams": N_("none (each plays alone)"),
    "goal": N_("none"),
    "deals": N_("no limit"),
    "total": N_("none"),
}

FLAG_WORDS: Final[dict[str, tuple[str, str]]] = {
    "name": (
        N_("What the table plays"),
        N_(
            "Belote, tarot, rami, yams…: the game's name on the scores, the evening and the statistics."
        ),
    ),
    "teams": (
        N_("Teams"),
        N_(
            "0: each plays alone. Else the seats go round the teams: "
            "seat 1 in team 1, seat 2 in team 2…"
        ),
    ),
    "zero_sum": (
        N_("Each deal adds up to zero"),
        N_("As in tarot: what some win, the others lose. The last player can take the rest."),
    ),
    "total": (
        N_("Points in a deal"),
        N_(
            "As belote's 162: the last box left empty takes the rest of it. "
            "A capot's 252 is typed as is (0: no total)."
        ),
    ),
    "lowest_wins": (
        N_("The lowest total wins"),
        N_("Off: the highest total wins."),
    ),
    "goal": (
        N_("Target score"),
        N_("The game ends when a total reaches it (0: no target)."),
    ),
    "deals": (
        N_("Number of deals"),
        N_("The game ends after this many deals (0: no limit)."),
    ),
}

#: What the registry puts in the shared tables (`referee.engine.words`).
WORDS: Final = Words(messages=MESSAGES, fields=FIELD_NAMES, steps=EXPLANATIONS)
