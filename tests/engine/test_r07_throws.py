"""R7 Leading: one effective suit per lead; a throw stands only if no other player can beat
any of its units right now; a failed throw plays its smallest beatable unit."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards, key, ref_shapes, ref_throw_beatable

from engine import Card, Trump, check_throw, format_cards, lead_error


def throw(lead: str, others: tuple[str, str, str], trump: str) -> str | None:
    """`None` if the throw stands, else the forced cards as text."""
    forced = check_throw(cards(lead), [cards(h) for h in others], T(trump))
    return None if forced is None else format_cards(sorted(forced, key=str))


# ---------------------------------------------------------------- lead_error


@pytest.mark.parametrize(
    ("lead", "trump"),
    [("AS", "2H"), ("AS AS", "2H"), ("AS KS KS", "2H"), ("2S 3H AH", "2H"),  # 2S is a trump
     ("RJ BJ 2C AH", "2H"), ("4S 4H BJ", "4NT"), ("RJ RJ 4D", "4D"), ("AS KS", "4NT")],
)
def test_r7_lead_of_one_effective_suit_is_fine(lead: str, trump: str) -> None:
    assert lead_error(cards(lead), T(trump)) is None


@pytest.mark.parametrize(
    ("lead", "trump"),
    [("AS KH", "2H"),  # a side suit and a trump
     ("AS KD", "2H"),  # two side suits
     ("AS 2S", "2H"),  # 2♠ is a trump, not a spade
     ("3S 4S", "4D"),
     ("AS 4S", "4NT"),  # no trump: 4♠ is still a trump
     ("AS RJ", "4NT")],
)
def test_r7_mixed_suit_lead_is_an_error(lead: str, trump: str) -> None:
    reason = lead_error(cards(lead), T(trump))
    assert reason is not None and "R7" in reason


def test_r7_empty_lead_is_an_error() -> None:
    reason = lead_error([], T("2H"))
    assert reason is not None and "R7" in reason


# ---------------------------------------------------------------- single units always stand


@pytest.mark.parametrize("lead", ["KS", "KS KS", "KS KS QS QS", "3S 3S 4S 4S 5S 5S"])
def test_r7_single_unit_leads_always_stand(lead: str) -> None:
    """A single, pair or tractor lead is no throw: it stands even if beatable."""
    others = ("AS AS KS", "JS JS 10S 10S 9S 9S 8S 8S", "RJ")
    assert throw(lead, others, "7H") is None


# ---------------------------------------------------------------- beatable units


def test_r7_single_unit_beatable_by_strictly_stronger_single() -> None:
    assert throw("AS KS", ("AS 3S", "", ""), "2H") == "KS"
    assert throw("AS KS", ("QS QS", "JS", "3H 3H"), "2H") is None  # nothing above K
    assert throw("AS QS", ("AS JS", "", ""), "2H") == "QS"


def test_r7_equal_single_does_not_beat() -> None:
    """The other copy of the thrown ace is equal, not stronger."""
    assert throw("AS KS KS QS QS", ("AS JS JS", "", ""), "2H") is None
    assert throw("AH KH KH", ("AH QH", "QH JH", "10H"), "2S") is None  # seed: A-K-K stands


def test_r7_pair_unit_beatable_only_by_a_stronger_pair() -> None:
    assert throw("AS QS QS", ("KS KS", "", ""), "2H") == "QS QS"
    assert throw("AS QS QS", ("KS JS", "KS", ""), "2H") is None  # two K singles, no pair
    assert throw("AS QS QS", ("JS JS", "", ""), "2H") is None


def test_r7_tractor_unit_beatable_only_by_a_stronger_tractor_of_its_length() -> None:
    lead = "AS 9S 9S 8S 8S"
    assert throw(lead, ("KS KS QS QS", "", ""), "2H") == "8S 8S 9S 9S"
    assert throw(lead, ("KS KS 10S 10S", "", ""), "2H") is None  # pairs, but no tractor
    assert throw(lead, ("7S 7S 6S 6S", "", ""), "2H") is None  # weaker tractor
    # inside a longer one counts
    assert throw(lead, ("QS QS JS JS 10S 10S", "", ""), "2H") == "8S 8S 9S 9S"
    # the J-10 pairs straddle the thrown 9s? a tractor of 2 topped by J is stronger
    assert throw(lead, ("JS JS 10S 10S", "", ""), "2H") == "8S 8S 9S 9S"


def test_r7_tractor_of_three_not_beaten_by_a_stronger_tractor_of_two() -> None:
    lead = "AS 9S 9S 8S 8S 7S 7S"
    assert throw(lead, ("KS KS QS QS", "", ""), "2H") is None
    assert throw(lead, ("KS KS QS QS JS JS", "", ""), "2H") == "7S 7S 8S 8S 9S 9S"


def test_r7_the_throwers_partner_counts() -> None:
    """others[1] is the partner (seat opposite): their cards can make the throw fail."""
    assert throw("AS KS", ("3S", "AS", "4S"), "2H") == "KS"


def test_r7_void_player_with_trumps_cannot_block_a_side_suit_throw() -> None:
    assert throw("AS KS QS QS", ("RJ RJ BJ BJ 2H 2H", "AH AH KH", "2S 2C"), "2H") is None


def test_r7_trump_throw_is_blocked_by_trumps() -> None:
    assert throw("RJ AH AH", ("2S 2S", "", ""), "2H") == "AH AH"  # off-suit L pair > A♥ pair
    assert throw("RJ AH AH", ("2S 2C", "", ""), "2H") is None  # two different 2s: no pair
    assert throw("RJ 2S", ("2H", "", ""), "2H") == "2S"  # 2♥ is stronger than 2♠
    assert throw("RJ 2S", ("2C 2D", "", ""), "2H") is None  # off-suit 2s are equal


def test_r7_trump_throw_no_trump_level_cards() -> None:
    assert throw("RJ 5S", ("5H 5D", "5C", ""), "5NT") is None
    assert throw("RJ 5S", ("5H", "BJ", ""), "5NT") == "5S"


# ---------------------------------------------------------------- the smallest beatable unit


def test_r7_smallest_beatable_unit_fewest_cards_first() -> None:
    """K♠ (single) and 8♠8♠ (pair) are both beatable: the single is played."""
    assert throw("KS 8S 8S", ("AS", "JS JS", ""), "2H") == "KS"


def test_r7_smallest_beatable_unit_then_the_weakest() -> None:
    assert throw("KS JS 9S", ("AS QS 10S", "", ""), "2H") == "9S"
    assert throw("KS JS 9S", ("AS", "", ""), "2H") == "9S"  # A beats them all
    assert throw("AS AS 9S 9S 7S 7S", ("KS KS 10S 10S 8S 8S", "", ""), "2H") == "7S 7S"


def test_r7_pair_before_tractor() -> None:
    lead = "9S 9S 8S 8S 5S 5S"
    assert throw(lead, ("KS KS QS QS JS JS", "", ""), "2H") == "5S 5S"
    assert throw(lead, ("KS KS QS QS", "", ""), "2H") == "5S 5S"  # Q-K beats tractor, KK pair
    assert throw(lead, ("KS KS QS QS", "", "4S 4S"), "2H") == "5S 5S"


def test_r7_only_the_tractor_beatable() -> None:
    assert throw("AS AS 9S 9S 8S 8S", ("KS KS QS QS", "", ""), "2H") == "8S 8S 9S 9S"


def test_r7_forced_cards_come_from_the_lead() -> None:
    lead = cards("KS JS JS 9S")
    forced = check_throw(lead, [cards("AS"), cards("QS QS"), cards("10S")], T("2H"))
    assert forced is not None
    assert key(forced) == key(cards("9S"))  # K and 9 beatable: the weaker single
    assert all(forced.count(c) <= lead.count(c) for c in forced)


def test_r7_permutation_of_the_throw_does_not_change_the_forced_unit() -> None:
    """Two equal beatable units (off-suit level singles): the choice is deterministic."""
    rng = random.Random(3)
    lead = cards("RJ 4S 4H")
    others = [cards("4D"), [], []]
    base = check_throw(lead, others, T("4D"))
    assert base is not None and len(base) == 1 and str(base[0]) in ("4S", "4H")
    for _ in range(10):
        shuffled = list(lead)
        rng.shuffle(shuffled)
        assert check_throw(shuffled, others, T("4D")) == base


# ---------------------------------------------------------------- property: vs the rule text

POOL = sorted(set(cards("AS KS QS JS 10S 9S 8S 7S 6S 2S 2H 2D 3D AD RJ BJ")),
              key=lambda c: c.code)


@st.composite
def throw_case(draw: st.DrawFn) -> tuple[list[Card], list[list[Card]], Trump]:
    trump = draw(st.sampled_from([T("2D"), T("2NT"), T("7D")]))
    deck = [c for c in POOL for _ in range(2)]
    order = draw(st.permutations(deck))
    suit = trump.effective_suit(order[0])
    lead_n = draw(st.integers(2, 6))
    lead = [c for c in order if trump.effective_suit(c) == suit][:lead_n]
    rest = list(order)
    for c in lead:
        rest.remove(c)
    cut = sorted(draw(st.lists(st.integers(0, len(rest)), min_size=2, max_size=2)))
    return lead, [rest[:cut[0]], rest[cut[0]:cut[1]], rest[cut[1]:]], trump


@settings(max_examples=300, deadline=None)
@given(throw_case())
def test_r7_property_check_throw_matches_rule_text(
        case: tuple[list[Card], list[list[Card]], Trump]) -> None:
    lead, others, trump = case
    forced = check_throw(lead, others, trump)
    units = ref_shapes(lead, trump)
    beatable = ref_throw_beatable(lead, others, trump)
    if len(units) <= 1 or not beatable:
        assert forced is None
        return
    assert forced is not None
    smallest = min(beatable, key=lambda u: (max(1, 2 * u[1]), u[2]))
    assert ref_shapes(forced, trump) == [smallest]
    assert all(forced.count(c) <= lead.count(c) for c in forced)
