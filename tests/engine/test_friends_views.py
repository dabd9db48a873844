"""Finding Friends views and stored state: nothing hidden leaks (a seat's hand, the kitty, a
friend's identity before the reveal, F4); new fields only in friends mode; exact round trips."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from friends_support import C, F, calling, friends_rules, friends_steps, playing
from test_game_support import selfplay_steps

from engine.actions import Play
from engine.cards import Rank
from engine.friends import legal_calls
from engine.game import Match, Phase
from engine.rules import RuleSet
from engine.views import public_view

TEAMS_HAND_KEYS = {
    "number", "seed", "deal_no", "phase", "level", "starter", "hands", "stock", "kitty",
    "batch", "responded", "declarations", "trump", "trump_how", "revealed", "turn", "trick",
    "last_trick", "tricks_played", "played", "opponent_points", "opponent_trick_points",
    "declarer_trick_points", "failed_throws", "result",
}
TEAMS_RESULT_KEYS = {
    "seed", "kitty", "kitty_points", "kitty_multiplier", "kitty_scored", "opponent_points",
    "side", "levels_gained", "levels", "new_levels", "next_starter", "match_winner",
}
PER_SEAT_HAND_KEYS = {"friend_calls", "call_seats", "points_by_seat"}
FRIENDS_VIEW_KEYS = {"friend_calls", "call_seats", "points_by_seat", "declarer_seats",
                     "seat_levels"}


def through_json(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result


def reshuffled(match: Match, rng: random.Random) -> Match:
    """`match` with every unseen card (hands, kitty, stock) dealt again at random into the
    same sizes: what nobody may tell apart from the public view."""
    hand = match.hand
    assert hand is not None
    unseen = [card for cards in hand.hands for card in cards] + list(hand.kitty) \
        + list(hand.stock)
    rng.shuffle(unseen)
    hands, at = [], 0
    for cards in hand.hands:
        hands.append(tuple(unseen[at:at + len(cards)]))
        at += len(cards)
    kitty = tuple(unseen[at:at + len(hand.kitty)])
    stock = tuple(unseen[at + len(hand.kitty):])
    return replace(match, hand=replace(hand, hands=tuple(hands), kitty=kitty, stock=stock))


@pytest.mark.parametrize(("players", "decks"), [(5, 2), (6, 3), (8, 4)])
def test_f4_the_public_view_is_the_same_whoever_holds_the_unseen_cards(players: int,
                                                                       decks: int) -> None:
    """No hidden card and no unrevealed friend: the public view (and its JSON) does not
    change when every unseen card, called copies included, moves to another seat."""
    rng = random.Random(players)
    checked = 0
    for before, _, _, _ in friends_steps(2, players, friends_rules(players, decks)):
        if before.hand is None or before.phase is Phase.BETWEEN_HANDS or rng.random() > 0.3:
            continue
        other = reshuffled(before, rng)
        assert public_view(other) == public_view(before)
        assert other.public_view().to_dict() == before.public_view().to_dict()
        checked += 1
    assert checked > 20


def test_f4_a_friend_sees_its_called_card_and_nobody_else_learns_of_it() -> None:
    hands = ["KH 3D", "3H 4D", "AH 5D", "4H 6D", "5H 7D"]
    match = playing(hands, "2S", [F("AH", 1)])
    holder = match.view_for(2)
    assert F("AH", 1).card in holder.hand and holder.kitty is None
    assert match.view_for(0).kitty is not None  # the starter sees its buried cards
    public = match.public_view()
    assert public.friend_calls == (F("AH", 1),) and public.call_seats == (None,)
    assert public.declarer_seats == (0,)
    assert "AH" not in json.dumps(public.to_dict()["cards_left"])
    match, _ = match.apply(Play(0, C("KH")))
    match, _ = match.apply(Play(1, C("3H")))
    match, _ = match.apply(Play(2, C("AH")))
    assert match.public_view().to_dict()["call_seats"] == [2]
    assert match.public_view().to_dict()["declarer_seats"] == [0, 2]


def test_friends_view_fields_and_properties() -> None:
    match = playing(["3D"] * 6, "2S", [F("AH", 1), F("KC", 3)], starter=4,
                    rules=friends_rules(6), levels=["2", "3", "4", "5", "6", "7"])
    view = match.public_view()
    assert view.seats == 6 and view.declarer_team is None
    assert view.seat_levels == view.levels == tuple(Rank(r) for r in range(2, 8))
    assert view.cards_left == (1,) * 6 and view.points_by_seat == (0,) * 6
    data = through_json(view.to_dict())
    assert set(data) >= FRIENDS_VIEW_KEYS
    assert data["friend_calls"] == [["AH", 1], ["KC", 3]]
    assert data["seat_levels"] == ["2", "3", "4", "5", "6", "7"]
    assert match.view_for(5).seat == 5
    with pytest.raises(ValueError):
        match.view_for(6)


def test_teams_views_have_the_same_keys_and_their_properties_agree() -> None:
    """One shape in both modes (issue 27): per-seat levels, points and sides."""
    match = Match.new()
    for _, _, after, _ in selfplay_steps(1, 5):
        match = after
        view = match.public_view()
        assert view.phase is not Phase.CALLING  # never in teams mode
        assert set(view.to_dict()) >= FRIENDS_VIEW_KEYS
        assert len(view.points_by_seat) == 4 and len(view.levels) == 4
        assert view.seats == 4 and len(view.seat_levels) == 4
        if view.starter is not None:
            assert view.declarer_seats == tuple(sorted({view.starter, (view.starter + 2) % 4}))
            assert view.declarer_team == view.starter % 2


def test_legal_calls_lists_every_non_trump_card_and_copy_for_the_starter_only() -> None:
    match = calling(["3D"] * 6, "2S", rules=friends_rules(6))
    calls = legal_calls(match.view_for(0))
    assert len(calls) == 3 * (54 - 2 - 13 - 3)  # three copies of each of 36 non-trumps
    assert all(not match.hand.trump.is_trump(c.card) for c in calls)  # type: ignore[union-attr]
    assert legal_calls(match.view_for(1)) == []


# ---------------------------------------------------------------- stored state


def test_a_teams_matchs_stored_state_has_the_one_shape() -> None:
    for before, _, after, _ in selfplay_steps(2, 11, RuleSet(take_backs=True)):
        for match in (before, after):
            data = match.to_dict()
            assert set(data) == {"v", "rules", "levels", "hand_no", "starter", "winner", "hand"}
            assert len(data["levels"]) == 4  # one per seat since issue 27
            if data["hand"] is not None:
                assert set(data["hand"]) - {"undo"} == TEAMS_HAND_KEYS | PER_SEAT_HAND_KEYS
                if data["hand"]["result"] is not None:
                    assert set(data["hand"]["result"]) == TEAMS_RESULT_KEYS | {"declarer_seats"}


def todays_release(data: dict[str, Any]) -> dict[str, Any]:
    """A teams match's stored state as the release before issue 27 wrote it: levels per
    team, the winner a team, no per-seat points, no declarer seats in a result."""
    old = json.loads(json.dumps(data))
    old["levels"] = old["levels"][:2]
    if old["winner"] is not None:
        old["winner"] %= 2
    hands = [old["hand"]] if old["hand"] is not None else []
    while hands:
        hand = hands.pop()
        for key in PER_SEAT_HAND_KEYS:
            hand.pop(key, None)
        result = hand["result"]
        if result is not None:
            result["levels"], result["new_levels"] = result["levels"][:2], \
                result["new_levels"][:2]
            if result["match_winner"] is not None:
                result["match_winner"] %= 2
            del result["declarer_seats"]
        if hand.get("undo") is not None:
            hands.append(hand["undo"])
    return old


def test_a_stored_teams_match_from_todays_release_loads_per_seat() -> None:
    """The codec normalises the per-team shape (issue 27): the same match, every phase."""
    won = 0
    for rules in (RuleSet(take_backs=True, throw_penalty=10), RuleSet()):
        for before, action, after, events in selfplay_steps(30, 3, rules):
            old = Match.from_dict(todays_release(before.to_dict()))
            assert old == before, before.hand_no
            assert old.apply(action) == (after, events)
            if after.winner is not None:  # otherwise `after` is the next step's `before`
                assert Match.from_dict(todays_release(after.to_dict())) == after
                won += 1
    assert won  # a won match is among them


@pytest.mark.parametrize(("players", "decks"), [(4, 2), (5, 2), (6, 3), (7, 3), (8, 4),
                                                (6, 4)])
def test_friends_states_round_trip_in_every_phase(players: int, decks: int) -> None:
    rules = friends_rules(players, decks, take_backs=True, throw_penalty=5)
    phases: set[Phase] = set()
    for before, action, after, events in friends_steps(2, players + decks, rules):
        phases.add(before.phase)
        data = through_json(before.to_dict())
        restored = Match.from_dict(data)
        assert restored == before and restored.to_dict() == data
        assert restored.apply(action) == (after, events)
    assert phases >= {Phase.DECLARING, Phase.BURYING, Phase.CALLING, Phase.PLAYING,
                      Phase.BETWEEN_HANDS}
    new = Match.new(rules)
    assert Match.from_dict(through_json(new.to_dict())) == new
