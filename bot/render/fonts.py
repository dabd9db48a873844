"""The shipped CJK font (assets/fonts), loaded lazily and cached per size and weight.

Never a system font: Noto Sans CJK SC (subset, OFL) covers Latin, ♠ ♥ ♦ ♣, ★ and the Han
characters players' names and labels use (see assets/README.md).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONTS_DIR: Final = Path(__file__).resolve().parents[2] / "assets" / "fonts"
_FILES: Final = {
    False: "NotoSansCJKsc-Regular-subset.otf",
    True: "NotoSansCJKsc-Bold-subset.otf",
}


def font_path(bold: bool = False) -> Path:
    """The path of the shipped font file of that weight."""
    return FONTS_DIR / _FILES[bold]


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` px. The basic layout engine is enough (no shaping needed)
    and several times faster than Raqm."""
    path = font_path(bold)
    if not path.is_file():
        raise FileNotFoundError(
            f"missing font {path}: the bot ships it in assets/fonts (see assets/README.md)"
        )
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def charset() -> frozenset[str]:
    """Every character the shipped subset draws (assets/fonts/charset.txt)."""
    return frozenset((FONTS_DIR / "charset.txt").read_text(encoding="utf-8"))


def drawable(text: str, replacement: str = "?") -> str:
    """`text` with whitespace as plain spaces and characters the font cannot draw replaced
    (player names: emoji, control characters …)."""
    chars = charset()
    return "".join(" " if c.isspace() else c if c in chars else replacement for c in text)
