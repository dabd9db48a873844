"""What a committed table change produces (Discord-free data): what Discord should show
(`Publish`) and what the records keep (`hand_record`, `match_record`).

`TableService` fills a `Publish` inside a transaction with the commit's facts (its moves:
the engine's events, who acted, who is to act after it; a seat back from autopilot; a
restart); after the commit it is handed to the publish sink the composition root gave the
service (bot/ui/publish.py in the bot), where the one presentation policy
(bot/ui/policy.py) decides what each seat is shown.

The records of a hand and its match are built here from the engine's match, per seat in
every mode (issue 39): the starter's side as far as it is public (its partners and the
friends revealed so far; the engine's final `HandResult.declarer_seats` once settled),
every seat's level before and after the hand, the seats that won the match. Nothing hidden
goes in: an unrevealed friend is recorded as an opponent until the reveal or the
settlement shows otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.storage import HandRecord, Holders, MatchRecord, Players
from engine.events import Event
from engine.game import Match
from engine.views import PublicView

__all__ = ["Announcement", "Move", "Publish", "hand_record", "match_record"]


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
    restored: bool = False
    """The bot restarted: every panel is shown again."""

    def merge(self, other: Publish) -> None:
        self.table = self.table or other.table
        self.repost = self.repost or other.repost
        self.announcements.extend(other.announcements)
        self.moves.extend(other.moves)
        self.returned |= other.returned
        self.restored = self.restored or other.restored


# ---------------------------------------------------------------------------- records


def _texts(levels: Sequence[object]) -> tuple[str, ...]:
    return tuple(str(level) for level in levels)


def hand_record(match: Match, *, hand_key: str, match_key: str, table_id: int,
                players: Players, holders: Holders = ()) -> HandRecord:
    """The record of ``match``'s current hand (upsert it at the deal, after public changes
    and at settlement; see `bot.storage.HandRecord`), per seat in every mode."""
    hand = match.hand
    assert hand is not None
    starter, result = hand.starter, hand.result
    declarers: tuple[int, ...] | None
    if starter is None:
        declarers = None
    elif result is not None and result.declarer_seats:
        declarers = tuple(result.declarer_seats)
    else:
        declarers = match.public_view().declarer_seats
    return HandRecord(
        hand_key=hand_key, match_key=match_key, table_id=table_id, hand_no=hand.number,
        seed=hand.seed, level=str(hand.level),
        trump=None if hand.trump is None else str(hand.trump), starter=starter,
        declarers=declarers, players=players,
        kitty=() if result is None else [str(c) for c in result.kitty],
        opponent_points=hand.opponent_points,
        kitty_points=0 if result is None else result.kitty_points,
        multiplier=1 if result is None else result.kitty_multiplier,
        result_side=None if result is None else result.side,
        result_levels=0 if result is None else result.levels_gained,
        holders=holders, mode=match.rules.mode,
        levels_before=_texts(match.levels if result is None else result.levels),
        levels_after=() if result is None else _texts(result.new_levels),
    )


def match_record(match: Match, *, match_key: str, table_id: int, guild_id: int,
                 channel_id: int, players: Players, hands_played: int) -> MatchRecord:
    """The record of ``match`` (see `bot.storage.MatchRecord`): every seat's level and the
    seats that won (the winner and its partners, `Variant.partners`)."""
    winner = match.winner
    return MatchRecord(
        match_key=match_key, table_id=table_id, guild_id=guild_id, channel_id=channel_id,
        players=players, mode=match.rules.mode, levels=_texts(match.levels),
        winners=() if winner is None else match.variant.partners(winner, len(match.levels)),
        hands_played=hands_played)
