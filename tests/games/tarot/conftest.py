"""French tarot registered while its tests run (the package is not in the
registry yet: the other tests see the tables as they are)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.engine.explain import EXPLANATIONS
from referee.engine.messages import MESSAGES
from referee.games import GAMES, register
from referee.games.tarot.rules import GAME, KEY
from referee.games.tarot.words import EXPLANATIONS as TAROT_STEPS
from referee.games.tarot.words import MESSAGES as TAROT_MESSAGES


@pytest.fixture(autouse=True)
def tarot_registered() -> Iterator[None]:
    register(GAME)
    yield
    GAMES.pop(KEY, None)
    for code in TAROT_MESSAGES:
        MESSAGES.pop(code, None)
    for code in TAROT_STEPS:
        EXPLANATIONS.pop(code, None)
