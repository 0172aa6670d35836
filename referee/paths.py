"""Where Referee finds its own files, and where it keeps the players' data.

Its own files are read-only: the templates, the static files and the compiled French
catalogue. In a checkout they are the top-level `templates/`, `static/` and
`translations/` folders; a wheel carries copies of them in `referee/share/` (written
by `setup.py` when the wheel is built, the catalogue compiled then). The sheets' font
files are in the package itself (`referee/fonts/`), in both cases.

The data (the SQLite database and the secret key) lives in one folder:
`--data DIR` or `REFEREE_DATA`, else `instance/` in a checkout (where `make run`
has always kept it), else the user's data folder (`$XDG_DATA_HOME/referee`, by
default `~/.local/share/referee`): never inside the package or its virtual
environment, which an upgrade replaces.

Standard library only: the engine reads its catalogue through `TRANSLATIONS`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

PACKAGE: Final = Path(__file__).resolve().parent
#: A wheel's copies of the top-level folders.
BUNDLE: Final = PACKAGE / "share"
#: A checkout: the folder holding `referee/`, `templates/`, `static/`, `pyproject.toml`.
CHECKOUT: Final = PACKAGE.parent
#: Where the read-only files are: the wheel's copies when present, else the checkout's.
HOME: Final = BUNDLE if (BUNDLE / "templates").is_dir() else CHECKOUT
TEMPLATES: Final = HOME / "templates"
STATIC: Final = HOME / "static"
#: `<lang>/LC_MESSAGES/messages.mo`, for Flask-Babel and for the engine's gettext.
TRANSLATIONS: Final = HOME / "translations"
#: The sheets' fonts: the files WeasyPrint draws with and the ledger measures with.
FONTS: Final = PACKAGE / "fonts"


def in_checkout() -> bool:
    """Whether this package runs from a source checkout (an editable install)."""
    return HOME == CHECKOUT and (CHECKOUT / "pyproject.toml").is_file()


def data_dir(option: str | None = None, environ: Mapping[str, str] = os.environ) -> Path:
    """The folder of the database and the secret key (see the module's docstring)."""
    chosen = option or environ.get("REFEREE_DATA", "").strip()
    if chosen:
        return Path(chosen).expanduser().resolve()
    if in_checkout():
        return CHECKOUT / "instance"
    base = environ.get("XDG_DATA_HOME", "").strip()
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "referee"
