"""The one message catalogue, as the engine reads it (the standard library's gettext).

The web, the command line and the engine share one catalogue:
`translations/fr/LC_MESSAGES/messages.po` is its source, edited as a `.po`, and
`make install` compiles it. Message ids are English; a text the catalogue lacks
reads in English. The engine marks its message ids with `N_` (and `NC_` with a
context, where one English word has two French ones), so that `make translations`
finds them; it translates when it renders.
"""

from __future__ import annotations

import functools
import gettext
from typing import Final

from referee.paths import TRANSLATIONS

#: Where the compiled catalogues are (`<lang>/LC_MESSAGES/messages.mo`): a checkout's
#: `translations/` or a wheel's copy (`referee.paths`, standard library only too).
LOCALE_DIR: Final = TRANSLATIONS
DOMAIN: Final = "messages"


def N_(message: str) -> str:
    """Mark a message id for the catalogue; it is translated when rendered."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark a message id that has a context (`field`: a field's name); translated with
    `translate(lang, message, context)`."""
    return message


@functools.cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang], fallback=True)


def translate(lang: str, message: str, context: str | None = None) -> str:
    """`message` in `lang` (English: as it is)."""
    if lang == "en":
        return message
    catalog = _catalog(lang)
    return catalog.pgettext(context, message) if context else catalog.gettext(message)
