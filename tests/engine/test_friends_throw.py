"""F2 Throws with three or four decks (docs/rules.md#f2, R7): a unit is beatable by a
stronger unit of the same width and length in another hand (more copies count), and a
failed throw leads the smallest beatable unit."""

from __future__ import annotations

import random
from collections import Counter

from friends_dsl import deal, wide_lead
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards, ref_pos

from engine import Card, Trump, check_throw
from engine.throw import beats_unit
from engine.units import decompose_suit

H2 = T("2H")


def throw(lead: str, *others: str) -> str | None:
    result = check_throw(cards(lead), [cards(o) for o in others], H2)
    return None if result is None else " ".join(map(str, result))


def test_f2_throw_example_of_the_rule_book() -> None:
    assert throw("AS KS KS KS", "AS AS 3C", "QS QS QS", "2C") is None
    assert throw("AS 9S 9S 9S", "QS QS QS QS", "3C") == "9S 9S 9S"


def test_f2_a_higher_quadruple_makes_a_higher_triple() -> None:
    assert throw("AS JS JS JS", "QS QS QS QS") == "JS JS JS"
    assert throw("AS JS JS JS", "QS QS QS") == "JS JS JS"
    assert throw("AS JS JS JS", "QS QS KS KS") is None  # pairs never beat a triple


def test_f2_pairs_are_beaten_by_triples_held() -> None:
    """A thrown pair is beatable by a card another player holds three times (F2, R7)."""
    assert throw("AS 9S 9S", "QS QS QS") == "9S 9S"


def test_f2_tractor_of_triples_beaten_only_by_a_tractor_of_triples() -> None:
    lead = "AS 5S 5S 5S 6S 6S 6S"
    assert throw(lead, "9S 9S 9S JS JS JS") is None  # two triples, not a tractor
    assert throw(lead, "9S 9S 9S 10S 10S 10S") == "6S 6S 6S 5S 5S 5S"
    assert throw(lead, "9S 9S 10S 10S JS JS QS QS") is None  # tractors of pairs do not
    assert throw(lead, "8S 8S 8S 8S 9S 9S 9S 9S") == "6S 6S 6S 5S 5S 5S"  # quads make triples


def test_f2_smallest_beatable_unit_fewest_cards_then_weakest() -> None:
    lead = "KS 9S 9S 9S 7S 7S"  # a single, a triple, a pair
    assert throw(lead, "AS", "10S 10S 10S") == "KS"
    assert throw(lead, "10S 10S 10S", "8S 8S") == "7S 7S"
    assert throw(lead, "10S 10S 10S") == "7S 7S"  # three 10s hold a pair above 7s too
    assert throw("KS 9S 9S 9S QS QS", "10S 10S 10S") == "9S 9S 9S"


def test_f2_void_players_stop_nothing() -> None:
    assert throw("KS 9S 9S 9S", "AH AH AH RJ RJ RJ") is None


# ---- properties --------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]))
def test_f2_property_throw_result_is_a_beatable_unit(seed: int, decks: int) -> None:
    trump, hands = deal(seed, decks, 4, 20, narrow=True)
    lead = wide_lead(hands[0], trump, random.Random(seed), throw=1.0)
    units = decompose_suit(lead, trump)
    suit = trump.suit_index(lead[0])
    others = [[c for c in h if trump.suit_index(c) == suit] for h in hands[1:]]
    beatable = [u for u in units if any(_ref_beats(u.width, u.length, u.top, h, trump)
                                        for h in others)]
    result = check_throw(lead, hands[1:], trump)
    if len(units) <= 1 or not beatable:
        assert result is None
        return
    assert result is not None
    smallest = min(beatable, key=lambda u: (u.size, u.top))
    assert Counter(result) == Counter(smallest.cards)
    for unit in units:
        assert (unit in beatable) == any(beats_unit(unit, h, trump) for h in others)


def _ref_beats(width: int, length: int, top: int, hand: list[Card], trump: Trump) -> bool:
    """A stronger unit of the same width and length in `hand`, by brute force on the
    literal R3 ladder: `length` consecutive steps, each a card held `width` times or more."""
    steps = {ref_pos(c, trump)[1] for c, k in Counter(hand).items() if k >= width}
    return any(all(t - i in steps for i in range(length)) for t in steps if t > top)
