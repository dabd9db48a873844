"""Tractor (升级) rules engine: pure, typed, no I/O. See docs/rules.md (R1–R12, and
Finding Friends F1–F6)."""

from engine.actions import (
    Action,
    Bury,
    CallFriends,
    CloseWindow,
    Declare,
    Pass,
    Play,
    StartHand,
    TakeBack,
    action_from_dict,
)
from engine.cards import Card, Rank, Suit, card_points, format_cards, full_deck, parse_cards
from engine.deal import DealShape, deal_shape
from engine.declaring import (
    declaration_error,
    declaration_strength,
    declared_trump,
    legal_declarations,
)
from engine.errors import IllegalPlay, InvalidNotation, NotYourTurn, TractorError, WrongPhase
from engine.events import Event, event_from_dict
from engine.follow import follow_error, forced_cards, legal_follow_candidates, random_legal_follow
from engine.friends import FriendCall, legal_calls
from engine.game import HandState, Match, Phase, Trick, apply
from engine.hints import quick_plays, suggest_bury
from engine.reasons import Reason, ruling
from engine.rules import (
    FixedTrump,
    Follow,
    KittyMultiplier,
    LevelScoring,
    MatchEnd,
    Mode,
    MustDefend,
    NoBid,
    RuleSet,
    ThrowRuff,
)
from engine.scoring import advance_level, kitty_multiplier, settle
from engine.throw import check_throw, lead_error
from engine.trick import trick_winner
from engine.trump import TRUMPS, Trump
from engine.units import Unit, UnitKind, decompose
from engine.views import PlayerView, PublicView

__all__ = [
    "TRUMPS",
    "Action",
    "Bury",
    "CallFriends",
    "Card",
    "CloseWindow",
    "DealShape",
    "Declare",
    "Event",
    "FixedTrump",
    "Follow",
    "FriendCall",
    "HandState",
    "IllegalPlay",
    "InvalidNotation",
    "KittyMultiplier",
    "LevelScoring",
    "Match",
    "MatchEnd",
    "Mode",
    "MustDefend",
    "NoBid",
    "NotYourTurn",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "PublicView",
    "Rank",
    "Reason",
    "RuleSet",
    "StartHand",
    "Suit",
    "TakeBack",
    "ThrowRuff",
    "TractorError",
    "Trick",
    "Trump",
    "Unit",
    "UnitKind",
    "WrongPhase",
    "action_from_dict",
    "advance_level",
    "apply",
    "card_points",
    "check_throw",
    "deal_shape",
    "declaration_error",
    "declaration_strength",
    "declared_trump",
    "decompose",
    "event_from_dict",
    "follow_error",
    "forced_cards",
    "format_cards",
    "full_deck",
    "kitty_multiplier",
    "lead_error",
    "legal_calls",
    "legal_declarations",
    "legal_follow_candidates",
    "parse_cards",
    "quick_plays",
    "random_legal_follow",
    "ruling",
    "settle",
    "suggest_bury",
    "trick_winner",
]
