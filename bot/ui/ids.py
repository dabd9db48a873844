"""Component custom ids: ``tr:{table}:{hand}:{step}:{verb}[:{arg}]`` (≤100 characters).

Every field is parsed and range-checked HERE, once (`parse_id`); a click whose id does not
parse gets a polite "this button is not valid" (bot/ui/components.py), never a traceback.
``arg`` holds the seat and, for some verbs, more (``2.H``: seat 2 declares hearts; ``0.1``:
seat 0's second card select; ``turn_timer_s``: the option of an options select).

Which verbs exist, where they may be pressed (`Role`) and what their ``arg`` holds is
declared by the feature that handles them (`VerbSpec`, registered in `bot.ui.components`).
Ids of messages already posted keep parsing: the format has not changed since release 1.

The records feature's paging buttons keep their own format, ``rec:lb:{by}:{scope}:{page}
[:{season}]`` (a leaderboard) and ``rec:rp:{hand}:{step}`` (a replay), parsed here too into
a `ComponentId` with no table (``table`` 0): ``step`` holds the page or the replay step,
``hand`` the replayed hand's id, ``arg`` ``{by}.{scope}[.{season}]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from bot.core.table import MAX_SEATS

__all__ = [
    "MAX_ID",
    "ComponentId",
    "InvalidId",
    "Role",
    "VerbSpec",
    "make_id",
    "parse_id",
    "verb_of",
]

PREFIX: Final = "tr"
RECORDS: Final = "rec"
MAX_ID = 100
MAX_TABLE = 2**63 - 1
MAX_HAND = 999_999
MAX_STEP = 999_999_999
MAX_HAND_ID = 10**18 - 1
MAX_PAGE = 999_999
MAX_SEASON = 9_999
MAX_REPLAY_STEP = 9_999
Prefix = Literal["tr", "rec"]

Role = Literal["table", "panel", "private"]
"""Where a verb's component lives: ``table`` the public table message, ``panel`` a seat's
hand panel (DM or ephemeral), ``private`` another ephemeral reply (confirmations, the
options selects)."""


class InvalidId(ValueError):
    """A custom id that is not one of ours or has a field out of range."""


@dataclass(frozen=True, slots=True)
class VerbSpec:
    """What one verb's id holds: its role, whether ``arg`` starts with the seat that owns
    the component, and a check for the rest of ``arg`` (None: no more)."""

    name: str
    role: Role
    select: bool = False
    seat: Literal["none", "required", "optional"] = "none"
    extra: Callable[[str], bool] | None = None
    prefix: Prefix = "tr"
    opened_by: str | None = None
    """A modal's submission (its id is the modal's, on no message): the verb of the button
    that opened it, which the message the modal came from must carry at the same table and
    seat (the hand and step are the service's check: a stale one is told so)."""


@dataclass(frozen=True, slots=True)
class ComponentId:
    """A parsed custom id."""

    table: int
    hand: int
    step: int
    verb: str
    arg: str = ""
    prefix: Prefix = "tr"

    @property
    def seat(self) -> int | None:
        """The seat in ``arg`` (its first dot-separated part), if any."""
        head = self.arg.split(".", 1)[0]
        return int(head) if head.isdigit() and len(head) == 1 else None

    @property
    def extra(self) -> str:
        """What follows the seat in ``arg`` (``H`` in ``2.H``)."""
        parts = self.arg.split(".", 1)
        return parts[1] if len(parts) == 2 else ""

    @property
    def board(self) -> tuple[str, str, int | None]:
        """A leaderboard button's ``arg`` (``by.scope[.season]``): its words and season."""
        by, _, rest = self.arg.partition(".")
        scope, _, season = rest.partition(".")
        return by, scope, int(season) if season.isdigit() else None

    def __str__(self) -> str:
        if self.prefix == RECORDS:
            return _records_id(self)
        return make_id(self.table, self.hand, self.step, self.verb, self.arg)


def make_id(table: int, hand: int, step: int, verb: str, arg: str = "") -> str:
    custom_id = f"{PREFIX}:{table}:{hand}:{step}:{verb}" + (f":{arg}" if arg else "")
    assert len(custom_id) <= MAX_ID, custom_id
    return custom_id


def _records_id(cid: ComponentId) -> str:
    if cid.verb == "rp":
        custom_id = f"{RECORDS}:rp:{cid.hand}:{cid.step}"
    else:
        by, scope, season = cid.board
        custom_id = f"{RECORDS}:{cid.verb}:{by}:{scope}:{cid.step}" + (
            "" if season is None else f":{season}")
    assert len(custom_id) <= MAX_ID, custom_id
    return custom_id


def _number(text: str, high: int, low: int = 0) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        raise InvalidId(f"not a number: {text[:20]!r}")
    value = int(text)
    if not low <= value <= high:
        raise InvalidId(f"out of range: {value}")
    return value


def parse_id(custom_id: str, verbs: dict[str, VerbSpec]) -> ComponentId:
    """The parsed, range-checked id (raises `InvalidId`): `verbs` are the known verbs."""
    if len(custom_id) > MAX_ID:
        raise InvalidId("too long")
    parts = custom_id.split(":")
    if parts[0] == RECORDS:
        return _parse_records(parts, verbs)
    if len(parts) not in (5, 6) or parts[0] != PREFIX:
        raise InvalidId("not a tractor id")
    table = _number(parts[1], MAX_TABLE, 1)
    hand = _number(parts[2], MAX_HAND)
    step = _number(parts[3], MAX_STEP)
    spec = verbs.get(parts[4])
    if spec is None or spec.prefix != PREFIX:
        raise InvalidId(f"unknown verb {parts[4][:20]!r}")
    arg = parts[5] if len(parts) == 6 else ""
    if len(parts) == 6 and not arg:
        raise InvalidId("empty arg")
    cid = ComponentId(table, hand, step, spec.name, arg)
    head, _, rest = arg.partition(".")
    if spec.seat == "none":
        rest = arg
    elif arg or spec.seat == "required":
        _number(head, MAX_SEATS - 1)  # 0–7; `Access.owner` checks the table's own count
    if spec.extra is None:
        if rest:
            raise InvalidId("unexpected arg")
    elif not spec.extra(rest):
        raise InvalidId(f"bad arg {rest[:20]!r}")
    return cid


def verb_of(custom_id: str) -> str | None:
    """The verb of a ``tr:`` id (None: not one of ours), to read a message's own components
    back (a panel's selects' defaults); a click's id is parsed whole, by `parse_id`."""
    parts = custom_id.split(":")
    return parts[4] if len(parts) in (5, 6) and parts[0] == PREFIX else None


def _parse_records(parts: list[str], verbs: dict[str, VerbSpec]) -> ComponentId:
    """``rec:rp:{hand}:{step}`` or ``rec:lb:{by}:{scope}:{page}[:{season}]`` (the words
    are checked by the verb's ``extra``)."""
    spec = verbs.get(parts[1]) if len(parts) > 1 else None
    if spec is None or spec.prefix != RECORDS:
        raise InvalidId("unknown records verb")
    if spec.name == "rp":
        if len(parts) != 4:
            raise InvalidId("bad replay id")
        return ComponentId(0, _number(parts[2], MAX_HAND_ID, 1),
                           _number(parts[3], MAX_REPLAY_STEP), spec.name, prefix=RECORDS)
    if len(parts) not in (5, 6):
        raise InvalidId("bad records id")
    page = _number(parts[4], MAX_PAGE)
    season = [str(_number(parts[5], MAX_SEASON, 1))] if len(parts) == 6 else []
    arg = ".".join([parts[2], parts[3], *season])
    if spec.extra is None or not spec.extra(arg):
        raise InvalidId(f"bad arg {arg[:20]!r}")
    return ComponentId(0, 0, page, spec.name, arg, prefix=RECORDS)
