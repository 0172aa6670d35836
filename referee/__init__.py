"""Referee: score-keeper and referee of card games played at a real table.

Importing the package loads nothing heavy: the engine never pulls in Flask.
"""

from referee.version import __version__ as __version__
