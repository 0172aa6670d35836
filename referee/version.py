"""The app's version, in a module of its own: the command line says it without
importing the package it is in (`referee/__init__.py`, which re-exports it), and
pyproject.toml's is checked against it (tests/cli/test_ship.py)."""

__version__ = "0.1.0"
