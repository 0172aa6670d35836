"""The shared rules engine: pure Python, standard library only (no Flask, no
database, no I/O).

What every game shares lives here: the record and its parsing, the standings, the
explanations' arithmetic, the refusals and their words, the settlement, the
statistics. The games themselves are packages of `referee.games`, each with its
rules and its words; this package names none of them.
"""
