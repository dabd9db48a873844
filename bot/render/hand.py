"""The hand image: a seat's cards in the order players think, laid out for a phone.

The cards run in display order (trumps first, then ♠ ♥ ♣ ♦) through as few, as full rows as
make them largest: each row overlaps its cards down to their index strips, a gap marks
where a suit group starts, and rows break between suit groups where that costs little.
With three or more decks, a triple or quadruple of one card stands apart by a narrower gap
on either side (and rows rather break around it than through it). A hand too big for the
usual height (more than ~40 cards: four players with four decks) gets a taller picture and
more rows rather than cards too small to read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render.board import trump_so_far
from bot.render.draw import felt, fit, rich, rich_width, text, trump_parts, width_of
from bot.render.faces import ASPECT, INDEX_H, INDEX_W, KITTY_H, card_face, card_height, index_height
from bot.render.labels import ENGLISH, Labels
from bot.render.sorting import hand_groups
from bot.render.style import MUTED, WHITE, to_png
from engine.cards import Card, Rank
from engine.game import Phase
from engine.trump import Trump
from engine.views import PlayerView

WIDTH: Final = 720
"""Drawn for a 360 px wide phone screen at twice its resolution."""
MIN_HEIGHT: Final = 360  # aspect at most 2:1
MAX_HEIGHT: Final = 600  # aspect at least 1.2:1
TALL_HEIGHT: Final = 756  # a very big hand (aspect at least 0.95:1) …
TALL_BELOW: Final = 96  # … when the usual height would draw its cards narrower than this
MARGIN: Final = 16
GAP: Final = 14  # between suit groups in a row
TIE_GAP: Final = 8  # either side of a triple or quadruple (three or more decks)
CARD_MAX: Final = 150  # the widest a card gets (a few cards)
MAX_ROWS: Final = 7
RAISE: Final = 0.12  # a selected card's lift, in card widths (kept free between rows)
HEADER_SIZE: Final = 32
INFO_SIZE: Final = 28
LINE: Final = 44  # one header line
BOTTOM: Final = 14
_BREAK: Final = 6.0  # a row break inside a suit group costs like ~2 extra cards in a row
_GAP_UNITS: Final = 0.35  # a group gap, in overlap steps


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the cards go: `rows` are [start, end) spans of the display order."""

    rows: tuple[tuple[int, int], ...]
    card: int
    step: float
    row_step: int
    gaps: tuple[float, ...]
    """The width of the gaps each row holds (suit groups, tuples), in px."""

    @property
    def height(self) -> int:
        """The rows' height, the selected cards' lift included."""
        if not self.rows:
            return 0
        return round(RAISE * self.card) + (len(self.rows) - 1) * self.row_step \
            + card_height(self.card)

    def row_width(self, r: int) -> float:
        start, end = self.rows[r]
        return self.card + (end - start - 1) * self.step + self.gaps[r]


