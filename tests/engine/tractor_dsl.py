"""Test helpers for the rules tests: the card DSL and a *literal* reading of docs/rules.md.

`cards("AS AS KS")` is `parse_cards`; `T("4D")` is `Trump.parse`. The `ref_*` functions
re-implement R3/R4/R7/R8/R9 straight from the rule text, by brute force and without the
engine's order tables, so the property tests can compare the engine against an
independent oracle on small positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import Literal

from engine import Card, Rank, Suit, Trump, parse_cards

Eff = Suit | Literal["T"]
TR: Literal["T"] = "T"
RANKS = [r for r in Rank if not r.is_joker]  # 2 … A
BJ = Card(Rank.BLACK_JOKER, None)
RJ = Card(Rank.RED_JOKER, None)


def cards(text: str) -> list[Card]:
    """The tiny card DSL: `cards("AS AS KS")`."""
    return parse_cards(text)


def T(text: str) -> Trump:
    """`T("4D")`: level 4, diamonds trump; `T("4NT")`: no trump."""
    return Trump.parse(text)


def key(cs: Iterable[Card]) -> tuple[str, ...]:
    """A multiset of cards as a comparable key."""
    return tuple(sorted(str(c) for c in cs))


def sub_multisets(hand: Sequence[Card], n: int) -> list[list[Card]]:
    """Every distinct sub-multiset of `hand` with `n` cards."""
    seen: dict[tuple[str, ...], list[Card]] = {}
    for combo in combinations(range(len(hand)), n):
        chosen = [hand[i] for i in combo]
        seen.setdefault(key(chosen), chosen)
    return list(seen.values())


# ---------------------------------------------------------------- R3 literally


@cache
def ladder(trump: Trump) -> dict[Eff, list[list[Card]]]:
    """For each effective suit, its cards from LOW to HIGH as steps of equal cards (R3)."""
    level, tsuit = trump.level, trump.suit
    out: dict[Eff, list[list[Card]]] = {}
    if tsuit is None:
        out[TR] = [[Card(level, s) for s in Suit], [BJ], [RJ]]
    else:
        out[TR] = (
            [[Card(r, tsuit)] for r in RANKS if r != level]
            + [[Card(level, s) for s in Suit if s != tsuit]]
            + [[Card(level, tsuit)], [BJ], [RJ]]
        )
    for s in Suit:
        if s != tsuit:
            out[s] = [[Card(r, s)] for r in RANKS if r != level]
    return out


@cache
def ref_pos(card: Card, trump: Trump) -> tuple[Eff, int]:
    """(effective suit, step) of a card; higher step = stronger, equal step = equal."""
    for suit, steps in ladder(trump).items():
        for i, step in enumerate(steps):
            if card in step:
                return suit, i
    raise AssertionError(card)


def ref_suit(card: Card, trump: Trump) -> Eff:
    return ref_pos(card, trump)[0]


# ---------------------------------------------------------------- R4 literally


def pair_steps(cs: Sequence[Card], trump: Trump) -> list[int]:
    """Steps of the pairs (two identical cards) among `cs`, with multiplicity."""
    counts = Counter(cs)
    return sorted(ref_pos(c, trump)[1] for c, k in counts.items() for _ in range(k // 2))


def windows(steps: Sequence[int], n: int) -> list[int]:
    """Tops of every tractor of exactly n pairs in a multiset of pair steps."""
    have = set(steps)
    return [top for top in have if all(top - i in have for i in range(n))]


def ref_shapes(cs: Sequence[Card], trump: Trump) -> list[tuple[str, int, int]]:
    """(kind, pairs, top) of the units of a one-suit play: longest tractors first (R4)."""
    steps = pair_steps(cs, trump)
    units: list[tuple[str, int, int]] = []
    while True:
        best = None
        for n in range(len(set(steps)), 1, -1):
            tops = windows(steps, n)
            if tops:
                best = (n, max(tops))
                break
        if best is None:
            break
        n, top = best
        for i in range(n):
            steps.remove(top - i)
        units.append(("tractor", n, top))
    units += [("pair", 1, s) for s in steps]
    paired = {c for c, k in Counter(cs).items() if k >= 2}
    units += [("single", 0, ref_pos(c, trump)[1]) for c in cs if c not in paired]
    units.sort(key=lambda u: (max(1, 2 * u[1]), u[2]), reverse=True)
    return units


# ---------------------------------------------------------------- R8 literally


def structure_score(shapes: Sequence[int], steps: Sequence[int]) -> tuple[int, ...]:
    """Lexicographic R8 score of how pairs at `steps` answer lead units of `shapes` pairs
    (largest first): a tractor answered by a tractor scores 2n+1, by k pairs 2k."""
    if not shapes:
        return ()
    n, rest = shapes[0], shapes[1:]
    best: tuple[int, ...] | None = None
    idx = range(len(steps))
    for k in range(min(n, len(steps)), -1, -1):
        for combo in {tuple(sorted(steps[i] for i in c)) for c in combinations(idx, k)}:
            used = list(combo)
            consecutive = len(set(used)) == k and (k == 0 or max(used) - min(used) == k - 1)
            comp = 2 * n + 1 if n >= 2 and k == n and consecutive else 2 * k
            left = list(steps)
            for s in used:
                left.remove(s)
            cand = (comp, *structure_score(rest, left))
            if best is None or cand > best:
                best = cand
    assert best is not None
    return best


def lead_shapes(lead: Sequence[Card], trump: Trump) -> list[int]:
    return sorted((u[1] for u in ref_shapes(lead, trump) if u[1] > 0), reverse=True)


def ref_legal_follows(
    hand: Sequence[Card], lead: Sequence[Card], trump: Trump
) -> set[tuple[str, ...]]:
    """Every legal follow (as a key) by brute force over the hand (R8)."""
    n = len(lead)
    suit = ref_suit(lead[0], trump)
    held = [c for c in hand if ref_suit(c, trump) == suit]
    shapes = lead_shapes(lead, trump)
    scored: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
    for play in sub_multisets(hand, n):
        in_suit = [c for c in play if ref_suit(c, trump) == suit]
        if len(held) >= n and len(in_suit) != n:
            continue
        if len(held) < n and len(in_suit) != len(held):
            continue
        scored.append((structure_score(shapes, pair_steps(in_suit, trump)), key(play)))
    top = max(s for s, _ in scored)
    return {k for s, k in scored if s == top}


# ---------------------------------------------------------------- R7 literally


def ref_throw_beatable(lead: Sequence[Card], others: Sequence[Sequence[Card]], trump: Trump
                       ) -> list[tuple[str, int, int]]:
    """The lead's units that some other player could beat in its suit (R7)."""
    suit = ref_suit(lead[0], trump)
    hands = [[c for c in h if ref_suit(c, trump) == suit] for h in others]
    out = []
    for kind, n, top in ref_shapes(lead, trump):
        for h in hands:
            if kind == "single":
                hit = any(ref_pos(c, trump)[1] > top for c in h)
            elif kind == "pair":
                hit = any(s > top for s in pair_steps(h, trump))
            else:
                hit = any(t > top for t in windows(pair_steps(h, trump), n))
            if hit:
                out.append((kind, n, top))
                break
    return out


