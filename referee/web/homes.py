"""The games' homes, one per game of the registry (`referee.games.PACKAGES`).

Each game's package has a `home` module whose `HOME` is its web side
(`referee.web.home.Home`); this module finds them by the registry's names, so that
adding a game edits no list here. It also finds a home's templates
(`<key>/<part>.html` in its package's `templates/`) and renders a deal's one line.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from flask import get_template_attribute
from jinja2 import BaseLoader, Environment, FileSystemLoader, TemplateNotFound
from markupsafe import Markup

from referee.games import GAMES, PACKAGES
from referee.web.home import Home

HOMES: dict[str, Home] = {}


def register(home: Home) -> Home:
    """Make a game's home known to the app (its rules must be in `GAMES`)."""
    if home.key not in GAMES:
        raise LookupError(f"no game {home.key!r} for this home")
    HOMES[home.key] = home
    return home


def home_of(key: str) -> Home:
    """The home of the game `key` (KeyError for a game the app does not know)."""
    return HOMES[key]


def home(game: Any) -> Home:
    """The home of a game row, or of a game's key (for templates)."""
    return home_of(game if isinstance(game, str) else game.game)


def game_name(game: Any) -> Any:
    """What a game is called (a game row, or a key): its home's name, or what the
    table said it plays ("Rami", where a game takes any name), as every page names it."""
    if isinstance(game, str):
        return home_of(game).name
    return home_of(game.game).called(game.rules)


def summary(game: Any, deal: Mapping[str, Any], alone: bool = False) -> Markup:
    """How a deal reads in one line, in the current language (the game's macro).

    `alone`: the line is read without the deal's row of points beside it (the
    history of changes, the undo page): a game whose line leaves its points to the
    row says them then, if its macro takes `alone`."""
    macro = get_template_attribute(home_of(game.game).template("summary"), "summary")
    if alone and "alone" in macro.arguments:
        return Markup(macro(game, deal, alone=True))
    return Markup(macro(game, deal))


class HomeTemplates(BaseLoader):
    """Finds `<key>/<part>.html` in the `template_folder` of the home of `key`,
    whenever it was registered (a game added by a plug-in or a test too)."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Any]:
        key, _slash, part = template.partition("/")
        home = HOMES.get(key)
        if home is None:
            raise TemplateNotFound(template)
        return FileSystemLoader(str(home.template_folder)).get_source(environment, part)

    def list_templates(self) -> list[str]:
        """Every template of every home (a server's worker compiles them all before
        it answers: `referee.web.sheets.warm`)."""
        return sorted(
            f"{key}/{name}"
            for key, home in HOMES.items()
            for name in FileSystemLoader(str(home.template_folder)).list_templates()
        )


#: What templates may use of the homes.
TEMPLATE_GLOBALS: dict[str, Any] = {
    "HOMES": HOMES,
    "home": home,
    "game_name": game_name,
    "deal_summary": summary,
}

for _package in PACKAGES:
    register(importlib.import_module(f"referee.games.{_package}.home").HOME)
