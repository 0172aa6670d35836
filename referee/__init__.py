"""Referee: score-keeper and referee of card games played at a real table.

Importing the package loads nothing heavy: the engine never pulls in Flask.
"""

__version__ = "0.1.0"