# ---------------------------------------------------------------- R9 literally


def ref_trick_winner(plays: Sequence[Sequence[Card]], trump: Trump) -> int:
    lead = plays[0]
    suit = ref_suit(lead[0], trump)
    units = ref_shapes(lead, trump)
    shapes = lead_shapes(lead, trump)
    full = tuple(2 * n + 1 if n >= 2 else 2 for n in shapes)
    kind, npairs, _ = units[0]
    winner, best, ruffed = 0, units[0][2], False
    for i, play in enumerate(plays[1:], start=1):
        suits = {ref_suit(c, trump) for c in play}
        if suits == {suit}:
            if len(units) == 1 and not ruffed:
                mine = ref_shapes(play, trump)
                if len(mine) == 1 and mine[0][:2] == (kind, npairs) and mine[0][2] > best:
                    winner, best = i, mine[0][2]
        elif suit != TR and suits == {TR}:
            steps = pair_steps(play, trump)
            if structure_score(shapes, steps) != full:
                continue
            if kind == "single":
                strength = max(ref_pos(c, trump)[1] for c in play)
            elif kind == "pair":
                strength = max(steps)
            else:
                strength = max(windows(steps, npairs))
            if not ruffed or strength > best:
                winner, best, ruffed = i, strength, True
    return winner
