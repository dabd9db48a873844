"""The rule player's leads and follows in Finding Friends, over a `FriendsTable`.

Every candidate play comes from the engine's follow builders (`build_follow`,
`answer_shapes`, `answer_wide`) and is checked with `follow_error`, so the play is legal with
triples, quadruples and tractors of tuples alike.

Leads, in order: a hidden friend leads the called copies when they stand (it reveals itself
while taking a trick); the starter leads its own copies of a card it called a later copy of
(the next copy is then someone else's), or a low card of a suit whose top card it called (the
friend wins it); then cards nobody can beat that no enemy can ruff (a whole suit at once
when every unit stands); a low card into an ally's void; a standing trump tuple; else the
cheapest card of a short side suit (an opponent avoids the suits of open calls: the hidden
friend would take the trick with the called card and reveal itself).

Follows: with an ally winning for sure, feed it points; with an enemy winning, take the
trick with the cheapest play that holds (the called copy first, for a hidden friend: it
reveals at the best moment); otherwise play the cheapest cards — no points for an enemy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.ai.friends_know import TRUMP, FriendsTable
from engine.ai.moves import best_cash
from engine.cards import Card, card_points
from engine.follow import answer_shapes, answer_wide, build_follow, follow_error, lead_wide_shapes
from engine.matching import shapes_of
from engine.trump import Trump
from engine.units import decompose_lead, decompose_suit, group_by_suit

CardKey = Callable[[Card], float]


def card_value(card: Card, trump: Trump) -> float:
    """How much a card is worth keeping for control (points aside)."""
    strength = trump.strength(card)
    if trump.suit_index(card) == TRUMP:
        return 6 + strength * 1.5
    return strength * 0.6


def discard_key(t: FriendsTable) -> CardKey:
    """Cheapest card to give away: no points, not a trump, not in a tuple, low, long suit;
    never a called copy this seat wants to play itself (or must not play)."""
    trump = t.trump
    counts = Counter(t.hand)
    sizes = Counter(trump.suit_index(c) for c in t.hand)
    guarded = {c.call.card for c in t.calls if c.open}

    def key(card: Card) -> float:
        suit = trump.suit_index(card)
        return (card.points * 100 + (60 if suit == TRUMP else 0)
                + (25 if counts[card] >= 2 else 0) + trump.strength(card)
                + sizes[suit] * 0.5 + (40 if card in guarded else 0))
    return key


def feed_key(t: FriendsTable) -> CardKey:
    """Most points first (to feed an ally who wins), then cheap."""
    cheap = discard_key(t)
    return lambda card: cheap(card) - card.points * 250


def _distinct(options: list[list[Card]]) -> list[list[Card]]:
    unique: dict[tuple[int, ...], list[Card]] = {}
    for option in options:
        unique.setdefault(tuple(sorted(c.code for c in option)), option)
    return list(unique.values())


def follow_candidates(t: FriendsTable) -> list[list[Card]]:
    """Distinct legal follows worth considering (never empty)."""
    hand, trump = t.hand, t.trump
    lead = t.plays[0]
    n = len(lead)
    suit = trump.suit_index(lead[0])
    groups = group_by_suit(hand, trump)
    held = groups[suit]
    cheap, feed = discard_key(t), feed_key(t)
    options: list[list[Card]] = []
    if n == 1:
        options += [[c] for c in dict.fromkeys(held or hand)]
    else:
        for high in (False, True):
            for key in (cheap, feed):
                options.append(build_follow(hand, lead, trump, prefer_high=high, fill_key=key))
        units, wide = decompose_lead(lead, trump)
        if len(units) == 1 and units[0].length == 1 and units[0].width >= 2:
            width = units[0].width
            options += [[c] * width for c, k in Counter(held).items() if k >= width]
        trumps = groups[TRUMP]
        if not held and suit != TRUMP and len(trumps) >= n:
            for high in (False, True):
                if wide:
                    options.append(answer_wide(trumps, lead_wide_shapes(units), n, trump,
                                               prefer_high=high, fill_key=cheap))
                else:
                    options.append(answer_shapes(trumps, shapes_of(u.pairs for u in units), n,
                                                 trump, prefer_high=high, fill_key=cheap))
    follow = t.rules.follow
    legal = [o for o in _distinct(options)
             if follow_error(hand, lead, o, trump, follow) is None]
    return legal or [build_follow(hand, lead, trump, prefer_high=False, fill_key=cheap)]


# --- called cards ---------------------------------------------------------------------------


def reveal_cards(t: FriendsTable) -> list[Card] | None:
    """For a hidden friend: the called copies it still needs, as one play (identical cards)."""
    for call in t.friend_calls:
        return [call.call.card] * call.needed
    return None


def self_voiding(t: FriendsTable, option: Sequence[Card]) -> bool:
    """Whether the starter would play a called copy itself (its call then adds nobody)."""
    if t.seat != t.starter:
        return False
    return any(call.open and 0 < call.needed <= option.count(call.call.card)
               for call in t.calls)


def reveals_friend(t: FriendsTable, option: Sequence[Card]) -> bool:
    return any(0 < call.needed <= option.count(call.call.card) for call in t.friend_calls)


# --- leads ----------------------------------------------------------------------------------


def choose_lead(t: FriendsTable) -> list[Card]:
    trump = t.trump
    hand = t.hand
    groups = group_by_suit(hand, trump)
    enemies = t.enemies()
    cheap = discard_key(t)

    def ruffable(suit: int) -> bool:
        return any(t.may_ruff(s, suit) for s in enemies)

    reveal = reveal_cards(t)
    if reveal is not None and t.unit_safe(reveal) and not ruffable(trump.suit_index(reveal[0])):
        return reveal
    if t.seat == t.starter:
        lead = _starter_call_lead(t, groups)
        if lead is not None:
            return lead

    def safe_of(suit: int, group: Sequence[Card]) -> list[list[Card]]:
        if ruffable(suit):
            return []
        safe = [list(u.cards) for u in decompose_suit(group, trump) if t.unit_safe(u.cards)]
        return [u for u in safe if not self_voiding(t, u)]

    cash = best_cash(groups, safe_of)
    if cash is not None:
        return cash
    allies = [s for s in t.others() if t.allied(s)]
    for suit in range(4):
        group = groups[suit]
        if group and any(t.may_ruff(s, suit) and suit in t.void[s] for s in allies) \
                and not ruffable(suit):
            return [min(group, key=cheap)]
    safe_trumps = [list(u.cards) for u in decompose_suit(groups[TRUMP], trump)
                   if u.width >= 2 and t.unit_safe(u.cards)]
    if safe_trumps:
        return max(safe_trumps, key=len)
    side = [c for s in range(4) for c in groups[s] if not self_voiding(t, [c])]
    if not t.declarer:  # an opponent does not lead where a hidden friend's card wins
        called = {call.suit for call in t.calls if call.open}
        side = [c for c in side if trump.suit_index(c) not in called] or side
    counts = Counter(side)
    low_tuples = [c for c, k in counts.items() if k >= 2 and c.points == 0
                  and trump.strength(c) <= 7]
    if low_tuples:
        card = min(low_tuples, key=trump.strength)
        return [card] * counts[card]
    if side:
        sizes = Counter(trump.suit_index(c) for c in side)
        return [min(side, key=lambda c: cheap(c) + sizes[trump.suit_index(c)] * 2)]
    return [min(hand, key=cheap)]


def _starter_call_lead(t: FriendsTable, groups: list[list[Card]]) -> list[Card] | None:
    """The starter's leads that find its friends (see the module docstring)."""
    for call in t.calls:
        if not call.open or call.needed <= 0:
            continue
        if 0 < call.mine < call.needed:  # lead its own copies before the called one
            return [call.call.card] * call.mine
    for call in t.calls:
        if call.open and call.mine == 0 and call.needed > 0:
            low = [c for c in groups[call.suit] if c.points == 0]
            if low:
                return [min(low, key=t.trump.strength)]
    return None


