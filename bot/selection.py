"""Card selection on a hand panel (Discord-free).

Card select values are *instances* (``AS`` for the first ace of spades in display order,
``AS.2`` for the second) so two identical cards can be picked separately. The selection of
each seat is kept in memory (`Selections`) and mirrored in the panel's select defaults, so
a restarted bot reads it back from the message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.render.sorting import hand_groups
from engine.cards import Card
from engine.game import Phase
from engine.views import PlayerView

__all__ = ["Selections", "groups", "instances", "pick_instances", "pool", "selection_cards"]


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


def _cards(view: PlayerView) -> list[Card]:
    cards = list(view.hand)
    if view.public.phase is Phase.BURYING and view.kitty is not None and view.to_move:
        cards += list(view.kitty)
    return cards


def groups(view: PlayerView) -> list[list[Card]]:
    """The seat's cards in display groups (trumps, then each side suit); 33 cards while the
    starter buries (hand and kitty)."""
    cards = _cards(view)
    public = view.public
    if public.level is None:
        return [cards] if cards else []
    return hand_groups(cards, public.trump, public.level)


def pool(view: PlayerView) -> list[Card]:
    """The cards the seat picks from, in display order."""
    return [card for group in groups(view) for card in group]


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
