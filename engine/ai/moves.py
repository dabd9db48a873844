"""Candidate moves: a few distinct legal follows and leads worth considering."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import ALL_CARDS, Card, card_points
from engine.follow import answer_shapes, build_follow
from engine.matching import best_answer, full_answer, pair_counts, shapes_of
from engine.rules import ThrowRuff
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import Unit, decompose_lead, decompose_suit, group_by_suit

TRUMP = 4
CardKey = Callable[[Card], float]
_POINTS = tuple(card.points for card in ALL_CARDS)


def suit_of(cards: Sequence[Card], trump: Trump) -> int:
    return trump.suit_index(cards[0])


def lead_shapes(lead: Sequence[Card], trump: Trump) -> tuple[int, ...]:
    return shapes_of(u.pairs for u in decompose_suit(list(lead), trump))


_BASES: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def discard_bases(trump: Trump) -> tuple[int, ...]:
    """Per card code, the part of `discard_key` that depends on the card alone: points,
    trumpness and strength (the rules run thousands of times per decision in rollouts).
    Kept by the identity of the trump's shared table `Trump.suit_indexes` (cheaper to look
    up than a trump; the table is checked, so a reused id cannot mislead)."""
    suits = trump.suit_indexes
    found = _BASES.get(id(suits))
    if found is None or found[0] is not suits:
        strengths = trump.strengths
        found = _BASES[id(suits)] = (suits, tuple(
            _POINTS[code] * 100 + (60 if suits[code] == TRUMP else 0) + strengths[code]
            for code in range(len(_POINTS))))
    return found[1]


def discard_key(hand: Sequence[Card], trump: Trump) -> CardKey:
    """Cheapest card to give away: no points, not a trump, not part of a pair, low.

    The hand is counted on the key's first call (many callers never call it)."""
    suits = trump.suit_indexes
    bases = discard_bases(trump)
    counts: list[int] = []
    sizes = [0] * 5

    def key(card: Card) -> float:
        if not counts:
            counts.extend([0] * len(_POINTS))
            for held in hand:
                counts[held.code] += 1
                sizes[suits[held.code]] += 1
        code = card.code
        # the same sum, in the same order, as points*100 + trump + pair + strength + size/2
        return (bases[code] + (25 if counts[code] >= 2 else 0)) + sizes[suits[code]] * 0.5
    return key


def feed_key(hand: Sequence[Card], trump: Trump) -> CardKey:
    """Most points first (to feed a partner who wins), then cheap."""
    cheap = discard_key(hand, trump)

    def key(card: Card) -> float:
        return cheap(card) - _POINTS[card.code] * 250
    return key


def _distinct(options: list[list[Card]]) -> list[list[Card]]:
    unique: dict[tuple[int, ...], list[Card]] = {}
    for option in options:
        key = (option[0].code,) if len(option) == 1 else tuple(sorted(c.code for c in option))
        unique.setdefault(key, option)
    return list(unique.values())


def follow_options(hand: Sequence[Card], lead: Sequence[Card], trump: Trump) -> list[list[Card]]:
    """Distinct legal follows worth considering (each a candidate the player may choose).

    Singles: every distinct card; pairs: every pair; otherwise the lowest and the highest
    structure. Void in a side suit: cheap and point discards and the covering ruffs.
    """
    n = len(lead)
    suit = suit_of(lead, trump)
    groups = group_by_suit(hand, trump)
    held = groups[suit]
    cheap = discard_key(hand, trump)
    feed = feed_key(hand, trump)
    options: list[list[Card]] = []
    shapes = lead_shapes(lead, trump)
    if len(held) > n:
        if n == 1:
            options += [[card] for card in dict.fromkeys(held)]
        elif shapes == (1,) and n == 2 and any(pair_counts(held, trump)):
            pairs = [card for card, count in Counter(held).items() if count >= 2]
            options += [[card, card] for card in pairs]
        else:
            # Skipped calls would only repeat a follow (`_distinct` drops repeats): with no
            # pair to take, high and low structures are one; with no points, so are the fills.
            wide = decompose_lead(lead, trump)[1]
            highs = (False, True) if wide or (shapes and any(pair_counts(held, trump))) else (
                False,)
            keys = (cheap, feed) if wide or _any_points(held) else (cheap,)
            for prefer_high in highs:
                for key in keys:
                    options.append(build_follow(hand, lead, trump, prefer_high=prefer_high,
                                                fill_key=key))
        return _distinct(options)
    rest = [c for c in hand if trump.suit_index(c) != suit]
    for key in (cheap, feed) if _any_points(rest) else (cheap,):
        options.append(held + sorted(rest, key=key)[: n - len(held)])
    if not held and suit != TRUMP:
        trumps = groups[TRUMP]
        if len(trumps) >= n and best_answer(shapes, pair_counts(trumps, trump)) == full_answer(
                shapes):
            if n == 1:
                options += [[card] for card in dict.fromkeys(trumps)]
            elif shapes == (1,) and n == 2:
                options += [[card, card] for card, count in Counter(trumps).items()
                            if count >= 2]
            else:
                for prefer_high in (False, True):
                    options.append(answer_shapes(trumps, shapes, n, trump, prefer_high=prefer_high,
                                                  fill_key=cheap))
    return _distinct(options)


