"""R8 Following: count, suit, structure (pair, tractor, throw unit by unit), void.

One test per error reason, the legal cases, "perft"-style counts of legal follows for fixed
positions, and hypothesis properties against a brute-force reading of R8.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import (
    BJ,
    RANKS,
    RJ,
    T,
    cards,
    key,
    lead_shapes,
    pair_steps,
    ref_legal_follows,
    ref_suit,
    structure_score,
    sub_multisets,
)

from engine import (
    Card,
    Rank,
    Suit,
    Trump,
    follow_error,
    forced_cards,
    legal_follow_candidates,
    random_legal_follow,
)


def err(hand: str, lead: str, play: str, trump: str = "2H") -> str | None:
    return follow_error(cards(hand), cards(lead), cards(play), T(trump))


def legal(hand: str, lead: str, play: str, trump: str = "2H") -> bool:
    return err(hand, lead, play, trump) is None


def reason(hand: str, lead: str, play: str, trump: str = "2H") -> str:
    why = err(hand, lead, play, trump)
    assert why is not None, "expected an illegal follow"
    assert "R8" in why
    return why.lower()


# ---------------------------------------------------------------- one test per error reason


def test_r8_error_wrong_count() -> None:
    assert "1 card" in reason("AS KS 3D", "9S", "AS KS")
    assert "2 cards" in reason("AS KS 3D", "9S 9S", "AS")
    assert "2 cards" in reason("AS KS 3D", "9S 9S", "")


def test_r8_error_card_not_held() -> None:
    why = reason("AS KS 3D", "9S", "QS")
    assert "q♠" in why or "qs" in why
    assert "k♠" in reason("AS KS 3D", "9S 9S", "KS KS")  # only one copy held


def test_r8_error_suit_obligation() -> None:
    why = reason("AS 3D", "9S", "3D")
    assert "♠" in why
    assert reason("AS KS 3D", "9S 9S", "AS 3D")
    # a level card is a trump, not a card of its printed suit
    assert reason("AS 2S 3D", "9S", "2S")


def test_r8_error_all_of_suit_when_short() -> None:
    why = reason("AS 3D 4C", "9S 9S", "3D 4C")
    assert "your ♠ card before any other (r8)" in why
    assert "all" in reason("AS KS 3D 4C 5C", "9S 9S 8S 8S", "AS 3D 4C 5C")


def test_r8_error_pair_obligation() -> None:
    why = reason("AS AS KS 3D", "9S 9S", "AS KS")
    assert "pair" in why


def test_r8_pair_led_must_play_pair_even_from_tractor() -> None:
    hand = "KS KS QS QS 3S"
    assert "pair" in reason(hand, "9S 9S", "KS QS")
    assert legal(hand, "9S 9S", "KS KS")
    assert legal(hand, "9S 9S", "QS QS")


def test_r8_error_tractor_obligation() -> None:
    why = reason("QS QS JS JS 3S 4S 5D", "8S 8S 7S 7S", "QS QS 3S 4S")
    assert "tractor" in why
    assert legal("QS QS JS JS 3S 4S 5D", "8S 8S 7S 7S", "QS QS JS JS")


def test_r8_tractor_obligation_part_of_a_longer_tractor_counts() -> None:
    hand = "KS KS QS QS JS JS 3S"
    assert legal(hand, "8S 8S 7S 7S", "KS KS QS QS")
    assert legal(hand, "8S 8S 7S 7S", "QS QS JS JS")
    assert "tractor" in reason(hand, "8S 8S 7S 7S", "KS KS JS JS")


def test_r8_error_pairs_up_to_n() -> None:
    """3-pair tractor led, no tractor held: as many pairs as you hold, up to 3."""
    hand = "QS QS 9S 9S 3S 4S 5S 5D"
    why = reason(hand, "8S 8S 7S 7S 6S 6S", "QS QS 9S 3S 4S 5S")
    assert "2 pairs" in why
    assert legal(hand, "8S 8S 7S 7S 6S 6S", "QS QS 9S 9S 3S 4S")
    # with four pairs and no tractor, any three pairs; two are not enough
    hand4 = "QS QS 9S 9S 5S 5S 3S 3S"
    assert "3 pairs" in reason(hand4, "8S 8S 7S 7S 6S 6S", "QS QS 9S 9S 5S 3S")
    assert legal(hand4, "8S 8S 7S 7S 6S 6S", "QS QS 5S 5S 3S 3S")


def test_r8_pairs_up_to_n_one_pair_held() -> None:
    hand = "QS QS 9S 3S 4S 5D"
    assert "pair" in reason(hand, "8S 8S 7S 7S", "QS 9S 3S 4S")
    assert legal(hand, "8S 8S 7S 7S", "QS QS 9S 3S")


def test_r8_error_throw_unit_by_unit() -> None:
    """Throw: tractor A♠A♠K♠K♠ + pair 9♠9♠. Three pairs without the held tractor fail."""
    hand = "QS QS JS JS 10S 10S 7S 7S 3S 4D"
    lead = "AS AS KS KS 9S 9S"
    why = reason(hand, lead, "QS QS 10S 10S 7S 7S")
    assert "tractor" in why and "throw" in why
    assert legal(hand, lead, "QS QS JS JS 7S 7S")
    assert "pair" in reason(hand, lead, "QS QS JS JS 7S 3S")


def test_r8_throw_lexicographic_largest_unit_first() -> None:
    """Three pairs (no tractor) lose to a tractor + pair; a tractor + singles loses to it."""
    hand = "QS QS JS JS 7S 7S 5S 5S"
    lead = "AS AS KS KS 9S 9S"
    assert "tractor" in reason(hand, lead, "QS QS 7S 7S 5S 5S")
    assert "pair" in reason(hand, lead, "QS QS JS JS 7S 5S")
    assert legal(hand, lead, "QS QS JS JS 5S 5S")
    assert legal(hand, lead, "JS JS QS QS 7S 7S")


def test_r8_throw_two_tractors_need_both() -> None:
    """Lead: two 2-pair tractors. 9-8-7-6 splits into two tractors; 9-8-7 + a pair is worse."""
    lead = "AS AS KS KS 4S 4S 3S 3S"
    hand = "9S 9S 8S 8S 7S 7S 6S 6S 5S"
    assert legal(hand, lead, "9S 9S 8S 8S 7S 7S 6S 6S")
    hand2 = "9S 9S 8S 8S 7S 7S JS JS 5S"
    assert legal(hand2, lead, "9S 9S 8S 8S 7S 7S JS JS")
    assert reason(hand2, lead, "9S 9S 8S 8S 7S 7S 5S JS")


def test_r8_throw_pair_units() -> None:
    lead = "AS AS KS 9S 9S"
    hand = "QS QS 7S 7S 3S 4S"
    assert "pair" in reason(hand, lead, "QS QS 7S 3S 4S")
    assert legal(hand, lead, "QS QS 7S 7S 3S")


# ---------------------------------------------------------------- legal cases


def test_r8_void_anything_goes() -> None:
    hand = "3D 3D 4C RJ 2S"
    for play in ("3D", "4C", "RJ", "2S"):
        assert legal(hand, "9S", play)
    for play in ("3D 3D", "3D 4C", "RJ 2S", "4C RJ"):
        assert legal(hand, "9S 9S", play)  # no pair obligation outside the led suit


def test_r8_short_all_suit_cards_plus_any() -> None:
    hand = "10S 10S 4S 3D 3D 6C 2C BJ"
    lead = "QS QS JS JS"
    for extra in ("3D", "6C", "2C", "BJ"):
        assert legal(hand, lead, f"10S 10S 4S {extra}")
    assert not legal(hand, lead, "10S 10S 3D 6C")


def test_r8_exactly_as_many_as_led_plays_them_all() -> None:
    assert legal("AS 9S 3D", "KS KS", "AS 9S")
    assert not legal("AS 9S 3D", "KS KS", "AS 3D")


def test_r8_level_card_is_not_its_printed_suit() -> None:
    assert not legal("2S 3D AS", "9S", "2S")
    assert legal("2S 3D AS", "9S", "AS")
    assert legal("2S 3D", "9S", "2S")  # void in spades: anything


def test_r8_trump_lead_is_followed_by_level_cards_and_jokers() -> None:
    assert not legal("2S 4D", "3H", "4D")  # 2♠ is a trump at level 2
    assert legal("2S 4D", "3H", "2S")
    assert not legal("BJ 4D", "3H", "4D")
    assert legal("5S 4D", "BJ", "5S", "5NT")  # no trump: 5♠ is a trump
    assert not legal("5S 4D", "BJ", "4D", "5NT")


def test_r8_equal_off_suit_level_cards_are_not_a_pair() -> None:
    assert legal("2S 2C 5H 6D", "3H 3H", "2S 5H")
    assert legal("2S 2C 5H 6D", "3H 3H", "2S 2C")


def test_r8_trump_tractor_through_off_suit_level_pair() -> None:
    """Hearts trump, level 2: A♥ → 2♠ pair → 2♥ pair is a 3-pair run."""
    hand = "2S 2S 2H 2H AH AH 3D"
    lead = "5H 5H 4H 4H"
    assert legal(hand, lead, "AH AH 2S 2S")
    assert legal(hand, lead, "2S 2S 2H 2H")
    assert "tractor" in reason(hand, lead, "AH AH 2H 2H")


def test_r8_followers_owe_a_three_pair_answer_to_3_4_5() -> None:
    """R4: `3S 3S 4S 4S 5S 5S` is one 3-pair tractor; a 3-pair tractor must answer it."""
    hand = "KS KS QS QS JS JS 9S 9S 8S"
    lead = "3S 3S 4S 4S 5S 5S"
    assert legal(hand, lead, "KS KS QS QS JS JS")
    assert "tractor of 3 pairs" in reason(hand, lead, "KS KS QS QS 9S 9S")


def test_r8_forced_cards() -> None:
    assert key(forced_cards(cards("10S 10S 4S 3D"), cards("QS QS JS JS"), T("2H"))) == \
        key(cards("10S 10S 4S"))
    assert forced_cards(cards("10S 10S 4S 3S 3D"), cards("QS QS JS JS"), T("2H")) == \
        cards("10S 10S 4S 3S")
    assert forced_cards(cards("10S 10S 4S 3S 2S"), cards("QS QS"), T("2H")) == []


# ---------------------------------------------------------------- "perft" counts


PERFT = [
    # (hand, lead, literal count by reasoning, why)
    ("AS AS KS KS 5S 3D 3D 2C", "9S 9S", 2, "a spade pair: A♠A♠ or K♠K♠"),
    ("10S 10S 4S 3D 3D 6C 2C BJ", "QS QS JS JS", 4,
     "short: all three spades + one of 3♦ 6♣ 2♣ BJ"),
    ("AD AD QD QD 9D 9D 6D 5D 3S", "8D 8D 7D 7D", 3, "no tractor (K, J-10 missing): 2 of 3 pairs"),
    ("KD KD QD QD JD JD 5D 4C", "8D 8D 7D 7D", 2, "the tractors K-Q and Q-J"),
    ("QS QS JS 9S 9S 4S 3D", "AS AS KS", 6, "throw pair+single: Q♠Q♠ or 9♠9♠, + 3 others each"),
    ("QS QS JS JS 10S 10S 7S 7S 3S 4D", "AS AS KS KS 9S 9S", 3,
     "tractor (QJ or J10) + a pair: {Q,J,10}, {Q,J,7}, {J,10,7}"),
    ("3D 3D 4C 5H 2C", "KS KS", 7, "void: C(4,2)=6 mixed + 3♦3♦"),
    ("AS KS QS 3D 4D", "9S 9S", 3, "three spades, no pair: C(3,2)"),
    ("AS KS KS 5S 3D", "9S", 3, "one spade: A, K or 5"),
]


@pytest.mark.parametrize(("hand", "lead", "count", "why"), PERFT, ids=[p[3] for p in PERFT])
def test_r8_perft_legal_follow_counts(hand: str, lead: str, count: int, why: str) -> None:
    """Brute force: every distinct card combination of the right size from the hand,
    counted when `follow_error` accepts it; the count is written down by reasoning."""
    h, ld, trump = cards(hand), cards(lead), T("2H")
    accepted = [p for p in sub_multisets(h, len(ld)) if follow_error(h, ld, p, trump) is None]
    assert len(accepted) == count, [" ".join(map(str, p)) for p in accepted]
    assert {key(p) for p in accepted} == ref_legal_follows(h, ld, trump)


# ---------------------------------------------------------------- properties

TRUMPS = [Trump(lv, s) for lv in (Rank.TWO, Rank.FOUR, Rank.SEVEN, Rank.ACE)
          for s in (Suit.SPADES, Suit.DIAMONDS, None)]


@st.composite
def position(draw: st.DrawFn, max_hand: int = 10) -> tuple[list[Card], list[Card], Trump]:
    """A small hand and a one-suit lead from a deck concentrated around the level, biased
    towards pairs and runs (so tractors and throws are common on both sides)."""
    trump = draw(st.sampled_from(TRUMPS))
    ranks = [r for r in RANKS if abs(r - trump.level) <= 2]
    distinct = [Card(r, s) for r in ranks for s in (Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS)]
    distinct += [BJ, RJ]
    suit = ref_suit(draw(st.sampled_from(distinct)), trump)
    ladder_ = sorted((c for c in distinct if ref_suit(c, trump) == suit),
                     key=lambda c: (trump.strength(c), c.code))
    left = {c: 2 for c in distinct}
    lead: list[Card] = []
    want = draw(st.integers(1, 6))
    i = draw(st.integers(0, len(ladder_) - 1))
    while len(lead) < want and i < len(ladder_):
        c = ladder_[i]
        if len(lead) + 2 <= want and draw(st.integers(0, 3)) > 0:
            lead += [c, c]
            left[c] = 0
        else:
            lead.append(c)
            left[c] -= 1
        i += 1
    hand: list[Card] = []
    for c in draw(st.permutations(ladder_))[: draw(st.integers(0, 6))]:
        hand += [c] * min(left[c], draw(st.integers(1, 2)))
    others = [c for c in distinct if ref_suit(c, trump) != suit for _ in range(2)]
    hand += draw(st.permutations(others))[: draw(st.integers(0, 4))]
    hand = hand[:max_hand]
    spare = list((Counter(others) - Counter(hand)).elements())
    hand += spare[: max(0, len(lead) - len(hand))]
    return draw(st.permutations(hand)), lead, trump


@settings(max_examples=200, deadline=None)
@given(position())
def test_r8_property_follow_error_matches_brute_force(
        case: tuple[list[Card], list[Card], Trump]) -> None:
    """On small hands, the follows `follow_error` accepts are exactly R8's: the suit rule,
    and no other choice answers the lead's units better (lexicographically)."""
    hand, lead, trump = case
    accepted = {key(p) for p in sub_multisets(hand, len(lead))
                if follow_error(hand, lead, p, trump) is None}
    assert accepted == ref_legal_follows(hand, lead, trump)


