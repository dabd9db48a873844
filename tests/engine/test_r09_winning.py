"""R9 Winning the trick: same structure in the led suit, ruffs, over-ruffs, ties."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import BJ, RANKS, RJ, T, cards, ref_suit, ref_trick_winner

from engine import Card, Rank, Suit, Trump, trick_winner


def win(plays: str, trump: str = "2H") -> int:
    """`win("AS | KS | 3S | 4S")`: the winning index."""
    return trick_winner([cards(p) for p in plays.split("|")], T(trump))


# ---------------------------------------------------------------- in the led suit


def test_r9_single_highest_of_led_suit_wins() -> None:
    assert win("9S | KS | AS | 3S") == 2
    assert win("AS | KS | QS | 3S") == 0
    assert win("9S | KD | AC | 10S") == 3  # other side suits are discards


def test_r9_pair_wins_only_against_pairs() -> None:
    assert win("9S 9S | KS KS | 3S 4S | AS AS") == 3
    assert win("9S 9S | AS KS | 3S 4S | 10S 10S") == 3  # A-K unpaired cannot win
    assert win("9S 9S | AS KS | 3S 4S | 8S 8S") == 0


def test_r9_tractor_wins_only_against_tractors_of_its_length() -> None:
    assert win("8S 8S 7S 7S | KS KS QS QS | 3S 3S 4S 4S | AS AS JS JS") == 1
    # two higher pairs, not consecutive, cannot win (seed: 10-10-5-5 against 3-3-4-4)
    assert win("3S 3S 4S 4S | 10S 10S 5S 5S | JS 8S 6S 2D | 9S 7S KS QS") == 0
    assert win("5S 5S 6S 6S 7S 7S | 8S 8S 9S 9S 10S 10S | 2D 3D 4D 5D 6D 7D | "
               "AS AS KS KS QS QS") == 3


def test_r9_trump_leads() -> None:
    assert win("3H | 2S | AH | RJ") == 3
    assert win("3H | 2S | 2C | 2H") == 3  # 2♥ beats the off-suit 2s
    assert win("3H 3H | 2S 2S | 2C 2C | 4H 4H") == 1  # equal off-suit level pairs: first
    assert win("AH AH 2S 2S | 2D 2D 2H 2H | BJ BJ RJ RJ | 3H 4H 5H 6H") == 2
    assert win("AH AH | BJ RJ | 3S 4S | 5D 6D") == 0  # loose trumps never beat a pair


def test_r9_in_suit_higher_wins_only_with_exact_structure() -> None:
    assert win("9S 9S | AS QS | 3D 4D | 5D 6D") == 0
    assert win("8S 8S 7S 7S | AS AS KS QS | 3D 4D 5D 6D | 2D 7D 8D 9D") == 0
    assert win("8S 8S 7S 7S | AS AS QS QS | 3D 4D 5D 6D | 2D 7D 8D 9D") == 0


# ---------------------------------------------------------------- ruffs


def test_r9_ruff_of_a_single() -> None:
    assert win("AS | 3H | KS | QS") == 1
    assert win("AS | 3H | 4H | 2S") == 3  # over-ruff: 2♠ is a level trump
    assert win("AS | 2S | 2C | 3D") == 1  # equal off-suit level trumps: the first


def test_r9_ruff_of_a_pair_needs_a_trump_pair() -> None:
    assert win("KS KS | 3H 3H | AS AS | 4D 5D") == 1
    assert win("5C 5C | KC KC | 2H 2H | 8H 7H", "9H") == 2  # seed: 8-7 not a pair
    assert win("KS KS | 3H 4H | AS AS | 4D 5D") == 2  # loose trumps never beat a pair
    assert win("KS KS | RJ BJ | 3D 4D | 5D 6D") == 0


def test_r9_over_ruff_of_a_pair() -> None:
    assert win("KS KS | 3H 3H | 4H 4H | 2S 2S") == 3
    assert win("KS KS | 4H 4H | 3H 3H | AS QS") == 1
    assert win("KS KS | 2S 2S | 2D 2D | 5D 6D") == 1  # equal off-suit level pairs: earlier


def test_r9_ruff_of_a_tractor_needs_a_trump_tractor() -> None:
    assert win("8S 8S 7S 7S | 3H 3H 4H 4H | AS AS KS KS | 2D 3D 4D 5D") == 1
    assert win("8S 8S 7S 7S | 3H 3H 5H 5H | 6S 6S 4S 4S | 2D 3D 4D 5D") == 0  # 4♥ missing
    assert win("8S 8S 7S 7S | 3H 3H 4H 4H | 2S 2S 2H 2H | 2D 3D 4D 5D") == 2
    assert win("8S 8S 7S 7S | AH AH 2C 2C | KH 10H QH JH | 2D 3D 4D 5D") == 1


def test_r9_mixed_plays_never_win() -> None:
    assert win("AS | 3D | KS | QS") == 0
    assert win("KS KS | 3H AS | AS 4H | 5H 5D") == 0  # trump + spade: not a ruff
    assert win("9S 9S | 3H 3H | AS 4H | RJ AS") == 1
    assert win("3H 3H | 4H AS | 5H 5S | 6H 2D") == 0


# ---------------------------------------------------------------- throws


def test_r9_throw_that_stood_cannot_be_beaten_in_its_own_suit() -> None:
    assert win("AS QS | KS JS | 3S 4S | 9S 10S") == 0
    assert win("AS AS QS | KS KS JS | 3S 4S 5S | 9S 9S 10S") == 0


def test_r9_ruff_of_a_throw_must_cover_every_unit_shape() -> None:
    """Seed: A-Q-Q led; A-5-5 ruffs; 2-7-7 over-ruffs with the higher pair (level not 2)."""
    assert win("AC QC QC | AH 5H 5H | 2H 7H 7H | 3C 4C 6C", "9H") == 2
    assert win("AC QC QC | AH 5H 6H | 2H 3H 4H | 3C 4C 6C", "9H") == 0  # no pair: no ruff
    assert win("AC QC QC | 5H 5H AH | RJ RJ BJ | 3C 4C 6C", "9H") == 2


def test_r9_ruff_of_a_throw_of_singles_compares_the_top_single() -> None:
    """Seed: A-K-Q led; 2-7-7 ruffs, A-5-5 over-ruffs (A beats 7; no pair was led)."""
    assert win("AC KC QC | 2H 7H 7H | AH 5H 5H | 3C 4C 6C", "9H") == 2
    # A-K led; West A-3 ruffs; South A-Q cannot beat it (equal top, West first)
    assert win("AC KC | AH 3H | 3C 4C | AH QH", "9H") == 1


def test_r9_ruff_of_a_throw_with_a_tractor_compares_tractors() -> None:
    lead = "AS AS KS KS 9S"
    assert win(f"{lead} | 3H 3H 4H 4H RJ | 6H 6H 7H 7H 5H | 2D 3D 4D 5D 6D", "10H") == 2
    # the RJ pair is no tractor: 6-7 tractor is the strongest 2-tractor, not beaten by 5-5
    assert win(f"{lead} | 6H 6H 7H 7H 3H | RJ RJ 5H 5H 4H | 2D 3D 4D 5D 6D", "10H") == 1


def test_r9_competing_ruffs_equal_top_pairs_earlier_keeps_it() -> None:
    """Throw A♠A♠Q♠Q♠ (two pairs): ruffs 2♠2♠3♦3♦ and 2♥2♥5♦5♦ at level 2 ♦. Their top
    pairs are equal off-suit level pairs: the earlier ruff keeps it (the next pair is not
    consulted)."""
    assert win("AS AS QS QS | 2C 2C 3D 3D | 2H 2H 5D 5D | 4S 5S 6S 7S", "2D") == 1
    assert win("AS AS QS QS | 4D 4D 3D 3D | 2H 2H 5D 5D | 4S 5S 6S 7S", "2D") == 2


def test_r9_trump_lead_throw_stands() -> None:
    assert win("RJ AH AH | BJ BJ 2S | 3H 4H 5H | 6H 7H 8H") == 0


def test_r9_discard_of_trumps_with_wrong_count_structure_is_ignored() -> None:
    assert win("KS KS QS QS | 3H 3H 5H 5H | 4S 4S 3S 3S | 2D 3D 4D 5D") == 0


# ---------------------------------------------------------------- properties

TRUMPS = [Trump(lv, s) for lv in (Rank.TWO, Rank.SEVEN, Rank.ACE)
          for s in (Suit.SPADES, Suit.DIAMONDS, None)]


@st.composite
def trick(draw: st.DrawFn) -> tuple[list[list[Card]], Trump]:
    """Four plays of one size from a concentrated deck: the lead of one effective suit,
    the others mostly trumps or the led suit (structured, so ruffs and pairs happen)."""
    trump = draw(st.sampled_from(TRUMPS))
    ranks = [r for r in RANKS if abs(r - trump.level) <= 3]
    distinct = [Card(r, s) for r in ranks for s in (Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS)]
    deck = list(draw(st.permutations([c for c in [*distinct, BJ, RJ] for _ in range(2)])))
    n = draw(st.integers(1, 5))
    lead_suit = ref_suit(deck[0], trump)

    def take(source: str) -> list[Card] | None:
        pool = [c for c in deck if source == "any" or
                ref_suit(c, trump) == (lead_suit if source == "led" else "T")]
        play: list[Card] = []
        for c in pool:
            if len(play) == n:
                break
            if c in play:
                continue
            if pool.count(c) == 2 and len(play) + 2 <= n and draw(st.booleans()):
                play += [c, c]
            else:
                play.append(c)
        if len(play) < n:
            return None
        for c in play:
            deck.remove(c)
        return play

    lead = take("led")
    plays = [lead]
    for _ in range(3):
        plays.append(take(draw(st.sampled_from(["led", "trump", "trump", "any"]))))
    if any(p is None for p in plays):
        return [[deck[0]], [deck[1]], [deck[2]], [deck[3]]], trump
    return [p for p in plays if p is not None], trump


@settings(max_examples=300, deadline=None)
@given(trick())
def test_r9_property_trick_winner_matches_rule_text(case: tuple[list[list[Card]], Trump]
                                                   ) -> None:
    plays, trump = case
    assert trick_winner(plays, trump) == ref_trick_winner(plays, trump)


@settings(max_examples=300, deadline=None)
@given(trick(), st.integers(0, 2**32))
def test_r9_property_sound_invariants(case: tuple[list[list[Card]], Trump], seed: int) -> None:
    """Invariants that follow from R9 alone:
    - the winner is the lead, or a play all in the led suit, or all trumps;
    - prefix consistency: the winner of the first k plays is the winner of the first k-1
      or play k-1, and the full winner w also wins the first w+1 plays;
    - appending a copy of the winning play never changes the winner (ties: earlier);
    - appending a mixed play (led suit + another suit) never changes the winner;
    - the order of cards inside a play does not matter;
    - renaming the side suits (a permutation fixing the trump suit) does not matter."""
    plays, trump = case
    w = trick_winner(plays, trump)
    assert 0 <= w < len(plays)
    lead_suit = trump.effective_suit(plays[0][0])
    suits = {trump.effective_suit(c) for c in plays[w]}
    assert suits in ({lead_suit}, {"T"})
    for k in range(2, len(plays) + 1):
        assert trick_winner(plays[:k], trump) in (trick_winner(plays[: k - 1], trump), k - 1)
    assert trick_winner(plays[: w + 1], trump) == w
    assert trick_winner([*plays, list(plays[w])], trump) == w
    rng = random.Random(seed)
    shuffled = [rng.sample(p, len(p)) for p in plays]
    assert trick_winner(shuffled, trump) == w
    sides = [s for s in Suit if s != trump.suit]
    perm = dict(zip(sides, rng.sample(sides, len(sides)), strict=True))

    def rename(c: Card) -> Card:
        if c.suit is None or c.suit == trump.suit:
            return c
        return Card(c.rank, perm[c.suit])

    assert trick_winner([[rename(c) for c in p] for p in plays], trump) == w


def test_r9_appending_a_mixed_play_never_wins() -> None:
    trump = T("2H")
    base = [cards("KS KS"), cards("3H 3H"), cards("AS AS")]
    assert trick_winner([*base, cards("RJ AS")], trump) == 1
    assert trick_winner([*base, cards("RJ 3D")], trump) == 1
