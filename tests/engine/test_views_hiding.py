"""Views hide what they must (docs/architecture.md): a seat sees only its own cards; the public
view shows no unplayed hand card and no kitty card before settlement."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from test_game_support import C, pass_to_end, playing, selfplay_steps, started

from engine.actions import Bury, Declare, Play, StartHand
from engine.cards import Card, parse_cards
from engine.errors import InvalidNotation
from engine.events import CardsPlayed, Declared, Event, KittyRevealed, NoBidTrump, ThrowFailed
from engine.game import Match, Phase
from engine.rules import NoBid, RuleSet
from engine.views import PlayerView, PublicView, unseen_cards

NOT_CARDS = {"trump", "level", "levels", "new_levels", "rules", "phase", "side", "trump_how"}


def card_strings(data: Any, key: str = "") -> list[Counter[Card]]:
    """Every string of cards in a view's dict (one Counter per string)."""
    if key in NOT_CARDS:
        return []
    if isinstance(data, dict):
        return [c for k, v in data.items() for c in card_strings(v, k)]
    if isinstance(data, list):
        return [c for v in data for c in card_strings(v, key)]
    if isinstance(data, str) and data:
        try:
            return [Counter(parse_cards(data))]
        except InvalidNotation:
            return []
    return []


def public_cards(events: list[Event]) -> Counter[Card]:
    """Cards the table has been shown in this hand's events (at most 2 of each)."""
    shown: Counter[Card] = Counter()
    for event in events:
        if isinstance(event, (Declared, CardsPlayed)):
            shown.update(event.cards)
        elif isinstance(event, ThrowFailed):
            shown.update(event.attempted)
        elif isinstance(event, NoBidTrump):
            shown.update(event.revealed)
        elif isinstance(event, KittyRevealed):
            shown.update(event.cards)
    return Counter({card: min(n, 2) for card, n in shown.items()})


def check_views(match: Match, shown: Counter[Card], deep: bool) -> None:
    hand = match.hand
    assert hand is not None
    public = match.public_view()
    public_dict = public.to_dict() if deep else None
    if public_dict is not None:
        json.dumps(public_dict)
        for cards in card_strings(public_dict):
            assert not cards - shown, f"public view leaks {cards - shown}"
    for seat in range(4):
        view = match.view_for(seat)
        assert view.public == public
        assert view.hand == hand.hands[seat]
        settled = hand.result is not None
        starter_sees = seat == hand.starter and hand.phase in (Phase.BURYING, Phase.PLAYING)
        assert (view.kitty is not None) == (settled or starter_sees)
        if deep:
            data = view.to_dict()
            assert data["public"] == public_dict
            assert set(data) == {"seat", "public", "hand", "kitty", "legal_declarations"}
            own = Counter(view.hand) + Counter(view.kitty or ())
            for text in data["legal_declarations"]:
                assert not Counter(parse_cards(text)) - own


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(no_bid=NoBid.REVEAL_UNTIL_LEVEL)],
                         ids=["kitty_top_card", "reveal_until_level"])
def test_views_never_show_hidden_cards(rules):
    rng = random.Random(5)
    events: list[Event] = []
    for _, action, after, new in selfplay_steps(80, 31, rules):
        if isinstance(action, StartHand):
            events = []
        events += new
        check_views(after, public_cards(events), deep=rng.random() < 0.15)


def test_a_seat_view_holds_only_its_own_cards_while_burying():
    match = Match(starter=1)
    match, _ = match.apply(StartHand(2))
    match, _ = pass_to_end(match)
    assert match.phase is Phase.BURYING and match.hand is not None
    starter = match.view_for(1)
    assert starter.kitty == match.hand.kitty and starter.to_move
    assert len(starter.hand) + len(starter.kitty) == 33
    for seat in (0, 2, 3):
        assert match.view_for(seat).kitty is None and not match.view_for(seat).to_move
    assert match.public_view().cards_left == (25, 33, 25, 25)


def test_the_public_view_reveals_the_kitty_and_seed_after_settlement():
    match = playing(["AH", "3H", "4H", "5H"], "2S", kitty="5D 10D KD 3C 4C 6C 7C 8C")
    assert match.public_view().result is None
    for seat, card in enumerate(["AH", "3H", "4H", "5H"]):
        match, _ = match.apply(Play(seat, C(card)))
    public = match.public_view()
    assert public.result is not None and public.result.seed == 99
    assert public.result.kitty == C("5D 10D KD 3C 4C 6C 7C 8C")
    assert public.to_dict()["result"]["kitty"] == "5D 10D KD 3C 4C 6C 7C 8C"
    assert match.view_for(3).kitty == public.result.kitty


def test_declarations_are_public_and_legal_declarations_private():
    match = started(3)
    hand = match.hand
    assert hand is not None
    hands = list(hand.hands)
    hands[1] = C("2H 2H 3S 4S 5S")
    match = replace(match, hand=replace(hand, hands=tuple(hands)))
    view = match.view_for(1)
    assert view.legal_declarations == (C("2H"), C("2H 2H"))
    assert match.view_for(0).legal_declarations == ()
    match, _ = match.apply(Declare(1, C("2H")))
    assert match.public_view().standing is not None
    assert match.public_view().declarations[0].cards == C("2H")
    assert match.view_for(1).legal_declarations == (C("2H 2H"),)  # reinforce


def test_views_before_the_first_hand():
    public = Match.new().public_view()
    assert isinstance(public, PublicView) and public.phase is Phase.BETWEEN_HANDS
    assert public.trump is None and public.cards_left == (0, 0, 0, 0)
    view = Match.new().view_for(2)
    assert isinstance(view, PlayerView) and view.hand == () and view.kitty is None
    json.dumps(view.to_dict())
    with pytest.raises(ValueError):
        Match.new().view_for(4)


def test_unseen_cards_are_the_pack_minus_what_the_seat_saw():
    match = playing(["AH 3S", "3H 4S", "4H 5S", "5H 6S"], "2S", kitty="5D 10D KD 3C 4C 6C 7C 8C")
    match, _ = match.apply(Play(0, C("AH")))
    unseen = Counter(unseen_cards(match.view_for(1)))
    assert sum(unseen.values()) == 108 - 2 - 1
    assert unseen[C("AH")[0]] == 1 and unseen[C("3H")[0]] == 1


def test_turn_and_lead_in_the_view():
    match = playing(["AH 3S", "3H 4S", "4H 5S", "5H 6S"], "2S")
    view = match.view_for(0)
    assert view.to_move and view.lead is None
    match, _ = match.apply(Play(0, C("AH")))
    assert match.view_for(1).lead == C("AH") and match.view_for(1).to_move
    assert not match.view_for(0).to_move


def test_bury_then_views_show_the_buried_kitty_to_the_starter_only():
    match = Match(starter=0)
    match, _ = match.apply(StartHand(8))
    match, _ = pass_to_end(match)
    hand = match.hand
    assert hand is not None
    chosen = (hand.hands[0] + hand.kitty)[:8]
    match, _ = match.apply(Bury(0, chosen))
    assert match.view_for(0).kitty == chosen
    assert all(match.view_for(s).kitty is None for s in (1, 2, 3))
    shown = Counter(hand.revealed)  # nobody declared: the turned-up kitty card is public
    for cards in card_strings(match.public_view().to_dict()):
        assert not cards - shown
