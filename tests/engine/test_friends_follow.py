"""F2 Following with three or four decks (docs/rules.md#f2): a triple answered by a triple,
else a pair and a single; tractors of triples; quadruples; throws with tuples; the
`suit_only` house rule; and properties on random 3- and 4-deck hands against a brute-force
reading of F2."""

from __future__ import annotations

import random

import pytest
from friends_dsl import choose, deal, lead_wide, ref_legal, ref_vector, suit_of, wide_lead
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards, sub_multisets

from engine import follow_error, legal_follow_candidates, random_legal_follow
from engine.ai.random_agent import random_lead
from engine.follow import build_follow, forced_cards
from engine.matching import best_answer, pair_counts, shapes_of, wide_answer
from engine.rules import Follow
from engine.units import decompose_suit

H2 = T("2H")


def error(hand: str, lead: str, play: str, follow: Follow = Follow.R8) -> str | None:
    reason = follow_error(cards(hand), cards(lead), cards(play), H2, follow)
    return None if reason is None else reason.key


# ---- a triple led ------------------------------------------------------------------------


def test_f2_triple_answered_by_a_triple() -> None:
    hand = "9S 9S 9S 8S 7S 3S"
    assert error(hand, "5S 5S 5S", "9S 9S 9S") is None
    assert error(hand, "5S 5S 5S", "9S 9S 8S") == "follow.tuple"
    assert error(hand, "5S 5S 5S", "9S 8S 7S") == "follow.tuple"


def test_f2_triple_answered_by_a_pair_and_a_single_before_three_singles() -> None:
    hand = "9S 9S 8S 7S 3S"
    assert error(hand, "5S 5S 5S", "9S 9S 8S") is None
    assert error(hand, "5S 5S 5S", "9S 9S 3S") is None
    assert error(hand, "5S 5S 5S", "9S 8S 7S") == "follow.groups"
    assert error("9S 8S 7S 3S", "5S 5S 5S", "9S 8S 3S") is None


def test_f2_a_quadruple_gives_a_triple() -> None:
    """A card held four times answers a triple with three of its copies (F2)."""
    assert error("9S 9S 9S 9S 3S", "5S 5S 5S", "9S 9S 9S") is None
    assert error("9S 9S 9S 9S 3S", "5S 5S 5S", "9S 9S 3S") == "follow.tuple"


# ---- a quadruple led ---------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "good", "bad"), [
    ("JS JS JS JS 9S 7S 3S", "JS JS JS JS", "JS JS 9S 7S"),      # a quadruple
    ("JS JS JS 9S 9S 7S 3S", "JS JS JS 9S", "JS JS 9S 9S"),      # triple + single over 2 pairs
    ("JS JS 9S 9S 7S 3S", "JS JS 9S 9S", "JS JS 7S 3S"),         # two pairs over one
    ("JS JS 9S 7S 3S", "JS JS 7S 3S", "9S 7S 3S JS"),             # a pair and two singles
])
def test_f2_quadruple_precedence(hand: str, good: str, bad: str) -> None:
    assert error(hand, "5S 5S 5S 5S", good) is None
    assert error(hand, "5S 5S 5S 5S", bad) is not None


# ---- tractors of tuples ------------------------------------------------------------------


def test_f2_tractor_of_triples_answered_by_a_tractor_of_triples() -> None:
    hand = "9S 9S 9S 8S 8S 8S 7S 3S"
    lead = "5S 5S 5S 6S 6S 6S"
    assert error(hand, lead, "9S 9S 9S 8S 8S 8S") is None
    assert error(hand, lead, "9S 9S 9S 8S 8S 7S") == "follow.tuple_tractor"


def test_f2_tractor_of_triples_without_one_two_triples() -> None:
    hand = "JS JS JS 9S 9S 9S 7S 3S"  # 10♠ missing: no tractor
    lead = "5S 5S 5S 6S 6S 6S"
    assert error(hand, lead, "JS JS JS 9S 9S 9S") is None
    reason = follow_error(cards(hand), cards(lead), cards("9S 9S 9S 7S 3S JS"), H2)
    assert reason is not None and reason.key == "follow.groups"
    assert reason.params["groups"] == "3+3"


