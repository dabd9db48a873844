"""What a committed table change asks Discord to show (Discord-free data).

`TableService` fills a `Publish` inside a transaction; after the commit it is handed to the
publish sink the composition root gave the service (bot/ui/publish.py in the bot)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.views import PublicView

__all__ = ["Announcement", "PanelRefresh", "Publish"]

PanelRefresh = Literal["new", "edit"]
"""How a seat's DM panel is refreshed: a ``new`` message (it notifies) or an ``edit``."""


@dataclass(slots=True)
class Announcement:
    """A new public message in the table's channel (it notifies, unlike edits)."""

    content: str
    summary_image: bool = False
    """Attach the end-of-hand summary image (rendered from ``summary_view``)."""
    ping: int | None = None
    """A user id this message may ping (DMs-closed notice only)."""
    summary_view: PublicView | None = None
    """The public view right after settlement, for the summary image."""
    ready: bool = False
    """Carry the Ready button (a summary when another hand follows and people play)."""


@dataclass(slots=True)
class Publish:
    """What Discord should show after a commit."""

    table: bool = True
    """Refresh the table message (coalesced)."""
    repost: bool = False
    """Post the table message anew at the bottom (a new hand, ``/tractor table``)."""
    announcements: list[Announcement] = field(default_factory=list)
    panels: dict[int, PanelRefresh] = field(default_factory=dict)
    """DM panels to refresh, by seat."""

    def panel(self, seat: int, mode: PanelRefresh) -> None:
        if self.panels.get(seat) != "new":
            self.panels[seat] = mode

    def merge(self, other: Publish) -> None:
        self.table = self.table or other.table
        self.repost = self.repost or other.repost
        self.announcements.extend(other.announcements)
        for seat, mode in other.panels.items():
            self.panel(seat, mode)
