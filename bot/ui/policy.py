"""The one presentation policy (issue 36): what a commit shows, to whom, and by which road.

Pure: no Discord, no I/O. `decide` maps a commit's facts (`Publish`: its moves, each with
the engine's events, who acted and who is to act after it) and what each seat last saw
(`SeatFacts`: the panel it plays from, its latest live interaction token, when it last
acted, the last turn it was told of) to a `Plan`; `bot/ui/publish.py` only executes it.

Discord does not count interaction calls (a click's answer, its token's edits and
follow-ups, for 15 minutes) against the bot's global limit; messages sent or edited by
channel id count. Hence the rules:

- A person's DM panel is not redrawn on other players' moves. It changes when its player
  acts (through the click's own token: free), when it becomes their turn, when the hand
  ends, and when a declaration changes what they may still declare in the window they
  are asked to answer. A new hand's panel is a new message that pings, once.
- The turn notice goes through the player's latest live token where there is one (an
  edit of the panel they last clicked; with a follow-up that pings them when it pings),
  else it is a counted call: a new DM panel that pings, or a quiet edit of it. It pings
  only on the seat's first turn of the hand or when they have not acted for `idle`
  seconds (``TURN_PING_IDLE``). A person who plays from the ``My hand`` panel only
  (settings, DMs closed, panel lost) is pinged in the channel (their ``turn_ping``). Once
  they have acted, a ping sent through a token is deleted through it (`SeatPlan.answered`).
- The ``My hand`` panel follows every move through its token (free).
- The table message: edited (coalesced by the publisher), posted anew for a new hand. Its
  road is the channel's: a follow-up through the freshest live in-channel interaction
  token when there is one, edited through that token while it lives (free; never moved
  mid-hand to a fresher token, which Discord does not let edit another interaction's
  follow-ups), else by channel id (counted, stretched under pressure; bot/ui/carry.py).

The plan for a seat carries no cards: what a panel shows is drawn for its own viewer by
the publisher. Seats of computers and of people on autopilot get nothing until they are
back (``I'm back``: a new panel), except once, when a person is put on autopilot: their
panels are drawn again (their ``Your turn`` has passed; the panel says the computer plays
for them), without a ping and never as a new message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Literal

from bot.runtime.budget import Priority
from bot.services.outcome import Announcement, Move, Publish
from engine.events import CardsDealt, Declared, HandSettled, HandStarted

__all__ = [
    "Dm",
    "Memory",
    "Ping",
    "Plan",
    "SeatFacts",
    "SeatPlan",
    "TableAct",
    "Token",
    "TurnKey",
    "decide",
    "remember",
    "urgent",
]

TurnKey = tuple[int, int]
"""A turn: (hand number, table step). A seat is told of each turn once."""
TableAct = Literal["none", "edit", "repost"]


class Token(IntEnum):
    """Which of the seat's messages its latest live interaction token can edit."""

    NONE = 0
    """No live token (none yet, expired, or on a panel that is not the current one)."""
    DM = 1
    """A click on the seat's current DM panel (its original response is that panel)."""
    HAND = 2
    """The ``My hand`` ephemeral panel."""


class Dm(IntEnum):
    """What happens to a seat's DM panel (a later move's need wins: the larger)."""

    NONE = 0
    TOKEN = 1
    """Edited through the seat's live click token on it (free)."""
    EDIT = 2
    """Edited by channel id (a counted call)."""
    NEW = 3
    """Sent as a new message that pings its player (a counted call); the old one stays."""