def test_f2_tractor_of_triples_partial_order() -> None:
    lead = "5S 5S 5S 6S 6S 6S"
    # a triple and a pair (and a single) beat three pairs
    assert error("JS JS JS 9S 9S 8S 8S 4S 4S", lead, "JS JS JS 9S 9S 4S") is None
    assert error("JS JS JS 9S 9S 8S 8S 4S 4S", lead, "9S 9S 8S 8S 4S 4S") == "follow.groups"
    # three pairs beat two pairs
    assert error("QS QS 9S 9S 7S 7S 3S", lead, "QS QS 9S 9S 7S 7S") is None
    assert error("QS QS 9S 9S 7S 7S 3S", lead, "QS QS 9S 9S 7S 3S") == "follow.groups"


def test_f2_tractor_of_pairs_against_quadruples_is_r8() -> None:
    """A tractor of pairs led: a card held four times is two pairs, not a tractor (F2, R8)."""
    lead = "5S 5S 6S 6S"
    assert error("9S 9S 9S 9S 3S", lead, "9S 9S 9S 9S") is None
    assert error("9S 9S 9S 9S 3S", lead, "9S 9S 9S 3S") is not None
    assert error("9S 9S 9S 9S 10S 10S 3S", lead, "9S 9S 10S 10S") is None
    assert error("9S 9S 9S 9S 10S 10S 3S", lead, "9S 9S 9S 9S") is not None


def test_f2_pair_led_answered_from_a_triple() -> None:
    assert error("9S 9S 9S 3S", "5S 5S", "9S 9S") is None
    assert error("9S 9S 9S 3S", "5S 5S", "9S 3S") == "follow.pair"


# ---- throws with tuples ------------------------------------------------------------------


def test_f2_throw_with_a_triple_and_a_pair() -> None:
    lead = "AS AS AS KS KS"  # a triple and a pair (3 decks)
    hand = "9S 9S 9S 7S 7S 4S 3S"
    assert error(hand, lead, "9S 9S 9S 7S 7S") is None
    assert error(hand, lead, "9S 9S 7S 7S 4S") == "follow.tuple"
    assert error(hand, lead, "9S 9S 9S 7S 4S") == "follow.pair_throw"
    # without a triple: the pair duty of the triple comes first, then the pair's
    assert error("9S 9S 7S 7S 4S 3S", lead, "9S 9S 7S 7S 4S") is None
    assert error("9S 9S 7S 7S 4S 3S", lead, "9S 9S 7S 4S 3S") is not None


def test_f2_suit_only_keeps_suit_and_count() -> None:
    hand = "9S 9S 9S 8S 7S 3D"
    assert error(hand, "5S 5S 5S", "9S 8S 7S", Follow.SUIT_ONLY) is None
    assert error(hand, "5S 5S 5S", "9S 8S 3D", Follow.SUIT_ONLY) == "follow.suit"
    assert error(hand, "5S 5S 5S", "9S 9S", Follow.SUIT_ONLY) == "follow.count"


def test_f2_follow_example_of_the_rule_book() -> None:
    assert error("9S 9S 8S 7S 3S", "5S 5S 5S", "9S 9S 8S") is None
    assert error("9S 9S 8S 7S 3S", "5S 5S 5S", "9S 8S 7S") is not None
    assert error("9S 9S 9S 8S", "5S 5S 5S", "9S 9S 9S") is None
    lead = "5S 5S 5S 6S 6S 6S"
    assert error("9S 9S 9S 8S 8S 8S 7S", lead, "8S 8S 8S 9S 9S 9S") is None
    assert error("JS JS JS 9S 9S 9S 7S 3S", lead, "JS JS JS 9S 9S 9S") is None


def test_f2_building_a_follow_prefers_high_or_low() -> None:
    hand = cards("KS KS KS 9S 9S 9S 4S 4S 4S 3S")
    lead = cards("5S 5S 5S")
    high = build_follow(hand, lead, H2, prefer_high=True, fill_key=lambda c: 0.0)
    low = build_follow(hand, lead, H2, prefer_high=False, fill_key=lambda c: 0.0)
    assert sorted(map(str, high)) == ["KS"] * 3
    assert sorted(map(str, low)) == ["4S"] * 3


# ---- properties on random 3- and 4-deck hands -------------------------------------------


def _position(seed: int, decks: int, narrow: bool, throw: float
              ) -> tuple[object, list, list]:
    trump, hands = deal(seed, decks, 2, 26 if not narrow else 20, narrow=narrow)
    rng = random.Random(seed)
    if rng.random() < 0.5:
        lead = random_lead(hands[0], trump, rng, throw_chance=throw)
    else:
        lead = wide_lead(hands[0], trump, rng, throw)
    return trump, hands[1], lead


