"""Cards and their text notation (R1)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from engine.reasons import InvalidNotation, ruling


class Suit(StrEnum):
    """The four printed suits; jokers have no suit."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit as a symbol: ♠ ♥ ♦ ♣."""
        return _SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """`"S"`, `"s"` or `"♠"` → `Suit.SPADES`."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, _SYMBOLS[suit]):
                return suit
        raise InvalidNotation(ruling("notation.suit", token=text), text)


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(IntEnum):
    """Card ranks; the two jokers rank above the ace."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    BLACK_JOKER = 15
    RED_JOKER = 16

    @property
    def is_joker(self) -> bool:
        return self >= Rank.BLACK_JOKER

    def __str__(self) -> str:
        return _RANK_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """`"10"`, `"T"`, `"q"`, `"A"` → a `Rank` (levels and card ranks alike)."""
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise InvalidNotation(ruling("notation.rank", token=text), text)
        return rank


RankLike = Rank | str | int
"""A rank, its text (`"10"`, `"T"`) or its number: what public functions accept as a level."""


def as_rank(value: RankLike) -> Rank:
    """A `Rank` from a rank, its text (`"10"`, `"T"`, `"A"`) or its number (2–14)."""
    if isinstance(value, Rank):
        return value
    return Rank.parse(value) if isinstance(value, str) else Rank(value)


_RANK_TEXT = {r: str(r.value) for r in Rank if r <= Rank.TEN} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.BLACK_JOKER: "BJ",
    Rank.RED_JOKER: "RJ",
}
_RANK_BY_TEXT = {text: rank for rank, text in _RANK_TEXT.items() if not rank.is_joker}
_RANK_BY_TEXT["T"] = Rank.TEN

POINTS = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. `str(Card.parse("AS")) == "AS"`; jokers are `RJ` and `BJ` with no suit."""

    rank: Rank
    suit: Suit | None
    code: int = field(init=False, repr=False)
    """0–53, unique per distinct card (the two copies of a card share it)."""

    def __post_init__(self) -> None:
        if self.rank.is_joker != (self.suit is None):
            raise ValueError("jokers, and only jokers, have no suit")
        code = 52 + self.rank - Rank.BLACK_JOKER if self.suit is None else (
            _SUIT_INDEX[self.suit] * 13 + self.rank - 2
        )
        object.__setattr__(self, "code", code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.code == self.code

    def __hash__(self) -> int:
        return self.code

    def __str__(self) -> str:
        return str(self.rank) if self.suit is None else f"{self.rank}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        """Pickled as its code (a view sent to a worker process holds dozens of cards),
        unpickled as the shared card of `ALL_CARDS`."""
        return card_of_code, (self.code,)

    @property
    def points(self) -> int:
        """5 for a five, 10 for a ten or king, else 0 (R1)."""
        return POINTS.get(self.rank, 0)

    @property
    def pretty(self) -> str:
        """The card with a suit symbol (`A♠`), for people rather than parsers."""
        return str(self) if self.suit is None else f"{self.rank}{self.suit.symbol}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: `AS`, `10h`, `Th`, `♠K`, `rj`, `BJ`."""
        return _parse_token(text)


_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}

ALL_CARDS: tuple[Card, ...] = tuple(
    [Card(rank, suit) for suit in Suit for rank in Rank if not rank.is_joker]
    + [Card(Rank.BLACK_JOKER, None), Card(Rank.RED_JOKER, None)]
)
"""The 54 distinct cards, indexed by `Card.code`."""


def card_of_code(code: int) -> Card:
    """The card whose `Card.code` is `code` (0–53)."""
    return ALL_CARDS[code]


_POINTS_BY_CODE = tuple(card.points for card in ALL_CARDS)

RED_JOKER = ALL_CARDS[53]
BLACK_JOKER = ALL_CARDS[52]

_SUIT_CHARS = "SHDC♠♥♦♣"
_TOKEN = re.compile(r"[,\s]+")


def _parse_token(token: str) -> Card:
    card = _BY_CANONICAL_TEXT.get(token)
    if card is not None:  # a saved state's own text: one look-up (a load parses thousands)
        return card
    text = token.strip().upper().replace("\ufe0f", "")  # Discord sends ♠️ with a selector
    if text in ("RJ", "BJ"):
        return RED_JOKER if text == "RJ" else BLACK_JOKER
    if len(text) >= 2 and text[0] in _SUIT_CHARS and text[-1] not in _SUIT_CHARS:
        text = text[1:] + text[0]  # "♠K" → "K♠"
    if len(text) < 2 or text[-1] not in _SUIT_CHARS or text[:-1] not in _RANK_BY_TEXT:
        raise InvalidNotation(ruling("notation.card", token=token), token)
    return ALL_CARDS[_SUIT_INDEX[Suit.parse(text[-1])] * 13 + _RANK_BY_TEXT[text[:-1]] - 2]


def parse_cards(text: str) -> list[Card]:
    """Parse R1 notation: case-insensitive, commas or spaces, e.g. `"AS AS 10h ♠K rj"`.

    Raises `InvalidNotation` naming the first bad token.
    """
    return [_parse_token(token) for token in _TOKEN.split(text.strip()) if token]


_TEXT_BY_CODE: tuple[str, ...] = tuple(str(card) for card in ALL_CARDS)
_BY_CANONICAL_TEXT = {text: card for text, card in zip(_TEXT_BY_CODE, ALL_CARDS, strict=True)}


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of `cards`, space-separated, in the given order."""
    text = _TEXT_BY_CODE  # each card's text made once (a saved state writes every hand)
    return " ".join([text[card.code] for card in cards])


def full_deck() -> list[Card]:
    """The 108-card pack: every card exactly twice (R1)."""
    return [card for card in ALL_CARDS for _ in range(2)]


def card_points(cards: Iterable[Card]) -> int:
    """Total point value of `cards` (R1)."""
    return sum([_POINTS_BY_CODE[card.code] for card in cards])


def missing_from(hand: Iterable[Card], cards: Iterable[Card]) -> list[Card]:
    """The cards of `cards` that `hand` does not hold (as a multiset)."""
    have = [card.code for card in hand]
    missing = []
    for card in cards:
        try:
            have.remove(card.code)
        except ValueError:
            missing.append(card)
    return missing
