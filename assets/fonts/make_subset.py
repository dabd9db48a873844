"""Make the shipped CJK font subsets in this folder from Noto Sans CJK (SIL OFL 1.1).

The subsets are committed, so nothing (CI included) needs to run this. Rerun it only
to change the character set or to update the source font:

    apt-get install -y fonts-noto-cjk        # Debian: /usr/share/fonts/opentype/noto/*.ttc
    .venv/bin/python assets/fonts/make_subset.py [--source-dir DIR] [--out-dir DIR]

It reads the Simplified Chinese face ("Noto Sans CJK SC", design SC) out of the
NotoSansCJK-{Regular,Bold}.ttc collections and writes, per weight:

    NotoSansCJKsc-{Regular,Bold}-subset.otf   CFF outlines, no hinting, no vertical
                                              metrics, only the `kern` layout feature
and once:
    charset.txt                               every character the subsets cover (UTF-8)

Character set (see `codepoints()`): Basic Latin, Latin-1 Supplement, General
Punctuation, card suits, a few arrows and shapes, CJK Symbols and Punctuation,
Halfwidth and Fullwidth Forms, every character of GB2312 (all valid two-byte codes,
so the 6,763 Han characters of simplified Chinese plus its symbols, kana, Greek and
Cyrillic) and every character of Big5 level 1 (the 5,401 common traditional Han
characters, A440-C67E) plus Big5's symbol rows (A140-A3BF), and every character of the
message catalogs (bot/i18n/locales/*/LC_MESSAGES/*.po), so that any message can be drawn.
tests/test_i18n.py checks that last part against charset.txt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parent
CATALOGS = HERE.parents[1] / "bot" / "i18n" / "locales"
DEFAULT_SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
SC_FACE = "Noto Sans CJK SC"  # family name of the face to take out of the .ttc
WEIGHTS = ("Regular", "Bold")

RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x2000, 0x206F),  # General Punctuation
    (0x2190, 0x2193),  # ← ↑ → ↓
    (0x2460, 0x2473),  # ① … ⑳
    (0x25A0, 0x25A1),  # ■ □
    (0x25B2, 0x25B3),  # ▲ △
    (0x25BC, 0x25BD),  # ▼ ▽
    (0x25C6, 0x25C7),  # ◆ ◇
    (0x25CB, 0x25CB),  # ○
    (0x25CF, 0x25CF),  # ●
    (0x2605, 0x2606),  # ★ ☆
    (0x2660, 0x2667),  # ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧
    (0x2713, 0x2717),  # ✓ ✔ ✕ ✖ ✗
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
)


def _decode_two_byte(codec: str, lead: range, trail: tuple[range, ...]) -> set[int]:
    """Code points of every valid two-byte sequence of a legacy double-byte codec."""
    out: set[int] = set()
    for hi in lead:
        for rng in trail:
            for lo in rng:
                try:
                    text = bytes((hi, lo)).decode(codec)
                except UnicodeDecodeError:
                    continue
                out.update(ord(c) for c in text)
    return out


def gb2312() -> set[int]:
    """All of GB2312 (EUC-CN: lead and trail bytes A1-FE)."""
    return _decode_two_byte("gb2312", range(0xA1, 0xFF), (range(0xA1, 0xFF),))


def big5_level1() -> set[int]:
    """Big5 symbols (A140-A3BF) and level 1 Han characters (A440-C67E)."""
    trail = (range(0x40, 0x7F), range(0xA1, 0xFF))
    points = _decode_two_byte("big5", range(0xA1, 0xC7), trail)
    # Keep only codes up to C67E: C6A1 onwards is outside level 1 (kana etc. in
    # some vendor tables) and C87E+ is level 2.
    cut = _decode_two_byte("big5", range(0xC6, 0xC7), (range(0xA1, 0xFF),))
    return points - cut


def catalog_characters() -> set[int]:
    """Every character written in the message catalogs (comments included)."""
    out: set[int] = set()
    for po in sorted(CATALOGS.glob("*/LC_MESSAGES/*.po")):
        out.update(ord(c) for c in po.read_text(encoding="utf-8"))
    return out


def codepoints() -> set[int]:
    cps: set[int] = set()
    for lo, hi in RANGES:
        cps.update(range(lo, hi + 1))
    cps |= gb2312()
    cps |= big5_level1()
    cps |= catalog_characters()
    # Control characters never have glyphs; keep the set honest.
    return {cp for cp in cps if cp >= 0x20 and not 0x7F <= cp < 0xA0}


def load_sc_face(ttc: Path) -> TTFont:
    for font in TTCollection(str(ttc)).fonts:
        if font["name"].getDebugName(1) == SC_FACE:
            return font
    raise SystemExit(f"{ttc}: no face named {SC_FACE!r}")


def options() -> subset.Options:
    opts = subset.Options()
    opts.layout_features = ["kern"]  # Latin kerning; no CJK locl/vert/palt needed
    opts.hinting = False  # drop CFF hints: renders at image sizes, not screen pixels
    opts.desubroutinize = False  # keep CFF subroutines: much smaller file
    opts.drop_tables += ["vhea", "vmtx", "VORG", "BASE", "DSIG"]  # no vertical text
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14]  # keep copyright + licence
    opts.name_languages = [0x0409]
    opts.notdef_outline = True  # an uncovered character shows a box, not nothing
    opts.glyph_names = False
    opts.recalc_bounds = True
    return opts


def make(source_dir: Path, out_dir: Path) -> int:
    cps = codepoints()
    covered: set[int] | None = None
    for weight in WEIGHTS:
        src = source_dir / f"NotoSansCJK-{weight}.ttc"
        if not src.exists():
            print(f"missing {src}: apt-get install -y fonts-noto-cjk", file=sys.stderr)
            return 1
        font = load_sc_face(src)
        cmap = font.getBestCmap()
        subsetter = subset.Subsetter(options())
        subsetter.populate(unicodes=sorted(cps))
        subsetter.subset(font)
        out = out_dir / f"NotoSansCJKsc-{weight}-subset.otf"
        font.recalcTimestamp = False  # same input, same bytes
        font.save(str(out))
        have = {cp for cp in cps if cp in cmap}
        covered = have if covered is None else covered & have
        missing = sorted(cps - set(cmap))
        print(
            f"{out.name}: {out.stat().st_size / 1e6:.2f} MB, "
            f"{len(have)} characters, {len(font.getGlyphOrder())} glyphs; "
            f"{len(missing)} requested characters not in the source font"
        )
        if missing:
            shown = " ".join(f"U+{cp:04X}" for cp in missing[:40])
            print(f"  not in source: {shown}{' …' if len(missing) > 40 else ''}")
    assert covered is not None
    charset = out_dir / "charset.txt"
    charset.write_text("".join(chr(cp) for cp in sorted(covered)) + "\n", encoding="utf-8")
    print(f"{charset.name}: {len(covered)} characters")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=Path, default=DEFAULT_SOURCE_DIR)
    parser.add_argument("--out-dir", type=Path, default=HERE)
    args = parser.parse_args(argv)
    return make(args.source_dir, args.out_dir)


if __name__ == "__main__":
    raise SystemExit(main())
