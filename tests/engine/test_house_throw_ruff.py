"""House rule `throw_ruff` (R9, R12): how ruffs of a side-suit throw are compared.

- `largest_unit` (R9, the default): by the ruffs' strongest unit of the shape of the lead's
  largest unit;
- `every_unit`: a later ruff must beat every unit of the winning ruff, however that ruff's
  cards are placed on the lead's units (`engine.placement`);
- `highest_card`: by the single highest card of each ruff.

In every variant a ruff must cover every unit's shape (two loose trumps never beat a pair),
the first covering ruff beats the side-suit lead, ties keep the earlier play, and a lead of
one unit (single, pair, tractor) is judged as R9 says.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_support import C, playing
from tractor_dsl import T, cards, ref_pos, ref_shapes, ref_suit

from engine import RuleSet, ThrowRuff, Trump, trick_winner
from engine.actions import Play
from engine.events import TrickWon
from engine.game import Match

LARGEST, EVERY, HIGHEST = ThrowRuff.LARGEST_UNIT, ThrowRuff.EVERY_UNIT, ThrowRuff.HIGHEST_CARD


def win(plays: str, rule: ThrowRuff, trump: str = "2H") -> int:
    return trick_winner([cards(p) for p in plays.split("|")], T(trump), rule)


# (plays, winner under largest_unit, every_unit, highest_card); trump 2♥ unless noted
CASES = [
    # pair + single: the challenger's pair is higher, its single lower
    ("AS AS KS | 3H 3H 8H | 4H 4H 6H | 5D 6D 7D", 2, 1, 1),
    # … and with a higher single too: every variant agrees
    ("AS AS KS | 3H 3H 8H | 4H 4H 9H | 5D 6D 7D", 2, 2, 2),
    # the highest card is a single: only highest_card lets the joker through
    ("AS AS KS | 9H 9H 3H | 4H 4H RJ | 5D 6D 7D", 1, 1, 2),
    # tractor + single
    ("KS KS QS QS 3S | 5H 5H 6H 6H AH | 7H 7H 8H 8H 4H | 5D 6D 7D 8D 9D", 2, 1, 1),
    # the winning ruff could place 8♥ 8♥ as its pair or as its two singles: the challenger
    # must beat both placements (doubt favours the earlier play)
    ("AS AS KS QS | 3H 3H 8H 8H | 10H 10H 9H 4H | 5D 6D 7D 8D", 2, 1, 2),
    ("AS AS KS QS | 3H 3H 8H 8H | 10H 10H 9H 9H | 5D 6D 7D 8D", 2, 2, 2),
    # equal strengths keep the earlier ruff: 8♥ = 8♥, and the off-suit level 2♣ = 2♦
    ("AS AS KS | 3H 3H 8H | 4H 4H 8H | 5D 6D 7D", 2, 1, 1),
    ("AS AS KS | 3H 3H 2C | 4H 4H 2D | 5D 6D 7D", 2, 1, 1),
    # two loose trumps never beat a pair, in any variant
    ("AS AS KS | 3H 4H 5H | 6D 7D 8D | 9D 10D JD", 0, 0, 0),
    ("AS AS KS | 3H 3H 4H | RJ BJ 2H | 9D 10D JD", 1, 1, 1),
    # a throw of singles: every single of the later ruff must be higher
    ("AS KS QS | 3H 9H 10H | 4H 5H JH | 9D 10D JD", 2, 1, 2),
    ("AS KS QS | 3H 9H 10H | 4H 10H JH | 9D 10D JD", 2, 2, 2),
    # the third ruff beats the second only by the second's own placements
    ("AS AS KS | 3H 3H 8H | 4H 4H 9H | 5H 5H 10H", 3, 3, 3),
    ("AS AS KS | 3H 3H 8H | 4H 4H 9H | 5H 5H 6H", 3, 2, 2),
]


@pytest.mark.parametrize(("plays", "largest", "every", "highest"), CASES)
def test_ruffs_of_a_throw_under_each_rule(plays: str, largest: int, every: int,
                                          highest: int) -> None:
    assert win(plays, LARGEST) == largest
    assert win(plays, EVERY) == every
    assert win(plays, HIGHEST) == highest


def test_the_default_is_r9_largest_unit() -> None:
    assert RuleSet().throw_ruff is LARGEST
    plays = [cards(p) for p in ["AS AS KS ", " 3H 3H 8H ", " 4H 4H 6H ", " 5D 6D 7D"]]
    assert trick_winner(plays, T("2H")) == 2


@pytest.mark.parametrize("plays", [
    "AS | 3H | 4H | 2S",
    "KS KS | 3H 3H | 4H 4H | 2S 2S",
    "KS KS | 2S 2S | 2D 2D | 5D 6D",
    "8S 8S 7S 7S | 3H 3H 4H 4H | AH AH KH KH | 2D 3D 4D 5D",
    "AH AH | BJ RJ | 3S 4S | 5D 6D",
    "AS AS KS | AS KS QS | 3S 3S 4S | 5S 5S 6S",  # a throw that stood: never beaten in suit
    "AH AH KH | 3H 3H 4H | RJ RJ BJ | 2S 2S 2D",  # a trump throw: nothing beats it
])
def test_every_variant_agrees_on_one_unit_leads_and_trump_throws(plays: str) -> None:
    assert win(plays, EVERY) == win(plays, HIGHEST) == win(plays, LARGEST)


def test_the_game_and_the_trick_judge_by_the_tables_rule() -> None:
    hands = ["AS AS KS 3C", "3H 3H 8H 3D", "4H 4H 6H 4D", "5D 6D 7D 5C"]
    for rule, winner in ((LARGEST, 2), (EVERY, 1), (HIGHEST, 1)):
        match = playing(hands, "2H", rules=RuleSet(throw_ruff=rule))
        match, _ = match.apply(Play(0, C("AS AS KS")))  # nobody holds a spade: it stands
        match, _ = match.apply(Play(1, C("3H 3H 8H")))
        match, _ = match.apply(Play(2, C("4H 4H 6H")))
        assert match.hand is not None and match.hand.trick is not None
        assert match.hand.trick.winning_seat(Trump.parse("2H")) == winner
        assert match.public_view().trick_winner == winner
        restored = Match.from_dict(match.to_dict())
        assert restored == match and restored.public_view().trick_winner == winner
        match, events = match.apply(Play(3, C("5D 6D 7D")))
        assert TrickWon(winner, 15, 1) in events  # K♠ and 5♦


# ---------------------------------------------------------------- a literal reading


def ref_placements(play: list, lead: list, trump: Trump) -> set[tuple[int, ...]]:
    """Every placement profile of `play` on the lead's units, by brute force over orders."""
    units = ref_shapes(lead, trump)  # (kind, pairs, top), largest first
    sizes = [max(1, 2 * n) for _, n, _ in units]
    found = set()
    for order in set(itertools.permutations(play)):
        parts, at, ok = [], 0, True
        for (kind, n, _), size in zip(units, sizes, strict=True):
            part = order[at:at + size]
            at += size
            steps = sorted(ref_pos(c, trump)[1] for c in part)
            if kind == "pair":
                ok = part[0] == part[1]
            elif kind == "tractor":
                counts = Counter(part)
                distinct = sorted({ref_pos(c, trump)[1] for c in counts})
                ok = all(k == 2 for k in counts.values()) and len(counts) == n \
                    and len(distinct) == n and distinct[-1] - distinct[0] == n - 1
            if not ok:
                break
            parts.append((n, max(steps)))
        if ok:
            profile: list[int] = []
            for n in sorted({n for n, _ in parts}, reverse=True):
                profile += sorted((top for m, top in parts if m == n), reverse=True)
            found.add(tuple(profile))
    return found