class Ping(IntEnum):
    """How a seat's turn ping goes (the larger wins)."""

    NONE = 0
    TOKEN = 1
    """A follow-up mentioning them through their latest live token (free)."""
    CHANNEL = 2
    """A channel message mentioning them (a counted call; ``My hand`` players only)."""


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the policy knows of one seat (the publisher's memory and the table's seat)."""

    person: bool
    """A person sits here and plays (not a computer, not on autopilot)."""
    dm: bool = True
    """Their DM panel is in use (not ``panel:ephemeral``, DMs open, not lost this hand)."""
    panel_hand: int | None = None
    """The hand their current DM panel shows (None: they have none)."""
    token: Token = Token.NONE
    last_acted: float | None = None
    """When they last acted or clicked (the clock of `decide`'s ``now``)."""
    told: TurnKey | None = None
    """The last turn they were told of."""
    turn_ping: bool = True
    """They want channel pings (``/tractor settings turn_ping``)."""


@dataclass(slots=True)
class SeatPlan:
    """What one seat is shown after the commit."""

    dm: Dm = Dm.NONE
    priority: Priority = Priority.OTHER
    """The priority of a counted DM call: `Priority.NOTICE` for a turn or a new hand."""
    hand: bool = False
    """Refresh the ``My hand`` panel through its token (when it has one)."""
    ping: Ping = Ping.NONE
    told: TurnKey | None = None
    """The turn this plan tells the seat of (the publisher remembers it)."""
    intro: bool = False
    """The new panel says once that ``My hand`` follows every move."""
    answered: bool = False
    """They acted: their last turn ping's moment has passed (deleted through its token,
    unless this plan pings them anew, which replaces it)."""

    def need(self, dm: Dm, priority: Priority = Priority.OTHER) -> None:
        self.dm = max(self.dm, dm)
        if dm is not Dm.NONE:
            self.priority = min(self.priority, priority)


@dataclass(slots=True)
class Plan:
    """What the publisher does for one job."""

    table: TableAct = "none"
    announcements: list[Announcement] = field(default_factory=list)
    seats: dict[int, SeatPlan] = field(default_factory=dict)


def urgent(publish: Publish) -> bool:
    """Whether a job must not wait out the table's edit interval: a person acted, is to
    act, or the hand began or ended."""
    if publish.returned or publish.restored:
        return True
    for move in publish.moves:
        if {move.actor, *move.to_act} & set(move.people):
            return True
        if any(isinstance(e, (HandStarted, HandSettled)) for e in move.events):
            return True
    return False


def _new_hand(move: Move) -> bool:
    return any(isinstance(e, HandStarted) or (isinstance(e, CardsDealt) and e.batch == 1)
               for e in move.events)


def _pings(facts: SeatFacts, key: TurnKey, now: float, idle: float) -> bool:
    """A turn pings on the seat's first turn of the hand or after `idle` seconds idle."""
    first = facts.told is None or facts.told[0] != key[0]
    return first or facts.last_acted is None or now - facts.last_acted >= idle


def _notice(plan: SeatPlan, facts: SeatFacts, ping: bool) -> None:
    """The turn notice by the cheapest road (see the module doc)."""
    plan.hand = True
    if facts.token is not Token.NONE:
        if facts.token is Token.DM and facts.dm:
            plan.need(Dm.TOKEN)
        if ping and (facts.dm or facts.turn_ping):
            plan.ping = max(plan.ping, Ping.TOKEN)
    elif facts.dm:
        plan.need(Dm.NEW if ping else Dm.EDIT, Priority.NOTICE)
    elif ping and facts.turn_ping:
        plan.ping = Ping.CHANNEL


def _show(plan: SeatPlan, facts: SeatFacts) -> None:
    """Their DM panel shows the latest: through the token on it, else by channel id."""
    plan.hand = True
    if facts.dm:
        plan.need(Dm.TOKEN if facts.token is Token.DM else Dm.EDIT)


def decide(publish: Publish, seats: Mapping[int, SeatFacts], *, now: float,
           idle: float) -> Plan:
    """The plan for one job: `publish`'s moves in order, against what `seats` saw."""
    plan = Plan(table="repost" if publish.repost else "edit" if publish.table else "none",
                announcements=list(publish.announcements))
    state = dict(seats)
    for move in publish.moves:
        declared = any(isinstance(e, Declared) for e in move.events)
        settled = any(isinstance(e, HandSettled) for e in move.events)
        key: TurnKey = (move.hand_no, move.step)
        for seat, facts in state.items():
            if not facts.person:
                continue
            mine = plan.seats.setdefault(seat, SeatPlan())
            mine.hand = True  # My hand follows every move (free)
            if move.actor == seat:
                facts = replace(facts, last_acted=now)
                mine.answered = True
            if _new_hand(move):
                if facts.dm:
                    mine.need(Dm.NEW, Priority.NOTICE)
                    mine.intro = True
                    facts = replace(facts, panel_hand=move.hand_no, token=Token.NONE)
                if seat in move.to_act:
                    if not facts.dm:  # no DM panel: the My hand token, or the channel
                        _notice(mine, facts, True)
                    mine.told = key
                    facts = replace(facts, told=key)
            elif seat in move.to_act and facts.told != key:
                _notice(mine, facts, _pings(facts, key, now, idle))
                mine.told = key
                facts = replace(facts, told=key)
            elif move.actor == seat or settled or (declared and seat in move.to_act):
                _show(mine, facts)
            if mine.dm is Dm.NEW:
                facts = replace(facts, panel_hand=move.hand_no, token=Token.NONE)
            state[seat] = facts
    for seat in sorted(publish.returned | (set(seats) if publish.restored else set())):
        found = state.get(seat)
        if found is None or not found.person or not found.dm:
            continue
        facts = found
        mine = plan.seats.setdefault(seat, SeatPlan(hand=True))
        if seat in publish.returned:
            mine.need(Dm.NEW, Priority.NOTICE)
        elif facts.panel_hand is not None:
            mine.need(Dm.EDIT)
    for seat in sorted(publish.departed):
        found = seats.get(seat)
        if found is not None and not found.person:
            _show(plan.seats.setdefault(seat, SeatPlan()), found)
    for seat, mine in plan.seats.items():
        facts = seats[seat]
        hand = max((m.hand_no for m in publish.moves), default=facts.panel_hand)
        if mine.dm in (Dm.TOKEN, Dm.EDIT) and (facts.panel_hand is None
                                               or facts.panel_hand != hand):
            if seat in publish.departed and not facts.person:
                mine.dm = Dm.NONE  # no panel of this hand to say it on: no new message
            else:
                mine.need(Dm.NEW, mine.priority)  # no panel of this hand to edit
    return plan


@dataclass(frozen=True, slots=True)
class Memory:
    """What the publisher remembers of a seat between jobs (in `SeatFacts` for `decide`)."""

    told: TurnKey | None = None
    last_acted: float | None = None


def remember(memory: Memory, plan: SeatPlan, *, acted: bool, now: float) -> Memory:
    """The seat's memory after its plan ran (`acted`: it acted in the job)."""
    return Memory(told=plan.told or memory.told,
                  last_acted=now if acted else memory.last_acted)
