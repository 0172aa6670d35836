"""Players' names: as stored, as compared, as shown (issue 37, item 7).

A name is typed on a phone and read by people, so three things are kept apart:

- `clean`: the name as stored. Unicode NFC; the invisible format characters
  (zero-width spaces, soft hyphens, byte-order marks, bidirectional controls,
  Hangul fillers…) removed, but the joiners that hold an emoji or a word of some
  scripts together (U+200C, U+200D between two visible characters, the tags of a
  subdivision flag); every run of spaces (no-break, thin, line separators…) one
  space; no space at either end. A name that holds nothing once cleaned was only
  invisible characters: the record refuses it.
- `skeleton`: what a name reads as, to compare two names. The clean name in NFKC
  (full-width and mathematical letters, ligatures), case-folded, with the common
  look-alikes of other scripts read as the Latin letter they show (`LOOKALIKES`:
  Cyrillic and Greek letters such as а, е, о, р, с, ο, ρ; curly apostrophes and
  dashes as ' and -), accents kept ("José" is not "Jose"), the joiners dropped.
  Two names with one skeleton read the same: "Ana", "ana", "Ana" + U+200B and
  "Аna" (Cyrillic А) are one name. Digits and letters that only some fonts draw
  alike (0 and O, l and I) are left apart: a short list of sure look-alikes, not
  Unicode's whole confusables table.
- `isolate`: a name (or any text holding one) as shown inside other text, so that
  right-to-left letters or a stray bidirectional control in it cannot reorder the
  line around it: wrapped in U+2068 FIRST STRONG ISOLATE ... U+2069 POP
  DIRECTIONAL ISOLATE, its own controls balanced. Left-to-right text is returned
  as it is (the usual case, and what every page already shows).

Two limits, one rule (`fault`), for every place a name is typed or read: games,
tables, concours, seasons, their files and the API. A person's name (a game's seat,
a concours's player, a table's merged name) holds `PERSON_MAX` characters once
cleaned: a concours's player becomes a seat of a game at every draw, so a name the
concours takes is one every game takes. A title (a table's, a concours's, a
season's name) holds `TITLE_MAX`.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: The longest person's name, once cleaned (a game's seat, a concours's player).
PERSON_MAX: Final = 40
#: The longest title, once cleaned (a table's, a concours's, a season's name).
TITLE_MAX: Final = 80

#: The joiners kept between two visible characters (emoji sequences, Persian, Indic).
ZWNJ: Final = "\u200c"
ZWJ: Final = "\u200d"
FSI: Final = "\u2068"
PDI: Final = "\u2069"
_BLACK_FLAG: Final = "\U0001f3f4"
#: Invisible characters that are not format characters (category Cf): the
#: combining grapheme joiner, Hangul and Khmer fillers, the braille blank.
_INVISIBLE: Final = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")

#: Letters of other scripts (lower case, as `skeleton` sees them after case-folding
#: and decomposition) read as the Latin letter they look like, and the typographic
#: apostrophes and dashes read as the plain ones a phone's other keyboard types.
LOOKALIKES: Final[dict[str, str]] = {
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "ѕ": "s",
    "і": "i",
    "ј": "j",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    "һ": "h",
    "ү": "y",
    # Greek
    "α": "a",
    "β": "b",
    "ε": "e",
    "ζ": "z",
    "η": "h",
    "ι": "i",
    "κ": "k",
    "μ": "m",
    "ν": "n",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "y",
    "χ": "x",
    "ϲ": "c",
    # Latin letters that read as plainer ones
    "ı": "i",
    "ȷ": "j",
    "ɑ": "a",
    "ɡ": "g",
    # Apostrophes and hyphens
    "\u2018": "'",
    "\u2019": "'",
    "\u02bc": "'",
    "\u2032": "'",
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2212": "-",
}
_LOOKALIKE_TABLE: Final = str.maketrans(LOOKALIKES)

#: Bidirectional classes that can move the text around a name: right-to-left
#: letters, Arabic digits, and the explicit embeddings, overrides and isolates.
_MOVING: Final = frozenset(
    {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
)
_ISOLATES: Final = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
_EMBEDDINGS: Final = frozenset("\u202a\u202b\u202d\u202e")  # LRE, RLE, LRO, RLO
_POP_EMBEDDING: Final = "\u202c"


def _dropped(char: str) -> bool:
    """An invisible character a name does without (the joiners are decided apart)."""
    return char in _INVISIBLE or (
        unicodedata.category(char) == "Cf" and char not in (ZWNJ, ZWJ) and not _is_tag(char)
    )


def _is_tag(char: str) -> bool:
    return 0xE0020 <= ord(char) <= 0xE007F


def _visible(char: str) -> bool:
    return not char.isspace() and char not in (ZWNJ, ZWJ) and not _is_tag(char)


def clean(name: str) -> str:
    """The name as stored (see the module): NFC, invisible characters out, spaces
    single, no space at the ends. Empty when the name was only invisible."""
    if name.isascii() and name.isprintable() and "  " not in name:
        return name.strip()  # the usual case
    kept = [c for c in unicodedata.normalize("NFC", name) if not _dropped(c)]
    out: list[str] = []
    for index, char in enumerate(kept):
        if char in (ZWNJ, ZWJ):
            after = kept[index + 1] if index + 1 < len(kept) else ""
            if not (out and _visible(out[-1]) and after and _visible(after)):
                continue
        elif _is_tag(char) and not (out and (out[-1] == _BLACK_FLAG or _is_tag(out[-1]))):
            continue
        out.append(" " if char.isspace() else char)
    return unicodedata.normalize("NFC", " ".join("".join(out).split()))


def fault(name: str, high: int) -> str | None:
    """What keeps `name` (typed, or read from a file) from being a name of at most
    `high` characters once cleaned: "empty" (nothing visible), "long", or None.
    Control characters are the callers' `text_problem`'s to refuse, with their place."""
    cleaned = clean(name)
    if not cleaned:
        return "empty"
    if len(cleaned) > high:
        return "long"
    return None


def sort_key(name: str) -> tuple[str, str]:
    """Where a name goes in a list in alphabetical order, as a reader expects it:
    accents and case aside ("Émile" between "Driss" and "Farid", not after "Zoé"),
    then as written."""
    bare = unicodedata.normalize("NFD", name.casefold())
    return ("".join(c for c in bare if not unicodedata.combining(c)), name)


def skeleton(name: str) -> str:
    """What a name reads as: two names with the same skeleton are the same name."""
    text = unicodedata.normalize("NFKC", clean(name)).casefold()
    text = unicodedata.normalize("NFD", text).translate(_LOOKALIKE_TABLE)
    text = "".join(c for c in text if c not in (ZWNJ, ZWJ) and not _is_tag(c))
    return unicodedata.normalize("NFC", " ".join(text.split()))


def alike(names: list[str] | tuple[str, ...]) -> list[tuple[int, int]]:
    """Each pair (earlier, later) of positions whose names read the same, each later
    name paired with the first it reads like."""
    first: dict[str, int] = {}
    pairs = []
    for index, name in enumerate(names):
        key = skeleton(name)
        if key in first:
            pairs.append((first[key], index))
        else:
            first[key] = index
    return pairs


def moves_text(text: str) -> bool:
    """True when `text` holds a character that can reorder the text around it."""
    if text.isascii():
        return False
    return any(unicodedata.bidirectional(c) in _MOVING for c in text)


def isolate(text: str) -> str:
    """`text` as shown inside other text (see the module): wrapped in FSI ... PDI
    when it holds right-to-left letters or bidirectional controls, these balanced
    first so that none reaches past it; as it is otherwise."""
    if not moves_text(text):
        return text
    return FSI + _balanced(text) + PDI


def _balanced(text: str) -> str:
    """`text` with every embedding, override and isolate it opens closed at its end,
    and every closing one without its opening dropped."""
    out: list[str] = []
    opened: list[str] = []  # "i" for an isolate, "e" for an embedding or override
    for char in text:
        if char in _ISOLATES:
            opened.append("i")
        elif char in _EMBEDDINGS:
            opened.append("e")
        elif char == PDI:
            if "i" not in opened:
                continue
            while opened.pop() != "i":
                pass
        elif char == _POP_EMBEDDING:
            if not opened or opened[-1] != "e":
                continue
            opened.pop()
        out.append(char)
    out.extend(PDI if kind == "i" else _POP_EMBEDDING for kind in reversed(opened))
    return "".join(out)
