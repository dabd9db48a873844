"""Pictures for the table: pure Pillow functions from engine views to PNG bytes.

No Discord here. Every function is blocking and CPU-bound (a few ms): call it with
`asyncio.to_thread`. Fonts and card faces are loaded/drawn lazily and cached; the fonts come
from `assets_dir()` (``$TRACTOR_ASSETS`` when set, else the repository's assets/).

- `render_hand(player_view, selected=..., four_colour=..., labels=...)`
- `render_table(public_view, seats, four_colour=..., labels=..., bottom=...)`
- `render_summary(public_view_or_HandSummary, seats, four_colour=..., labels=...)`

`seats` names every seat of the table (4–8). The four-seat game (`Mode.TEAMS`) is drawn as
always (table.py); Finding Friends tables (`Mode.FRIENDS`, 4–8 seats) on a 3 × 3 board
(ring.py) with the called cards, sides and points per seat read from the view (sides.py).
"""

from bot.render.board import SeatLabel
from bot.render.fonts import assets_dir
from bot.render.hand import render_hand
from bot.render.labels import ENGLISH, Labels
from bot.render.sorting import SUIT_ORDER, hand_groups, sort_hand
from bot.render.summary import HandSummary, render_summary
from bot.render.table import render_table

__all__ = [
    "ENGLISH",
    "SUIT_ORDER",
    "HandSummary",
    "Labels",
    "SeatLabel",
    "assets_dir",
    "hand_groups",
    "render_hand",
    "render_summary",
    "render_table",
    "sort_hand",
]
