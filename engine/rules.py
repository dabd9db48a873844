"""Table options (R12): the house variants, as a frozen `RuleSet` with the documented defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from engine.variant import VARIANTS, Variant
from engine.variant import Mode as Mode  # the stored option's values, kept importable here


class KittyMultiplier(StrEnum):
    """How the kitty's points are multiplied when the opponents win the last trick (R10)."""

    TWICE_CARDS = "twice_cards"  # 2 × the number of cards led to the last trick
    LARGEST_UNIT = "largest_unit"  # 2 × the cards of the largest unit led (a throw: its largest)
    FLAT_2 = "flat_2"  # always ×2


class NoBid(StrEnum):
    """What sets trump in a later hand when nobody declares (R5)."""

    KITTY_TOP_CARD = "kitty_top_card"  # the kitty's top card's suit (a joker: no trump)
    REVEAL_UNTIL_LEVEL = "reveal_until_level"  # turn kitty cards until a level card names trump


class MatchEnd(StrEnum):
    """When a match ends (R11)."""

    PASS_ACE = "pass_ace"  # a team whose level passes A wins
    LOOP = "loop"  # levels wrap from A back to 2; play on


class MustDefend(StrEnum):
    """Levels a team must win as declarers before passing them (R12)."""

    NONE = "none"
    A = "A"
    FIVE_TEN_K_A = "5_10_K_A"


class Follow(StrEnum):
    """Following obligations (R8; house rule)."""

    R8 = "r8"  # R8 in full: suit, then pairs and tractors in kind
    SUIT_ONLY = "suit_only"  # R8.1 only: follow the led suit and the count, any structure


class ThrowRuff(StrEnum):
    """How ruffs of a side-suit throw are compared (R9; house rule)."""

    LARGEST_UNIT = "largest_unit"  # R9: by the unit answering the lead's largest unit
    EVERY_UNIT = "every_unit"  # a later ruff must beat every unit of the winning ruff
    HIGHEST_CARD = "highest_card"  # by the single highest card of each ruff


class LevelScoring(StrEnum):
    """How many levels a hand is worth (R10; house rule)."""

    TABLE = "table"  # R10's table
    ONE_PER_HAND = "one_per_hand"  # the side that wins the hand goes up exactly one level


class FixedTrump(StrEnum):
    """A trump suit fixed for the whole match (no declaring, R5; house rule)."""

    NONE = "none"  # declare as R5
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    NO_TRUMP = "NT"


_ENUM_OPTIONS: dict[str, type[StrEnum]] = {
    "mode": Mode,
    "kitty_multiplier": KittyMultiplier,
    "no_bid": NoBid,
    "match_end": MatchEnd,
    "must_defend": MustDefend,
    "follow": Follow,
    "throw_ruff": ThrowRuff,
    "level_scoring": LevelScoring,
    "fixed_trump": FixedTrump,
}


_INT_OPTIONS = ("players", "decks", "throw_penalty", "declare_window_s", "turn_timer_s",
                "ready_timeout_s")
_BOOL_OPTIONS = ("no_trump_allowed", "take_backs")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every R12 table option and house rule, with the rule book's defaults (the defaults are
    the game of R1–R11)."""

    mode: Mode = Mode.TEAMS
    players: int = 4
    """Seats at the table: 4 in `teams` mode, 4–8 in `friends` mode."""
    decks: int = 0
    """Packs shuffled together: 0 chooses by `players` (2 for 4–5, 3 for 6–7, 4 for 8);
    else 2–4. Always 2 in `teams` mode."""
    kitty_multiplier: KittyMultiplier = KittyMultiplier.TWICE_CARDS
    throw_penalty: int = 0
    no_bid: NoBid = NoBid.KITTY_TOP_CARD
    no_trump_allowed: bool = True
    match_end: MatchEnd = MatchEnd.PASS_ACE
    must_defend: MustDefend = MustDefend.NONE
    declare_window_s: int = 15
    turn_timer_s: int = 90
    follow: Follow = Follow.R8
    throw_ruff: ThrowRuff = ThrowRuff.LARGEST_UNIT
    level_scoring: LevelScoring = LevelScoring.TABLE
    fixed_trump: FixedTrump = FixedTrump.NONE
    take_backs: bool = False
    ready_timeout_s: int = 60
    """Between hands, the longest wait for every seated person's Ready (0: no limit)."""

    def __post_init__(self) -> None:
        for name, enum_type in _ENUM_OPTIONS.items():  # accept the enums' values as strings
            object.__setattr__(self, name, enum_type(getattr(self, name)))
        for name in _BOOL_OPTIONS:  # "false" is not False
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise TypeError(f"{name} is True or False, not {value!r}")
        for name in _INT_OPTIONS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{name} is a whole number, not {value!r}")
        refused = self.variant.table_error(self.players, self.decks)
        if refused is not None:
            raise ValueError(refused)
        if not 4 <= self.players <= 8:
            raise ValueError("players is 4–8")
        if self.decks != 0 and not 2 <= self.decks <= 4:
            raise ValueError("decks is 0 (by players) or 2–4")
        if not 0 <= self.throw_penalty <= 50:
            raise ValueError("throw_penalty is 0–50 points per card")
        if not 5 <= self.declare_window_s <= 120:
            raise ValueError("declare_window_s is 5–120 seconds")
        if self.turn_timer_s != 0 and not 15 <= self.turn_timer_s <= 600:
            raise ValueError("turn_timer_s is 0 (off) or 15–600 seconds")
        if self.ready_timeout_s != 0 and not 15 <= self.ready_timeout_s <= 600:
            raise ValueError("ready_timeout_s is 0 (no limit) or 15–600 seconds")

    @property
    def variant(self) -> Variant:
        """The game this table plays (`engine.variant`): ask it, not the mode."""
        return VARIANTS[self.mode]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (enum values as strings)."""
        values = ((name, getattr(self, name)) for name in _FIELD_NAMES)  # all flat values
        return {k: (v.value if isinstance(v, Enum) else v) for k, v in values}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of `to_dict`; missing keys take defaults, unknown keys are refused
        (ValueError), ill-typed values too (TypeError)."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown table option(s): {', '.join(map(str, unknown))}")
        return cls(**data)

    def with_changes(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)


_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RuleSet))