def ref_every_unit_winner(plays: list, trump: Trump) -> int:
    """The every-unit rule as written: a later ruff wins when one of its placements beats
    every placement of the winning ruff, unit by unit."""
    lead = plays[0]
    winner, held = 0, set()
    for index, play in enumerate(plays[1:], start=1):
        if any(ref_suit(c, trump) != "T" for c in play):
            continue
        mine = ref_placements(list(play), lead, trump)
        if not mine:
            continue
        if winner == 0 or any(all(all(a > b for a, b in zip(p, q, strict=True)) for q in held)
                              for p in mine):
            winner, held = index, mine
    return winner


TRUMPS = cards("3H 3H 4H 4H 5H 6H 6H 7H 9H 9H 2S 2C 2H BJ RJ")
LEADS = ["AS AS KS", "AS KS QS", "KS KS QS QS 3S", "AS AS KS QS", "KS KS 9S 9S 4S"]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_every_unit_agrees_with_its_literal_reading(data: st.DataObject) -> None:
    trump = T("2H")
    lead = cards(data.draw(st.sampled_from(LEADS)))
    pool = list(TRUMPS)
    plays = [lead]
    for _ in range(3):
        chosen = data.draw(st.permutations(pool)).copy()[:len(lead)]
        for card in chosen:
            pool.remove(card)
        plays.append(chosen)
        if len(pool) < len(lead):
            break
    every = trick_winner(plays, trump, EVERY)
    assert every == ref_every_unit_winner(plays, trump)
    # every_unit is stricter than R9: a ruff it lets win over another also wins under R9
    for i, j in itertools.combinations(range(1, len(plays)), 2):
        pair = [lead, plays[i], plays[j]]
        if trick_winner(pair, trump, EVERY) == 2:
            assert trick_winner(pair, trump, LARGEST) == 2
