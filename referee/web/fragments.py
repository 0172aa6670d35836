"""Pieces of a page drawn once per everything they show, kept per worker process.

A deal form is mostly loops of pills (the tricks each player took: 4 × 7 radio
buttons; the taker and bid grid: 4 × 4), drawn from the players' names, what is
entered and its messages, in the page's language. For a new deal they are the same
from one deal to the next of a game: drawing them again was about a third of the
form's templates (which were an eighth of a deal's CPU on the server, py-spy), and
kept they make the form a sixth faster in process (issue 19, PERFORMANCE.md).

A template keeps a piece with `{% call kept('what', inputs...) %}…{% endcall %}`:
the body is drawn when no piece of the same inputs (and language) is kept. The
inputs must be everything the body reads that can change; a form's one-time key,
different in every form and read by no piece, is left out of `values`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from flask import current_app
from flask_babel import get_locale
from markupsafe import Markup

from referee.lru import LRU

#: Pieces kept per worker process (a piece is 1-6 KB; a game's form has two to four,
#: in each language a phone of it reads: 1,000 tables in two languages fit).
FRAGMENTS_KEPT = 8192

#: Entries that change with every form and that no piece reads.
_NOT_READ = frozenset({"key"})


def frozen(value: Any) -> Hashable:
    """A template's value as part of a key: lists, tuples and dicts (of what a form
    holds: strings, numbers, lists of messages) made hashable, in a fixed order."""
    if isinstance(value, dict):
        return tuple(sorted((str(k), frozen(v)) for k, v in value.items() if k not in _NOT_READ))
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)  # a lazy translation, a Markup: what it shows


def kept(*inputs: Any, caller: Callable[[], str]) -> Markup:
    """The piece `caller` draws from `inputs`, drawn once per inputs and language."""
    key = (str(get_locale() or "fr"), *(frozen(value) for value in inputs))
    pieces: LRU[Markup] = current_app.extensions["fragment_cache"]
    return pieces.get_or_make(key, lambda: Markup(caller()))
