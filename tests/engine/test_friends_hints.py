"""Hints with three or four decks (F2): the lead suggestions offer triples, quadruples and
tractors of tuples, every suggestion is a lead, and a suggested throw stands."""

from __future__ import annotations

from collections import Counter

from friends_dsl import deal, pack
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards

from engine import check_throw, lead_error
from engine.hints import lead_options
from engine.units import decompose

H2 = T("2H")


def unseen_for(hand: list, decks: int) -> list:
    left = Counter(pack(decks))
    left.subtract(Counter(hand))
    return list(left.elements())


def test_f2_hints_lead_tuples_and_their_tractors() -> None:
    hand = cards("5S 5S 5S 6S 6S 6S 9D 9D 9D 9D 3C 4C KC KC KC")
    options = [" ".join(map(str, o)) for o in lead_options(hand, unseen_for(hand, 4), H2)]
    assert "6S 6S 6S 5S 5S 5S" in options
    assert "9D 9D 9D 9D" in options
    assert "KC KC KC" in options
    kinds = [decompose(list(o), H2)[0].kind.value for o in lead_options(
        hand, unseen_for(hand, 4), H2)[:3]]
    assert kinds[0] == "tractor"


def test_f2_hints_offer_a_throw_only_when_it_stands() -> None:
    hand = cards("AS AS AS KS KS KS 3D")  # nobody can beat either unit with three decks
    options = lead_options(hand, unseen_for(hand, 3), H2)
    assert [str(c) for c in options[0]] == ["AS", "AS", "AS", "KS", "KS", "KS"]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]))
def test_f2_property_hint_leads_are_leads_and_throws_stand(seed: int, decks: int) -> None:
    trump, hands = deal(seed, decks, 4, 26, narrow=True)
    hand = hands[0]
    unseen = unseen_for(hand, decks)
    for option in lead_options(hand, unseen, trump):
        assert lead_error(option, trump) is None
        assert not Counter(option) - Counter(hand)
        if len(decompose(list(option), trump)) > 1:
            assert check_throw(option, hands[1:], trump) is None
