"""Card selection on a hand panel (Discord-free).

Card select values are *instances* (``AS`` for the first ace of spades in display order,
``AS.2`` for the second) so two identical cards can be picked separately. The selection of
each seat is kept in memory (`Selections`) and mirrored in the panel's select defaults, so
a restarted bot reads it back from the message."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.render.sorting import hand_groups
from engine.cards import Card
from engine.game import Phase
from engine.views import PlayerView

__all__ = ["Selections", "groups", "instances", "pick_instances", "pool", "pool_values",
           "selection_cards"]


def instances(cards: Sequence[Card]) -> list[tuple[str, Card]]:
    """``[("AS", AS), ("AS.2", AS), ...]``: a unique value per physical card."""
    seen: Counter[Card] = Counter()
    out: list[tuple[str, Card]] = []
    for card in cards:
        seen[card] += 1
        out.append((str(card) if seen[card] == 1 else f"{card}.{seen[card]}", card))
    return out


def selection_cards(cards: Sequence[Card], selected: Sequence[str]) -> list[Card]:
    """The cards of `cards` named by instance values (unknown values are dropped)."""
    by_value = dict(instances(cards))
    return [by_value[value] for value in dict.fromkeys(selected) if value in by_value]


def pick_instances(cards: Sequence[Card], wanted: Sequence[Card]) -> list[str]:
    """Instance values for `wanted` (first free copies) among `cards`."""
    need = Counter(wanted)
    out = []
    for value, card in instances(cards):
        if need[card]:
            need[card] -= 1
            out.append(value)
    return out


@dataclass(frozen=True, slots=True)
class _Sorted:
    hand: Sequence[Card]
    kitty: Sequence[Card] | None
    groups: tuple[tuple[Card, ...], ...]
    pool: tuple[Card, ...]
    values: tuple[tuple[str, Card], ...]


_SORTED: OrderedDict[tuple[Any, ...], _Sorted] = OrderedDict()
SORTED_KEPT = 512


def _sorted(view: PlayerView) -> _Sorted:
    """The seat's cards in display order, sorted once per hand shown: keyed on the hand's
    (immutable) tuple itself, which the engine keeps while the hand does not change."""
    public = view.public
    kitty = view.kitty if (public.phase is Phase.BURYING and view.kitty is not None
                           and view.to_move) else None
    key = (id(view.hand), id(kitty), public.trump, public.level)
    found = _SORTED.get(key)
    if found is not None and found.hand is view.hand and found.kitty is kitty:
        return found
    cards = list(view.hand) + list(kitty or ())
    if public.level is None:
        grouped = [cards] if cards else []
    else:
        grouped = hand_groups(cards, public.trump, public.level)
    cards_pool = tuple(card for group in grouped for card in group)
    found = _Sorted(view.hand, kitty, tuple(tuple(g) for g in grouped), cards_pool,
                    tuple(instances(cards_pool)))
    _SORTED[key] = found  # holds `hand`: its id is not reused while kept
    while len(_SORTED) > SORTED_KEPT:
        _SORTED.popitem(last=False)
    return found


def groups(view: PlayerView) -> list[list[Card]]:
    """The seat's cards in display groups (trumps, then each side suit); 33 cards while the
    starter buries (hand and kitty)."""
    return [list(group) for group in _sorted(view).groups]


def pool(view: PlayerView) -> list[Card]:
    """The cards the seat picks from, in display order."""
    return list(_sorted(view).pool)


def pool_values(view: PlayerView) -> list[tuple[str, Card]]:
    """``instances(pool(view))``."""
    return list(_sorted(view).values)


class Selections:
    """Selected card instances per (table, seat), in memory."""

    def __init__(self) -> None:
        self._chosen: dict[tuple[int, int], list[str]] = {}

    def get(self, table_id: int, seat: int) -> list[str]:
        return list(self._chosen.get((table_id, seat), []))

    def set(self, table_id: int, seat: int, values: Sequence[str]) -> None:
        self._chosen[(table_id, seat)] = list(values)

    def clear(self, table_id: int, seat: int) -> None:
        self._chosen.pop((table_id, seat), None)