def _any_points(cards: Sequence[Card]) -> bool:
    return any(_POINTS[c.code] for c in cards)


def simple_leads(hand: Sequence[Card], trump: Trump) -> list[list[Card]]:
    """Every distinct single, pair and (maximal) tractor in `hand` as a lead."""
    options: list[list[Card]] = []
    for group in group_by_suit(hand, trump):
        if not group:
            continue
        options += [[card] for card in dict.fromkeys(group)]
        counts = Counter(group)
        options += [[card, card] for card, count in counts.items() if count >= 2]
        options += [list(u.cards) for u in decompose_suit(group, trump) if u.pairs >= 2]
    return options


def best_cash(groups: Sequence[Sequence[Card]],
              safe_of: Callable[[int, Sequence[Card]], list[list[Card]]]) -> list[Card] | None:
    """The best side suit to cash: all of a suit's safe units at once (`safe_of(suit,
    cards)`: the units nobody can beat or ruff, none if the suit is not safe), the most
    cards and points first; `None` if no side suit has any."""
    best: tuple[float, list[Card]] | None = None
    for suit in range(TRUMP):
        group = groups[suit]
        if not group:
            continue
        safe = safe_of(suit, group)
        if not safe:
            continue
        cards = [c for unit in safe for c in unit]
        score = len(cards) * 10 + card_points(cards)
        if best is None or score > best[0]:
            best = (score, cards)
    return None if best is None else best[1]


def units_of(cards: Sequence[Card], trump: Trump) -> list[Unit]:
    return decompose_suit(list(cards), trump)


def single_best(plays: Sequence[Sequence[Card]], trump: Trump) -> tuple[int, int, bool]:
    """For a trick of singles: (index of the winning play, its strength, whether a ruff)."""
    suits, strengths = trump.suit_indexes, trump.strengths
    code = plays[0][0].code
    suit = suits[code]
    best, top, ruffed = 0, strengths[code], False
    for index in range(1, len(plays)):
        code = plays[index][0].code
        card_suit = suits[code]
        strength = strengths[code]
        if card_suit == suit and not ruffed:
            if strength > top:
                best, top = index, strength
        elif card_suit == TRUMP and suit != TRUMP and (not ruffed or strength > top):
            best, top, ruffed = index, strength, True
    return best, top, ruffed


def single_beats(card: Card, suit: int, top: int, ruffed: bool, trump: Trump) -> bool:
    """Whether a single `card` takes a trick of singles led in `suit` from its winner."""
    card_suit = trump.suit_indexes[card.code]
    if card_suit == suit and not ruffed:
        return trump.strengths[card.code] > top
    return card_suit == TRUMP and suit != TRUMP and (
        not ruffed or trump.strengths[card.code] > top)


def wins_now(plays: Sequence[Sequence[Card]], candidate: Sequence[Card], trump: Trump,
             throw_ruff: ThrowRuff = ThrowRuff.LARGEST_UNIT) -> bool:
    """Whether `candidate`, played after `plays`, would be winning the trick (under the
    table's `throw_ruff` house rule)."""
    if len(candidate) == 1:
        _, top, ruffed = single_best(plays, trump)
        return single_beats(candidate[0], trump.suit_indexes[plays[0][0].code], top, ruffed,
                            trump)
    return trick_winner([*plays, candidate], trump, throw_ruff) == len(plays)
