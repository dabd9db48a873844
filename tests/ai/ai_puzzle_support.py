"""Build mid-hand positions through the engine for the AI puzzles (no tests here).

`position(...)` makes a `Match` in the PLAYING phase with the given remaining hands, the
current trick, optional explicit earlier tricks, and a kitty. The rest of the pack is
"already played" in filler tricks of one suit each (so they show no voids); what a puzzle
wants the AI to know (a void, a played ace) it states in `history`. A hand written with
`?` ("KD KD ?") is completed with random cards of suits that seat has not shown void in.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.actions import Bury, Declare, Pass, Play, StartHand
from engine.cards import ALL_CARDS, Card, Rank, parse_cards
from engine.events import TrumpHow
from engine.game import Declaration, HandState, Match, Phase, Trick
from engine.rules import RuleSet
from engine.trump import Trump

HAND = 25


def C(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def position(hands: Sequence[str], trump: str, starter: int, *, leader: int,
             trick: Sequence[str] = (), history: Sequence[tuple[int, Sequence[str]]] = (),
             kitty: str | None = None, opponent_points: int = 0,
             declarations: Sequence[tuple[int, str]] = ()) -> Match:
    """A match in the PLAYING phase; `trick` holds the current trick's plays from `leader`."""
    chosen = Trump.parse(trump)
    held = [C(h.replace("?", "")) for h in hands]
    current = [C(p) for p in trick]
    explicit = [(who, [C(p) for p in plays]) for who, plays in history]
    pool: Counter[Card] = Counter({card: 2 for card in ALL_CARDS})
    for cards in held + current + [c for _, plays in explicit for c in plays]:
        pool.subtract(cards)
    if kitty is not None:
        pool.subtract(C(kitty))
    spent = [0] * 4
    voids: list[set[int]] = [set() for _ in range(4)]
    for who, plays in [*explicit, (leader, current)]:
        for i, play in enumerate(plays):
            spent[(who + i) % 4] += len(play)
            if i and any(chosen.suit_index(c) != chosen.suit_index(plays[0][0]) for c in play):
                voids[(who + i) % 4].add(chosen.suit_index(plays[0][0]))
    fill = {HAND - len(held[s]) - spent[s] for s in range(4) if "?" not in hands[s]}
    assert len(fill) == 1, f"hand sizes do not add up: {fill}"
    tricks_before = fill.pop()
    shuffle = random.Random(7)
    for seat in range(4):  # "?": the seat gets random cards of suits it is not void in
        if "?" in hands[seat]:
            need = HAND - spent[seat] - tricks_before - len(held[seat])
            cards = sorted((c for c, n in pool.items() for _ in range(n)
                            if chosen.suit_index(c) not in voids[seat]), key=lambda c: c.code)
            extra = tuple(shuffle.sample(cards, need))
            held[seat] += extra
            pool.subtract(extra)
    if kitty is not None:
        pool.update(C(kitty))
    buried = _kitty(pool, chosen, kitty)
    pool.subtract(buried)
    assert all(n >= 0 for n in pool.values()), "a card appears more than twice"
    filler = _filler(pool, chosen, tricks_before, starter)
    tricks = filler + explicit
    played = tuple((( who + i) % 4, play) for who, plays in tricks
                   for i, play in enumerate(plays))
    played += tuple(((leader + i) % 4, play) for i, play in enumerate(current))
    turn = (leader + len(current)) % 4
    hand = HandState(
        number=1, seed=99, deal_no=0, phase=Phase.PLAYING, level=chosen.level,
        starter=starter, hands=tuple(held), stock=(), kitty=buried, batch=5,
        declarations=tuple(Declaration(s, C(c)) for s, c in declarations),
        trump=chosen, trump_how=TrumpHow.DECLARED, turn=turn,
        trick=Trick(len(tricks) + 1, leader, tuple(current)) if current else None,
        tricks_played=len(tricks), played=played, opponent_points=opponent_points,
        opponent_trick_points=opponent_points,
    )
    return Match(rules=RuleSet(), levels=(chosen.level, chosen.level), hand_no=1,
                 starter=starter, hand=hand)


