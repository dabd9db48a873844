"""Seeded positions for the demo, the goldens and the benchmark, reached by driving the
engine's state machine with simple deterministic players (views only for rendering)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.render.board import SeatLabel
from engine.actions import Action, Bury, Declare, Pass, Play, StartHand
from engine.follow import random_legal_follow
from engine.game import KITTY_SIZE, Match, Phase
from engine.units import decompose_suit, group_by_suit
from engine.views import PlayerView, PublicView

DEMO_SEED = 17

SEATS: tuple[SeatLabel, ...] = (
    SeatLabel("Alice"),
    SeatLabel("小明", computer=True),
    SeatLabel("Bernadette the Bold"),
    SeatLabel("Chen", autopilot=True),
)


@dataclass(frozen=True, slots=True)
class Positions:
    """Views of one seeded hand at the moments the demo draws."""

    declaring: PlayerView
    """Seat 0 during the last declaration window (no trump yet or one declared)."""
    burying: PlayerView
    """The starter with 33 cards while burying."""
    playing: PlayerView
    """Seat 0 mid-hand, a trick in progress (for the hand and the table)."""
    settled: Match
    """The match right after the hand is settled."""


def _act(view: PlayerView, rng: random.Random) -> Action:
    phase = view.public.phase
    if phase is Phase.DECLARING:
        if view.legal_declarations and view.public.batch >= 3:
            return Declare(view.seat, view.legal_declarations[-1])
        return Pass(view.seat)
    trump = view.public.trump
    assert trump is not None
    if phase is Phase.BURYING:
        assert view.kitty is not None
        pool = trump.sort(view.hand + view.kitty, descending=False)
        side = [c for c in pool if not trump.is_trump(c)]  # the weakest side cards first
        side.sort(key=trump.strength)
        rest = [c for c in pool if trump.is_trump(c)]
        return Bury(view.seat, tuple((side + rest)[:KITTY_SIZE]))
    lead = view.lead
    if lead is None:
        groups = [g for g in group_by_suit(view.hand, trump) if g]
        units = decompose_suit(rng.choice(groups), trump)  # its largest unit
        return Play(view.seat, units[0].cards)
    return Play(view.seat, tuple(random_legal_follow(view.hand, lead, trump, rng)))


def _next_seat(match: Match) -> int:
    public = match.public_view()
    if public.phase is Phase.DECLARING:
        return public.awaiting[0]
    assert public.turn is not None
    return public.turn


def _run_until(match: Match, rng: random.Random, stop: Callable[[Match], bool]) -> Match:
    while not stop(match):
        seat = _next_seat(match)
        match, _ = match.apply(_act(match.view_for(seat), rng))
    return match


def _mid_trick(view: PublicView, tricks: int) -> bool:
    """Three plays into the trick after `tricks` whole tricks."""
    return view.tricks_played >= tricks and view.trick is not None and len(view.trick.plays) == 3


def positions(seed: int = DEMO_SEED, *, tricks: int = 5) -> Positions:
    """Play one hand from `seed`: views while declaring, burying and mid-trick, and the
    settled match. `tricks`: how many whole tricks precede the mid-trick position."""
    rng = random.Random(seed)
    match, _ = Match.new().apply(StartHand(seed))
    match = _run_until(match, rng, lambda m: m.public_view().batch == 5
                       and len(m.public_view().awaiting) <= 2)
    declaring = match.view_for(0)
    match = _run_until(match, rng, lambda m: m.phase is Phase.BURYING)
    starter = match.public_view().starter
    assert starter is not None
    burying = match.view_for(starter)
    match = _run_until(match, rng, lambda m: _mid_trick(m.public_view(), tricks))
    playing = match.view_for(0)
    match = _run_until(match, rng, lambda m: m.public_view().result is not None)
    return Positions(declaring, burying, playing, match)


