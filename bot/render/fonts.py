"""The shipped CJK font (assets/fonts), loaded lazily and cached per size and weight.

Never a system font: Noto Sans CJK SC (subset, OFL) covers Latin, ♠ ♥ ♦ ♣, ★ and the Han
characters players' names and labels use (see assets/README.md).

The assets folder is ``$TRACTOR_ASSETS`` when set — an installed (non-editable) package has
no assets/ beside its source, so the Docker image copies them to /app/assets and sets it —
else the repository's assets/ (a checkout or an editable install). See `assets_dir`.
"""

from __future__ import annotations

import os
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

ASSETS_ENV: Final = "TRACTOR_ASSETS"
REPO_ASSETS: Final = Path(__file__).resolve().parents[2] / "assets"
FONTS_DIR: Final = REPO_ASSETS / "fonts"
"""The repository's fonts (tools and tests); the renderer uses `fonts_dir()`."""
_FILES: Final = {
    False: "NotoSansCJKsc-Regular-subset.otf",
    True: "NotoSansCJKsc-Bold-subset.otf",
}


def assets_dir() -> Path:
    """The assets folder: ``$TRACTOR_ASSETS`` when set and not blank, else the repo's."""
    value = os.environ.get(ASSETS_ENV, "").strip()
    return Path(value).expanduser() if value else REPO_ASSETS


def fonts_dir() -> Path:
    return assets_dir() / "fonts"


def font_path(bold: bool = False) -> Path:
    """The path of the shipped font file of that weight."""
    return fonts_dir() / _FILES[bold]


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` px. The basic layout engine is enough (no shaping needed)
    and several times faster than Raqm."""
    path = font_path(bold)
    if not path.is_file():
        raise FileNotFoundError(
            f"missing font {path}: the bot ships it in assets/fonts (see assets/README.md); "
            f"set {ASSETS_ENV} to the folder holding fonts/ when the package is installed"
        )
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def charset() -> frozenset[str]:
    """Every character the shipped subset draws (assets/fonts/charset.txt)."""
    return frozenset((fonts_dir() / "charset.txt").read_text(encoding="utf-8"))


@lru_cache(maxsize=4096)
def drawable(text: str, replacement: str = "?") -> str:
    """`text` with whitespace as plain spaces and characters the font cannot draw replaced
    (player names: emoji, control characters …)."""
    chars = charset()
    return "".join(" " if c.isspace() else c if c in chars else replacement for c in text)
