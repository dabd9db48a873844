"""What the pictures need to know about a table's seats, read from the public view only:
how many seats, each seat's level, who is known to be on the starter's side (Finding
Friends: the starter and the friends revealed so far), who is known to be against it, the
called cards and the points each seat won.

Teams mode (four seats, two fixed teams) reads exactly as before: the starter's team is the
declaring side from the start and the levels are the two teams'. The Finding Friends fields
of `PublicView` (`friend_calls`, `call_seats`, `points_by_seat`, `seat_levels`) are read here
and nowhere else in bot/render.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.cards import Card, Rank
from engine.deal import deal_shape, take_over_points
from engine.variant import Variant
from engine.views import PublicView


class Role(Enum):
    """A seat's side as far as the public knows."""

    STARTER = "starter"
    FRIEND = "friend"  # a revealed friend (teams: the starter's partner)
    OPPONENT = "opponent"  # known to be against the starter
    UNKNOWN = "unknown"  # Finding Friends: not revealed yet


@dataclass(frozen=True, slots=True)
class Call:
    """One called card, as shown to everyone: "the `copy`-th `card`" and who played it."""

    card: Card
    copy: int
    seat: int | None
    """The seat that played the called copy, or `None` while it is unplayed."""
    void: bool
    """The starter played it: the call adds nobody (F4)."""


@dataclass(frozen=True, slots=True)
class Sides:
    """The seats of a table as the public sees them."""

    seats: int
    friends: bool
    """Shown per seat (levels, points, sides: Finding Friends), not as two teams
    (`two_teams`)."""
    decks: int
    starter: int | None
    roles: tuple[Role | None, ...]
    """Each seat's role; `None` before the starter is known."""
    levels: tuple[Rank, ...]
    """Each seat's own level (teams: its team's)."""
    calls: tuple[Call, ...]
    points: tuple[int, ...]
    """Trick points each seat won this hand (drawn where sides are made in play)."""

    @property
    def threshold(self) -> int:
        """The opponents' points that take over: 40 per deck (80 with two decks)."""
        return take_over_points(self.decks)

    def place(self, seat: int, bottom: int) -> int:
        """Where `seat` sits counting counter-clockwise from the seat drawn at the bottom."""
        return (seat - bottom) % self.seats


def two_teams(variant: Variant, seats: int) -> bool:
    """Whether a table is shown as two teams facing each other (the four-player game's words
    and pictures: its sides fixed at the start are two, `Variant.sides`), else per seat."""
    return len(variant.sides(seats)) == 2


def sides_of(view: PublicView) -> Sides:
    """Read the seats, sides, calls and points from the public view (a mode with fixed
    sides has no calls: its side is its partners from the start, `Variant.side`)."""
    rules = view.rules
    seats = view.seats
    shape = deal_shape(rules)
    starter = view.starter
    played = view.call_seats + (None,) * (len(view.friend_calls) - len(view.call_seats))
    calls = tuple(Call(c.card, c.copy, seat, seat is not None and seat == starter)
                  for c, seat in zip(view.friend_calls, played, strict=True))
    roles = _roles(rules.variant, seats, starter, calls, shape.friends)
    if view.result is not None and view.result.declarer_seats:  # final sides
        side = view.result.declarer_seats
        roles = tuple(Role.STARTER if s == starter else Role.FRIEND if s in side else
                      Role.OPPONENT for s in range(seats))
    return Sides(seats, not two_teams(rules.variant, seats), shape.decks, starter, roles,
                 view.seat_levels, calls, view.points_by_seat)


def _roles(variant: Variant, seats: int, starter: int | None, calls: Sequence[Call],
           expected: int) -> tuple[Role | None, ...]:
    if starter is None:
        return (None,) * seats
    side = variant.side(starter, seats, [c.seat for c in calls if not c.void])
    # Everyone else is a known opponent once every call is settled (played or void; none
    # with fixed sides).
    settled = len(calls) >= expected and all(c.seat is not None for c in calls)
    return tuple(Role.STARTER if s == starter else Role.FRIEND if s in side else
                 Role.OPPONENT if settled else Role.UNKNOWN for s in range(seats))


def kitty_to_opponents(view: PublicView) -> bool:
    """Whether a seat off the starter's final side won a settled hand's last trick, so the
    kitty went to the opponents (R10): read from the trick itself, not from the kitty's
    score (a kitty without points scores nothing either way)."""
    result = view.result
    assert result is not None
    if view.last_trick is None:  # not kept: only a scored kitty tells
        return result.kitty_scored > 0
    side = result.declarer_seats or view.declarer_seats
    return view.last_trick.winning_seat(view.trump) not in side
