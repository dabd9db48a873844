"""Frozen record types returned by and passed to `Store`.

A match is played in a mode (`Mode`, the engine's: `engine.variant`); what differs between
modes is the engine's `Variant` to answer. Records are per seat in every mode: each seat's
level, the seats that won a match, a hand's declarer seats (the starter's side as far as it
is public). A player is a Discord user id, or ``None`` for a computer seat. Dicts and lists
are stored as JSON text, so they must be JSON-compatible (dict keys become strings, tuples
become lists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from engine.variant import Mode as Mode  # the engine's modes, the records' one Mode type
from engine.variant import Variant, find_variant

TableStatus = Literal["lobby", "playing", "ended"]
Side = Literal["declarers", "opponents"]
MODES: tuple[Mode, ...] = tuple(Mode)
"""Every game mode (the engine's)."""
Role = Literal["starter", "friend", "opponent"]
"""A seat's part in a hand: the starter, on the starter's side (a partner or a revealed
friend), or an opponent."""
PanelMode = Literal["dm", "ephemeral"]


class Unset(Enum):
    """Type of `UNSET`."""

    UNSET = "UNSET"


UNSET = Unset.UNSET
"""Default of settings setters: leave this setting unchanged."""

LeaderboardBy = Literal["rating", "wins", "levels"]
LeaderboardScope = Literal["players", "partnerships"]
Players = tuple[int | None, ...]
"""One entry per seat (as many as the mode's variant allows); ``None`` is a computer seat."""
Holders = tuple[tuple[int | None, ...], ...]
"""Per seat, everyone who held it during a hand, in order (see `HandRecord.holders`)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A live table: the bot's JSON document plus the columns storage indexes."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: TableStatus
    version: int
    doc: dict[str, Any]
    deadline: float | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class HandAction:
    """One accepted action of a hand; ``seq`` orders the hand's actions (unique per hand)."""

    hand_key: str
    seq: int
    action: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRecord:
    """One hand: enough to replay it exactly (seed + actions) and to score it.

    Upsert it at the deal (``result_side=None``) and again when anything public changes;
    setting ``result_side`` settles it (once; ratings are updated then).
    ``actions`` is filled only when loaded; actions are saved through `HandAction`.

    ``players`` are the seats' holders now. ``holders`` says who held each seat during
    the hand: ``()`` = nobody changed seat, else four tuples, per seat every holder in
    order from the first record of the hand (the last one is ``players[seat]``); e.g.
    ``(2, None, 5)``: 2 left, a computer played on, then 5 took the seat. Storage merges
    what it is given with what it saw at earlier saves, so a change is never forgotten;
    the bot passes the holders it tracked (a change it never saved is otherwise unseen).
    A seat that changed hands counts for nobody's stats and the hand is not rated.

    ``mode`` must be its match's. ``declarers`` are the starter's side as known so far
    (its partners and the friends revealed, ascending; the final side once settled; None
    before the starter is known), and ``levels_before`` / ``levels_after`` are every
    seat's level when the hand started / once settled (``()`` while unknown, and in hands
    recorded before schema 7 by the four-player game, whose levels are on the match).
    """

    hand_key: str
    match_key: str
    table_id: int
    hand_no: int
    seed: int
    level: str
    trump: str | None = None
    starter: int | None = None
    declarers: tuple[int, ...] | None = None
    players: Players
    kitty: Sequence[str] = ()
    opponent_points: int = 0
    kitty_points: int = 0
    multiplier: int = 1
    result_side: Side | None = None
    result_levels: int = 0
    holders: Holders = ()
    mode: Mode
    levels_before: tuple[str, ...] = ()
    levels_after: tuple[str, ...] = ()
    actions: Sequence[dict[str, Any]] = field(default=(), compare=False)
    id: int | None = field(default=None, compare=False)

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.players)

    @property
    def variant(self) -> Variant:
        """The game the hand was played in (the engine's answers for its mode)."""
        return find_variant(self.mode)

    def role(self, seat: int) -> Role | None:
        """A seat's part in the hand (None while the declarers are unknown)."""
        if self.declarers is None:
            return None
        if seat == self.starter:
            return "starter"
        return "friend" if seat in self.declarers else "opponent"

    @property
    def changed_seats(self) -> tuple[int, ...]:
        """Seats held by more than one player (or computer) during the hand."""
        return tuple(seat for seat, held in enumerate(self.holders) if len(held) > 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRecord:
    """A match (a run of hands until a seat passes A; with fixed sides its partners win
    with it). Timestamps default to the store clock.

    ``levels``: every seat's level now (index = seat; partners' levels move together);
    ``winners``: the seats that won, ascending (``()`` until the match is won).
    ``mode`` and the number of seats are fixed at the first save."""

    match_key: str
    table_id: int
    guild_id: int
    channel_id: int
    players: Players
    mode: Mode
    levels: tuple[str, ...]
    winners: tuple[int, ...] = ()
    hands_played: int = 0
    started_at: float | None = None
    ended_at: float | None = None

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.players)

    @property
    def finished(self) -> bool:
        """True once a winner was recorded."""
        return bool(self.winners)

    @property
    def variant(self) -> Variant:
        """The game the match is played in."""
        return find_variant(self.mode)


