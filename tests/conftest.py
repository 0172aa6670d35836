"""Test fixtures: where the example records live, and record builders."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# No deadline per example: this machine is shared and its timings drift (a
# property test failed on "DeadlineExceeded" while browser tests ran beside it).
# Speed is measured by the benchmarks in bench/, never by timed tests.
settings.register_profile("referee", deadline=None)
settings.load_profile("referee")

ROOT = Path(__file__).resolve().parent.parent
#: The repository's own example records, each with its expected standings.
EXAMPLES = ROOT / "examples"
#: `make screenshots` (REFEREE_SCREENSHOTS=1) keeps pictures in docs/screenshots/ for
#: the README; a plain test run writes them to a temporary folder, the tree clean.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("REFEREE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "referee-screenshots"
)


@pytest.fixture
def examples_dir() -> Path:
    """The repository's `examples/` folder."""
    return EXAMPLES
