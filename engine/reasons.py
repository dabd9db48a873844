"""The engine's messages to players as data: a `Reason` is the English text (a `str`) that
also carries a message key and its parameters, so a front end can say it in another language.

Every message the engine gives a player is built with `ruling(key, **params)` from one
table, `ENGLISH` (``str.format`` templates). The bot looks up ``engine.<key>`` in its
catalog and formats it with the parameters made readable for the reader (`display_params`).

Parameters are plain data, rendered by name:

- ``suit``: a suit code, ``S H D C`` or ``T`` (trump) → ♠ ♥ ♦ ♣ / "trump";
- ``suits``: several suit codes in one string (``"SH"``) → "♠, ♥";
- ``cards``: canonical card text (``"AS AS 10H"``) → ``A♠ A♠ 10♥``;
- ``count``: a number that picks the ``<key>.one`` template when it is 1 (if there is one);
- anything else (``notation``, ``token``, ``seat``, ``level``, numbers …) as it is.

Rulings are built only when something is refused: never on the legal path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = [
    "ENGLISH",
    "ENGLISH_SUITS",
    "SUIT_CODES",
    "Reason",
    "display_params",
    "pretty_cards",
    "ruling",
    "template_key",
]

Param = str | int

SUIT_CODES: Final = "SHDCT"
"""Suit codes by effective-suit index (`Trump.suit_index`): ♠ ♥ ♦ ♣, then T for trump."""

ENGLISH_SUITS: Final[Mapping[str, str]] = {
    "S": "♠", "H": "♥", "D": "♦", "C": "♣", "T": "trump",
}

_SYMBOLS: Final[Mapping[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

ENGLISH: Final[Mapping[str, str]] = {
    # ---- card and trump text (R1) ----
    "notation.suit": "'{token}' is not a suit (use S H D C or ♠ ♥ ♦ ♣)",
    "notation.rank": "'{token}' is not a rank (use 2–10, J, Q, K, A)",
    "notation.card": ("'{token}' is not a card: write rank then suit, like AS, 10H, ♠K, "
                      "or RJ/BJ for jokers"),
    "notation.trump": "'{token}' is not a trump: write level then suit, like 4D or 4NT",
    # ---- phases and turns ----
    "phase.declaring": "Trump can only be declared while the cards are being dealt (R5)",
    "phase.burying": "Only the starter buries, after taking the kitty (R6)",
    "phase.playing": "Cards are played once the kitty is buried (R7)",
    "phase.match_over": "The match is over (R11): start a new match",
    "phase.hand_running": "Hand {number} is still being played",
    "phase.calling": "The starter calls friends after burying, before the first lead (F4)",
    "seat.absent": "There is no seat {seat} at this table",
    "turn.lead": "It is not your turn: seat {seat} plays next (R7)",
    "turn.follow": "It is not your turn: seat {seat} plays next (R8)",
    # ---- declaring (R5) ----
    "declare.not_held": "You don't hold {notation}: a declaration shows cards from your hand (R5)",
    "declare.shape": "Declare with one or two identical {level}s, or a pair of jokers (R5)",
    "declare.no_trump_off": "This table does not allow no trump: jokers cannot declare (R12)",
    "declare.self": ("Your declaration already stands: you cannot overturn yourself, only "
                     "reinforce a single with its twin (R5)"),
    "declare.too_weak": "To overturn you must show something stronger than {cards} (R5)",
    "declare.shape_many": ("Declare with identical {level}s, or two or more identical jokers "
                           "(F3)"),
    "declare.self_many": ("Your declaration already stands: you can only strengthen it with "
                          "more copies of the same card (F3)"),
    "declare.copies": ("The pack holds {decks} copies of each card: show at most {decks} "
                       "identical cards (F3)"),
    "declare.answered": ("You have already answered this declaration window; wait for the "
                         "next batch (R5)"),
    "declare.fixed_trump": ("This table plays with a fixed trump for the whole match: nobody "
                            "declares (R12)"),
    # ---- burying (R6) ----
    "bury.not_starter": "Only the starter (seat {seat}) buries the kitty (R6)",
    "bury.count": "Bury exactly {size} cards, not {played} (R6)",
    "bury.not_held": "You don't hold {notation}: bury {size} of your {held} cards (R6)",
    # ---- leading (R7) ----
    "lead.not_held": "You don't hold {notation} (R7)",
    "lead.empty": "Choose at least one card to lead (R7)",
    "lead.mixed_suits": ("A lead must be all one suit (trumps count as one suit), "
                         "not {suits} (R7)"),
    # ---- following (R8) ----
    "follow.not_held": "You don't hold {cards} (R8)",
    "follow.count": "Play exactly {count} cards, as many as were led (R8)",
    "follow.count.one": "Play exactly {count} card, as many as were led (R8)",
    "follow.suit": "You still hold {suit} cards, so every card you play must be {suit} (R8)",
    "follow.all_of_suit": "You must play all {count} of your {suit} cards before any other (R8)",
    "follow.all_of_suit.one": "You must play your {suit} card before any other (R8)",
    "follow.pair": "You hold a {suit} pair, so you must play a pair (R8)",
    "follow.pair_throw": ("You hold a {suit} pair, so you must play a pair to answer the "
                          "throw's pair (R8)"),
    "follow.tractor": ("You hold a {suit} tractor of {pairs} pairs, so you must play one "
                       "(R8)"),
    "follow.tractor_throw": ("You hold a {suit} tractor of {pairs} pairs, so you must play one "
                             "to answer the throw's tractor of {pairs} pairs (R8)"),
    "follow.pairs": "You hold {count} pairs in {suit}, so you must play {count} pairs (R8)",
    "follow.pairs.one": "You hold a pair in {suit}, so you must play a pair (R8)",
    "follow.pairs_throw": ("You hold {count} pairs in {suit}, so you must play {count} pairs "
                           "to answer the throw's tractor of {pairs} pairs (R8)"),
    "follow.pairs_throw.one": ("You hold a pair in {suit}, so you must play a pair to answer "
                               "the throw's tractor of {pairs} pairs (R8)"),
    # ---- following with three or four decks (Finding Friends F2) ----
    "follow.tuple": ("You hold {width} identical {suit} cards, so you must play them together "
                     "to answer the lead's {width} of a kind (F2)"),
    "follow.tuple_tractor": ("You hold a {suit} tractor of {length} sets of {width} identical "
                             "cards, so you must play one (F2)"),
    "follow.groups": ("Your {suit} cards can answer the lead's {size}-card unit with groups of "
                      "{groups} identical cards, so you must play such groups (F2)"),
    # ---- calling friends (Finding Friends, F4) ----
    "call.not_starter": "Only the starter (seat {seat}) calls friends (F4)",
    "call.count": "Call exactly {size} friends, not {played} (F4)",
    "call.trump": "{cards} is a trump this hand: call a card that is not trump (F4)",
    "call.copy": "With {size} decks the called copy is 1 to {size}, not {number} (F4)",
    "call.duplicate": "Copy {number} of {cards} is already called (F4)",
    # ---- take-backs (R12 `take_backs`) ----
    "takeback.off": "This table does not allow taking back a play (R12)",
    "takeback.not_last": ("Only your last play can be taken back, and only before the next "
                          "player acts (R12)"),
    "takeback.failed_throw": ("A failed throw cannot be taken back: everyone has seen it "
                              "(R12)"),
    "takeback.settled": "The hand is over: its last play cannot be taken back (R12)",
}
"""Every ruling's English template by key; ``<key>.one`` is the singular of ``<key>``."""