@dataclass(frozen=True, slots=True)
class LevelPoint:
    """Every seat's level after ``hands_played`` hands (one point per change)."""

    hands_played: int
    levels: tuple[str, ...]
    at: float


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match as shown in a channel's history. ``has_computers``: a computer held a seat
    at some point; ``ranked``: every hand had distinct humans in every seat, none changing
    seat. ``levels`` and ``winners`` per seat, as in `MatchRecord`."""

    id: int
    match_key: str
    table_id: int
    channel_id: int
    players: Players
    levels: tuple[str, ...]
    winners: tuple[int, ...]
    hands_played: int
    has_computers: bool
    ranked: bool
    started_at: float
    ended_at: float | None
    season: int
    mode: Mode

    @property
    def variant(self) -> Variant:
        """The game the match was played in."""
        return find_variant(self.mode)


@dataclass(frozen=True, slots=True)
class UserStats:
    """A player's record in one guild and season.

    Matches count only when finished (a winner was recorded) and only for a player who
    held the same seat in every hand without a change; a hand counts only at a seat its
    player held from start to end (see `HandRecord.holders`). "Held" follows the hand's
    result: declarers hold when the opponents took < 80, opponents "hold" when they took
    80+. ``rating`` is the display rating (see `bot.storage.ratings`), None if unrated.
    """

    guild_id: int
    user_id: int
    matches_played: int
    matches_won: int
    hands_as_declarers: int
    held_as_declarers: int
    hands_as_opponents: int
    held_as_opponents: int
    levels_gained: int
    avg_points_as_opponents: float | None
    favourite_partner: int | None
    matches_with_favourite: int
    rating: float | None
    rated_hands: int
    season: int


@dataclass(frozen=True, slots=True)
class FriendsStats:
    """A player's Finding Friends record in one guild and season, apart from the teams
    game. Counting rules as `UserStats` (a seat counts only for whoever held it
    throughout the hand; matches only when finished and held unchanged). A hand is won
    when the player's final side won it (the side whose result it is, see R10/F5).
    ``highest_level``: the highest own level the player reached (after a settled hand),
    None before any. ``rating``: the friends rating (see `bot.storage.ratings`)."""

    guild_id: int
    user_id: int
    matches_played: int
    matches_won: int
    hands_played: int
    hands_as_starter: int
    won_as_starter: int
    hands_as_friend: int
    won_as_friend: int
    hands_as_opponent: int
    won_as_opponent: int
    levels_gained: int
    highest_level: str | None
    rating: float | None
    rated_hands: int
    season: int

    @property
    def hands_won(self) -> int:
        return self.won_as_starter + self.won_as_friend + self.won_as_opponent


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One player (``users`` has 1 id) or partnership (2 ids, ascending)."""

    rank: int
    users: tuple[int, ...]
    rating: float | None
    rated_hands: int
    matches: int
    wins: int
    levels: int
    hands: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of a leaderboard; ``page`` is 1-based, ``total_pages`` >= 1."""

    by: Literal["rating", "wins", "levels"]
    scope: Literal["players", "partnerships"]
    page: int
    per_page: int
    total_rows: int
    total_pages: int
    rows: list[LeaderboardRow]
    season: int
    mode: Mode


@dataclass(frozen=True, slots=True)
class Season:
    """A guild's season: numbered from 1; ``ended_at`` None for the current one.
    ``started_at`` is None only for season 1 of a guild that has recorded nothing yet."""

    guild_id: int
    number: int
    name: str | None
    started_at: float | None
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings: the default language and the default options of new tables
    (option name -> JSON value; names and values are the bot's options registry's to
    judge, storage keeps them as given)."""

    guild_id: int
    language: str = "en"
    table_options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UserSettings:
    """Per-user settings; ``language`` None = follow the guild."""

    user_id: int
    four_colour: bool = True
    panel: PanelMode = "dm"
    language: str | None = None
    turn_ping: bool = True
    """Ping in the channel when it becomes this player's turn (V4)."""
    auto_forced: bool = False
    """Play automatically when exactly one play is legal (V4)."""


@dataclass(frozen=True, slots=True)
class BackupInfo:
    """What an online backup wrote (`bot.storage.sqlite.backup.backup_database`)."""

    source: Path
    dest: Path
    size: int
    schema_version: int
