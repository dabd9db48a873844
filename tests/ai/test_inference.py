"""The inference model: hard facts always hold in sampled deals, soft evidence shifts them."""

from __future__ import annotations

import random
from collections import Counter

from ai_puzzle_support import C, position

from engine.ai.context import Knowledge
from engine.ai.inference import KITTY, infer, sample_world
from engine.ai.tables import TrackedTable
from engine.ai.view import seen_of

CLUBS = 3


def test_sampled_deals_keep_counts_voids_and_the_current_trick() -> None:
    history = [(1, ["3C", "4H", "4C", "5C"])]
    match = position(["6C 7C 9S 8S", "?", "?", "?"], "2H", 1, leader=0, history=history)
    k = Knowledge.of(seen_of(match.view_for(0)))
    belief = infer(k)
    rng = random.Random(1)
    for _ in range(30):
        sim = sample_world(belief, rng)
        assert [len(h) for h in sim.hands] == k.left
        assert sim.hands[0] == list(C("6C 7C 9S 8S"))
        assert not any(k.seen.trump.suit_index(c) == CLUBS for c in sim.hands[2])
        assert Counter(c for h in sim.hands[1:] for c in h) <= k.unseen


def test_the_kitty_seldom_holds_aces_or_trumps() -> None:
    hand = "AC 9C 7C 4C KD 9D 8D 6D 3D QS JS 9S 6S 4H 5H 7H 8H 9H 10H JH QH 3H 6H 3C 8S"
    match = position([hand, "?", "?", "?"], "2H", 1, leader=0)
    k = Knowledge.of(seen_of(match.view_for(0)))
    belief = infer(k)
    aces = [c for c in k.unseen if c.rank.name == "ACE"]
    lows = [c for c in k.unseen if c.rank.name == "THREE" and c.suit is not None
            and c.suit.value != "H"]
    assert aces and lows
    assert all(belief.of(KITTY, a) < belief.of(KITTY, low) for a in aces for low in lows)


def test_a_failed_throw_shows_where_the_suit_is() -> None:
    """Every unseen heart was shown in the partner's failed throw: the last seat is void."""
    from test_puzzles_plans import overruff

    match = overruff("SHDC").build()
    table = TrackedTable(Knowledge.of(seen_of(match.view_for(0))))
    assert table.void_chance(1, 1) == 1.0
    assert table.void_chance(2, 1) == 0.0


def test_likely_voids_are_counted() -> None:
    """One spade unseen and eight cards a seat: each opponent is void more likely than not."""
    from test_puzzles_plans import likely_void

    match = likely_void("SHDC").build()
    table = TrackedTable(Knowledge.of(seen_of(match.view_for(0))))
    assert table.ruff_chance(1, 0) > 0.5 and table.ruff_chance(3, 0) > 0.5
