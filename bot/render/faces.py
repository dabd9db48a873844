"""Card faces drawn by code: rounded rectangles, big indices, suit symbols, markers.

A face is laid out so that the top-left *strip* (about 0.66 of the width and 0.66 of the
height) carries everything a player needs when cards overlap: rank, suit, the trump badge
and the point dot. The rest holds a big suit symbol for the card on top.
Faces are cached per (card, colour scheme, size, markers, labels).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render.fonts import font
from bot.render.labels import ENGLISH, Labels
from bot.render.style import (
    CARD,
    CARD_EDGE,
    CARD_TRUMP,
    GOLD,
    INK,
    KITTY,
    ORANGE,
    RGB,
    WHITE,
    ink,
)
from engine.cards import Card, Rank

BASE_WIDTH: Final = 84
ASPECT: Final = 118 / 84
STAR: Final = "★"


def card_height(width: int) -> int:
    return round(width * ASPECT)


def _text_at(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
             fill: RGB, *, bold: bool = True, anchor: str = "lt") -> None:
    """Draw `text` so that its ink box's corner/centre (per `anchor`: l/m, t/m) is at `xy`."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text)
    x, y = xy
    x -= left if anchor[0] == "l" else (left + right) / 2
    y -= top if anchor[1] == "t" else (top + bottom) / 2
    draw.text((x, y), text, font=f, fill=fill)


def _fit_size(text: str, size: int, width: float, bold: bool = True) -> int:
    """The largest font size ≤ `size` at which `text`'s ink is at most `width` wide."""
    while size > 6:
        left, _, right, _ = font(size, bold).getbbox(text)
        if right - left <= width:
            break
        size -= 1
    return size


def card_face(card: Card, width: int, *, four_colour: bool = True, trump: bool = False,
              points: bool = False, kitty: bool = False, selected: bool = False,
              labels: Labels = ENGLISH) -> Image.Image:
    """The face of `card`, `width` px wide, as an RGBA image with transparent corners
    (cached: do not modify it).

    `trump` tints the card and adds the trump badge; `points` adds the point dot (5, 10, K);
    `kitty` adds the kitty frame and badge; `selected` a gold frame.
    """
    index = ""
    if card.rank.is_joker:
        index = labels.joker_big if card.rank == Rank.RED_JOKER else labels.joker_small
    return _face(card, width, four_colour, trump, points, kitty, selected, index,
                 labels.trump_badge if trump else "", labels.kitty_badge if kitty else "")


@lru_cache(maxsize=1024)  # ≤ ~40 MB at hand size; a miss costs ~2 ms
def _face(card: Card, width: int, four_colour: bool, trump: bool, points: bool, kitty: bool,
          selected: bool, joker_index: str, trump_badge: str, kitty_badge: str) -> Image.Image:
    s = width / BASE_WIDTH
    w, h = width, card_height(width)
    scale = 3  # draw big, then downsample: smooth rounded corners and shapes
    W, H, S = w * scale, h * scale, s * scale
    image = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    frame = GOLD if selected else KITTY if kitty else CARD_EDGE
    edge = round(S * (3.2 if selected or kitty else 1.4))
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius=round(8 * S), fill=frame)
    draw.rounded_rectangle((edge, edge, W - 1 - edge, H - 1 - edge),
                           radius=max(1, round(8 * S) - edge),
                           fill=CARD_TRUMP if trump else CARD)
    colour = ink(card, four_colour)
    if card.rank.is_joker:
        size = _fit_size(joker_index, round(30 * S), 50 * S)
        _text_at(draw, (5 * S, 6 * S), joker_index, size, colour)
        _text_at(draw, (19 * S, 55 * S), STAR, round(30 * S), colour, anchor="mm")
        _text_at(draw, (60 * S, 94 * S), STAR, round(46 * S), colour,
                 anchor="mm")
    else:
        assert card.suit is not None
        rank = str(card.rank)
        size = _fit_size(rank, round(36 * S), 36 * S)
        _text_at(draw, (5 * S, 6 * S), rank, size, colour)
        _text_at(draw, (19 * S, 55 * S), card.suit.symbol, round(30 * S), colour, anchor="mm")
        _text_at(draw, (60 * S, 94 * S), card.suit.symbol, round(44 * S),
                 colour, anchor="mm")
    if trump:
        box = (38 * S, 41 * S, 55 * S, 58 * S)
        draw.rounded_rectangle(box, radius=round(4 * S), fill=GOLD)
        _text_at(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), trump_badge,
                 _fit_size(trump_badge, round(13 * S), 14 * S), INK, anchor="mm")
    if points:
        cx, cy, r = 46.5 * S, 66 * S, 5 * S
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ORANGE, outline=INK,
                     width=max(1, round(S)))
    if kitty:
        box = (44 * S, 5 * S, 58 * S, 19 * S)
        draw.rounded_rectangle(box, radius=round(3 * S), fill=KITTY)
        _text_at(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), kitty_badge,
                 _fit_size(kitty_badge, round(11 * S), 12 * S), WHITE, anchor="mm")
    return image.resize((w, h), Image.Resampling.LANCZOS)
