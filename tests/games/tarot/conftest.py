"""French tarot's words in the shared tables while its tests run (the package is
not registered yet: the other tests see the tables as they are)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.engine.messages import MESSAGES
from referee.games.tarot.words import MESSAGES as TAROT_MESSAGES
from referee.games.tarot.words import WORDS


@pytest.fixture(autouse=True)
def tarot_words() -> Iterator[None]:
    WORDS.register()
    yield
    for code in TAROT_MESSAGES:
        MESSAGES.pop(code, None)
