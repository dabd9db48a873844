"""A belief for Finding Friends searches (issue 40): deals of the unseen cards to the seats
still to play that respect what the table has shown, with the sides that go with them.

Each sampled world decides, for every open call this seat cannot answer itself, which unknown
seat holds the called copy (drawn by `FriendsTable.p`, the friend odds from the cards out and
how friend-like each seat played); that seat gets a copy of the card and is on the starter's
side in that world, the other unknown seats are not (a revealed friend and the starter are on
it for sure, `FriendsTable.known`). The rest of the unseen cards go to the later seats at
random, never of a suit a seat has shown it lacks (when the cards allow).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.ai.friends_know import FriendsTable
from engine.cards import Card


@dataclass(slots=True)
class FriendsWorld:
    """One sampled world: the later seats' hands and each seat's side (`True`: the
    starter's)."""

    hands: dict[int, list[Card]]
    starters_side: list[bool]


def holders(t: FriendsTable) -> list[tuple[Card, list[int], list[float]]]:
    """For each open call others must answer: the card, the seats that may hold the called
    copy, and their weights (friend odds)."""
    out = []
    for call in t.calls:
        if not call.open or call in t.friend_calls or call.needed <= 0:
            continue
        if t.decks - call.played - call.mine - call.buried < 1:
            continue
        seats = [s for s in t.others() if s not in t.known and t.left[s]
                 and call.suit not in t.void[s]]
        weights = [max(t.p[s], 1e-3) for s in seats]
        if seats:
            out.append((call.call.card, seats, weights))
    return out


def sample_world(t: FriendsTable, later: list[int], rng: random.Random) -> FriendsWorld:
    """One world (module docstring) for the seats in `later`."""
    sides = [s in t.known for s in range(t.seats)]
    sides[t.seat] = t.declarer
    pool = Counter(t.unseen)
    hands: dict[int, list[Card]] = {s: [] for s in later}
    for card, seats, weights in holders(t):
        seat = rng.choices(seats, weights)[0]
        sides[seat] = True
        if pool[card] > 0:
            pool[card] -= 1
            if seat in hands and len(hands[seat]) < t.left[seat]:
                hands[seat].append(card)
    cards = sorted(pool.elements(), key=lambda c: c.code)
    rng.shuffle(cards)
    suits = t.trump.suit_indexes
    for seat in sorted(later, key=lambda s: (-len(t.void[s]), later.index(s))):
        need = t.left[seat] - len(hands[seat])
        void = t.void[seat]
        fits = [i for i, c in enumerate(cards) if suits[c.code] not in void][:need]
        if len(fits) < need:  # the facts cannot all hold in this draw: fill anyhow
            fits = list(range(min(need, len(cards))))
        taken = set(fits)
        hands[seat] += [cards[i] for i in fits]
        cards = [c for i, c in enumerate(cards) if i not in taken]
    return FriendsWorld(hands, sides)
