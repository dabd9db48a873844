"""Every suit legible on Discord's dark and light themes (issue 31 item 9).

Discord draws ♠ ♥ ♦ ♣ as emoji: ♠ ♣ near-black on the dark theme, ♥ ♦ a red that is
2.7:1 there. The bot writes ♤ ♡ ♢ ♧ instead (no emoji: the theme's text colour), so no text
or label it sends holds an emoji suit; the pictures' text and suit colours meet WCAG AA
(4.5:1) on what they are drawn on. The contrast is WCAG 2's relative-luminance ratio."""

from __future__ import annotations

import itertools
import json

import pytest
from panel_golden import panel, table
from panel_positions import positions

from bot.i18n import SUPPORTED
from bot.present.text import EMOJI_SUITS, legible, plain
from bot.render import style

AA = 4.5
DARK_THEME = ((0x31, 0x33, 0x38), (0xDB, 0xDE, 0xE1))  # background, text
LIGHT_THEME = ((0xFF, 0xFF, 0xFF), (0x31, 0x33, 0x38))
TWEMOJI = {"♠": (0x31, 0x37, 0x3D), "♣": (0x31, 0x37, 0x3D), "♥": (0xBE, 0x19, 0x31),
           "♦": (0xBE, 0x19, 0x31)}


def luminance(colour: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = colour
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_emoji_suits_fail_and_text_suits_pass_on_both_themes() -> None:
    """Why: the emoji's colours against the dark theme, and the text colour the outlined
    suits take on each theme."""
    dark = DARK_THEME[0]
    assert all(contrast(TWEMOJI[s], dark) < AA for s in EMOJI_SUITS)
    for background, text in (DARK_THEME, LIGHT_THEME):
        assert contrast(text, background) >= AA


def test_legible_and_plain_round_trip() -> None:
    assert legible("A♠ 10♥ K♦ 2♣ RJ") == "A♤ 10♡ K♢ 2♧ RJ"
    assert plain(legible("A♠ 10♥ K♦ 2♣ RJ")) == "A♠ 10♥ K♦ 2♣ RJ"


def test_no_message_or_label_holds_an_emoji_suit() -> None:
    """Panels (contents, card selects, declare buttons) and table messages, every phase,
    every language."""
    checked = 0
    for position in itertools.islice(positions(), 0, None, 3):
        for locale in SUPPORTED:
            texts = []
            for content, wire in (panel(position, locale), table(position.doc, locale)):
                # the components' JSON is ASCII-escaped: read it back
                texts += [content, json.dumps(json.loads(wire), ensure_ascii=False)]
            for text in texts:
                found = [s for s in EMOJI_SUITS if s in text]
                assert not found, (position.label, locale, found, text[:200])
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("four_colour", [True, False])
def test_picture_suit_colours_meet_aa_on_every_card_face(four_colour: bool) -> None:
    scheme = style.FOUR_COLOUR if four_colour else style.TWO_COLOUR
    for suit, ink in scheme.items():
        for face in (style.CARD, style.CARD_TRUMP):
            assert contrast(ink, face) >= AA, (suit, ink, face)


@pytest.mark.parametrize(("ink", "ground"), [
    (style.WHITE, style.PANEL), (style.MUTED, style.PANEL), (style.GOLD, style.PANEL),
    (style.WHITE, style.FELT), (style.MUTED, style.FELT), (style.INK, style.WHITE),
])
def test_picture_text_colours_meet_aa(ink: tuple[int, int, int],
                                      ground: tuple[int, int, int]) -> None:
    assert contrast(ink, ground) >= AA
