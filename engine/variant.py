"""The game a table plays, as one named value: `VARIANTS[mode]` / `find_variant(name)`.

A `Variant` answers every question whose answer depends on the game mode — the sides at the
start of a hand, whether the starter calls friends (a calling phase, F4), how many it calls
(the deal shape, F1), the seats a table may have, who moves up together (R10, F5), the match
winner (R11, F6) and a seat's partners — so that the rest of the engine and the bot ask the
variant, never the mode. Levels, points and winners are kept per seat in every mode.

The stored option stays `RuleSet.mode` (`"teams"` / `"friends"`); `RuleSet.variant` is its
variant. To add a mode: a `Mode` value, a `Variant` subclass, an entry in `VARIANTS`
(see docs/architecture.md, "Add a game mode").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

T = TypeVar("T")


class Mode(StrEnum):
    """What game the table plays (the stored `mode` option's values)."""

    TEAMS = "teams"  # R1–R11: four players in two fixed partnerships
    FRIENDS = "friends"  # Finding Friends: 4–8 players, partners called by a card


@dataclass(frozen=True, slots=True)
class Variant:
    """A game mode's answers (subclasses override what differs)."""

    mode: Mode

    fixed_sides = False
    """Whether the sides are known before the cards are dealt (fixed partnerships)."""

    def table_error(self, players: int, decks: int) -> str | None:
        """Why a table of `players` seats and `decks` (0: by players) cannot play this mode."""
        del players, decks
        return None

    def fitted(self, players: int, decks: int) -> tuple[int, int]:
        """The table shape (seats; decks, 0: by seats) this mode plays nearest `players`
        seats and `decks` decks (a table switched to it takes that shape)."""
        return players, decks

    def friends(self, seats: int) -> int:
        """How many friends the starter calls with `seats` seats (0: no calling phase)."""
        del seats
        return 0

    def calling(self, seats: int) -> bool:
        """Whether a hand has a calling phase between burying and playing (F4)."""
        return self.friends(seats) > 0

    def partners(self, seat: int, seats: int) -> tuple[int, ...]:
        """The seats on `seat`'s side from the start of every hand (itself included),
        sorted."""
        del seats
        return (seat,)

    def team_of(self, seat: int) -> int | None:
        """`seat`'s fixed team (0: team A, 1: team B), or `None` where sides are not fixed."""
        del seat
        return None

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """The sides fixed at the start of every hand, each its seats (`partners`), by their
        first seat: the teams, or one seat each where sides are made in play."""
        return tuple(self.partners(seat, seats) for seat in range(seats)
                     if self.partners(seat, seats)[0] == seat)

    def side_levels(self, levels: Sequence[T]) -> list[T]:
        """Per-seat `levels` as a table shows them: one per side fixed at the start (its
        first seat's: team A, then team B), else one per seat."""
        seats = len(levels)
        return [level for seat, level in enumerate(levels)
                if self.partners(seat, seats)[0] == seat]

    def side(self, starter: int, seats: int,
             call_seats: Sequence[int | None] = ()) -> tuple[int, ...]:
        """The seats known to be on the starter's side: its partners and every revealed
        friend (F4), sorted."""
        return tuple(sorted({*self.partners(starter, seats),
                             *(seat for seat in call_seats if seat is not None)}))

    def movers(self, declarers: Sequence[int], declarers_won: bool,
               seats: int) -> tuple[int, ...]:
        """The seats that go up together after a hand: every seat of the winning side, each
        from its own level (R10; F5)."""
        return tuple(seat for seat in range(seats) if (seat in declarers) == declarers_won)

    def next_starter(self, starter: int, declarers: Sequence[int], seats: int,
                     declarers_won: bool) -> int:
        """The next seat after the starter (in play order) on the winning side: the starter's
        side if it won (the starter again if alone), else the opponents' (R10's +2 / +1;
        F6)."""
        for step in range(1, seats + 1):
            seat = (starter + step) % seats
            if (seat in declarers) == declarers_won:
                return seat
        raise AssertionError("no seat on the winning side")

    def match_winner(self, starter: int, passed: Sequence[int], seats: int) -> int | None:
        """The seat that wins the match among those whose level passed A this hand: the
        starter if among them, else the first of them in play order after the starter
        (R11; F6). With fixed sides its partners won with it."""
        if not passed:
            return None
        return min(passed, key=lambda seat: (seat - starter) % seats)


@dataclass(frozen=True, slots=True)
class Teams(Variant):
    """R1–R11: four seats in two fixed partnerships, seats 0 and 2 (team A) against 1 and 3
    (team B)."""

    fixed_sides = True

    def table_error(self, players: int, decks: int) -> str | None:
        if players != 4 or decks not in (0, 2):
            return "teams mode is four players with two decks"
        return None

    def fitted(self, players: int, decks: int) -> tuple[int, int]:
        del players, decks
        return 4, 0

    def partners(self, seat: int, seats: int) -> tuple[int, ...]:
        return tuple(range(seat % 2, seats, 2))

    def team_of(self, seat: int) -> int | None:
        return seat % 2


@dataclass(frozen=True, slots=True)
class Friends(Variant):
    """Finding Friends (F1–F6): 4–8 seats, each on its own until called (F4)."""

    def friends(self, seats: int) -> int:
        return 1 if seats <= 5 else 2 if seats <= 7 else 3


VARIANTS: dict[Mode, Variant] = {Mode.TEAMS: Teams(Mode.TEAMS), Mode.FRIENDS: Friends(Mode.FRIENDS)}
"""Every game mode's variant, by the stored option value."""


def find_variant(name: str) -> Variant:
    """The variant of a mode's name (`"teams"`, `"friends"`); `ValueError` for another."""
    return VARIANTS[Mode(name)]
