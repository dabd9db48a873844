"""The `control` player: a frozen rule player of another style than `expert`'s, for the
sparring pool (issue 40; do not tune it against `ai`).

It counts cards (`TrackedTable`: voids shown, chances of what each seat holds) and plays
for control of the trumps:

- **Declaring**: only with a long trump suit (36% of the cards dealt so far, or 30% with a
  joker or a trump pair).
- **Burying**: voids the shortest side suits it can (up to two), whatever their rank (aces
  aside), then the lowest cards; trumps and points stay when it can help it.
- **Leading, declarer**: draws trumps while it is ahead in trump length (more trumps than
  either opponent is expected to hold), top trump first when it is the master, else its
  lowest; once the opponents are drawn, cashes its masters in suits where neither opponent
  is likely void (a likely void is a ruff risk), then leads its longest suit low.
- **Leading, defender**: leads a suit of which it holds one or two cards (to make a void
  and ruff later), or one the partner is likely void in and the declarers are not, never
  a master into a likely ruff; else its lowest card.
- **Following**: feeds points to a partner whose trick is sure (no unseen card beats it in
  a later opponent's hand, counting voids); takes a trick worth points with its cheapest
  winning play, ruffing when void; else discards its lowest card of its shortest side suit.

Deterministic without chance; only legal plays (`simple_leads`, `follow_options`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.actions import Action, Bury, Declare, Pass, Play
from engine.ai.context import Knowledge
from engine.ai.moves import follow_options, simple_leads, wins_now
from engine.ai.tables import TrackedTable
from engine.ai.view import seen_of
from engine.cards import Card, Rank, card_points
from engine.game import Phase
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import group_by_suit
from engine.views import PlayerView

TRUMP = 4
TOP = 11
"""The strength of a side suit's top card."""
RUFF_RISK = 0.2
"""A side suit is not cashed when an opponent ruffs it with this chance or more."""
SURE = 0.1
"""A trick is the partner's for sure when the later opponents beat it with less chance."""


def value(card: Card, trump: Trump) -> float:
    """How much keeping `card` matters (trumps and masters most, points next)."""
    strength = trump.strength(card)
    if trump.is_trump(card):
        return 40 + strength
    return strength + 3 * card.points + (12 if strength == TOP else 0)


def declaration(hand: Sequence[Card], options: Sequence[tuple[Card, ...]],
                level: Rank) -> tuple[Card, ...] | None:
    """The option whose trump suit is long in the cards dealt so far: 36% of them, or 30%
    with a joker or a trump pair (at least 3 trumps); the longest such."""
    best: tuple[int, tuple[Card, ...]] | None = None
    for option in options:
        trump = Trump(level, option[0].suit)
        trumps = [c for c in hand if trump.is_trump(c)]
        counts = Counter(trumps)
        strong = any(c.suit is None for c in trumps) or any(n >= 2 for n in counts.values())
        share = len(trumps) / max(1, len(hand))
        if len(trumps) >= 3 and (share >= 0.36 or (share >= 0.3 and strong)):
            key = len(trumps) * 10 - len(option)
            if best is None or key > best[0]:
                best = (key, option)
    return None if best is None else best[1]


def bury(cards: Sequence[Card], trump: Trump, size: int) -> list[Card]:
    """`size` cards: void the shortest side suits (aces aside, up to two), then the
    cheapest by `value`."""
    kept = list(cards)
    out: list[Card] = []
    groups = group_by_suit(kept, trump)
    short = sorted((s for s in range(4) if groups[s]), key=lambda s: len(groups[s]))
    for suit in short[:2]:
        group = [c for c in groups[suit] if trump.strength(c) != TOP]
        if len(group) == len(groups[suit]) and len(out) + len(group) <= size:
            out += group
            for card in group:
                kept.remove(card)
    while len(out) < size:
        card = min(kept, key=lambda c: (value(c, trump), c.code))
        kept.remove(card)
        out.append(card)
    return out


def _opponents(seat: int) -> list[int]:
    return [(seat + 1) % 4, (seat + 3) % 4]


