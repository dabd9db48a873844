"""What a committed table change produces (Discord-free data): what Discord should show
(`Publish`; what the records keep is built by `bot.services.records`).

`TableService` fills a `Publish` inside a transaction with the commit's facts (its moves:
the engine's events, who acted, who is to act after it; a seat back from autopilot; a
restart); after the commit it is handed to the publish sink the composition root gave the
service (bot/ui/publish.py in the bot), where the one presentation policy
(bot/ui/policy.py) decides what each seat is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import Event
from engine.views import PublicView

__all__ = ["Announcement", "Move", "Publish"]


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


@dataclass(frozen=True, slots=True)
class Move:
    """One engine action applied, as facts: what happened and the decision point after it
    (public: no card of anyone's hand)."""

    events: tuple[Event, ...]
    actor: int | None
    """The seat that acted (a person, a computer, a seat on autopilot), None for the
    table's own actions (a deal, a timer's)."""
    hand_no: int
    step: int
    """The table's step after the move (`TableDoc.step`: bumped per decision point)."""
    to_act: tuple[int, ...]
    """The seats that must act after it (the declaration window's, or the one turn)."""
    people: tuple[int, ...] = ()
    """The seats whose person plays them (not a computer, not on autopilot)."""


@dataclass(slots=True)
class Publish:
    """What a commit changed, for Discord (facts, not decisions: bot/ui/policy.py decides)."""

    table: bool = True
    """The table message shows something new (edited, coalesced)."""
    repost: bool = False
    """Post the table message anew at the bottom (a new hand, ``/tractor table``)."""
    announcements: list[Announcement] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    """The engine actions applied, in order."""
    returned: set[int] = field(default_factory=set)
    """Seats whose person is back from autopilot (``I'm back``)."""
    departed: set[int] = field(default_factory=set)
    """Seats whose person was put on autopilot (their panel says so, once)."""
    restored: bool = False
    """The bot restarted: every panel is shown again."""

    def merge(self, other: Publish) -> None:
        self.table = self.table or other.table
        self.repost = self.repost or other.repost
        self.announcements.extend(other.announcements)
        self.moves.extend(other.moves)
        self.returned |= other.returned
        self.departed |= other.departed
        self.restored = self.restored or other.restored
