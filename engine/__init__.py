"""Tractor (升级) rules engine: pure, typed, no I/O. See ../shared/RULES.md (R1–R12)."""

from engine.cards import Card, Rank, Suit, card_points, format_cards, full_deck, parse_cards
from engine.declaring import (
    declaration_error,
    declaration_strength,
    declared_trump,
    legal_declarations,
)
from engine.errors import IllegalPlay, InvalidNotation, NotYourTurn, TractorError, WrongPhase
from engine.follow import follow_error, forced_cards, legal_follow_candidates, random_legal_follow
from engine.rules import KittyMultiplier, MatchEnd, MustDefend, NoBid, RuleSet
from engine.scoring import advance_level, kitty_multiplier, settle
from engine.throw import check_throw, lead_error
from engine.trick import trick_winner
from engine.trump import TRUMPS, Trump
from engine.units import Unit, UnitKind, decompose

__all__ = [
    "TRUMPS",
    "Card",
    "IllegalPlay",
    "InvalidNotation",
    "KittyMultiplier",
    "MatchEnd",
    "MustDefend",
    "NoBid",
    "NotYourTurn",
    "Rank",
    "RuleSet",
    "Suit",
    "TractorError",
    "Trump",
    "Unit",
    "UnitKind",
    "WrongPhase",
    "advance_level",
    "card_points",
    "check_throw",
    "declaration_error",
    "declaration_strength",
    "declared_trump",
    "decompose",
    "follow_error",
    "forced_cards",
    "format_cards",
    "full_deck",
    "kitty_multiplier",
    "lead_error",
    "legal_declarations",
    "legal_follow_candidates",
    "parse_cards",
    "random_legal_follow",
    "settle",
    "trick_winner",
]
