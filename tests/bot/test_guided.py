"""Choosing cards by hand is guided (issue 12 item 9): the pick list of the led suit says
so (it keeps its place: issue 38 item 1) and the cards the lead forces are starred (R8);
Quick plays stay first; a selected set that may not be played shows why, and Play is
disabled, before it is pressed."""

from __future__ import annotations

from pathlib import Path

from botkit import World, by_panel, components, find, seats_to_act, world

from engine.cards import Card
from engine.game import Phase


def card_selects(panel: object) -> list[object]:
    return [c for c in components(panel) if ":sel:" in (getattr(c, "custom_id", "") or "")]


async def follower(w: World) -> tuple[int, object] | None:
    """The human to play now when they follow a lead, holding the led suit and others."""
    match = await w.match()
    public = match.public_view()
    if public.phase is not Phase.PLAYING or public.trick is None or not public.trick.plays:
        return None
    seat = public.turn
    assert seat is not None
    view = match.view_for(seat)
    trump = public.trump
    assert trump is not None and view.lead is not None
    suit = trump.suit_index(view.lead[0])
    led = [c for c in view.hand if trump.suit_index(c) == suit]
    if not led or len(led) == len(view.hand):
        return None
    return seat, view


async def test_pick_lists_show_what_the_lead_forces(tmp_path: Path) -> None:
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4)
        await w.start()
        checked = 0
        for _ in range(200):
            match = await w.match()
            if match.hand_no > 1 or match.phase is Phase.BETWEEN_HANDS or checked == 3:
                break  # three follows checked: the rest of the hand checks nothing
            found = await follower(w)
            if found is not None and checked < 3:
                seat, view = found
                user = await w.user_of(seat)
                panel = w.dm_panel(user)
                assert find(panel, "quick") is components(panel)[0]  # Quick plays first
                trump = view.public.trump
                suit = trump.suit_index(view.lead[0])
                led = [c for c in view.hand if trump.suit_index(c) == suit]
                named = [s for s in card_selects(panel) if "the led suit" in s.placeholder]
                assert named, [s.placeholder for s in card_selects(panel)]
                shown = {Card.parse(o.value.split(".")[0]) for s in named for o in s.options}
                assert set(led) <= shown  # the led suit's list says so
                starred = {Card.parse(o.value.split(".")[0]) for s in card_selects(panel)
                           for o in s.options if o.label.startswith("★")}
                assert starred == (set(led) if len(led) <= len(view.lead) else set())
                # Pick a card of another suit: illegal while the led suit is held.
                other = next(c for c in view.hand if trump.suit_index(c) != suit)
                select = next(s for s in card_selects(panel)
                              if any(o.value == str(other) for o in s.options))
                await user.user.select(panel, [str(other)], custom_id=select.custom_id)
                panel = w.dm_panel(user)
                play = find(panel, "play")
                if len(view.lead) == 1:
                    assert play.disabled and "not allowed" in play.label
                    assert "follow" in panel.content.lower() or "R8" in panel.content
                await user.user.click(panel, custom_id=find(panel, "clear").custom_id)
                checked += 1
            doc = await w.doc()
            humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
            await by_panel(w, humans[0])
        assert checked > 0
