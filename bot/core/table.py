"""The table document: everything the bot stores about one table, as a JSON-able dataclass.

Stored by `bot.storage.Store` (``tables.doc``) with a compare-and-set version; the engine
match state lives inside it as ``Match.to_dict()``. Secret information (hands, the kitty,
the seed of the hand being played) is only inside ``match``; nothing else here is secret.

The **step** counts decision points (a new declaration window, a new turn, a new phase, a
new hand). Components carry it in their custom id (``tr:table:hand:step:verb[:arg]``): a
click with an old step on an action button is stale. Saves that change nothing a player
decides on (message ids, a pass by someone else) leave it alone, so a player's panel does
not go stale because somebody else answered the same declaration window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.core.calls import CallDraft
from bot.core.errors import UserFacingError
from bot.core.options import rules_of
from engine.game import Match, Phase
from engine.rules import RuleSet

DOC_VERSION = 1
SEATS = 4
"""Seats of a four-player (teams) table, and of documents written before Finding Friends."""
MAX_SEATS = 8
MAX_SEAT_NAME = 32

TimerKind = Literal["declare", "bury", "call", "turn", "next_hand"]


@dataclass(slots=True)
class Seat:
    """One seat: a human (``user_id``) or a computer player (``user_id is None``)."""

    user_id: int | None
    name: str
    locale: str = "en"
    misses: int = 0
    """Consecutive timeouts (reset when the player acts)."""
    autopilot: bool = False
    dm_channel: int | None = None
    panel_message: int | None = None
    """The current DM panel message (edited in place; a new one notifies on a new turn)."""
    panel_step: int = -1
    """The step at which the DM panel was last sent or refreshed."""
    panel_turn_step: int = -1
    """The step of the last "your turn" DM (a new message that notifies)."""
    dm_closed: bool = False
    dm_notice_sent: bool = False
    level: str | None = None
    """A computer seat's strength (`bot.core.levels`); None: the server-wide default."""
    panel_hand: int = -1
    """The hand the DM panel message was sent for (-1: unknown, a document from before)."""
    panel_lost_hand: int = 0
    """A hand whose DM panel could not be delivered twice: not tried again in that hand."""

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def computer_acts(self) -> bool:
        """The computer decides for this seat (a computer seat, or a human on autopilot)."""
        return self.user_id is None or self.autopilot

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id, "name": self.name, "locale": self.locale,
            "misses": self.misses, "autopilot": self.autopilot,
            "dm_channel": self.dm_channel, "panel_message": self.panel_message,
            "panel_step": self.panel_step, "panel_turn_step": self.panel_turn_step,
            "dm_closed": self.dm_closed, "dm_notice_sent": self.dm_notice_sent,
            "level": self.level,
            "panel_hand": self.panel_hand, "panel_lost_hand": self.panel_lost_hand,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            user_id=None if data.get("user_id") is None else int(data["user_id"]),
            name=str(data.get("name", "")),
            locale=str(data.get("locale", "en")),
            misses=int(data.get("misses", 0)),
            autopilot=bool(data.get("autopilot", False)),
            dm_channel=_opt_int(data.get("dm_channel")),
            panel_message=_opt_int(data.get("panel_message")),
            panel_step=int(data.get("panel_step", -1)),
            panel_turn_step=int(data.get("panel_turn_step", -1)),
            dm_closed=bool(data.get("dm_closed", False)),
            dm_notice_sent=bool(data.get("dm_notice_sent", False)),
            level=None if data.get("level") is None else str(data["level"]),
            panel_hand=int(data.get("panel_hand", -1)),
            panel_lost_hand=int(data.get("panel_lost_hand", 0)),
        )


