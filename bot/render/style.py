"""Colours, colour schemes and the fixed PNG palette every image is quantized to."""

from __future__ import annotations

import io
from functools import cache
from typing import Final

from PIL import Image

from engine.cards import Card, Rank, Suit

RGB = tuple[int, int, int]

FELT: Final[RGB] = (24, 94, 60)
FELT_DARK: Final[RGB] = (15, 66, 42)
FELT_LIGHT: Final[RGB] = (34, 112, 74)
PANEL: Final[RGB] = (13, 52, 34)
CARD: Final[RGB] = (252, 252, 247)
CARD_TRUMP: Final[RGB] = (255, 238, 186)
CARD_EDGE: Final[RGB] = (70, 70, 70)
CARD_BACK: Final[RGB] = (150, 40, 50)
INK: Final[RGB] = (20, 20, 24)
RED: Final[RGB] = (206, 22, 38)
BLUE: Final[RGB] = (22, 88, 204)
GREEN: Final[RGB] = (6, 120, 46)  # AA (4.5:1) on trump cards too
WHITE: Final[RGB] = (245, 245, 240)
MUTED: Final[RGB] = (178, 208, 188)
GOLD: Final[RGB] = (244, 188, 36)
ORANGE: Final[RGB] = (238, 128, 16)
KITTY: Final[RGB] = (142, 68, 210)
GREY: Final[RGB] = (120, 130, 124)
DANGER: Final[RGB] = (226, 70, 60)

FOUR_COLOUR: Final[dict[Suit, RGB]] = {
    Suit.SPADES: INK, Suit.HEARTS: RED, Suit.DIAMONDS: BLUE, Suit.CLUBS: GREEN,
}
TWO_COLOUR: Final[dict[Suit, RGB]] = {
    Suit.SPADES: INK, Suit.HEARTS: RED, Suit.DIAMONDS: RED, Suit.CLUBS: INK,
}


def ink(card: Card, four_colour: bool) -> RGB:
    """The colour a card's indices are printed in (big joker red, small joker black)."""
    if card.suit is None:
        return RED if card.rank == Rank.RED_JOKER else INK
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[card.suit]


def suit_ink(suit: Suit, four_colour: bool) -> RGB:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


def mix(a: RGB, b: RGB, f: float) -> RGB:
    """The colour a fraction `f` of the way from `a` to `b`."""
    return (round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f),
            round(a[2] + (b[2] - a[2]) * f))


_BASE: Final[tuple[RGB, ...]] = (
    FELT, FELT_DARK, FELT_LIGHT, PANEL, CARD, CARD_TRUMP, CARD_EDGE, CARD_BACK, INK, RED, BLUE,
    GREEN, WHITE, MUTED, GOLD, ORANGE, KITTY, GREY, DANGER,
)
# Colours that meet at anti-aliased edges: each pair gets a ramp of in-between shades.
_PAIRS: Final[tuple[tuple[RGB, RGB], ...]] = (
    *((bg, fg) for bg in (CARD, CARD_TRUMP)
      for fg in (INK, RED, BLUE, GREEN, CARD_EDGE, GOLD, ORANGE, KITTY)),
    *((FELT, fg) for fg in (WHITE, MUTED, GOLD, CARD_EDGE, PANEL, FELT_DARK, FELT_LIGHT, DANGER)),
    *((PANEL, fg) for fg in (WHITE, MUTED, GOLD, CARD_EDGE, DANGER, FELT_LIGHT, FELT_DARK)),
    *((GOLD, fg) for fg in (INK, CARD_EDGE, WHITE, ORANGE)),
    (MUTED, INK), (WHITE, INK), (KITTY, CARD_EDGE), (KITTY, WHITE), (FELT_DARK, GOLD),
    (FELT_DARK, DANGER),
)
_STEPS: Final = 5


@cache
def palette_image() -> Image.Image:
    """A fixed 256-colour palette: the base colours plus 5-step ramps between colours that
    touch, so quantizing is a fast nearest-colour lookup with no dithering noise."""
    colours: list[RGB] = list(_BASE)
    steps = _STEPS
    for a, b in _PAIRS:
        for i in range(1, steps + 1):
            f = i / (steps + 1)
            colours.append(mix(a, b, f))
    for g in range(0, 256, 32):  # a grey ramp for anything else
        colours.append((g, g, g))
    unique = list(dict.fromkeys(colours))
    if len(unique) > 256:
        raise RuntimeError(f"palette has {len(unique)} colours; at most 256")
    unique += [unique[0]] * (256 - len(unique))
    flat = [channel for colour in unique for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def to_png(image: Image.Image) -> bytes:
    """Quantize `image` (RGB) to the fixed palette and encode it as a palette PNG."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    quantized = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, format="PNG", compress_level=4)
    return out.getvalue()
