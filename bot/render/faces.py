"""Card faces drawn by code, laid out for overlapping rows on a phone.

Everything a player needs sits in the face's *index strip*, its top-left corner
(`INDEX_W` × `index_height`, in fractions of the card's width): the rank, the suit under it,
the point dot beside the rank (5, 10, K), the trump badge beside the suit and, on kitty cards
while burying, a kitty badge under the suit. Cards may overlap down to that strip and stay
readable. The rest of the face holds a big suit symbol for the card on top.

`card_tile` is the index strip alone, as a small card (the table's last-trick inset).
Faces and tiles are cached per (card, colour scheme, size, markers, labels).
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

ASPECT: Final = 1.4
INDEX_W: Final = 0.54
"""The index strip's width, as a fraction of the card's width: the least overlap step."""
RANK_STEP: Final = 0.40
"""The least overlap step between index tiles, as a fraction of the card's width, that
keeps the rank under the next tile whole: the widest, "10", with a hair to spare (issue 38:
two 10♣ at a tighter step read "1010")."""
STACK_STEP: Final = 0.12
"""Where a long last trick cannot show every rank at `RANK_STEP` even on small tiles: the
step after a tile whose next tile is the same card, so that only its edge shows, stacked
under the copy on top, which shows the rank whole."""
INDEX_H: Final = 0.74
"""The index strip's height (rank and suit), as a fraction of the card's width."""
KITTY_H: Final = 0.34
"""The kitty badge's extra height under the index strip (only while burying)."""
STAR: Final = "★"
_SCALE: Final = 3  # draw big, then downsample: smooth rounded corners and shapes
_CAP: Final = 0.75  # the bold font's cap height, in em
_SYMBOL: Final = 0.92  # the suit symbols' ink height, in em


def card_height(width: int) -> int:
    return round(width * ASPECT)


def index_height(width: int, *, kitty: bool = False) -> int:
    """The height of the index strip of a card `width` px wide (with the kitty badge row)."""
    return round(width * (INDEX_H + (KITTY_H if kitty else 0)))


def _text_at(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
             fill: RGB, *, anchor: str = "lt") -> None:
    """Draw bold `text` so that its ink box's corner/centre (per `anchor`: l/m, t/m) is at
    `xy`."""
    f = font(size, True)
    left, top, right, bottom = f.getbbox(text)
    x, y = xy
    x -= left if anchor[0] == "l" else (left + right) / 2
    y -= top if anchor[1] == "t" else (top + bottom) / 2
    draw.text((x, y), text, font=f, fill=fill)


def _index_text(image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB,
                max_width: float) -> None:
    """Bold `text` with its ink's top-left at `xy`, squeezed horizontally (never shrunk) to at
    most `max_width`, like the narrow "10" printed on real cards."""
    f = font(size, True)
    left, top, right, bottom = f.getbbox(text)
    width, height = round(right - left), round(bottom - top)
    if width <= max_width:
        _text_at(ImageDraw.Draw(image), xy, text, size, fill)
        return
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255)
    mask = mask.resize((round(max_width), height), Image.Resampling.LANCZOS)
    image.paste(Image.new("RGBA", mask.size, fill), (round(xy[0]), round(xy[1])), mask)


@lru_cache(maxsize=256)
def _size_for(text: str, height: float) -> int:
    """The bold font size at which `text`'s ink is `height` px tall."""
    _, top, _, bottom = font(100, True).getbbox(text)
    return max(6, round(height * 100 / max(1, bottom - top)))


def _badge(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str,
           fill: RGB, colour: RGB, size: int) -> None:
    draw.rounded_rectangle(box, radius=round((box[3] - box[1]) / 4), fill=fill)
    if label:
        _text_at(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, size, colour,
                 anchor="mm")


def card_face(card: Card, width: int, *, four_colour: bool = True, trump: bool = False,
              points: bool = False, kitty: bool = False, selected: bool = False,
              labels: Labels = ENGLISH) -> Image.Image:
    """The face of `card`, `width` px wide, as an RGBA image with transparent corners
    (cached: do not modify it).

    `trump` tints the card and adds the trump badge (not on jokers, always trumps); `points`
    adds the point dot (5, 10, K); `kitty` adds the kitty frame and badge; `selected` a gold
    frame.
    """
    return _face(card, width, four_colour, trump, points, kitty, selected, False,
                 _joker_index(card, labels), labels.trump_badge if trump else "",
                 labels.kitty_badge if kitty else "")


def card_tile(card: Card, width: int, *, four_colour: bool = True, trump: bool = False,
              labels: Labels = ENGLISH) -> Image.Image:
    """The index strip of a card `width` px wide, as a small card of its own (cached)."""
    return _face(card, width, four_colour, trump, False, False, False, True,
                 _joker_index(card, labels), labels.trump_badge if trump else "", "")


def tile_size(width: int) -> tuple[int, int]:
    """The size of `card_tile(card, width)`."""
    return round(width * INDEX_W), index_height(width)


def _joker_index(card: Card, labels: Labels) -> str:
    if not card.rank.is_joker:
        return ""
    return labels.joker_big if card.rank == Rank.RED_JOKER else labels.joker_small


@lru_cache(maxsize=2048)  # ≤ ~40 MB; a miss costs a few ms
def _face(card: Card, width: int, four_colour: bool, trump: bool, points: bool, kitty: bool,
          selected: bool, tile: bool, joker_index: str, trump_badge: str,
          kitty_badge: str) -> Image.Image:
    u = width * _SCALE / 100  # layout unit: 1/100 of the card's width, at draw scale
    w, h = (tile_size(width) if tile else (width, card_height(width)))
    W, H = w * _SCALE, h * _SCALE
    image = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    frame = GOLD if selected else KITTY if kitty else CARD_EDGE
    edge = max(_SCALE, round(u * (4.5 if selected or kitty else 1.6)))
    radius = round((7 if tile else 9) * u)
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=frame)
    draw.rounded_rectangle((edge, edge, W - 1 - edge, H - 1 - edge),
                           radius=max(1, radius - edge), fill=CARD_TRUMP if trump else CARD)
    colour = ink(card, four_colour)
    left, top = 7 * u, 7 * u
    cap = round(30 * u / _CAP)  # rank: 30 units of cap height
    if card.rank.is_joker:  # the joker's label stacked: 大 over 王, R over J
        chars = list(joker_index[:2]) or ["?"]
        for i, char in enumerate(chars):
            _index_text(image, (left, top + i * 35 * u), char, _size_for(char, 28 * u),
                        colour, 40 * u)
        pip = STAR
    else:
        assert card.suit is not None
        _index_text(image, (left, top), str(card.rank), cap, colour, 32 * u)
        _text_at(draw, (left, top + 37 * u), card.suit.symbol, round(25 * u / _SYMBOL),
                 colour)
        pip = card.suit.symbol
    if points:
        cx, cy, r = 48 * u, 12 * u, 4.5 * u
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ORANGE, outline=INK,
                     width=max(1, round(u)))
    if trump and not tile and not card.rank.is_joker:  # tiles and jokers: the tint says it
        _badge(draw, (35 * u, 42 * u, 53 * u, 64 * u), trump_badge, GOLD, INK,
               round(14 * u / _CAP))
    if kitty:
        _badge(draw, (6 * u, 72 * u, 50 * u, 104 * u), kitty_badge, KITTY, WHITE,
               round(22 * u / _CAP))
    if not tile:
        _text_at(draw, (73 * u, 111 * u), pip, round(50 * u / _SYMBOL), colour, anchor="mm")
    return image.resize((w, h), Image.Resampling.LANCZOS)
