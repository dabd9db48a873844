"""Hints for a seat, from its view only: legal declarations, quick plays, a bury suggestion.

Simple but sensible; the bot's "Quick plays" select, `Hint` and `Suggest` buttons and its
timeout autopilot use these. A stronger computer player lives in `engine.ai`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from engine.cards import Card
from engine.deal import deal_shape
from engine.follow import build_follow, forced_cards
from engine.game import Cards, Phase
from engine.throw import beats_unit
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import Unit, UnitKind, decompose_suit, group_by_suit
from engine.views import PlayerView, unseen_cards

TRUMP_SUIT = 4


def legal_declarations(view: PlayerView) -> tuple[Cards, ...]:
    """The declarations the seat could make now, weakest first (R5)."""
    return view.legal_declarations


def quick_plays(view: PlayerView, limit: int = 8) -> list[Cards]:
    """A short ranked list of legal plays for the seat to move, a sensible default first.

    Leading: a throw that must stand, tractors, unbeatable pairs and side aces, then low
    cards of short side suits. Following: the cheapest winning play (or feeding a winning
    partner), the lowest legal play, and other legal shapes; the forced cards come first in
    each play. Empty when it is not this seat's turn to play.
    """
    public = view.public
    trump = public.trump
    if public.phase is not Phase.PLAYING or not view.to_move or trump is None or not view.hand:
        return []
    lead = view.lead
    if lead is None:
        return _lead_options(view, trump)[:max(limit, 1)]
    return _follow_options(view, lead, trump)[:max(limit, 1)]


# --- following ----------------------------------------------------------------------------


def _follow_options(view: PlayerView, lead: Cards, trump: Trump) -> list[Cards]:
    hand = view.hand
    trick = view.public.trick
    assert trick is not None

    def cheap(card: Card) -> float:
        return card.points * 100 + trump.suit_index(card) * 20 + trump.strength(card)

    def strong(card: Card) -> float:
        return -trump.strength(card) - trump.suit_index(card) * 20

    def points_first(card: Card) -> float:
        return -card.points * 100 + trump.suit_index(card) * 20 + trump.strength(card)

    def trumps_low(card: Card) -> float:  # a ruff attempt when void
        return (0 if trump.is_trump(card) else 1000) + card.points * 10 + trump.strength(card)

    seats = view.public.seats
    winner = trick.plays[(trick.winning_seat(trump) - trick.leader) % seats]
    top = max(winner, key=lambda c: (trump.suit_index(c), trump.strength(c)))

    def just_over(card: Card) -> float:  # the smallest card that beats the winning one
        if trump.suit_index(card) == trump.suit_index(top) and trump.strength(card) > \
                trump.strength(top):
            return trump.strength(card) + card.points
        return 1000 + cheap(card)

    keys: list[tuple[bool, Callable[[Card], float]]] = [
        (False, cheap), (True, strong), (False, just_over), (False, points_first),
        (False, trumps_low), (True, trumps_low), (True, cheap),
    ]
    options = _unique(build_follow(hand, lead, trump, prefer_high=high, fill_key=key)
                      for high, key in keys)
    plays = list(trick.plays)
    ruffs = view.public.rules.throw_ruff
    winning = [trick_winner([*plays, list(o)], trump, ruffs) == len(plays) for o in options]
    partner_ahead = trick.winning_seat(trump) in _allies(view)
    last = len(plays) == seats - 1
    cost = {o: sum(cheap(c) for c in o) for o in options}
    power = {o: sum(trump.suit_index(c) * 20 + trump.strength(c) for c in o) for o in options}
    points = {o: sum(c.points for c in o) for o in options}

    def rank(index: int) -> tuple[int, float]:
        option = options[index]
        if partner_ahead and last:
            return 0, -points[option] * 1000 + cost[option]  # feed the partner's trick
        if winning[index] and not partner_ahead:  # the cheapest winning play
            return 0, power[option] + (0 if last else points[option])
        return 1, cost[option]  # else the lowest play

    ranked = [options[i] for i in sorted(range(len(options)), key=rank)]
    forced = Counter(forced_cards(hand, lead, trump))
    return [_forced_first(option, forced, trump) for option in ranked]


def _allies(view: PlayerView) -> tuple[int, ...]:
    """The other seats the seat knows to be on its side: its partners (fixed teams), and
    the starter's known side for the starter and the revealed friends (F4)."""
    public = view.public
    known = set(public.variant.partners(view.seat, public.seats))
    if view.seat in public.declarer_seats:
        known.update(public.declarer_seats)
    known.discard(view.seat)
    return tuple(sorted(known))


def _forced_first(play: Cards, forced: Counter[Card], trump: Trump) -> Cards:
    left = Counter(forced)
    first: list[Card] = []
    rest: list[Card] = []
    for card in trump.sort(play):
        if left[card]:
            left[card] -= 1
            first.append(card)
        else:
            rest.append(card)
    return (*first, *rest)