def render_hand(view: PlayerView, *, selected: Iterable[Card] = (), four_colour: bool = True,
                labels: Labels = ENGLISH) -> bytes:
    """The seat's hand as a palette PNG (720 px wide, drawn for a phone).

    Trumps first (R3 order), then side suits ♠ ♥ ♣ ♦, in as few rows as keep the cards
    largest. `selected` cards (a multiset: list a card twice to raise both copies) are raised
    and framed in gold. While this seat buries, its kitty cards join the hand, marked.
    Before trump is set, jokers and level cards come first, then each suit.
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"render_hand takes a PlayerView, not {type(view).__name__}")
    return hand_png(view, tuple(selected), four_colour, labels)


@lru_cache(maxsize=64)
def hand_png(view: PlayerView, selected: tuple[Card, ...], four_colour: bool,
             labels: Labels) -> bytes:
    """`render_hand`, cached: the same hand drawn again costs a lookup."""
    public = view.public
    burying = public.phase is Phase.BURYING and view.kitty is not None
    cards = list(view.hand)
    kitty: Counter[Card] = Counter()
    if burying and view.kitty is not None:
        cards += view.kitty
        kitty.update(view.kitty)
    level = public.level if public.level is not None else Rank.TWO
    image = hand_image(cards, trump=public.trump, level=level, selected=selected, kitty=kitty,
                       burying=burying, four_colour=four_colour, labels=labels,
                       so_far=trump_so_far(public))
    return to_png(image)


def _units(sizes: Sequence[int], starts: frozenset[int], i: int, j: int) -> float:
    """The length of a row of cards [i, j) in overlap steps (group gaps included)."""
    return (j - i - 1) + _GAP_UNITS * sum(1 for k in range(i + 1, j) if k in starts)


@lru_cache(maxsize=4096)
def partition(sizes: tuple[int, ...], rows: int) -> tuple[tuple[int, int], ...]:
    """Split cards in groups of `sizes` into `rows` non-empty rows, balanced (least sum of
    squared lengths) and preferring breaks between groups."""
    n = sum(sizes)
    starts = frozenset(sum(sizes[:g]) for g in range(1, len(sizes)))
    inf = float("inf")
    # best[r][j]: the least cost of the first j cards in r rows, and where the last row starts
    best = [[(inf, 0)] * (n + 1) for _ in range(rows + 1)]
    best[0][0] = (0.0, 0)
    for r in range(1, rows + 1):
        for j in range(r, n + 1):
            for i in range(r - 1, j):
                before = best[r - 1][i][0]
                if before == inf:
                    continue
                cost = before + _units(sizes, starts, i, j) ** 2
                if i > 0 and i not in starts:
                    cost += _BREAK
                if cost < best[r][j][0]:
                    best[r][j] = (cost, i)
    spans: list[tuple[int, int]] = []
    end = n
    for r in range(rows, 0, -1):
        start = best[r][end][1]
        spans.append((start, end))
        end = start
    return tuple(reversed(spans))


def layout(sizes: Sequence[int], *, kitty: bool, room: int,
           ties: frozenset[int] = frozenset(), even: bool = False) -> Layout:
    """The largest cards for groups of `sizes` in a `WIDTH` × `room` px area: as few rows as
    possible unless more rows make the cards clearly (15 %) larger. A group start in `ties`
    is a tuple's edge inside a suit (a `TIE_GAP`), the others start a suit (a `GAP`).
    `even`: also try rows of equal length wherever they break (very big hands)."""
    sizes = tuple(s for s in sizes if s)
    n = sum(sizes)
    if n == 0:
        return Layout((), CARD_MAX, 0, 0, ())
    starts = frozenset(sum(sizes[:g]) for g in range(1, len(sizes)))
    avail = WIDTH - 2 * MARGIN
    strip = INDEX_H + (KITTY_H if kitty else 0) + RAISE
    chosen: tuple[float, tuple[tuple[int, int], ...], tuple[float, ...]] | None = None
    candidates = [partition(sizes, count) for count in range(1, min(n, MAX_ROWS) + 1)]
    if even:
        candidates += [_even(n, count) for count in range(2, min(n, MAX_ROWS) + 1)]
    for spans in candidates:
        count = len(spans)
        gaps = tuple(float(sum(TIE_GAP if k in ties else GAP
                               for k in range(i + 1, j) if k in starts)) for i, j in spans)
        wide = min((avail - g) / (1 + (j - i - 1) * INDEX_W)
                   for (i, j), g in zip(spans, gaps, strict=True))
        tall = room / ((count - 1) * strip + ASPECT + RAISE)
        card = min(CARD_MAX, wide, tall)
        if chosen is None or card > chosen[0] * 1.15:
            chosen = (card, spans, gaps)
    assert chosen is not None
    card_f, spans, gaps = chosen
    card = int(card_f)
    step = float(card + 8)
    for (i, j), g in zip(spans, gaps, strict=True):
        if j - i > 1:
            step = min(step, (avail - card - g) / (j - i - 1))
    row_step = index_height(card, kitty=kitty) + round(RAISE * card)
    return Layout(spans, card, step, row_step, gaps)


def _even(n: int, rows: int) -> tuple[tuple[int, int], ...]:
    """`n` cards in `rows` rows of equal length (the first rows one longer)."""
    ends = [round(n * (r + 1) / rows) for r in range(rows)]
    return tuple(zip([0, *ends[:-1]], ends, strict=True))


def tuple_groups(groups: Sequence[Sequence[Card]]) -> tuple[list[int], frozenset[int]]:
    """The suit groups' sizes split at the edges of every triple or quadruple (three or
    more copies of one card side by side), and the positions of those edges. With two
    decks (pairs at most) this is just the suit groups' sizes."""
    sizes: list[int] = []
    ties: set[int] = set()
    at = 0
    for group in groups:
        runs: list[int] = []
        for k, card in enumerate(group):
            if k and card == group[k - 1]:
                runs[-1] += 1
            else:
                runs.append(1)
        part = 0
        for run in runs:
            if run >= 3 and part:  # close the cards before the tuple
                sizes.append(part)
                ties.add(at)
                part = 0
            part += run
            at += run
            if run >= 3:
                sizes.append(part)
                part = 0
                ties.add(at)
        if part:
            sizes.append(part)
    total = sum(sizes)
    return sizes, frozenset(t for t in ties if 0 < t < total
                            and t not in _suit_starts(groups))