def lead(table: TrackedTable) -> list[Card]:
    """The lead (module docstring)."""
    trump = table.trump
    seat = table.seat
    hand = table.hand
    opps = _opponents(seat)
    groups = group_by_suit(hand, trump)
    others = [s for s in range(4) if s != seat]
    options = simple_leads(hand, trump)
    declarer = seat % 2 == table.starter % 2
    trumps = groups[TRUMP]
    if declarer and trumps:
        most = max(table.trumps_held([o]) for o in opps)
        if most >= 0.5 and len(trumps) > most:
            masters = [o for o in options if table.trump.is_trump(o[0])
                       and table.unit_safe(o, others)]
            if masters:
                return max(masters, key=lambda o: (len(o), trump.strength(o[0])))
            return [min(trumps, key=lambda c: (value(c, trump), c.code))]
    ruff = [max(table.ruff_chance(o, s) for o in opps) for s in range(4)]
    masters = [o for o in options if not trump.is_trump(o[0]) and table.unit_safe(o, others)
               and ruff[trump.suit_index(o[0])] < RUFF_RISK]
    if masters:
        return max(masters, key=lambda o: (len(o), card_points(o), trump.strength(o[0])))
    partner = (seat + 2) % 4
    side = [s for s in range(4) if groups[s]]
    if not declarer:
        into = [s for s in side if table.ruff_chance(partner, s) >= 0.6 and ruff[s] < RUFF_RISK]
        short = [s for s in side if len(groups[s]) <= 2 and trumps]
        for suit in into + sorted(short, key=lambda s: len(groups[s])):
            return [min(groups[suit], key=lambda c: (value(c, trump), c.code))]
    if side:
        suit = max(side, key=lambda s: (len(groups[s]) - 10 * ruff[s], -s))
        return [min(groups[suit], key=lambda c: (value(c, trump), c.code))]
    return [min(hand, key=lambda c: (value(c, trump), c.code))]


def follow(table: TrackedTable) -> list[Card]:
    """The follow (module docstring)."""
    trump = table.trump
    seat = table.seat
    plays = table.plays
    options = follow_options(table.hand, plays[0], trump)
    if len(options) == 1:
        return options[0]
    groups = group_by_suit(table.hand, trump)

    def cheap(option: Sequence[Card]) -> tuple[float, int]:
        # discards from the shortest side suit first (towards a void)
        short = sum(len(groups[trump.suit_index(c)]) for c in option if not trump.is_trump(c))
        return sum(value(c, trump) for c in option) + 0.5 * short, sum(c.code for c in option)

    winner = (table.leader + trick_winner(plays, trump, table.throw_ruff)) % 4
    later = [(table.leader + i) % 4 for i in range(len(plays) + 1, 4)]
    later_opps = [s for s in later if s % 2 != seat % 2]
    points = sum(card_points(p) for p in plays)
    if winner % 2 == seat % 2:
        risk = table.beat_chance(plays, later_opps) if later_opps else 0.0
        if risk < SURE:
            return max(options, key=lambda o: (card_points(o), [-x for x in cheap(o)]))
        return min(options, key=cheap)
    winning = [o for o in options if wins_now(plays, o, trump, table.throw_ruff)]
    if winning and (points >= 5 or not later_opps):
        holding = [o for o in winning
                   if not later_opps or table.beat_chance([*plays, o], later_opps) < 0.5]
        if holding:
            return min(holding, key=cheap)
    return min(options, key=cheap)


class ControlPlayer:
    """The trump-control rule player (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        del seed  # deterministic without chance

    def decide(self, view: PlayerView) -> Action:
        public = view.public
        if public.phase is Phase.DECLARING:
            assert public.level is not None
            option = declaration(view.hand, view.legal_declarations, public.level)
            return Pass(view.seat) if option is None else Declare(view.seat, option)
        trump = public.trump
        assert trump is not None
        if public.phase is Phase.BURYING:
            assert view.kitty is not None
            cards = bury(view.hand + view.kitty, trump, len(view.kitty))
            return Bury(view.seat, tuple(cards))
        table = TrackedTable(Knowledge.of(seen_of(view)))
        return Play(view.seat, tuple(follow(table) if table.plays else lead(table)))