@dataclass(slots=True)
class TableDoc:
    """The stored document of one table."""

    guild_id: int
    channel_id: int
    creator_id: int
    options: dict[str, Any] = field(default_factory=lambda: RuleSet().to_dict())
    seats: list[Seat | None] = field(default_factory=lambda: [None] * SEATS)
    locale: str = "en"
    """Language of the public messages."""
    match: dict[str, Any] | None = None
    """``engine.game.Match.to_dict()`` of the running match without its ``rules`` (the
    options are stored once, in ``options``; documents written before keep a copy there,
    which is read as is), or None in the lobby."""
    match_no: int = 0
    match_key: str | None = None
    hand_key: str | None = None
    action_seq: int = 0
    """The next ``HandAction.seq`` of the current hand."""
    step: int = 0
    decision: list[Any] = field(default_factory=list)
    """The decision key the step was last bumped for (see `decision_key`)."""
    table_message: int | None = None
    table_message_hand: int = 0
    """The hand number the table message was posted for (re-posted each hand)."""
    table_message_waiting: bool = False
    """The table message shows a match before its first deal: the table posted after it
    replaces it (deleted, not left above the live table: issue 31 item 8)."""
    deadline: float | None = None
    timer: TimerKind | None = None
    timer_step: int = -1
    start_levels: list[str] | None = None
    """Debug: both teams' starting level for new matches (Config.debug_start_level)."""
    notes: list[str] = field(default_factory=list)
    """Recent public lines (catalog-formatted in ``locale``) shown under the table header."""
    restored: bool = False
    """Set when the bot restarted while the table was open (shown once on the table)."""
    last_summary: str | None = None
    """The last settled hand's public summary text (for the score sheet)."""
    results: list[dict[str, Any]] = field(default_factory=list)
    """Public results of the match's settled hands (score sheet)."""
    holders: list[list[int | None]] = field(default_factory=list)
    """Per seat, every holder during the current hand (`bot.core.seat_rules`; empty before)."""
    waiting: list[Seat | None] = field(default_factory=lambda: [None] * SEATS)
    """People who take a computer's seat from the next hand (`bot.core.seat_rules`)."""
    ready: list[int] = field(default_factory=list)
    """Between hands (and before the first deal): the seats whose player pressed Ready."""
    summary_message: int | None = None
    """The last hand's summary message (it carries the Ready button until the next deal)."""
    call_draft: tuple[int, CallDraft] | None = None
    """Finding Friends: the step and the starter's friend call being made at that step
    (`call_draft_now`), kept so that a restart shows it (bookkeeping: no step change)."""
    _parsed: tuple[dict[str, Any], Match] | None = field(default=None, repr=False,
                                                         compare=False)
    """``(match, Match.from_dict(match))``: the match is parsed once per document."""

    # ---- serialization -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": DOC_VERSION, "guild_id": self.guild_id, "channel_id": self.channel_id,
            "creator_id": self.creator_id, "options": dict(self.options),
            "seats": [None if s is None else s.to_dict() for s in self.seats],
            "locale": self.locale, "match": self.match, "match_no": self.match_no,
            "match_key": self.match_key, "hand_key": self.hand_key,
            "action_seq": self.action_seq, "step": self.step, "decision": list(self.decision),
            "table_message": self.table_message, "table_message_hand": self.table_message_hand,
            "table_message_waiting": self.table_message_waiting,
            "deadline": self.deadline, "timer": self.timer, "timer_step": self.timer_step,
            "start_levels": self.start_levels, "notes": list(self.notes),
            "restored": self.restored, "last_summary": self.last_summary,
            "results": list(self.results),
            "holders": [list(h) for h in self.holders],
            "waiting": [None if s is None else s.to_dict() for s in self.waiting],
            "ready": list(self.ready),
            "summary_message": self.summary_message,
        } | ({} if self.call_draft is None else {
            "call_draft": {"step": self.call_draft[0], **self.call_draft[1].to_dict()}})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableDoc:
        if data.get("v") != DOC_VERSION:
            raise ValueError(f"unsupported table document version {data.get('v')!r}")
        seats = [None if s is None else Seat.from_dict(s) for s in data["seats"]]
        waiting = [None if s is None else Seat.from_dict(s)
                   for s in data.get("waiting") or [None] * len(seats)]
        waiting += [None] * (len(seats) - len(waiting))
        return cls(
            guild_id=int(data["guild_id"]), channel_id=int(data["channel_id"]),
            creator_id=int(data["creator_id"]), options=dict(data["options"]),
            seats=seats, locale=str(data.get("locale", "en")), match=data.get("match"),
            match_no=int(data.get("match_no", 0)), match_key=data.get("match_key"),
            hand_key=data.get("hand_key"), action_seq=int(data.get("action_seq", 0)),
            step=int(data.get("step", 0)), decision=list(data.get("decision", [])),
            table_message=_opt_int(data.get("table_message")),
            table_message_hand=int(data.get("table_message_hand", 0)),
            table_message_waiting=bool(data.get("table_message_waiting", False)),
            deadline=None if data.get("deadline") is None else float(data["deadline"]),
            timer=data.get("timer"), timer_step=int(data.get("timer_step", -1)),
            start_levels=data.get("start_levels"), notes=list(data.get("notes", [])),
            restored=bool(data.get("restored", False)), last_summary=data.get("last_summary"),
            results=list(data.get("results", [])),
            holders=[list(h) for h in data.get("holders", [])],
            waiting=waiting[:len(seats)],
            ready=[int(s) for s in data.get("ready", [])],
            summary_message=_opt_int(data.get("summary_message")),
            call_draft=_call_draft(data.get("call_draft")),
        )

    # ---- queries ---------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return rules_of(self.options)

    def get_match(self) -> Match | None:
        """The running match (parsed once and kept while ``match`` is unchanged)."""
        data = self.match
        if data is None:
            return None
        cached = self._parsed
        if cached is not None and cached[0] is data:
            return cached[1]
        older = "rules" not in data  # an older document: the table's options
        match = Match.from_dict({**data, "rules": self.rules.to_dict()} if older else data)
        self._parsed = (data, match)
        return match

    def seed_match(self, match: Match) -> None:
        """`match` is ``Match.from_dict(self.match)`` (kept from the save that wrote it)."""
        assert self.match is not None
        self._parsed = (self.match, match)

    def set_match(self, match: Match | None) -> None:
        previous = self._parsed
        if match is not None and (previous is None or previous[0] is not self.match
                                  or previous[1].rules is not match.rules):
            # The match's options are the table's (bot-only ones kept); a move keeps the
            # rules object of the match it was applied to, already reconciled.
            rules = match.rules.to_dict()
            if any(self.options.get(k) != v for k, v in rules.items()):
                self.options = {**self.options, **rules}
        self.match = None if match is None else match.to_dict(rules=False)
        self._parsed = None if match is None or self.match is None else (self.match, match)

    @property
    def phase(self) -> Phase | None:
        """The engine phase, or None in the lobby."""
        match = self.get_match()
        return None if match is None else match.phase

    @property
    def in_lobby(self) -> bool:
        """Seats and options may change: no match yet, or the last one is over."""
        return self.match is None or self.phase is Phase.MATCH_OVER

    @property
    def seat_count(self) -> int:
        """The table's seats: 4 in teams mode, the ``players`` option in friends mode."""
        return len(self.seats)

    def resize(self, count: int) -> None:
        """Give the table `count` seats (in the lobby): people and computers in seats
        that go move to the first free seats that stay; `UserFacingError` when they do
        not fit."""
        if not SEATS <= count <= MAX_SEATS:
            raise UserFacingError("error.bad_option")
        extra = [s for s in self.seats[count:] if s is not None]
        seats = self.seats[:count] + [None] * (count - len(self.seats))
        free = [i for i, s in enumerate(seats) if s is None]
        if len(extra) > len(free):
            raise UserFacingError("error.seats_occupied", count=count)
        for index, entry in zip(free, extra, strict=False):
            seats[index] = entry
        self.seats = seats
        self.waiting = [None] * count
        self.ready = [s for s in self.ready if s < count]

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return index
        return None

    def seat(self, index: int) -> Seat:
        seat = self.seats[index]
        assert seat is not None, f"seat {index} is empty"
        return seat

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.user_id is not None]

    @property
    def has_computers(self) -> bool:
        return any(s is not None and s.user_id is None for s in self.seats)

    @property
    def unready(self) -> list[int]:
        """Seats the next deal waits for: people (not on autopilot) who have not pressed
        Ready. Computers, and people the computer plays for, are always ready."""
        return [i for i in self.humans if i not in self.ready and not self.seat(i).autopilot]

    def players(self) -> tuple[int | None, ...]:
        return tuple(None if s is None else s.user_id for s in self.seats)

    def names(self) -> list[str]:
        return ["" if s is None else s.name for s in self.seats]

    def call_draft_now(self) -> CallDraft:
        """The friend call being made at this step (a fresh one: none, or one kept from an
        earlier step, whose panel has moved on)."""
        if self.call_draft is None or self.call_draft[0] != self.step:
            return CallDraft()
        return self.call_draft[1]

    def add_note(self, line: str, keep: int = 6) -> None:
        self.notes.append(line)
        del self.notes[:-keep]

    def drop_notes(self, lines: Sequence[str]) -> None:
        """Take the newest note of each of `lines` out (a play taken back: what it caused
        is history no more)."""
        for line in lines:
            for index in range(len(self.notes) - 1, -1, -1):
                if self.notes[index] == line:
                    del self.notes[index]
                    break