POSITIONS = st.tuples(st.integers(0, 10**9), st.sampled_from([3, 4]), st.booleans(),
                      st.sampled_from([0.0, 0.5, 1.0]))


@settings(max_examples=250, deadline=None)
@given(POSITIONS)
def test_f2_property_a_legal_follow_always_exists(position: tuple[int, int, bool, float]
                                                  ) -> None:
    """random_legal_follow, every hint candidate and every build_follow are accepted."""
    trump, hand, lead = _position(*position)
    rng = random.Random(position[0])
    loose = random_legal_follow(hand, lead, trump, rng, Follow.SUIT_ONLY)
    assert follow_error(hand, lead, loose, trump, Follow.SUIT_ONLY) is None
    plays = [random_legal_follow(hand, lead, trump, rng)]
    plays += legal_follow_candidates(hand, lead, trump)
    for high in (True, False):
        for key in (lambda c: trump.strength(c), lambda c: -trump.strength(c),
                    lambda c: c.points * 100 + trump.strength(c)):
            plays.append(build_follow(hand, lead, trump, prefer_high=high, fill_key=key))
    forced = forced_cards(hand, lead, trump)
    for play in plays:
        assert len(play) == len(lead)
        assert follow_error(hand, lead, play, trump) is None, (lead, hand, play)
        for card in forced:
            assert card in play


@settings(max_examples=150, deadline=None)
@given(POSITIONS, st.integers(-3, 3).filter(lambda d: d != 0))
def test_f2_property_wrong_counts_are_refused(position: tuple[int, int, bool, float],
                                              delta: int) -> None:
    trump, hand, lead = _position(*position)
    n = len(lead) + delta
    if not 0 <= n <= len(hand):
        return
    play = choose(hand, n, random.Random(position[0]))
    reason = follow_error(hand, lead, play, trump)
    assert reason is not None and reason.key in ("follow.count", "follow.count.one")


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]))
def test_f2_property_engine_agrees_with_the_literal_reading(seed: int, decks: int) -> None:
    """On small positions, follow_error accepts exactly the plays the brute-force reading
    of F2 (every other choice of cards compared) accepts."""
    trump, hands = deal(seed, decks, 2, 26, narrow=True)
    rng = random.Random(seed)
    lead = wide_lead(hands[0], trump, rng)
    if len(lead) > 6:
        lead = list(decompose_suit(lead, trump)[0].cards)
    ordered = trump.sort(hands[1])  # a window of neighbours: many tuples and tractors
    start = rng.randrange(len(ordered) - 8)
    hand = ordered[start:start + 9]
    suit = suit_of(lead[0], trump)
    held = [c for c in hand if suit_of(c, trump) == suit]
    rest = [c for c in hand if suit_of(c, trump) != suit]
    pool = held + rest[:2]
    for play in sub_multisets(pool, len(lead))[:60]:
        engine_ok = follow_error(hand, lead, play, trump) is None
        assert engine_ok == ref_legal(hand, lead, play, trump), (lead, hand, play)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]))
def test_f2_property_pairs_led_is_r8_with_groups_of_two(seed: int, decks: int) -> None:
    """Against pairs and tractors of pairs, F2's groups (cards held 3 or 4 times giving
    one or two pairs) rule exactly as R8's pair counts: width 2 is R8."""
    trump, hands = deal(seed, decks, 2, 20, narrow=True)
    rng = random.Random(seed)
    suit = suit_of(hands[0][0], trump)
    group = [c for c in hands[0] if suit_of(c, trump) == suit]
    units = [u for u in decompose_suit(group, trump) if u.width <= 2]
    if not units:
        return
    shapes = shapes_of(u.pairs for u in units)
    wide = tuple(sorted(((2, u.length) for u in units if u.width == 2), reverse=True))
    held = [c for c in hands[1] if suit_of(c, trump) == suit]
    n = sum(u.size for u in units)
    if len(held) < n or not shapes:
        return
    need_r8 = best_answer(shapes, pair_counts(held, trump))
    need_f2 = wide_answer(wide, held, trump)
    for _ in range(20):
        play = choose(held, n, rng)
        r8 = best_answer(shapes, pair_counts(play, trump)) == need_r8
        f2 = wide_answer(wide, play, trump) == need_f2
        assert r8 == f2, (units, held, play)
    assert ref_vector(wide, held[:10], trump) == wide_answer(wide, held[:10], trump)


def test_f2_lead_shapes_helper() -> None:
    assert lead_wide(cards("5S 5S 5S 6S 6S 6S 9S 9S 3S"), H2) == ((3, 2), (2, 1))