@settings(max_examples=200, deadline=None)
@given(position(), st.integers(0, 2**32))
def test_r8_property_accepted_follow_has_the_most_structure(
        case: tuple[list[Card], list[Card], Trump], seed: int) -> None:
    """No suit-legal choice from the hand answers the lead's units with more structure than
    an accepted follow (the engine's own random follow, scored independently)."""
    hand, lead, trump = case
    play = random_legal_follow(hand, lead, trump, random.Random(seed))
    assert follow_error(hand, lead, play, trump) is None
    suit = ref_suit(lead[0], trump)
    shapes = lead_shapes(lead, trump)

    def score(p: list[Card]) -> tuple[int, ...]:
        return structure_score(shapes, pair_steps([c for c in p if ref_suit(c, trump) == suit],
                                                  trump))

    mine = score(play)
    for other in sub_multisets(hand, len(lead)):
        assert score(other) <= mine


@settings(max_examples=300, deadline=None)
@given(position(max_hand=14), st.integers(0, 2**32))
def test_r8_property_random_legal_follow_is_accepted(
        case: tuple[list[Card], list[Card], Trump], seed: int) -> None:
    hand, lead, trump = case
    rng = random.Random(seed)
    for _ in range(3):
        play = random_legal_follow(hand, lead, trump, rng)
        assert len(play) == len(lead)
        assert follow_error(hand, lead, play, trump) is None, play
        forced = forced_cards(hand, lead, trump)
        assert all(play.count(c) >= forced.count(c) for c in forced)
    candidates = legal_follow_candidates(hand, lead, trump)
    assert candidates
    assert len({key(c) for c in candidates}) == len(candidates)
    for play in candidates:
        assert follow_error(hand, lead, play, trump) is None, play
