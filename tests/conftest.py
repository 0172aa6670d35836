"""Shared test fixtures: where the shared examples live, and record builders."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples"


@pytest.fixture
def examples_dir() -> Path:
    """`../shared/examples`, as CI lays it beside the clone."""
    assert EXAMPLES.is_dir(), f"the shared examples are missing at {EXAMPLES}"
    return EXAMPLES
