"""Seeded table positions in every phase, for the panel golden test and the panel
micro-benchmark (tests/bot/bench_panels.py): whole hands played by the greedy computer,
with a table document around each position (people with markdown and Chinese names, a
computer, an autopilot seat, a deadline, the table link or not, the restored note)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from bot.core.table import Seat, TableDoc
from bot.services.players import computer_action, quick_plays
from bot.ui.selection import pool_values
from engine.actions import CloseWindow, StartHand
from engine.cards import Rank
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet

RULES: tuple[RuleSet, ...] = (
    RuleSet(),
    RuleSet(take_backs=True),
    RuleSet(mode=Mode.FRIENDS, players=5),
)
PLAYER = {Mode.TEAMS: "greedy", Mode.FRIENDS: "expert"}
"""Who plays the positions: the greedy computer, and in Finding Friends the rule player
(which every level played Finding Friends with until issue 27: the same positions)."""
NAMES = ("Alice", "Bob_the*Bold*", "小明", "Zoë ~~x~~", "Dee", "Eve", "Fay", "Gus")


@dataclass(frozen=True, slots=True)
class Position:
    """One moment of a table: its document and the seat whose panel is drawn."""

    label: str
    doc: TableDoc
    seat: int
    selected: tuple[str, ...]


def _doc(match: Match, rng: random.Random, step: int) -> TableDoc:
    doc = TableDoc(guild_id=11, channel_id=22, creator_id=100)
    players = match.rules.players
    if players != len(doc.seats):
        doc.resize(players)
    seats: list[Seat | None] = []
    for seat in range(players):
        if seat == 1:
            seats.append(Seat(None, "", level=rng.choice([None, "greedy"])))
        else:
            seats.append(Seat(100 + seat, NAMES[seat], autopilot=seat == 3 and step % 3 == 0))
    doc.seats = seats
    doc.options = {**doc.options, **match.rules.to_dict()}
    doc.set_match(match)
    doc.step = step
    doc.deadline = None if step % 4 == 0 else 1_800_000_000.0 + step
    doc.table_message = None if step % 5 == 0 else 900_000 + step
    doc.restored = step % 7 == 0
    if match.phase is Phase.BETWEEN_HANDS:
        doc.ready = [0] if step % 2 else []
    return doc


def _selections(match: Match, seat: int, rng: random.Random) -> list[tuple[str, ...]]:
    view = match.view_for(seat)
    if view.public.phase is Phase.CALLING:
        return [(), ()]  # the call's draft is the table's (`TableDoc.call_draft`)
    values = [v for v, _ in pool_values(view)]
    out: list[tuple[str, ...]] = [()]
    if not values:
        return out
    out.append(tuple(rng.sample(values, min(len(values), rng.randint(1, 4)))))
    if view.public.phase is Phase.BURYING:
        out.append(tuple(values[-8:]))
    if view.public.phase is Phase.PLAYING and view.to_move:
        plays = quick_plays(view)
        if plays:
            wanted = [str(c) for c in plays[0].cards]
            out.append(tuple(v for v in values if v.split("#")[0] in wanted)[:len(wanted)])
    out.append(("XX#9", *values[:1]))  # a value the pool does not hold is dropped
    return out


def positions(seeds: range = range(2), every: int = 4) -> Iterator[Position]:
    """Positions of whole hands (two per seed and rule set), every `every`-th decision,
    each seat's panel with a few selections; every burying and calling one)."""
    for rules in RULES:
        for seed in seeds:
            rng = random.Random(seed)
            match = Match.new(rules)
            if seed % 2:  # near the end of the match: a hand may win it
                match = replace(match, levels=(Rank.ACE,) * len(match.levels))
            step = 0
            for hand in range(2):
                if match.phase is Phase.MATCH_OVER:
                    break
                match, _ = match.apply(StartHand(seed * 10 + hand))
                while True:
                    public = match.public_view()
                    if step % every == 0 or public.phase not in (Phase.PLAYING,
                                                                 Phase.DECLARING):
                        doc = _doc(match, rng, step)
                        for seat in range(rules.players):
                            for selected in _selections(match, seat, rng):
                                yield Position(f"{rules.mode.value}/{seed}/{step}/{seat}",
                                               doc, seat, selected)
                    step += 1
                    if public.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
                        break
                    if public.phase is Phase.DECLARING and not public.awaiting:
                        match, _ = match.apply(CloseWindow())
                        continue
                    actor = public.awaiting[0] if public.phase is Phase.DECLARING \
                        else public.turn
                    assert actor is not None
                    match, _ = match.apply(computer_action(match.view_for(actor),
                                                           PLAYER[rules.mode], seed, step))
            doc = _doc(match, rng, step)
            for seat in range(rules.players):
                yield Position(f"{rules.mode.value}/{seed}/end/{seat}", doc, seat, ())