def decision_key(match: Match | None) -> list[Any]:
    """What a player decides on: changes exactly when the step must be bumped."""
    if match is None:
        return ["lobby"]
    public = match.public_view()
    trick_len = 0 if public.trick is None else len(public.trick.plays)
    return [public.hand_no, public.deal_no, public.phase.value, public.batch, public.turn,
            public.tricks_played, trick_len]


def bump_step(doc: TableDoc, match: Match | None) -> bool:
    """Bump ``doc.step`` if the decision point changed; return whether it did."""
    key = decision_key(match)
    if key != doc.decision:
        doc.decision = key
        doc.step += 1
        return True
    return False


def seats_to_act(match: Match) -> list[int]:
    """Seats that must act now: those still to answer the declaration window, or the seat
    to bury or play. Empty between hands."""
    public = match.public_view()
    if public.phase is Phase.DECLARING:
        return list(public.awaiting)
    if public.phase in (Phase.BURYING, Phase.CALLING, Phase.PLAYING) and public.turn is not None:
        return [public.turn]
    return []


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _call_draft(data: Any) -> tuple[int, CallDraft] | None:
    """A stored ``call_draft`` (None if absent or malformed)."""
    if not isinstance(data, dict) or not isinstance(data.get("step"), int):
        return None
    return data["step"], CallDraft.from_dict(data)
