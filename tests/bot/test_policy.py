"""The one presentation policy (bot/ui/policy.py), exhaustively: hypothesis plays random
sequences of moves at a table of people and computers, with random tokens, settings and
pauses, and every plan is held to the product rules of issue 36."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.runtime.budget import Priority
from bot.services.outcome import Move, Publish
from bot.ui.policy import (
    Dm,
    Memory,
    Ping,
    Plan,
    SeatFacts,
    SeatPlan,
    Token,
    TurnKey,
    decide,
    remember,
    urgent,
)
from engine.cards import Card, Rank, parse_cards
from engine.events import CardsDealt, CardsPlayed, Declared, Event, HandSettled, HandStarted

IDLE = 60.0
SEATS = 4
CARDS = tuple(parse_cards("AS"))


def settled(hand_no: int) -> HandSettled:
    return HandSettled(hand_no=hand_no, opponent_points=0, side=cast(Any, "declarers"),
                       levels_gained=0, levels=(), new_levels=(), next_starter=0, seed=0)


def started(hand_no: int) -> tuple[Event, ...]:
    return (HandStarted(hand_no, None, Rank.TWO), CardsDealt(1, 0))


@dataclass
class Step:
    """One move of the simulated table."""

    kind: str  # "play", "declare", "deal", "settle"
    actor: int | None
    to_act: tuple[int, ...]
    pause: float
    tokens: dict[int, Token]
    """The seats whose latest live token changes before this move."""


@st.composite
def steps(draw: st.DrawFn) -> list[Step]:
    out = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["play", "play", "play", "declare", "deal", "settle"]))
        actor = draw(st.none() | st.integers(0, SEATS - 1))
        if kind == "declare":
            to_act = tuple(sorted(draw(st.sets(st.integers(0, SEATS - 1)))))
        elif kind == "settle":
            to_act = ()
        else:
            to_act = (draw(st.integers(0, SEATS - 1)),)
        tokens = draw(st.dictionaries(st.integers(0, SEATS - 1), st.sampled_from(list(Token)),
                                      max_size=2))
        out.append(Step(kind, actor, to_act, draw(st.sampled_from([0.5, 5.0, 61.0, 400.0])),
                        tokens))
    return out


people = st.lists(st.builds(SeatFacts, person=st.booleans(), dm=st.booleans(),
                            turn_ping=st.booleans()), min_size=SEATS, max_size=SEATS)


@dataclass
class Table:
    """The simulation: the table's step and hand, and each seat's memory."""

    facts: list[SeatFacts]
    hand: int = 1
    step: int = 0
    now: float = 1000.0
    told: dict[int, list[TurnKey]] = field(default_factory=dict)

    def move(self, step: Step) -> tuple[Move, Publish]:
        self.now += step.pause
        self.step += 1
        if step.kind == "deal":
            self.hand += 1
            events: tuple[Event, ...] = started(self.hand)
        elif step.kind == "settle":
            events = (settled(self.hand),)
        elif step.kind == "declare":
            events = (Declared(step.actor or 0, CARDS),)
        else:
            events = (CardsPlayed(step.actor or 0, CARDS),)
        for seat, token in step.tokens.items():
            self.facts[seat] = replace(self.facts[seat], token=token)
        move = Move(events, step.actor, self.hand, self.step, step.to_act,
                    tuple(i for i, f in enumerate(self.facts) if f.person))
        return move, Publish(moves=[move])

    def after(self, plan: Plan, move: Move) -> None:
        for seat, mine in plan.seats.items():
            facts = self.facts[seat]
            memory = remember(Memory(facts.told, facts.last_acted), mine,
                              acted=move.actor == seat, now=self.now)
            facts = replace(facts, told=memory.told, last_acted=memory.last_acted)
            if mine.dm is Dm.NEW:
                facts = replace(facts, panel_hand=move.hand_no, token=Token.NONE)
            if mine.told is not None:
                self.told.setdefault(seat, []).append(mine.told)
            self.facts[seat] = facts


def values(obj: Any) -> list[Any]:
    """Every leaf value inside a plan (dataclasses, dicts, lists, tuples)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [v for f in dataclasses.fields(obj) for v in values(getattr(obj, f.name))]
    if isinstance(obj, dict):
        return [v for pair in obj.items() for x in pair for v in values(x)]
    if isinstance(obj, (list, tuple, set)):
        return [v for x in obj for v in values(x)]
    return [obj]


