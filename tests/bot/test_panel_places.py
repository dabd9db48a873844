"""The hand panel keeps its components in their places (issue 38 item 1): while the
others play and when the turn comes round, the same components sit in the same rows —
Quick plays on top, the card selects in the hand's order, the same buttons — enabled,
disabled and relabelled, never added, removed or moved. A list opened while the
computers play is the same list when the turn comes (the page keeps a list open by its
place)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import World, by_panel, seats_to_act, world

from bot.services.autopilot import TAKE_BACK_WINDOW
from engine.game import Phase


def places(panel: Any) -> list[list[str]]:
    """What sits where on a panel: each row's components, by kind and verb (a link by its
    kind alone)."""
    def place(item: Any) -> str:
        verb = (getattr(item, "custom_id", None) or "link").split(":")[4:5]
        return f"{type(item).__name__}:{verb}"

    return [[place(item) for item in row.children] for row in panel.components]


async def play_on(w: World, seat: int, waiting: dict[int, list[list[str]]],
                  seen: list[tuple[str, list[list[str]], list[list[str]]]]) -> None:
    """`seat`'s turn: compare its panel with the one it had while waiting (same hand),
    then play with it and keep the panel it waits with."""
    user = await w.user_of(seat)
    match = await w.match()
    if match.phase is Phase.PLAYING and seat in waiting:
        seen.append((f"hand {match.hand_no} {len(match.view_for(seat).hand)} cards",
                     waiting.pop(seat), places(w.dm_panel(user))))
    await by_panel(w, seat)
    await w.bot.publisher.idle()
    after = await w.match()
    if after.phase is Phase.PLAYING and after.public_view().turn != seat:
        waiting[seat] = places(w.dm_panel(user))


@pytest.mark.parametrize("take_backs", [False, True])
async def test_the_turn_coming_round_moves_no_component(tmp_path: Path,
                                                        take_backs: bool) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2, **({"take_backs": True} if take_backs else {}))
        await w.start()
        waiting: dict[int, list[list[str]]] = {}
        seen: list[tuple[str, list[list[str]], list[list[str]]]] = []
        for _ in range(300):
            match = await w.match()
            going = (Phase.DECLARING, Phase.BURYING, Phase.PLAYING)
            if match.hand_no > 1 or match.phase not in going or len(seen) >= 8:
                break
            doc = await w.doc()
            humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
            if not humans:  # a computer waits while a person may still take back (R12)
                await w.env.advance_time(TAKE_BACK_WINDOW)
                continue
            await play_on(w, humans[0], waiting, seen)
        assert len(seen) >= 8, seen
        moved = [(when, before, now) for when, before, now in seen if before != now]
        assert not moved, moved[0]
        quick = seen[0][2][0]
        assert quick == ["SelectMenu:['quick']"], seen[0]  # Quick plays on top, always
        buttons = seen[0][2][-1]
        assert ("Button:['takeback']" in buttons) is take_backs, buttons
