"""Shared test fixtures: where the shared examples live, and record builders."""

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
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples"
#: `make screenshots` (REFEREE_SCREENSHOTS=1) keeps pictures in docs/screenshots/ for
#: the README; a plain test run writes them to a temporary folder, the tree clean.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("REFEREE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "referee-screenshots"
)


@pytest.fixture
def examples_dir() -> Path:
    """`../shared/examples`, as CI lays it beside the clone."""
    assert EXAMPLES.is_dir(), f"the shared examples are missing at {EXAMPLES}"
    return EXAMPLES