def _kitty(pool: Counter[Card], trump: Trump, kitty: str | None) -> tuple[Card, ...]:
    """The given kitty, or 8 cards that leave every suit's count a multiple of four."""
    if kitty is not None:
        return C(kitty)
    cards = sorted((c for c, n in pool.items() for _ in range(n)),
                   key=lambda c: (c.points > 0, trump.strength(c), c.code))
    by_suit: dict[int, list[Card]] = {}
    for card in cards:
        by_suit.setdefault(trump.suit_index(card), []).append(card)
    chosen = [c for group in by_suit.values() for c in group[: len(group) % 4]]
    for group in by_suit.values():
        rest = group[len(group) % 4:]
        while len(chosen) < 8 and len(rest) >= 4:
            chosen += rest[:4]
            rest = rest[4:]
    assert len(chosen) == 8, "cannot pick a kitty that keeps filler tricks in one suit"
    return tuple(chosen)


def _filler(pool: Counter[Card], trump: Trump, count: int,
            starter: int) -> list[tuple[int, list[tuple[Card, ...]]]]:
    cards = sorted((c for c, n in pool.items() for _ in range(n)),
                   key=lambda c: (trump.suit_index(c), trump.strength(c), c.code))
    assert len(cards) == 4 * count
    return [(starter, [(card,) for card in cards[4 * i:4 * i + 4]]) for i in range(count)]


def level(text: str) -> Rank:
    return Rank.parse(text)


RULES = RuleSet()


def declaring(hand: str, level_rank: str, seat: int = 0, *, starter: int | None = None,
              declarations: Sequence[tuple[int, str]] = (), batch: int = 4) -> Match:
    """A match in a declaration window after `batch` batches, `seat` holding `hand`."""
    mine = C(hand)
    assert len(mine) == 5 * batch
    pool: Counter[Card] = Counter({card: 2 for card in ALL_CARDS})
    pool.subtract(mine)
    rest = [c for c, n in sorted(pool.items(), key=lambda cn: cn[0].code) for _ in range(n)]
    hands: list[tuple[Card, ...]] = []
    for s in range(4):
        if s == seat:
            hands.append(mine)
        else:
            hands.append(tuple(c for c in rest[:5 * batch] if c.rank != Rank.parse(level_rank)
                               and not c.rank.is_joker)[:5 * batch])
            for card in hands[-1]:
                rest.remove(card)
    hand = HandState(
        number=1, seed=99, deal_no=0, phase=Phase.DECLARING, level=Rank.parse(level_rank),
        starter=starter, hands=tuple(hands), stock=tuple(rest[8:]), kitty=tuple(rest[:8]),
        batch=batch, declarations=tuple(Declaration(s, C(c)) for s, c in declarations),
    )
    lvl = Rank.parse(level_rank)
    return Match(rules=RuleSet(), levels=(lvl, lvl), hand_no=1, starter=starter, hand=hand)


def burying(cards33: str, trump: str, seat: int = 0) -> Match:
    """A match where `seat` (the starter) buries from `cards33` (its 25 plus the kitty)."""
    chosen = Trump.parse(trump)
    mine = C(cards33)
    assert len(mine) == 33
    pool: Counter[Card] = Counter({card: 2 for card in ALL_CARDS})
    pool.subtract(mine)
    rest = [c for c, n in sorted(pool.items(), key=lambda cn: cn[0].code) for _ in range(n)]
    hands = [rest[25 * i:25 * i + 25] for i in range(3)]
    full: list[tuple[Card, ...]] = []
    for s in range(4):
        full.append(mine[:25] if s == seat else tuple(hands.pop()))
    hand = HandState(
        number=1, seed=99, deal_no=0, phase=Phase.BURYING, level=chosen.level,
        starter=seat, hands=tuple(full), stock=(), kitty=mine[25:], batch=5, trump=chosen,
        trump_how=TrumpHow.DECLARED, turn=seat,
    )
    return Match(rules=RuleSet(), levels=(chosen.level, chosen.level), hand_no=1,
                 starter=seat, hand=hand)


def replayed(hand_seed: int, level_rank: str, starter: int, actions: Sequence[str]) -> Match:
    """A position from a real deal: the hand dealt from `hand_seed`, then `actions` applied,
    each written `"P<seat>"` (pass), `"D<seat> cards"` (declare), `"B<seat> cards"` (bury)
    or `"L<seat> cards"` (play), as an arena replay records them."""
    lvl = Rank.parse(level_rank)
    match = Match(rules=RuleSet(), levels=(lvl, lvl), starter=starter)
    match, _ = match.apply(StartHand(hand_seed))
    kinds = {"D": Declare, "B": Bury, "L": Play}
    for text in actions:
        head, _, cards = text.partition(" ")
        seat = int(head[1:])
        action = Pass(seat) if head[0] == "P" else kinds[head[0]](seat, C(cards))
        match, _ = match.apply(action)
    return match
