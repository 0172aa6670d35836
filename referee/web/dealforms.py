"""Deal entry forms: what every game's form shares. Each game's own reading of its
form (form fields -> a deal of the record format, and back for a correction) is in
its home, `referee/web/homes/<game>.py`."""

from __future__ import annotations

from collections.abc import Mapping

from referee.web.homes import Values


def values_of(form: Mapping[str, str]) -> Values:
    """The raw entries, to show the form again as the player left it."""
    return {key: value for key, value in form.items() if key != "csrf_token"}
