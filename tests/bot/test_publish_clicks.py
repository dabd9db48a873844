"""A DM panel is edited through the latest click on it (its interaction's original response
is that message) while the click's token lives: interaction routes are not bound by the
bot's global rate limit, channel message edits are. When that edit is refused, the panel
is edited as a channel message, as before (and so after a restart: nothing remembered)."""

from __future__ import annotations

from pathlib import Path

from botkit import World, assert_ok, components, find, world
from simcord.actors import MemberActor
from test_publish_pictures import until_my_play


def panel_calls(w: World, mark: int, message_id: int) -> list[tuple[str, str]]:
    """The edits of one DM panel since `mark`: ("webhook", token) or ("channel", "")."""
    out = []
    for call in w.env.http_requests[mark:]:
        parts = call.path.split("/")
        if call.method == "PATCH" and call.path.endswith(f"/messages/{message_id}"):
            out.append(("channel", ""))
        elif call.method == "PATCH" and call.path.endswith("/messages/@original"):
            out.append(("webhook", parts[3]))
    return out


def tokens(w: World, mark: int) -> list[str]:
    """The tokens of the interactions answered since `mark`."""
    return [c.path.split("/")[3] for c in w.env.http_requests[mark:]
            if c.path.endswith("/callback")]


async def pick_and_play(w: World, user: MemberActor) -> tuple[int, str]:
    """Pick a card and press Play on the DM panel; the panel's id and Play's token."""
    panel = w.dm_panel(user)
    select = next(c for c in components(panel) if ":sel:" in (c.custom_id or ""))
    assert_ok(await user.user.select(panel, [select.options[0].value],
                                     custom_id=select.custom_id))
    panel = w.dm_panel(user)
    mark = len(w.env.http_requests)
    assert_ok(await user.user.click(panel, custom_id=find(panel, "play").custom_id))
    return panel.id, tokens(w, mark)[0]


async def test_the_players_panel_is_edited_through_their_click(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.open_table(1)
        await w.start()
        await until_my_play(w, alice)
        mark = len(w.env.http_requests)
        panel_id, play = await pick_and_play(w, alice)
        await w.bot.publisher.idle()
        edits = panel_calls(w, mark, panel_id)
        assert edits and all(kind == "webhook" for kind, _ in edits), edits
        assert ("webhook", play) in edits  # this move's edit: through the Play click

        # Alice's next turn: a new panel; the old one is closed through her click too.
        await until_my_play(w, alice)
        assert w.dm_panel(alice).id != panel_id
        assert all(kind == "webhook" for kind, _ in panel_calls(w, mark, panel_id))
        assert not w.env.errors, w.env.errors


async def test_a_refused_click_edit_falls_back_to_a_channel_edit(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.open_table(1)
        await w.start()
        await until_my_play(w, alice)
        w.env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=401,
                           code=50027, message="Invalid Webhook Token", times=None)
        mark = len(w.env.http_requests)
        panel_id, _ = await pick_and_play(w, alice)  # the pick, then the move's edit
        await w.bot.publisher.idle()
        edits = panel_calls(w, mark, panel_id)
        tries = [i for i, (kind, _) in enumerate(edits) if kind == "webhook"]
        assert len(tries) == 2, edits  # the pick's and the move's, each refused once
        assert all(edits[i + 1] == ("channel", "") for i in tries), edits  # then channel
        assert "Selected:" not in w.dm_panel(alice).content  # the move is shown
        assert not w.env.errors, w.env.errors
