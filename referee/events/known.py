"""Draws found once and kept, for the counts no construction gives and a short
search does not reliably reach: like the printed draws clubs keep.

Each was found by the tabu search of `referee.events.draw` run for minutes (not
seconds), and is checked by the tests: every player once a round, nobody meeting
anyone twice. A draw relabels the players at random (its seed), so two concours
of the same size do not sit the same way.
"""

from __future__ import annotations

from typing import Final

#: (players, table size) -> rounds; a round is its tables, a table its players
#: (numbered from 0), written "0 1 2 3|4 5 6 7|…", rounds one per line.
KNOWN: Final[dict[tuple[int, int], str]] = {
    (20, 4): (
        "1 10 14 17|2 3 9 19|0 4 7 16|5 12 15 18|6 8 11 13\n"
        "0 1 2 13|6 10 12 19|7 9 14 18|8 15 16 17|3 4 5 11\n"
        "3 6 7 17|4 13 15 19|0 5 8 14|1 9 12 16|2 10 11 18\n"
        "3 13 16 18|0 11 12 17|2 6 14 15|4 8 9 10|1 5 7 19\n"
        "11 14 16 19|2 7 8 12|5 9 13 17|1 4 6 18|0 3 10 15\n"
    ),
    (24, 4): (
        "3 8 10 14|13 20 21 23|1 6 15 18|4 5 17 22|0 2 7 11|9 12 16 19\n"
        "1 7 10 23|3 9 15 21|4 8 12 20|2 5 13 18|6 11 16 17|0 14 19 22\n"
        "4 11 19 21|3 5 7 12|1 2 9 14|8 17 18 23|0 6 10 13|15 16 20 22\n"
        "6 9 22 23|3 11 18 20|0 1 12 17|7 8 13 19|2 4 10 15|5 14 16 21\n"
        "1 4 13 16|11 12 15 23|0 5 8 9|10 18 21 22|6 7 14 20|2 3 17 19\n"
        "2 6 12 21|5 10 19 20|4 7 9 18|0 3 16 23|1 8 11 22|13 14 15 17\n"
    ),
    (32, 4): (
        "7 17 19 27|4 9 26 31|0 10 12 25|2 3 15 28|1 5 8 21|13 14 24 29|11 16 20 22|6 18 23 30\n"
        "1 3 18 22|10 15 29 30|13 21 26 27|19 20 23 25|4 5 11 24|6 12 14 28|0 2 7 9|8 16 17 31\n"
        "8 9 14 20|3 11 21 25|0 17 22 23|10 19 24 28|2 12 30 31|1 7 13 16|4 18 27 29|5 6 15 26\n"
        "7 14 25 31|2 6 16 19|8 13 23 28|18 20 24 26|0 5 27 30|9 15 21 22|1 11 12 29|3 4 10 17\n"
        "7 18 21 28|0 3 8 24|13 15 17 20|11 14 19 30|1 2 4 23|22 25 26 29|5 9 12 16|6 10 27 31\n"
        "0 19 21 29|14 15 16 27|2 8 18 25|3 7 12 26|1 17 24 30|5 20 28 31|4 6 13 22|9 10 11 23\n"
        "3 23 29 31|4 16 28 30|2 10 20 21|12 22 24 27|7 8 11 15|6 9 17 25|5 13 18 19|0 1 14 26\n"
        "2 11 17 26|16 21 23 24|5 10 14 22|4 8 12 19|0 15 18 31|3 9 13 30|6 7 20 29|1 25 27 28\n"
    ),
}
