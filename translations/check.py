"""Fail when a message of the catalogue has no French (or only a fuzzy guess), or
French whose typography is not French: a narrow no-break space (U+202F) goes before
« : », « ; », « ! », « ? » and inside guillemets.

`make translations` runs it after merging the extracted message ids into
`fr/LC_MESSAGES/messages.po`, the catalogue's source: edit that file to add the
French, then run `make translations` again.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po

PO = Path(__file__).resolve().parent / "fr" / "LC_MESSAGES" / "messages.po"


def missing(path: Path = PO) -> list[str]:
    """The message ids without French, with their context if any."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            found.append((f"[{message.context}] " if message.context else "") + " | ".join(ids))
    return found


#: A high punctuation mark ending a clause, or a guillemet, without its narrow
#: no-break space.
_BARE = re.compile(r"(?<=[^\u202f])[:;!?](?=\s|$|<)|«(?!\u202f)|(?<!\u202f)»|\u202f[\s\u202f]")


def untypeset(path: Path = PO) -> list[str]:
    """The French strings that miss a narrow no-break space (French typography)."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    found = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend(s for s in strings if message.id and s and _BARE.search(s))
    return found


def main() -> int:
    lacking = missing()
    for text in lacking:
        print(f"no French in {PO.name} for: {text!r}", file=sys.stderr)
    bare = untypeset()
    for text in bare:
        print(f"French typography (U+202F before : ; ! ? and in « »): {text!r}", file=sys.stderr)
    return 1 if lacking or bare else 0


if __name__ == "__main__":
    sys.exit(main())
