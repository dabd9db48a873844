"""Small drawing helpers shared by the renderers: text, pills, panels, rows of cards."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.render.faces import STACK_STEP, card_face, card_height, card_tile, tile_size
from bot.render.fonts import drawable, font
from bot.render.labels import Labels
from bot.render.style import CARD, FELT, FELT_DARK, RGB, suit_ink
from engine.cards import Card, Suit
from engine.trump import Trump

Box = tuple[float, float, float, float]


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
         fill: RGB, *, bold: bool = False, anchor: str = "la") -> float:
    """Draw `value` (characters the font lacks become "?") and return its advance width.

    `anchor` is Pillow's (`la` left/ascender, `mm` middle, `ra` right …). The rendered text
    is cached, so labels, names and numbers drawn again cost a paste.
    """
    mask, left, top, length = _rendered(drawable(value), size, bold, anchor)
    draw.bitmap((round(xy[0] + left), round(xy[1] + top)), mask, fill=fill)
    return length


def text_box(xy: tuple[float, float], value: str, size: int, *, bold: bool = False,
             anchor: str = "la") -> Box:
    """The box `text` inks for the same arguments."""
    mask, left, top, _ = _rendered(drawable(value), size, bold, anchor)
    x, y = round(xy[0] + left), round(xy[1] + top)
    return (x, y, x + mask.width, y + mask.height)


@lru_cache(maxsize=4096)
def _rendered(value: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int,
                                                                      float]:
    """`value` as a coverage mask, its offset from the anchor point, and its advance width."""
    f = font(size, bold)
    left, top, right, bottom = (round(v) for v in f.getbbox(value, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), value, font=f, fill=255, anchor=anchor)
    return mask, left, top, f.getlength(value)


@lru_cache(maxsize=4096)
def width_of(value: str, size: int, *, bold: bool = False) -> float:
    return font(size, bold).getlength(drawable(value))


@lru_cache(maxsize=4096)
def fit(value: str, size: int, width: float, *, bold: bool = False) -> str:
    """`value` cut with an ellipsis so that it is at most `width` px wide."""
    value = drawable(value)
    f = font(size, bold)
    if f.getlength(value) <= width:
        return value
    while value and f.getlength(value + "…") > width:
        value = value[:-1]
    return value + "…"


def fit_first(values: Sequence[str], size: int, width: float, *, bold: bool = False) -> str:
    """The first of `values` (the same words, longest first) that is at most `width` px
    wide, else the last cut with an ellipsis."""
    for value in values[:-1]:
        if width_of(value, size, bold=bold) <= width:
            return drawable(value)
    return fit(values[-1], size, width, bold=bold)


def pill(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
         fill: RGB, ink: RGB, *, anchor: str = "l", bold: bool = True) -> Box:
    """A rounded label; `xy` is its left-middle (`anchor="l"`), centre (`"m"`) or right-middle
    (`"r"`) point. Returns its box."""
    w = width_of(value, size, bold=bold) + size * 0.9
    h = size * 1.45
    x, y = xy
    x0 = x if anchor == "l" else x - w / 2 if anchor == "m" else x - w
    box = (x0, y - h / 2, x0 + w, y + h / 2)
    draw.rounded_rectangle(box, radius=h / 2, fill=fill)
    text(draw, ((box[0] + box[2]) / 2, y), value, size, ink, bold=bold, anchor="mm")
    return box


def suit_chip(draw: ImageDraw.ImageDraw, xy: tuple[float, float], suit: Suit, size: int,
              four_colour: bool) -> float:
    """A suit symbol on a small white chip (readable on the dark felt); `xy` is its left-middle
    point. Returns its width."""
    side = size * 1.3
    x, y = xy
    draw.rounded_rectangle((x, y - side / 2, x + side, y + side / 2), radius=size * 0.3,
                           fill=CARD)
    text(draw, (x + side / 2, y + size * 0.04), suit.symbol, size, suit_ink(suit, four_colour),
         bold=True, anchor="mm")
    return side


def rich(draw: ImageDraw.ImageDraw, xy: tuple[float, float], parts: Sequence[str | Suit],
         size: int, fill: RGB, *, bold: bool = False, four_colour: bool = True) -> float:
    """Text with suit chips: `["Trump ", Suit.HEARTS]`. `xy` is the left-middle point.
    Returns the width drawn."""
    x, y = xy
    for part in parts:
        if isinstance(part, Suit):
            x += suit_chip(draw, (x + 1, y), part, round(size * 0.9), four_colour) + 3
        else:
            x += text(draw, (x, y), part, size, fill, bold=bold, anchor="lm")
    return x - xy[0]


def rich_width(parts: Sequence[str | Suit], size: int, *, bold: bool = False) -> float:
    return sum(round(size * 0.9) * 1.3 + 4 if isinstance(p, Suit) else width_of(p, size, bold=bold)
               for p in parts)


def trump_parts(trump: Trump | None, labels: Labels, *,
                so_far: Trump | None = None) -> list[str | Suit]:
    """`Trump ♥` with the suit as a chip, or `No trump`; with no trump yet, `Trump ♥ so
    far` for the trump a standing declaration would make (`so_far`), else `Trump not
    set`."""
    if trump is None and so_far is not None:
        if so_far.suit is None:
            return [labels.no_trump_so_far]
        before, _, after = labels.trump_so_far.partition("{trump}")
        return [p for p in (before, so_far.suit, after) if p != ""]
    if trump is None:
        return [labels.trump_not_set]
    if trump.suit is None:
        return [labels.no_trump]
    before, _, after = labels.trump.partition("{trump}")
    return [p for p in (before, trump.suit, after) if p != ""]


def paste_row(canvas: Image.Image, cards: Sequence[Card], xy: tuple[int, int], width: int, *,
              step: float, trump: Trump | None, four_colour: bool, labels: Labels) -> Box:
    """Paste `cards` overlapping left to right from top-left `xy`; returns the row's box."""
    x0, y0 = xy
    for i, card in enumerate(cards):
        is_trump = trump is not None and trump.is_trump(card)
        face = card_face(card, width, four_colour=four_colour, trump=is_trump,
                         points=card.points > 0, labels=labels)
        canvas.paste(face, (round(x0 + i * step), y0), face)
    return (x0, y0, x0 + (len(cards) - 1) * step + width, y0 + card_height(width))


