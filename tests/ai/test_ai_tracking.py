"""Card tracking and sampling: what counting proves, and deals consistent with it."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from ai_puzzle_support import C, position

from engine.ai import PLAYERS, make_player
from engine.ai.context import Knowledge
from engine.ai.montecarlo import sample_hands
from engine.ai.view import seen_of

TRUMP = 4
CLUBS = 3
DIAMONDS = 2


def knowledge(match_seat: int, **kwargs: object) -> Knowledge:
    match = position(**kwargs)  # type: ignore[arg-type]
    return Knowledge.of(seen_of(match.view_for(match_seat)))


def test_voids_no_pairs_and_counts_come_from_the_tricks() -> None:
    history = [(1, ["3C", "4H", "4C", "5C"]), (1, ["6D 6D", "7D 8D", "9D 9D", "JD JD"])]
    k = knowledge(0, hands=["6C 7C 9S 8S", "?", "?", "?"], trump="2H", starter=1, leader=0,
                  history=history)
    assert CLUBS in k.void[2]  # ruffed a club lead
    assert DIAMONDS in k.no_pairs[2]  # answered a pair with two singles
    assert k.left == [4, 4, 4, 4]
    total = sum(k.unseen.values())
    assert total == 3 * 4 + 8  # the other hands and the kitty
    assert k.unseen[C("6D")[0]] == 0  # both played


def test_shown_declarations_are_known_until_played() -> None:
    match = position(["6C 7C 9S 8S", "2S ?", "?", "?"], "2S", 0, leader=0,
                     declarations=[(1, "2S")])
    k = Knowledge.of(seen_of(match.view_for(0)))
    assert k.known[1] == Counter(C("2S"))


def test_the_starter_counts_its_own_kitty() -> None:
    match = position(["RJ 3C", "AC 4S", "6S 7S", "8S 9S"], "2H", 0, leader=0,
                     kitty="KD KD 10D 10D 5S 5S KS 10S")
    mine = Knowledge.of(seen_of(match.view_for(0)))
    theirs = Knowledge.of(seen_of(match.view_for(1)))
    assert sum(mine.unseen.values()) == 6
    assert sum(theirs.unseen.values()) == 6 + 8


def test_sampled_deals_respect_counts_voids_and_known_cards() -> None:
    history = [(1, ["3C", "4H", "4C", "5C"]), (1, ["6D 6D", "7D 8D", "9D 9D", "JD JD"])]
    match = position(["6C 7C 9S 8S", "?", "?", "?"], "2H", 1, leader=0, history=history)
    k = Knowledge.of(seen_of(match.view_for(0)))
    trump = k.seen.trump
    rng = random.Random(3)
    for _ in range(50):
        hands = sample_hands(k, rng)
        assert [len(h) for h in hands[1:4]] == [4, 4, 4] and len(hands[4]) == 8
        assert not any(trump.suit_index(c) == CLUBS for c in hands[2])
        diamonds = Counter(c for c in hands[2] if trump.suit_index(c) == DIAMONDS)
        assert all(n < 2 for n in diamonds.values())
        dealt = Counter(c for h in hands[1:] for c in h)
        assert dealt == k.unseen


def test_players_see_only_their_view() -> None:
    """Two deals that look the same from seat 0 get the same decision from every player."""
    first = position(["AC 9C 7C 4C", "?", "?", "?"], "2H", 0, leader=0)
    assert first.hand is not None
    swapped_hands = (first.hand.hands[0], first.hand.hands[3], first.hand.hands[2],
                     first.hand.hands[1])
    second = replace(first, hand=replace(first.hand, hands=swapped_hands))
    for name in PLAYERS:
        a = make_player(name, 5).decide(first.view_for(0))
        b = make_player(name, 5).decide(second.view_for(0))
        assert a == b