class Reason(str):
    """A message for a player: its English text, plus the `key` of its template and the
    `params` it was formatted with. A plain-text reason has the key ``""`` (untranslated).
    """

    key: str
    params: dict[str, Param]

    def __new__(cls, text: str, key: str = "", params: Mapping[str, Param] | None = None,
                ) -> Reason:
        self = super().__new__(cls, text)
        self.key = key
        self.params = dict(params) if params else {}
        return self


def template_key(key: str, params: Mapping[str, Param]) -> str:
    """The template to use for `key`: ``<key>.one`` when ``count`` is 1 and there is one."""
    if params.get("count") == 1 and f"{key}.one" in ENGLISH:
        return f"{key}.one"
    return key


def pretty_cards(text: str) -> str:
    """Canonical card text with suit symbols: ``"AS 10H RJ"`` → ``"A♠ 10♥ RJ"``."""
    return " ".join(token[:-1] + _SYMBOLS[token[-1]] if token[-1:] in _SYMBOLS else token
                    for token in text.split())


def display_params(params: Mapping[str, Param], suit_names: Mapping[str, str],
                   separator: str = ", ") -> dict[str, Param]:
    """`params` made readable: suit codes named with `suit_names` (``S H D C T``), lists of
    suits joined with `separator`, card text with suit symbols; the rest unchanged."""
    out: dict[str, Param] = {}
    for name, value in params.items():
        if name == "suit":
            out[name] = suit_names[str(value)]
        elif name == "suits":
            out[name] = separator.join(suit_names[code] for code in str(value))
        elif name == "cards":
            out[name] = pretty_cards(str(value))
        else:
            out[name] = value
    return out


def ruling(key: str, /, **params: Param) -> Reason:
    """The `Reason` for `key` (a key of `ENGLISH`) with `params` (see the module docstring)."""
    template = ENGLISH[template_key(key, params)]
    return Reason(template.format(**display_params(params, ENGLISH_SUITS)), key, params)


class TractorError(Exception):
    """Base of every error the engine raises for a bad action (never for a bug).

    `str(error)` is the English message; `ruling` is the same text as a `Reason` (with the
    message key and parameters when raised with one, key ``""`` for plain text).
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.ruling: Reason = message if isinstance(message, Reason) else Reason(str(message))

    @property
    def reason(self) -> str:
        """The message shown to the player (the `ruling`, a `str`)."""
        return self.ruling


class InvalidNotation(TractorError, ValueError):
    """Card text that cannot be parsed; names the bad token."""

    def __init__(self, message: str, token: str = "") -> None:
        super().__init__(message)
        self.token = token