# --- follows --------------------------------------------------------------------------------


def choose_follow(t: FriendsTable) -> list[Card]:
    trump = t.trump
    plays = t.plays
    every = follow_candidates(t)
    options = [o for o in every if not self_voiding(t, o)] or every
    if len(options) == 1:
        return options[0]
    winner = (t.leader + t.winner_index(plays)) % t.seats
    later = t.later()
    enemies_later = t.enemies(later)
    cheap = discard_key(t)
    trick_points = card_points(c for p in plays for c in p)

    def cheapness(option: Sequence[Card]) -> float:
        return sum(cheap(c) for c in option) + (500 if self_voiding(t, option) else 0)

    def cost(option: Sequence[Card]) -> float:
        return sum(card_value(c, trump) for c in option) + (
            50 if self_voiding(t, option) else 0)

    def holds(option: Sequence[Card]) -> bool:
        return not enemies_later or not t.beatable([*plays, option], enemies_later)

    winning = [o for o in options if t.wins_now(o)]
    sure = [o for o in winning if holds(o)]
    revealing = [o for o in sure if reveals_friend(t, o)]
    if revealing:  # a hidden friend shows itself by taking the trick
        return min(revealing, key=cost)
    if t.allied(winner):
        if not enemies_later or not t.beatable(plays, enemies_later):
            return max(options, key=lambda o: (card_points(o), -cheapness(o)))
        if sure and trick_points >= 10:
            return min(sure, key=lambda o: cost(o) - 3 * card_points(o))
        return min(options, key=cheapness)
    if sure:
        pick = min(sure, key=lambda o: cost(o) - 2 * card_points(o))
        if trick_points + card_points(pick) > 0 or cost(pick) < 12:
            return pick
    if winning and trick_points >= 10:
        suit = trump.suit_index(plays[0][0])
        top = [o for o in winning if trump.suit_index(o[0]) == suit and t.unit_safe(o)]
        if top:
            return min(top, key=cost)
        if not later or trick_points >= 15:
            return min(winning, key=cost)
    return min(options, key=cheapness)


def choose_play(t: FriendsTable) -> list[Card]:
    return choose_follow(t) if t.plays else choose_lead(t)
