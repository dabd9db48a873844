"""Pictures for messages, drawn once per input and off the event loop (issue 16).

A hand picture depends only on the cards shown (hand, and kitty while burying), trump,
level, the selection and the viewer's style and language, not on the rest of the table:
`hand_picture` keys it on exactly that, so a panel re-sent because the *table* moved (a new
turn, someone else's play) reuses the bytes, and only the seat whose hand changed is drawn
again. `table_picture` draws the public table (the publisher coalesces edits, so once per
published edit). Misses are drawn by the worker pool (`bot.runtime.offload.Workers`, worker
processes or a thread) the composition root hands to `Pictures`: a hand picture among
people's jobs (a person waits for it), a table picture after them; a picture asked for
again while it is being drawn is drawn once.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from bot.present.images import SeatLabel, hand_png, table_png
from bot.runtime import offload
from bot.runtime.offload import Want, Workers
from engine.cards import Card
from engine.game import Phase
from engine.views import PlayerView, PublicView

__all__ = ["Pictures", "hand_key"]

CACHE_SIZE = 4096


class _Lru:
    def __init__(self, size: int, workers: Workers) -> None:
        self.size = size
        self.workers = workers
        self.items: OrderedDict[Hashable, bytes] = OrderedDict()
        self.hits = self.misses = self.drawn = 0
        self.drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        """Pictures being drawn (a second request waits for the same one)."""

    def get(self, key: Hashable) -> bytes | None:
        png = self.items.get(key)
        if png is None:
            self.misses += 1
            return None
        self.hits += 1
        self.items.move_to_end(key)
        return png

    def put(self, key: Hashable, png: bytes) -> None:
        self.items[key] = png
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)

    def want(self, key: Hashable, fn: Callable[..., bytes], *args: Any) -> Want | None:
        """The picture for `key` as a job to ask ahead (`Workers.warm`); None when it is
        drawn or being drawn."""
        if key in self.items or key in self.drawing:
            return None
        return Want(fn, args, lambda png: self._kept(key, png))

    def _kept(self, key: Hashable, png: bytes) -> None:
        self.drawn += 1
        self.put(key, png)

    async def draw(self, key: Hashable, priority: int, fn: Callable[..., bytes],
                   *args: Any) -> bytes:
        """The picture for `key`: cached, being drawn, or drawn now by `fn(*args)`."""
        png = self.get(key)
        if png is not None:
            return png
        pending = self.drawing.get(key)
        if pending is None or pending.get_loop() is not asyncio.get_running_loop():
            self.drawn += 1
            pending = asyncio.ensure_future(self.workers.run(fn, *args, priority=priority))
            self.drawing[key] = pending
            pending.add_done_callback(lambda done: self._drawn(key, done))
        return await asyncio.shield(pending)

    def _drawn(self, key: Hashable, done: asyncio.Future[bytes]) -> None:
        if self.drawing.get(key) is done:
            del self.drawing[key]
        if not done.cancelled() and done.exception() is None:
            self.put(key, done.result())


def hand_key(view: PlayerView, locale: str, selected: Sequence[Card],
             four_colour: bool) -> Hashable:
    """Everything the hand picture shows (see `bot.render.hand.hand_png`)."""
    public = view.public
    burying = public.phase is Phase.BURYING and view.kitty is not None
    return (tuple(view.hand), tuple(view.kitty or ()) if burying else None, burying,
            public.trump, public.level, tuple(selected), four_colour, locale)


class Pictures:
    """The hand and table pictures, cached, drawn by `workers` (which the panels' Quick
    plays and the publisher's summaries use too: `workers`)."""

    def __init__(self, workers: Workers, size: int = CACHE_SIZE) -> None:
        self.workers = workers
        self.hands = _Lru(size, workers)
        self.tables = _Lru(size // 4, workers)

    async def hand_picture(self, view: PlayerView, locale: str, selected: Sequence[Card] = (),
                           four_colour: bool = True) -> bytes:
        """The seat's hand picture (drawn only when what it shows changed; a person's
        job: it is their own panel)."""
        return await self.hands.draw(hand_key(view, locale, selected, four_colour),
                                     offload.PEOPLE, _draw_hand, view, locale,
                                     tuple(selected), four_colour)

    def hand_want(self, view: PlayerView, locale: str, selected: Sequence[Card] = (),
                  four_colour: bool = True) -> Want | None:
        """`hand_picture` as a job to ask ahead (None: no need)."""
        return self.hands.want(hand_key(view, locale, selected, four_colour), _draw_hand,
                               view, locale, tuple(selected), four_colour)

    def table_want(self, public: PublicView, seats: Sequence[SeatLabel], locale: str
                   ) -> Want | None:
        """`table_picture` as a job to ask ahead (None: no need)."""
        return self.tables.want((public, tuple(seats), locale), table_png, public,
                                list(seats), locale)

    async def table_picture(self, public: PublicView, seats: Sequence[SeatLabel],
                            locale: str) -> bytes:
        """The public table picture (the same table drawn again costs a lookup)."""
        return await self.tables.draw((public, tuple(seats), locale), offload.PICTURES,
                                      table_png, public, list(seats), locale)

    @property
    def drawn(self) -> int:
        """Pictures drawn so far (benchmarks)."""
        return self.hands.drawn + self.tables.drawn


def _draw_hand(view: PlayerView, locale: str, selected: tuple[Card, ...],
               four_colour: bool) -> bytes:
    return hand_png(view, locale, selected=selected, four_colour=four_colour)
