"""Views pickle compactly (they travel to worker processes, bot.offload) and come back equal,
down to the types of every part (a `Phase` is not just the string it equals)."""

from __future__ import annotations

import copy
import pickle
import pickletools
import random
from collections.abc import Iterator
from dataclasses import fields, is_dataclass, replace
from functools import cache
from typing import Any

import pytest

from engine import wire
from engine.ai.random_agent import RandomAgent
from engine.cards import ALL_CARDS, Card
from engine.game import Match, Phase, Trick
from engine.rules import FixedTrump, Mode, RuleSet
from engine.views import PlayerView, PublicView, player_view
from engine.wire import _public_out, _trick_out
from tools.selfplay import play_hand


def assert_same(a: Any, b: Any, where: str = "view") -> None:
    """`a` and `b` equal part by part, each part of the same type."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} is not {type(b).__name__}"
    if is_dataclass(a):
        for f in fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def games(rules: RuleSet, hands: int, seed: int, declare: float = 0.5) -> Iterator[Match]:
    """Every state of `hands` hands of seeded random play; after the first hand (which
    is dealt again until someone declares), seats declare with the chance `declare`."""
    rng = random.Random(seed)
    match = Match.new(rules)
    agents = [RandomAgent(random.Random(f"{seed}:{seat}")) for seat in range(match.seats)]
    yield match
    for _ in range(hands):
        if match.phase is Phase.MATCH_OVER:
            return
        for _, _, after, _ in play_hand(match, rng.getrandbits(64), agents, rng):
            yield after
        match = after
        for agent in agents:
            agent.declare_chance = declare


TABLES = {
    "teams": (RuleSet(), 2, 0.5),
    "teams, nobody declares": (RuleSet(), 2, 0.0),
    "teams, house rules": (RuleSet(take_backs=True, throw_penalty=10,
                                   fixed_trump=FixedTrump.NO_TRUMP), 1, 0.5),
    **{f"friends, {n} players": (RuleSet(mode=Mode.FRIENDS, players=n), 2 if n == 6 else 1,
                                  0.5) for n in range(5, 9)},
}


@cache
def views(table: str) -> list[PlayerView]:
    rules, hands, declare = TABLES[table]
    return [player_view(match, seat) for match in games(rules, hands, 7, declare)
            for seat in range(match.seats)]


@pytest.mark.parametrize("table", TABLES)
def test_views_come_back_the_same(table: str) -> None:
    """Every view equal; one in five also part by part (a type lost is lost in all)."""
    for i, view in enumerate(views(table)):
        back = pickle.loads(pickle.dumps(view, pickle.HIGHEST_PROTOCOL))
        public = pickle.loads(pickle.dumps(view.public))
        assert back == view and public == view.public
        if i % 5 == 0:
            assert_same(back, view)
            assert_same(public, view.public)


@pytest.mark.parametrize("table", TABLES)
def test_the_games_cover_what_a_view_holds(table: str) -> None:
    """The round trips above saw every phase of a hand and every optional part."""
    publics = [view.public for view in views(table)]
    phases = {public.phase for public in publics}
    assert phases >= {Phase.BURYING, Phase.PLAYING, Phase.BETWEEN_HANDS}
    parts = ["trick", "last_trick", "played", "result", "trump", "trump_how"]
    if "house" in table:
        parts.append("take_back_seat")
    for name in parts:
        assert any(getattr(public, name) not in (None, ()) for public in publics), name
    if "friends" in table:
        assert Phase.CALLING in phases
        assert any(p.friend_calls for p in publics)
        assert any(seat is not None for p in publics for seat in p.call_seats)
        assert any(p.points_by_seat for p in publics)
    elif "nobody" in table:
        assert any(p.revealed for p in publics)
    elif "house" not in table:  # (a fixed trump: no declaring)
        assert Phase.DECLARING in phases
        assert any(p.declarations for p in publics)
    if table in ("teams", "friends, 6 players"):
        assert any(p.failed_throws for p in publics)
        assert any(t.failed_throw for p in publics for t in (p.trick, p.last_trick) if t)
    assert any(view.kitty for view in views(table))


def test_a_view_before_the_first_hand_and_after_the_match() -> None:
    view = player_view(Match.new(), 0)
    assert_same(pickle.loads(pickle.dumps(view)), view)
    over = replace(views("teams")[-1].public, phase=Phase.MATCH_OVER, match_winner=1)
    assert_same(pickle.loads(pickle.dumps(over)), over)


def test_the_wire_form_has_every_field() -> None:
    """A field added to a view or a trick must be added to its pickled form too."""
    public = next(v.public for v in views("teams") if v.public.trick is not None)
    assert len(_public_out(public)) == len(fields(PublicView))
    assert public.trick is not None
    assert len(_trick_out(public.trick) or ()) == len(fields(Trick))


def globals_named(data: bytes) -> set[str]:
    """The callables a pickle names (``module name``)."""
    names: list[str] = []
    found = set()
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            names.append(arg)
        elif op.name == "STACK_GLOBAL":
            found.add(" ".join(names[-2:]))
        elif op.name == "GLOBAL":
            found.add(arg)
    return found


def test_a_view_pickles_as_plain_data() -> None:
    """No dataclass is pickled field by field: the only callable named is the view's
    rebuilder, and its public part is plain data (failed throws and the result, rare,
    name their own)."""
    for view in views("teams"):
        public = view.public
        assert globals_named(pickle.dumps(view, pickle.HIGHEST_PROTOCOL)) == {
            "engine.views _player_from"}
        if public.failed_throws or public.result or (public.trick and public.trick.failed_throw):
            continue
        assert globals_named(wire.public_wire(public)) == set()


def test_a_view_is_made_into_data_once_and_rebuilt_once() -> None:
    """The public part of a view sent with several jobs is encoded once, and a worker
    rebuilds it once (the same object for equal bytes)."""
    match = list(games(RuleSet(), 1, 3))[40]
    first, again = wire.public_wire(match.public_view()), wire.public_wire(
        match.public_view())
    assert first is again
    seat0 = pickle.loads(pickle.dumps(match.view_for(0)))
    seat1 = pickle.loads(pickle.dumps(match.view_for(1)))
    assert seat0.public is seat1.public and seat0.hand != seat1.hand


def test_cards_pickle_as_their_codes() -> None:
    for card in ALL_CARDS:
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.deepcopy(card) is card
    assert globals_named(pickle.dumps(Card.parse("AS"))) == {"engine.cards card_of_code"}
