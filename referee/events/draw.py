"""The draw of a concours: who sits at which table, round by round.

Pure Python (standard library only), and reproducible: the same count of players,
rounds, format, table size and seed give the same draw on every machine (the
search is bounded in steps, never in time). Players are numbered from 1; a table
lists its players in seat order, partners facing (seats 1 and 3, seats 2 and 4).

- `individual` (everyone for themselves): nobody sits twice with the same player
  wherever the draw allows it, as few repeated meetings as possible otherwise. The
  affine planes give 16 players 5 rounds at tables of 4 and 25 players 6 rounds at
  tables of 5 (every pair meets exactly once); the tightest other counts come from
  draws found once and kept (`referee.events.known`); the rest from a tabu search
  (swap two players of a round to cut repeated meetings).
- `partners` (an individual event of a partnership game): nobody partners anyone
  twice, nobody opposes anyone more than twice (the same search, other weights).
- `pairs` (fixed pairs, players 2k−1 and 2k): round 1 at random, later rounds by
  the ranking so far (Swiss), never a rematch; without results, the pairs are
  taken as level.

Byes: when the players do not fill the tables, the ones left out sit out the
round (a bye, with the score the event states), a different player each round
as long as there are players who have not had one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from referee.engine.errors import Problem, RulesError, problem
from referee.events.known import KNOWN

#: The most players and rounds a draw takes (a big regional concours is 400).
MAX_PLAYERS: Final = 1000
MAX_ROUNDS: Final = 30
TABLE_SIZES: Final = (4, 5)
#: Steps of the search, at most, per round drawn (then the best found is kept).
SEARCH_STEPS: Final = 2000
#: Steps of a Swiss round's backtracking, at most (then a rematch is allowed).
SWISS_STEPS: Final = 20_000
#: Swaps weighed, at most, by a whole individual search (a few seconds: where
#: the draw cannot avoid every repeat, the search would otherwise run its steps).
SEARCH_WORK: Final = 1_500_000
#: Steps of the search of one more round (`next_round`), per choice of byes.
ROUND_STEPS: Final = 300
#: Choices of who sits out tried for one more round (`next_round`), at most.
BYE_TRIES: Final = 12
#: Steps without a better draw before the search shakes a few players.
PERTURB_AFTER: Final = 2000


class Format(StrEnum):
    INDIVIDUAL = "individual"
    PARTNERS = "partners"
    PAIRS = "pairs"


@dataclass(frozen=True)
class Round:
    """One round: its tables (players in seat order) and who sits out."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Draw:
    """Every round of an event, as drawn."""

    rounds: tuple[Round, ...]

    def as_json(self) -> dict[str, object]:
        """As `referee draw --json` prints it."""
        return {
            "rounds": [
                {"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in self.rounds
            ]
        }


def check(players: object, rounds: object, format: object, table_size: object) -> Format:
    """Refuse what no draw can be, with the field it blames (both languages)."""
    problems: list[Problem] = []
    chosen = None
    try:
        chosen = Format(str(format))
    except ValueError:
        choices = tuple(f.value for f in Format)
        problems.append(problem("unknown_choice", "format", value=format, choices=choices))
    if table_size not in TABLE_SIZES or isinstance(table_size, bool):
        problems.append(
            problem("unknown_choice", "table_size", value=table_size, choices=TABLE_SIZES)
        )
    elif chosen in (Format.PARTNERS, Format.PAIRS) and table_size != 4:
        problems.append(problem("draw_partners_four", "table_size", value=table_size))
    least = table_size if isinstance(table_size, int) and table_size in TABLE_SIZES else 4
    for field, value, low, high in (
        ("players", players, least, MAX_PLAYERS),
        ("rounds", rounds, 1, MAX_ROUNDS),
    ):
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(problem("not_integer", field, value=value))
        elif not low <= value <= high:
            problems.append(problem("out_of_range", field, value=value, low=low, high=high))
    if chosen is Format.PAIRS and isinstance(players, int) and players % 2:
        problems.append(problem("draw_pairs_odd", "players", value=players))
    if problems:
        raise RulesError(problems)
    assert chosen is not None
    return chosen


def draw(
    players: int,
    rounds: int,
    format: Format | str = Format.INDIVIDUAL,
    table_size: int = 4,
    seed: int = 0,
) -> Draw:
    """The whole draw of an event (`RulesError` for what cannot be drawn)."""
    chosen = check(players, rounds, format, table_size)
    rng = random.Random(f"{chosen}:{players}:{rounds}:{table_size}:{seed}")
    if chosen is Format.PAIRS:
        return _pairs(players, rounds, rng)
    byes = _byes(players, rounds, table_size, rng)
    fixed = _fixed(players, rounds, table_size, rng) if chosen is Format.INDIVIDUAL else None
    if fixed is not None:
        return fixed
    if chosen is Format.INDIVIDUAL:
        schedule = _search_meetings(players, byes, table_size, rng)
    else:
        schedule = _search(players, byes, table_size, chosen, rng)
    return Draw(tuple(_round(tables, players) for tables in schedule))


def _round(tables: list[list[int]], players: int) -> Round:
    """A round of players numbered from 0, as a `Round` (from 1): whoever has no
    seat sits out."""
    seated = {p for table in tables for p in table}
    out = tuple(p + 1 for p in range(players) if p not in seated)
    return Round(tuple(tuple(p + 1 for p in table) for table in tables), out)


def _byes(players: int, rounds: int, size: int, rng: random.Random) -> list[list[int]]:
    """Who sits out each round: the next ones of a shuffled order, so that nobody
    sits out twice before everyone has once."""
    count = players % size
    order = list(range(players))
    rng.shuffle(order)
    return [[order[(r * count + i) % players] for i in range(count)] for r in range(rounds)]


def _fixed(players: int, rounds: int, size: int, rng: random.Random) -> Draw | None:
    """A draw where every pair meets at most once, built (an affine plane) or kept
    (`known`), its players relabelled at random; None where there is none."""
    base: list[list[list[int]]] | None = None
    if players == size * size and rounds <= size + 1:
        base = _affine_plane(size)
    elif (players, size) in KNOWN and rounds <= KNOWN[players, size].count("\n"):
        base = [
            [[int(p) for p in table.split()] for table in line.split("|")]
            for line in KNOWN[players, size].splitlines()
        ]
    if base is None:
        return None
    labels = list(range(1, players + 1))
    rng.shuffle(labels)
    chosen = rng.sample(base, rounds)
    drawn = []
    for tables in chosen:
        seated = [[labels[p] for p in table] for table in tables]
        for table in seated:
            rng.shuffle(table)
        rng.shuffle(seated)
        drawn.append(Round(tuple(tuple(t) for t in seated)))
    return Draw(tuple(drawn))


def _affine_plane(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of lines of the affine plane of order q (4 or 5):
    q² points (x, y), each class q lines of q points; two points share one line."""
    add, mul = _field(q)
    classes = [[[x * q + y for y in range(q)] for x in range(q)]]  # the verticals
    for m in range(q):  # y = m·x + b
        classes.append([[x * q + add[mul[m][x]][b] for x in range(q)] for b in range(q)])
    return classes


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of the field of q elements (5: the
    integers mod 5; 4: GF(4) = {0, 1, a, a + 1} with a² = a + 1, as bits)."""
    if q == 4:
        product = {(2, 2): 3, (2, 3): 1, (3, 3): 2}
        mul = [
            [
                0
                if 0 in (a, b)
                else a
                if b == 1
                else b
                if a == 1
                else product[min(a, b), max(a, b)]
                for b in range(4)
            ]
            for a in range(4)
        ]
        return [[a ^ b for b in range(4)] for a in range(4)], mul
    return [[(a + b) % q for b in range(q)] for a in range(q)], [
        [(a * b) % q for b in range(q)] for a in range(q)
    ]


# The search -------------------------------------------------------------------------

#: Which seats of a table of 4 are partners (facing), for `partners`.
_PARTNERS: Final = ((0, 2), (1, 3))


def _relations(size: int, format: Format) -> list[tuple[int, int, int]]:
    """The seat pairs of a table and what they are: 0 met (individual), 1
    partners, 2 opponents."""
    if format is Format.PARTNERS:
        return [
            (i, j, 1 if (i, j) in _PARTNERS else 2) for i, j in itertools.combinations(range(4), 2)
        ]
    return [(i, j, 0) for i, j in itertools.combinations(range(size), 2)]


#: How many times a relation may repeat before it costs, and what each more costs.
_ALLOWED: Final = {0: 1, 1: 1, 2: 2}
_WEIGHT: Final = {0: 1, 1: 3, 2: 1}


class _Counts:
    """How often each two players met (by relation), and what the excess costs."""

    def __init__(self, players: int) -> None:
        self.seen = [[[0] * players for _ in range(players)] for _ in range(3)]
        self.cost = 0

    def table(self, table: Sequence[int], relations: list[tuple[int, int, int]], step: int) -> None:
        """Count the table in (`step` 1) or out (−1), keeping the cost."""
        for i, j, kind in relations:
            a, b = table[i], table[j]
            row = self.seen[kind]
            before = row[a][b]
            after = before + step
            row[a][b] = row[b][a] = after
            allowed, weight = _ALLOWED[kind], _WEIGHT[kind]
            self.cost += weight * (max(0, after - allowed) - max(0, before - allowed))


def _search(
    players: int, byes: list[list[int]], size: int, format: Format, rng: random.Random
) -> list[list[list[int]]]:
    """Every round drawn at once, then improved by swapping two seats of one round
    (a tabu search: a seat just moved stays put a few steps), keeping the best."""
    relations = _relations(size, format)
    counts = _Counts(players)
    schedule: list[list[list[int]]] = []
    for out in byes:
        seated = [p for p in range(players) if p not in set(out)]
        tables = _greedy(seated, size, counts, relations, rng)
        for table in tables:
            counts.table(table, relations, 1)
        schedule.append(tables)
    best, best_cost = [[list(t) for t in r] for r in schedule], counts.cost
    tabu: dict[tuple[int, int], int] = {}
    for step in range(SEARCH_STEPS * len(schedule)):
        if counts.cost == 0:
            break
        move = _best_move(schedule, counts, relations, tabu, step, best_cost, rng)
        if move is None:
            tabu.clear()
            continue
        r, t1, s1, t2, s2 = move
        _swap(schedule[r], t1, s1, t2, s2, counts, relations)
        tabu[r, schedule[r][t2][s2]] = step + rng.randint(3, 12)
        if counts.cost < best_cost:
            best, best_cost = [[list(t) for t in rr] for rr in schedule], counts.cost
    return best


def _greedy(
    seated: list[int],
    size: int,
    counts: _Counts,
    relations: list[tuple[int, int, int]],
    rng: random.Random,
) -> list[list[int]]:
    """A round's tables, filled one seat at a time with the player who adds the
    least cost to the table so far (ties at random)."""
    left = list(seated)
    rng.shuffle(left)
    tables = []
    while left:
        table = [left.pop()]
        while len(table) < size:
            seat = len(table)
            kinds = [(i, kind) for i, j, kind in relations if j == seat]

            def added(
                player: int, table: list[int] = table, kinds: list[tuple[int, int]] = kinds
            ) -> int:
                return sum(
                    _WEIGHT[kind] * (counts.seen[kind][player][table[i]] >= _ALLOWED[kind])
                    for i, kind in kinds
                )

            chosen = min(left[:60], key=added)  # a sample keeps 400 players fast
            left.remove(chosen)
            table.append(chosen)
        tables.append(table)
    return tables


def _best_move(
    schedule: list[list[list[int]]],
    counts: _Counts,
    relations: list[tuple[int, int, int]],
    tabu: dict[tuple[int, int], int],
    step: int,
    best_cost: int,
    rng: random.Random,
) -> tuple[int, int, int, int, int] | None:
    """The best swap of a seat in conflict with any other seat of its round (a seat
    just moved is tabu unless the swap beats the best draw so far)."""
    conflicts = [
        (r, t, s)
        for r, tables in enumerate(schedule)
        for t, table in enumerate(tables)
        for s in range(len(table))
        if _in_conflict(table, s, counts, relations)
    ]
    if not conflicts:
        return None
    r, t1, s1 = rng.choice(conflicts)
    tables = schedule[r]
    best: list[tuple[int, int, int, int, int]] = []
    best_delta = None
    for t2, table in enumerate(tables):
        for s2 in range(len(table)):
            if (t2, s2) == (t1, s1):
                continue
            before = counts.cost
            _swap(tables, t1, s1, t2, s2, counts, relations)
            delta = counts.cost - before
            _swap(tables, t1, s1, t2, s2, counts, relations)
            moved = tables[t2][s2]
            if tabu.get((r, moved), -1) > step and before + delta >= best_cost:
                continue
            if best_delta is None or delta < best_delta:
                best, best_delta = [(r, t1, s1, t2, s2)], delta
            elif delta == best_delta:
                best.append((r, t1, s1, t2, s2))
    return rng.choice(best) if best else None


def _in_conflict(
    table: list[int], seat: int, counts: _Counts, relations: list[tuple[int, int, int]]
) -> bool:
    player = table[seat]
    return any(
        counts.seen[kind][player][table[j if i == seat else i]] > _ALLOWED[kind]
        for i, j, kind in relations
        if seat in (i, j)
    )


def _swap(
    tables: list[list[int]],
    t1: int,
    s1: int,
    t2: int,
    s2: int,
    counts: _Counts,
    relations: list[tuple[int, int, int]],
) -> None:
    """Swap two seats of a round, keeping the counts."""
    counts.table(tables[t1], relations, -1)
    if t2 != t1:
        counts.table(tables[t2], relations, -1)
    tables[t1][s1], tables[t2][s2] = tables[t2][s2], tables[t1][s1]
    counts.table(tables[t1], relations, 1)
    if t2 != t1:
        counts.table(tables[t2], relations, 1)


def _search_meetings(
    players: int, byes: list[list[int]], size: int, rng: random.Random
) -> list[list[list[int]]]:
    """The individual draw: rounds drawn greedily, then a tabu search on repeated
    meetings (after Dotú and Van Hentenryck's for the social golfer problem): at
    each step, of every swap of a player in conflict with another player of the
    same round, the one that cuts the most repeats (a player just moved may not
    go back to that table for a few steps, unless it beats the best draw); a few
    random swaps when nothing improved for a while. A round's byes are one more
    group where nobody meets: a player may take a bye in a swap only if they have
    had none."""
    met = [[0] * players for _ in range(players)]
    counts = _Counts(players)  # the greedy fill reads `seen[0]`, the same as `met`
    counts.seen[0] = met
    relations = _relations(size, Format.INDIVIDUAL)
    rounds: list[list[list[int]]] = []  # each round: its tables, then its byes
    had_bye = [0] * players
    for out in byes:
        away = set(out)
        tables = _greedy([p for p in range(players) if p not in away], size, counts, relations, rng)
        for table in tables:
            _meet(met, table, 1)
        rounds.append([*tables, list(out)])
        for p in out:
            had_bye[p] += 1
    cost = _cost(met)
    best, best_cost = _copy(rounds), cost
    tabu: dict[tuple[int, int, int], int] = {}
    last = 0
    work = [SEARCH_WORK]
    for step in range(SEARCH_STEPS * len(rounds)):
        if cost == 0 or work[0] <= 0:
            break
        least, moves = _moves(rounds, met, had_bye, tabu, step, cost, best_cost, work)
        if least is None:
            tabu.clear()
            continue
        r, t1, a, t2, b = rng.choice(moves)
        _exchange(met, rounds[r], t1, a, t2, b, had_bye)
        tabu[r, a, t1] = step + rng.randint(4, 20)
        tabu[r, b, t2] = step + rng.randint(4, 20)
        cost += least
        if cost < best_cost:
            best, best_cost, last = _copy(rounds), cost, step
        elif step - last > PERTURB_AFTER:
            for _ in range(4):  # stuck: shake a few players, then search on
                r = rng.randrange(len(rounds))
                if len(rounds[r]) > 2:  # two tables at least
                    t1, t2 = rng.sample(range(len(rounds[r]) - 1), 2)
                    g, h = rounds[r][t1], rounds[r][t2]
                    _exchange(met, rounds[r], t1, rng.choice(g), t2, rng.choice(h), had_bye)
            cost, last = _cost(met), step
    return [r[:-1] for r in best]


def _moves(
    rounds: list[list[list[int]]],
    met: list[list[int]],
    had_bye: list[int],
    tabu: dict[tuple[int, int, int], int],
    step: int,
    cost: int,
    best_cost: int,
    work: list[int],
) -> tuple[int | None, list[tuple[int, int, int, int, int]]]:
    """The best swaps of this step, and what they change (`work` counts the swaps
    weighed, for the whole search)."""
    moves: list[tuple[int, int, int, int, int]] = []
    least = None
    for r, groups in enumerate(rounds):
        bye = len(groups) - 1
        for t1, table in enumerate(groups[:bye]):
            for a in table:
                if not any(met[a][x] > 1 for x in table if x != a):
                    continue
                leaving = sum(met[a][x] > 1 for x in table if x != a)
                for t2, other in enumerate(groups):
                    if t2 == t1 or (t2 == bye and had_bye[a]):
                        continue
                    work[0] -= len(other)
                    for b in other:
                        delta = sum(met[b][x] >= 1 for x in table if x != a) - leaving
                        if t2 != bye:
                            delta += sum(
                                (met[a][x] >= 1) - (met[b][x] > 1) for x in other if x != b
                            )
                        if tabu.get((r, a, t2), -1) > step and cost + delta >= best_cost:
                            continue
                        if least is None or delta < least:
                            least, moves = delta, [(r, t1, a, t2, b)]
                        elif delta == least:
                            moves.append((r, t1, a, t2, b))
    return least, moves


def _cost(met: list[list[int]]) -> int:
    """Repeated meetings: each pair's meetings beyond the first."""
    return sum(max(0, m - 1) for i, row in enumerate(met) for m in row[i + 1 :])


def _copy(rounds: list[list[list[int]]]) -> list[list[list[int]]]:
    return [[list(group) for group in r] for r in rounds]


def _meet(met: list[list[int]], table: list[int], step: int) -> None:
    for a, b in itertools.combinations(table, 2):
        met[a][b] += step
        met[b][a] += step


def _exchange(
    met: list[list[int]],
    groups: list[list[int]],
    t1: int,
    a: int,
    t2: int,
    b: int,
    had_bye: list[int],
) -> None:
    """Player `a` of group `t1` and player `b` of group `t2` change places (the
    last group is the round's byes, where nobody meets)."""
    bye = len(groups) - 1
    g, h = groups[t1], groups[t2]
    for index, group in ((t1, g), (t2, h)):
        if index != bye:
            _meet(met, group, -1)
    g[g.index(a)], h[h.index(b)] = b, a
    for index, group in ((t1, g), (t2, h)):
        if index != bye:
            _meet(met, group, 1)
    if t2 == bye:
        had_bye[a] += 1
        had_bye[b] -= 1
    elif t1 == bye:
        had_bye[b] += 1
        had_bye[a] -= 1


# Fixed pairs ------------------------------------------------------------------------


def _pairs(players: int, rounds: int, rng: random.Random) -> Draw:
    """Round 1 at random; later rounds as if every pair were level (no results yet),
    each pair meeting the next one it has not met (`swiss`)."""
    count = players // 2
    order = list(range(count))
    rng.shuffle(order)
    met: set[frozenset[int]] = set()
    byes_had: set[int] = set()
    drawn = []
    for _ in range(rounds):
        tables, bye = swiss(order, met, byes_had)
        drawn.append(_seated(tables, bye))
        for a, b in tables:
            met.add(frozenset((a, b)))
        if bye is not None:
            byes_had.add(bye)
    return Draw(tuple(drawn))


def swiss(
    ranking: Sequence[int],
    met: AbstractSet[frozenset[int]],
    byes_had: AbstractSet[int] = frozenset(),
) -> tuple[list[tuple[int, int]], int | None]:
    """One Swiss round of fixed pairs (numbered from 0), best ranked first: the
    lowest-ranked pair without a bye sits out when their count is odd; then each
    pair meets the best-ranked one it has not met, backtracking where that leaves
    a pair nobody can meet; a rematch only when no round avoids one."""
    order = list(ranking)
    bye = None
    if len(order) % 2:
        bye = next((p for p in reversed(order) if p not in byes_had), order[-1])
        order.remove(bye)
    found = _match(order, met, [SWISS_STEPS])
    if found is None:  # every pairing repeats a meeting: the ranking order itself
        found = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return found, bye


def _match(
    order: list[int], met: AbstractSet[frozenset[int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """Pairs in ranking order, none met before (None: no such pairing found within
    the budget of steps, shared by the whole search)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((first, other)) in met:
            continue
        after = _match(rest[:i] + rest[i + 1 :], met, budget)
        if after is not None:
            return [(first, other), *after]
    return None


def _seated(tables: list[tuple[int, int]], bye: int | None) -> Round:
    """Two pairs at a table, partners facing: pair k is players 2k+1 and 2k+2."""
    seated = tuple((2 * a + 1, 2 * b + 1, 2 * a + 2, 2 * b + 2) for a, b in tables)
    return Round(seated, () if bye is None else (2 * bye + 1, 2 * bye + 2))


def next_round(
    present: Sequence[int],
    earlier: Sequence[Round],
    format: Format | str = Format.INDIVIDUAL,
    table_size: int = 4,
    seed: int = 0,
    ranking: Sequence[int] | None = None,
) -> Round:
    """One more round for the players present (numbers as the event gives them),
    after the rounds already played: a concours whose players come and go is drawn
    round by round.

    Individual and partners: the fewest repeated meetings given every earlier round
    (the search of `draw`, its earlier rounds fixed), the byes to the players who
    have had fewest. Pairs (players 2k−1 and 2k): `ranking` lists the pairs by their
    first player, best first, and the round is Swiss without a rematch."""
    chosen = check(len(present), 1, format, table_size)
    players = sorted(set(present))
    rng = random.Random(f"{chosen}:{','.join(map(str, players))}:{len(earlier)}:{seed}")
    if chosen is Format.PAIRS:
        return _next_pairs(players, earlier, ranking, rng)
    index = {p: i for i, p in enumerate(players)}
    relations = _relations(table_size, chosen)
    counts = _Counts(len(players))
    byes_had = dict.fromkeys(range(len(players)), 0)
    for played in earlier:
        for seats in played.tables:
            for i, j, kind in relations:
                if i < len(seats) and j < len(seats) and seats[i] in index and seats[j] in index:
                    a, b = index[seats[i]], index[seats[j]]
                    counts.seen[kind][a][b] += 1
                    counts.seen[kind][b][a] += 1
        for sitting in played.byes:
            if sitting in index:
                byes_had[index[sitting]] += 1
    best: tuple[int, list[list[int]], set[int]] | None = None
    # Who sits out shapes what the others can avoid: a few choices among those with
    # the fewest byes are tried, the first without a repeat kept (else the best).
    for _attempt in range(BYE_TRIES):
        cost, tables, out = _one_round(len(players), table_size, byes_had, counts, relations, rng)
        if best is None or cost < best[0]:
            best = (cost, tables, out)
        if cost == 0:
            break
    assert best is not None
    _, tables, out = best
    return Round(
        tuple(tuple(players[p] for p in table) for table in tables),
        tuple(sorted(players[p] for p in out)),
    )


def _one_round(
    count: int,
    table_size: int,
    byes_had: dict[int, int],
    counts: _Counts,
    relations: list[tuple[int, int, int]],
    rng: random.Random,
) -> tuple[int, list[list[int]], set[int]]:
    """One try of `next_round`: the byes (fewest first, ties at random), a greedy
    round, then a tabu search on its seats; its cost (repeated meetings, weighed),
    its tables and who sits out. The counts are left as they were."""
    order = list(range(count))
    rng.shuffle(order)
    order.sort(key=lambda p: byes_had[p])  # stable: fewest byes first, then at random
    out = set(order[: count % table_size])
    seated = [p for p in range(count) if p not in out]
    tables = _greedy(seated, table_size, counts, relations, rng)
    before = counts.cost
    counts.cost = 0
    for table in tables:
        counts.table(table, relations, 1)
    schedule = [tables]
    best, best_cost = [list(t) for t in tables], counts.cost
    tabu: dict[tuple[int, int], int] = {}
    for step in range(ROUND_STEPS):
        if counts.cost == 0:
            break
        move = _best_move(schedule, counts, relations, tabu, step, best_cost, rng)
        if move is None:
            break
        r, t1, s1, t2, s2 = move
        _swap(tables, t1, s1, t2, s2, counts, relations)
        tabu[r, tables[t2][s2]] = step + rng.randint(3, 12)
        if counts.cost < best_cost:
            best, best_cost = [list(t) for t in tables], counts.cost
    for table in tables:
        counts.table(table, relations, -1)
    counts.cost = before
    return best_cost, best, out


def _next_pairs(
    players: list[int],
    earlier: Sequence[Round],
    ranking: Sequence[int] | None,
    rng: random.Random,
) -> Round:
    """A Swiss round of the pairs present (a pair is known by its first player):
    the first at random."""
    pairs = [p for p in players if p % 2 == 1 and p + 1 in players]
    if not earlier:
        rng.shuffle(pairs)
    met: set[frozenset[int]] = set()
    byes_had: set[int] = set()
    for played in earlier:
        for table in played.tables:
            if len(table) == 4:
                met.add(frozenset((min(table[0], table[2]), min(table[1], table[3]))))
        byes_had.update(p for p in played.byes if p % 2 == 1)
    order = [p for p in ranking or () if p in pairs]
    order += [p for p in pairs if p not in order]
    tables, bye = swiss(order, met, byes_had)
    return Round(
        tuple((a, b, a + 1, b + 1) for a, b in tables),
        () if bye is None else (bye, bye + 1),
    )