@settings(max_examples=300, deadline=None)
@given(people, steps())
def test_the_plans_keep_the_product_rules(facts: list[SeatFacts], moves: list[Step]) -> None:
    table = Table(list(facts))
    for step in moves:
        before = list(table.facts)
        move, publish = table.move(step)
        plan = decide(publish, {i: f for i, f in enumerate(table.facts)}, now=table.now,
                      idle=IDLE)
        new_hand = step.kind == "deal"
        for seat, mine in plan.seats.items():
            seen = table.facts[seat]
            # Only people get a plan; it carries no card (the panel is drawn per viewer).
            assert seen.person
            assert not any(isinstance(v, Card) for v in values(mine))
            turn = seat in move.to_act and seen.told != (move.hand_no, move.step)
            # No DM redraw for a move that is not theirs nor their turn (nor the deal, the
            # end of the hand, a declaration in the window they must answer).
            if mine.dm is not Dm.NONE:
                assert seen.dm
                assert (turn or move.actor == seat or new_hand or step.kind == "settle"
                        or (step.kind == "declare" and seat in move.to_act)), (step, mine)
            if mine.dm is Dm.TOKEN:
                assert seen.token is Token.DM
            if mine.priority is Priority.NOTICE and mine.dm is not Dm.NONE:
                assert turn or new_hand
            # Pings: only on a turn, first of the hand, or idle.
            if mine.ping is not Ping.NONE:
                assert turn
                first = seen.told is None or seen.told[0] != move.hand_no
                idle = seen.last_acted is None or table.now - seen.last_acted >= IDLE
                assert first or idle or new_hand, (seen, table.now)
                assert mine.ping is Ping.TOKEN or not seen.dm
                assert (mine.ping is Ping.TOKEN) == (seen.token is not Token.NONE)
            if mine.dm is Dm.NEW and not new_hand:
                # A new DM panel (a counted call) only when no token can tell them, or
                # their panel is not of this hand.
                assert (seen.token is not Token.DM or seen.panel_hand != move.hand_no)
            # A token edit (free) is used whenever the token is on the DM panel.
            if seen.token is Token.DM and mine.dm is Dm.EDIT:
                assert seen.panel_hand != move.hand_no
        # Every person is told of a new turn, once.
        for seat in move.to_act:
            if before[seat].person and before[seat].told != (move.hand_no, move.step):
                assert plan.seats[seat].told == (move.hand_no, move.step)
        for seat, mine in plan.seats.items():
            if seat not in move.to_act:
                assert mine.told is None
        table.after(plan, move)
    for keys in table.told.values():
        assert len(keys) == len(set(keys))  # never told twice of one turn


def plan_for(facts: SeatFacts, *moves: Move, now: float = 1000.0, **publish: Any) -> SeatPlan:
    plan = decide(Publish(moves=list(moves), **publish), {0: facts, 1: SeatFacts(False)},
                  now=now, idle=IDLE)
    return plan.seats.get(0, SeatPlan())


def play(actor: int | None, to_act: int, step: int = 5, hand: int = 1) -> Move:
    return Move((CardsPlayed(actor or 0, CARDS),), actor, hand, step, (to_act,), (0,))


HERE = SeatFacts(True, panel_hand=1, token=Token.DM, last_acted=990.0, told=(1, 2))


def test_another_players_move_redraws_no_dm_panel() -> None:
    assert plan_for(HERE, play(1, 1)).dm is Dm.NONE
    assert plan_for(HERE, play(1, 1)).hand  # My hand follows every move (free)


def test_own_move_is_answered_through_the_click() -> None:
    assert plan_for(HERE, play(0, 1)).dm is Dm.TOKEN
    assert plan_for(replace(HERE, token=Token.NONE), play(0, 1)).dm is Dm.EDIT


def test_a_players_own_move_answers_their_ping_and_no_other_does() -> None:
    assert plan_for(HERE, play(0, 1)).answered  # their ping's moment has passed
    assert not plan_for(HERE, play(1, 0)).answered


def test_a_watching_players_turn_is_a_quiet_token_edit() -> None:
    mine = plan_for(HERE, play(1, 0))
    assert (mine.dm, mine.ping, mine.told) == (Dm.TOKEN, Ping.NONE, (1, 5))


def test_an_idle_players_turn_pings_through_the_token() -> None:
    mine = plan_for(replace(HERE, last_acted=900.0), play(1, 0))
    assert (mine.dm, mine.ping) == (Dm.TOKEN, Ping.TOKEN)


def test_without_a_token_an_idle_turn_is_a_new_panel_first() -> None:
    mine = plan_for(replace(HERE, token=Token.NONE, last_acted=None), play(1, 0))
    assert (mine.dm, mine.priority, mine.ping) == (Dm.NEW, Priority.NOTICE, Ping.NONE)
    quiet = plan_for(replace(HERE, token=Token.NONE), play(1, 0))
    assert (quiet.dm, quiet.priority) == (Dm.EDIT, Priority.NOTICE)


def test_the_first_turn_of_a_hand_pings() -> None:
    mine = plan_for(replace(HERE, told=(0, 9)), play(1, 0))
    assert mine.ping is Ping.TOKEN


def test_my_hand_players_are_pinged_in_the_channel_without_a_token() -> None:
    alone = replace(HERE, dm=False, token=Token.NONE, last_acted=None)
    assert plan_for(alone, play(1, 0)).ping is Ping.CHANNEL
    assert plan_for(replace(alone, turn_ping=False), play(1, 0)).ping is Ping.NONE
    assert plan_for(replace(alone, token=Token.HAND), play(1, 0)).ping is Ping.TOKEN
    assert plan_for(alone, play(1, 0)).dm is Dm.NONE


def test_a_new_hand_sends_every_person_a_new_panel_once() -> None:
    deal = Move(started(2), None, 2, 9, (0, 1), (0,))
    mine = plan_for(HERE, deal)
    assert (mine.dm, mine.priority, mine.intro, mine.told) == (Dm.NEW, Priority.NOTICE,
                                                               True, (2, 9))


def test_the_end_of_the_hand_shows_everyones_panel() -> None:
    end = Move((settled(1),), 1, 1, 9, (), (0,))
    assert plan_for(HERE, end).dm is Dm.TOKEN
    assert plan_for(replace(HERE, token=Token.NONE), end).dm is Dm.EDIT


def test_restart_and_return() -> None:
    assert plan_for(replace(HERE, token=Token.NONE), restored=True).dm is Dm.EDIT
    assert plan_for(HERE, returned={0}).dm is Dm.NEW
    assert plan_for(replace(HERE, person=False), returned={0}).dm is Dm.NONE


def test_urgent_only_for_people() -> None:
    assert not urgent(Publish(moves=[Move((), 2, 1, 3, (3,), (0,))]))
    assert urgent(Publish(moves=[Move((), 2, 1, 3, (0,), (0,))]))
    assert urgent(Publish(moves=[Move((), 0, 1, 3, (3,), (0,))]))
