"""The bot's one door to the renderers (bot/render): views in, PNG bytes out.

All functions here are blocking; call them with ``asyncio.to_thread``. Public images take
the `PublicView` only; the hand image takes the seat's own `PlayerView`. Labels are
localized from the catalog (``render.*`` keys) and cached per locale; if a key is missing
the English labels are used.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from bot import render
from bot.i18n import messages, resolve_locale
from bot.render import Labels, SeatLabel
from engine.cards import Card
from engine.views import PlayerView, PublicView

__all__ = ["SeatLabel", "hand_png", "labels_for", "summary_png", "table_png"]


@functools.cache
def labels_for(locale: str) -> Labels:
    """The pictures' labels in `locale`: the catalog's raw templates (the renderers fill
    them; `t` would format them and fail on their placeholders)."""
    return Labels.from_messages(messages(resolve_locale(locale)))


def table_png(view: PublicView, seats: Sequence[SeatLabel], locale: str, *, bottom: int = 0,
              four_colour: bool = True) -> bytes:
    """The public table image (spectators see exactly this)."""
    if not isinstance(view, PublicView):  # public images never see a seat's cards
        raise TypeError("the table image takes a PublicView")
    return render.render_table(view, seats, four_colour=four_colour, labels=labels_for(locale),
                               bottom=bottom)


def summary_png(view: PublicView, seats: Sequence[SeatLabel], locale: str, *,
                four_colour: bool = True) -> bytes:
    """The end-of-hand summary image (public: the kitty is shown once settled)."""
    if not isinstance(view, PublicView):
        raise TypeError("the summary image takes a PublicView")
    return render.render_summary(view, seats, four_colour=four_colour, labels=labels_for(locale))


def hand_png(view: PlayerView, locale: str, *, selected: Iterable[Card] = (),
             four_colour: bool = True) -> bytes:
    """One seat's hand (its private panel only)."""
    return render.render_hand(view, selected=list(selected), four_colour=four_colour,
                              labels=labels_for(locale))