def _suit_starts(groups: Sequence[Sequence[Card]]) -> frozenset[int]:
    return frozenset(sum(len(g) for g in groups[:k]) for k in range(1, len(groups)))


def _counts(cards: int, n_selected: int, labels: Labels) -> str:
    parts = [labels.cards.format(count=cards)]
    if n_selected:
        parts.insert(0, labels.selected.format(count=n_selected))
    return "  ·  ".join(parts)


def bury_hint(count: int, labels: Labels) -> str:
    """"Bury 8 · K = from the kitty": `count` is the kitty size."""
    return labels.bury_hint.format(count=count)


def hand_image(cards: Sequence[Card], *, trump: Trump | None, level: Rank,
               selected: Iterable[Card] = (), kitty: Counter[Card] | None = None,
               burying: bool = False, four_colour: bool = True,
               labels: Labels = ENGLISH, so_far: Trump | None = None) -> Image.Image:
    """The hand picture as an RGB image (see `render_hand`; `so_far`: while dealing, the
    trump the standing declaration would make, named in the header)."""
    groups = hand_groups(cards, trump, level)
    order = [card for group in groups for card in group]
    sizes, ties = tuple_groups(groups)
    starts = {sum(sizes[:k]) for k in range(1, len(sizes))}
    chosen = Counter(selected)
    picked: list[bool] = []
    for card in order:
        picked.append(chosen[card] > 0)
        chosen[card] -= 1
    n_selected = sum(picked)

    title = [labels.level.format(rank=str(level)) + "  ·  ",
             *trump_parts(trump, labels, so_far=so_far)]
    # Line 1: level and trump, the counts at the right if they fit; line 2 (when needed):
    # the bury hint, then the counts that did not fit.
    counts = _counts(len(cards), n_selected, labels)
    title_w = rich_width(title, HEADER_SIZE, bold=True)
    counts_fit = title_w + 30 + width_of(counts, INFO_SIZE, bold=True) <= WIDTH - 2 * MARGIN
    second = [bury_hint(sum((kitty or Counter()).values()), labels)] if burying else []
    if not counts_fit:
        second.append(counts)
    header = LINE + (LINE - 6 if second else 0) + 8
    plan = layout(sizes, kitty=burying, room=MAX_HEIGHT - header - BOTTOM, ties=ties)
    if plan.card < TALL_BELOW:  # a very big hand: a taller picture, more rows
        plan = layout(sizes, kitty=burying, room=TALL_HEIGHT - header - BOTTOM, ties=ties,
                      even=True)
    rows = len(plan.rows)
    lift = round(RAISE * plan.card)
    block = plan.height
    height = max(MIN_HEIGHT, header + block + BOTTOM)
    image = felt((WIDTH, height)).copy()
    draw = ImageDraw.Draw(image)

    marked = Counter(kitty or {})
    block_w = max((plan.row_width(r) for r in range(rows)), default=0)
    left = round((WIDTH - block_w) / 2)
    top = header + lift + (height - header - BOTTOM - block) // 2
    for r, (start, end) in enumerate(plan.rows):
        x = float(left)
        y = top + r * plan.row_step
        for k in range(start, end):
            card = order[k]
            if k in starts and k != start:
                x += TIE_GAP if k in ties else GAP
            is_kitty = marked[card] > 0
            if is_kitty:
                marked[card] -= 1
            is_trump = trump.is_trump(card) if trump is not None else (
                card.rank.is_joker or card.rank == level)
            face = card_face(card, plan.card, four_colour=four_colour, trump=is_trump,
                             points=card.points > 0, kitty=is_kitty, selected=picked[k],
                             labels=labels)
            image.paste(face, (round(x), y - (lift if picked[k] else 0)), face)
            x += plan.step

    y = 8 + LINE // 2
    rich(draw, (MARGIN + 4, y), title, HEADER_SIZE, WHITE, bold=True, four_colour=four_colour)
    if counts_fit:
        text(draw, (WIDTH - MARGIN - 4, y), counts, INFO_SIZE, MUTED, bold=True, anchor="rm")
    if second:
        line = fit("  ·  ".join(second), INFO_SIZE, WIDTH - 2 * MARGIN - 8, bold=True)
        text(draw, (MARGIN + 4, y + LINE - 6), line, INFO_SIZE, MUTED, bold=True, anchor="lm")
    return image
