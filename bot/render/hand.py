"""The hand image: a seat's cards in the order players think, one row per suit group."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.render.draw import felt, fit, rich, text, trump_parts
from bot.render.faces import card_face, card_height
from bot.render.labels import ENGLISH, Labels
from bot.render.sorting import hand_groups
from bot.render.style import MUTED, WHITE, to_png
from engine.cards import Card, Rank
from engine.game import Phase
from engine.trump import Trump
from engine.views import PlayerView

WIDTH: Final = 800
MIN_HEIGHT: Final = 400  # aspect at most 2:1
MAX_HEIGHT: Final = 666  # aspect at least 1.2:1
CARD_WIDTH: Final = 84
STEP_X: Final = 61
STEP_Y: Final = 78
MIN_STEP_Y: Final = 60
RAISE: Final = 18
PER_ROW: Final = 12
MARGIN: Final = 22
HEADER: Final = 44
BOTTOM: Final = 14


def render_hand(view: PlayerView, *, selected: Iterable[Card] = (), four_colour: bool = True,
                labels: Labels = ENGLISH) -> bytes:
    """The seat's hand as a palette PNG (~800 px wide).

    Trumps first (R3 order), then side suits ♠ ♥ ♣ ♦, one row per suit group, ≤12 cards a
    row. `selected` cards (a multiset: list a card twice to raise both copies) are raised
    and framed in gold. While this seat buries, its 8 kitty cards join the hand, marked.
    Before trump is set, jokers and level cards come first, then each suit.
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"render_hand takes a PlayerView, not {type(view).__name__}")
    public = view.public
    burying = public.phase is Phase.BURYING and view.kitty is not None
    cards = list(view.hand)
    kitty: Counter[Card] = Counter()
    if burying and view.kitty is not None:
        cards += view.kitty
        kitty.update(view.kitty)
    level = public.level if public.level is not None else Rank.TWO
    image = hand_image(cards, trump=public.trump, level=level, selected=selected, kitty=kitty,
                       burying=burying, four_colour=four_colour, labels=labels)
    return to_png(image)


def _rows(groups: Sequence[Sequence[Card]]) -> list[list[Card]]:
    rows: list[list[Card]] = []
    for group in groups:
        count = math.ceil(len(group) / PER_ROW)
        size, extra = divmod(len(group), count)
        start = 0
        for r in range(count):  # balanced: 13 cards → 7 + 6
            end = start + size + (1 if r < extra else 0)
            rows.append(list(group[start:end]))
            start = end
    return rows


def hand_image(cards: Sequence[Card], *, trump: Trump | None, level: Rank,
               selected: Iterable[Card] = (), kitty: Counter[Card] | None = None,
               burying: bool = False, four_colour: bool = True,
               labels: Labels = ENGLISH) -> Image.Image:
    """The hand picture as an RGB image (see `render_hand`)."""
    rows = _rows(hand_groups(cards, trump, level))
    card_h = card_height(CARD_WIDTH)
    step_y = STEP_Y
    if len(rows) > 1:
        room = MAX_HEIGHT - HEADER - RAISE - BOTTOM - card_h
        step_y = max(MIN_STEP_Y, min(STEP_Y, room // (len(rows) - 1)))
    block = RAISE + (len(rows) - 1) * step_y + card_h if rows else 0
    height = max(MIN_HEIGHT, HEADER + block + BOTTOM)
    image = felt((WIDTH, height)).copy()
    draw = ImageDraw.Draw(image)

    chosen = Counter(selected)
    marked = Counter(kitty or {})
    n_selected = 0
    top = HEADER + RAISE + (height - HEADER - BOTTOM - block) // 2
    for r, row in enumerate(rows):
        y = top + r * step_y
        for i, card in enumerate(row):
            is_selected = chosen[card] > 0
            if is_selected:
                chosen[card] -= 1
                n_selected += 1
            is_kitty = marked[card] > 0
            if is_kitty:
                marked[card] -= 1
            is_trump = trump.is_trump(card) if trump is not None else (
                card.rank.is_joker or card.rank == level)
            face = card_face(card, CARD_WIDTH, four_colour=four_colour, trump=is_trump,
                             points=card.points > 0, kitty=is_kitty, selected=is_selected,
                             labels=labels)
            image.paste(face, (MARGIN + i * STEP_X, y - (RAISE if is_selected else 0)), face)

    level_text = labels.level.format(rank=str(level)) + "  ·  "
    left = rich(draw, (MARGIN, HEADER / 2 + 2), [level_text, *trump_parts(trump, labels)], 22,
                WHITE, bold=True, four_colour=four_colour)
    parts = [labels.cards.format(count=len(cards))]
    if n_selected:
        parts.insert(0, labels.selected.format(count=n_selected))
    if burying:
        parts.insert(0, labels.bury_hint)
    space = WIDTH - 2 * MARGIN - left - 24
    text(draw, (WIDTH - MARGIN, HEADER / 2 + 2), fit("  ·  ".join(parts), 18, space, bold=True),
         18, MUTED, bold=True, anchor="rm")
    return image