def tile_offsets(cards: Sequence[Card], width: int, step: float, *,
                 stack: bool = False) -> list[float]:
    """Each index tile's x offset in a row, `step` apart; with `stack`, a copy of the card
    after it only `STACK_STEP` of the card's width (the copy on top shows the rank)."""
    tight = min(step, width * STACK_STEP) if stack else step
    offsets, x = [], 0.0
    for i, card in enumerate(cards):
        offsets.append(x)
        if i + 1 < len(cards):
            x += tight if cards[i + 1] == card else step
    return offsets


def tiles_width(cards: Sequence[Card], width: int, step: float, *, stack: bool = False) -> float:
    """The width of `cards`' row of index tiles (see `tile_offsets`)."""
    if not cards:
        return 0.0
    return tile_offsets(cards, width, step, stack=stack)[-1] + tile_size(width)[0]


def tiles_step(plays: Sequence[Sequence[Card]], width: int, room: float, *,
               stack: bool = False) -> float:
    """The widest step (at most a tile and a gap) at which the plays' rows of index tiles
    take `room` px together (see `tile_offsets`)."""
    tile_w = tile_size(width)[0]
    pairs = [(a, b) for cards in plays for a, b in itertools.pairwise(cards)]
    stacked = sum(a == b for a, b in pairs) if stack else 0
    apart = len(pairs) - stacked
    most = float(tile_w + 2)
    if not apart:
        return most
    return min(most, (room - len(plays) * tile_w - stacked * width * STACK_STEP) / apart)


def paste_tiles(canvas: Image.Image, cards: Sequence[Card], xy: tuple[int, int], width: int, *,
                step: float, trump: Trump | None, four_colour: bool, labels: Labels,
                stack: bool = False) -> Box:
    """Paste the index tiles of cards `width` px wide (see `card_tile`) left to right from
    top-left `xy`, at `tile_offsets`; returns the row's box."""
    x0, y0 = xy
    tile_w, tile_h = tile_size(width)
    offsets = tile_offsets(cards, width, step, stack=stack)
    for card, dx in zip(cards, offsets, strict=True):
        is_trump = trump is not None and trump.is_trump(card)
        tile = card_tile(card, width, four_colour=four_colour, trump=is_trump, labels=labels)
        canvas.paste(tile, (round(x0 + dx), y0), tile)
    return (x0, y0, x0 + (offsets[-1] if offsets else 0) + tile_w, y0 + tile_h)


def row_step(count: int, width: int, max_width: float, step: float) -> float:
    """The overlap step so that `count` cards of `width` fit in `max_width` (at most `step`)."""
    if count <= 1:
        return step
    return min(step, (max_width - width) / (count - 1))


@cache
def felt(size: tuple[int, int]) -> Image.Image:
    """The felt background: a dark rim around a rounded felt table (shared, never mutate)."""
    image = Image.new("RGB", size, FELT_DARK)
    draw = ImageDraw.Draw(image)
    w, h = size
    draw.rounded_rectangle((6, 6, w - 7, h - 7), radius=26, fill=FELT)
    return image

