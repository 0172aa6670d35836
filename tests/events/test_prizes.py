"""The prizes (issue 42): the pot, its split by place, shared places sharing
equally, to the cent, without losing or creating one."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.errors import RulesError
from referee.events.eventfile import dump_event, load_event
from referee.events.prizes import Prizes, Split, by_place, parse, pot_of, share_out

#: The message codes these tests raise (tests/engine/test_errors.py checks that
#: every message has a test).
PRIZE_CODES = {"prize_number", "prize_decimals", "prize_places", "prize_total"}


def test_the_pot_is_the_fees_minus_the_kept_share() -> None:
    prizes = parse({"split": ["50", "30", "20"], "kept": "10"})
    assert prizes == Prizes((Decimal(50), Decimal(30), Decimal(20)), Split.PERCENT, Decimal(10))
    pot = pot_of(Decimal("10.00"), 18, prizes)
    assert (pot.fees, pot.kept, pot.pot) == (18000, 1800, 16200)
    assert by_place(prizes, pot.pot) == (8100, 4860, 3240)


def test_a_tie_across_a_prize_boundary_shares_to_the_cent() -> None:
    """7.33 € × 17 players, 10 % kept: 124.61 € of fees, 12.46 € kept, a pot of
    112.15 €. Places 2, 3 and 4 tie: they share the prizes of places 2 to 4 (30 %
    and 20 % and nothing): 56.07 € three ways, 18.69 € each; the pot is paid out
    to the cent."""
    prizes = parse({"split": ["50", "30", "20"], "kept": "10"})
    assert prizes is not None
    pot = pot_of(Decimal("7.33"), 17, prizes)
    assert (pot.fees, pot.kept, pot.pot) == (12461, 1246, 11215)
    places = by_place(prizes, pot.pot)
    # 56.075, 33.645, 22.43: the cent left goes to the share cut the most.
    assert places == (5608, 3364, 2243)
    assert sum(places) == pot.pot
    lines = share_out(places, [1, 2, 2, 2, 5, 6])
    assert lines == (5608, 1869, 1869, 1869, 0, 0)
    assert sum(lines) == pot.pot
    # Two tie for first: 50 % + 30 % between them, one cent more to the first named.
    odd = share_out((5001, 3000, 2000), [1, 1, 3])
    assert odd == (4001, 4000, 2000)
    assert sum(odd) == 10001


def test_fixed_sums_are_paid_as_stated() -> None:
    prizes = parse({"split": ["100", "50.50", "25"], "by": "amount"})
    assert prizes is not None
    pot = pot_of(Decimal(5), 20, prizes)
    assert by_place(prizes, pot.pot) == (10000, 5050, 2500)
    assert share_out((10000, 5050, 2500), [1, 2, 3, 3]) == (10000, 5050, 1250, 1250)


@given(
    st.integers(0, 10**7),
    st.lists(st.integers(1, 100), min_size=1, max_size=8),
    st.lists(st.integers(1, 4), min_size=1, max_size=30),
)
def test_every_cent_of_the_pot_is_paid_whatever_the_ties(
    pot: int, weights: list[int], groups: list[int]
) -> None:
    total = sum(weights)
    shares = [Decimal(w * 100) / total for w in weights]
    shares = [s.quantize(Decimal("0.01")) for s in shares]
    shares[0] += 100 - sum(shares)
    prizes = Prizes(tuple(shares))
    places = by_place(prizes, pot)
    assert sum(places) == pot
    assert all(p >= 0 for p in places)
    ranks = []
    for size in groups:
        ranks += [len(ranks) + 1] * size
    got = share_out(places, ranks)
    if len(ranks) >= len(places):
        assert sum(got) == pot
    # Lines of one place get the same to the cent, give or take one.
    for rank in set(ranks):
        mine = [g for g, r in zip(got, ranks, strict=True) if r == rank]
        assert max(mine) - min(mine) <= 1


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ({"split": ["50", "30"]}, "prizes.split", "80%, not 100%"),
        ({"split": ["50.001", "49.999"]}, "prizes.split[0]", "two decimals"),
        ({"split": ["abc"]}, "prizes.split[0]", "not a number"),
        ({"split": ["-5", "105"]}, "prizes.split[0]", "not a number"),
        ({"split": []}, "prizes.split", "1 to 50"),
        ({"split": ["100"], "kept": "120"}, "prizes.kept", "not a number"),
        ({"split": ["100"], "by": "lot"}, "prizes.by", "is not one of"),
        ({"split": ["100"], "extra": 1}, "prizes.extra", "does not know"),
        ([1], "prizes", "cannot be read"),
        ({"split": ["1e2"]}, "prizes.split[0]", "not a number"),
        ({"split": ["1_00"]}, "prizes.split[0]", "not a number"),
        ({"split": ["+100"]}, "prizes.split[0]", "not a number"),
        ({"split": ["\u0661\u0660\u0660"]}, "prizes.split[0]", "not a number"),
    ],
)
def test_refusals_name_their_field(raw: object, field: str, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse(raw)
    assert caught.value.problems[0].field == field
    assert caught.value.problems[0].code in PRIZE_CODES | {
        "unknown_field",
        "unknown_choice",
        "not_object",
    }
    assert words in caught.value.problems[0].message("en")
    assert caught.value.problems[0].message("fr")  # and in French


def test_the_event_file_keeps_the_prizes_and_the_language() -> None:
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "concours.json"
    data = json.loads(example.read_text(encoding="utf-8"))
    data["prizes"] = {"split": [60, "40.00"], "kept": "12.5"}
    data["language"] = "en"
    record = load_event(json.dumps(data))
    assert record.prizes == Prizes((Decimal(60), Decimal(40)), Split.PERCENT, Decimal("12.5"))
    assert record.language == "en"
    again = load_event(json.dumps(dump_event(record)))
    assert again.prizes == record.prizes
    assert again.language == "en"
    assert dump_event(record)["prizes"] == {"split": ["60", "40"], "by": "percent", "kept": "12.5"}
    data["prizes"] = {"split": ["60", "30"]}
    data["language"] = "de"
    with pytest.raises(RulesError) as caught:
        load_event(json.dumps(data))
    assert {p.field for p in caught.value.problems} == {"prizes.split", "language"}