def _unique(plays: Iterable[Sequence[Card]]) -> list[Cards]:
    seen: set[tuple[int, ...]] = set()
    found: list[Cards] = []
    for play in plays:
        key = tuple(sorted(card.code for card in play))
        if key not in seen:
            seen.add(key)
            found.append(tuple(play))
    return found


# --- leading ------------------------------------------------------------------------------


def _lead_options(view: PlayerView, trump: Trump) -> list[Cards]:
    return lead_options(view.hand, unseen_cards(view), trump)


def lead_options(hand: Sequence[Card], unseen: Sequence[Card], trump: Trump) -> list[Cards]:
    """Ranked leads from `hand` against the cards the seat has not seen: a throw that must
    stand, tractors (of pairs, triples or quadruples, F2), unbeatable tuples and side aces,
    then low cards of short side suits."""
    unseen_by_suit = group_by_suit(unseen, trump)
    scored: list[tuple[float, Cards]] = []
    groups = group_by_suit(hand, trump)
    side_lengths = [len(g) for g in groups[:TRUMP_SUIT] if g]
    shortest = min(side_lengths) if side_lengths else 0
    for suit, group in enumerate(groups):
        if not group:
            continue
        units = decompose_suit(group, trump)
        safe = [u for u in units if not beats_unit(u, unseen_by_suit[suit], trump)]
        side = suit != TRUMP_SUIT
        if side and len(safe) >= 2:  # every unit unbeatable by any unseen card: it stands
            scored.append((100 + len(safe), tuple(c for u in safe for c in u.cards)))
        for unit in units:
            scored.append((_lead_score(unit, unit in safe, side, len(group) == shortest,
                                       trump), unit.cards))
    scored.sort(key=lambda sc: -sc[0])
    return _unique(cards for _, cards in scored)


def _lead_score(unit: Unit, safe: bool, side: bool, shortest: bool, trump: Trump) -> float:
    points = sum(card.points for card in unit.cards)
    if unit.kind is UnitKind.TRACTOR:
        return 90 + unit.pairs + (5 if side else 0)
    if unit.width > 2:  # a triple or quadruple (F2): above pairs
        if safe:
            return 85 + unit.width + (5 if side else 0)
        return (55 if side else 40) + unit.width + unit.top / 20 - points / 10
    if unit.kind is UnitKind.PAIR:
        if safe:
            return 80 + (5 if side else 0)
        return (50 if side else 35) + unit.top / 20 - points / 10
    if safe and side:
        return 70 + unit.top / 20  # a side ace (or a card nobody can beat)
    if side:  # a low card, preferably from the shortest side suit, without points
        return 40 + (5 if shortest else 0) - unit.top / 2 - points
    return 20 - unit.top / 2 - points  # a low trump


# --- burying ------------------------------------------------------------------------------


def suggest_bury(view: PlayerView) -> Cards:
    """The kitty's size of cards to bury from the starter's hand and kitty (R6; F1: 8 of 33
    in the four-player game): no trumps or points if it can be helped, voiding short side
    suits where that is cheap, otherwise the lowest cards."""
    trump = view.public.trump
    assert trump is not None, "burying comes after trump is set"
    pool = [*view.hand, *(view.kitty or ())]
    size = deal_shape(view.public.rules).kitty_size
    if len(pool) <= size:
        return tuple(pool)
    counts = Counter(pool)
    cost = {card: _bury_cost(card, counts[card], trump) for card in counts}
    suits = [g for g in group_by_suit(pool, trump)[:TRUMP_SUIT] if g]
    best: tuple[float, Cards] | None = None
    for n in range(len(suits) + 1):
        for voided in combinations(suits, n):
            taken = [card for suit in voided for card in suit]
            if len(taken) > size:
                continue
            plan = taken + _cheapest(_without(pool, taken), cost, size - len(taken))
            score = sum(cost[card] for card in plan) - 12 * n
            if best is None or score < best[0]:
                best = (score, tuple(trump.sort(plan)))
    assert best is not None
    return best[1]


def _bury_cost(card: Card, copies: int, trump: Trump) -> float:
    cost = float(trump.strength(card))
    cost += {5: 25, 10: 45}.get(card.points, 0)
    if copies >= 2:
        cost += 20  # keep pairs
    if trump.is_trump(card):
        cost += 200
    return cost


def _without(pool: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    left = Counter(taken)
    rest = []
    for card in pool:
        if left[card]:
            left[card] -= 1
        else:
            rest.append(card)
    return rest


def _cheapest(cards: Sequence[Card], cost: dict[Card, float], n: int) -> list[Card]:
    return sorted(cards, key=lambda c: (cost[c], c.code))[:n]
