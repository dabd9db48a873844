"""A click that changes only the clicker's own panel, when the router leaves its answer to
the handler, is answered with the updated panel itself (UPDATE_MESSAGE, one call) instead
of a deferral and a separate edit; one whose answer did not begin in time was deferred
(`defer_late`) and the panel is edited after, through the interaction."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from botkit import components
from test_publish_pictures import alice_to_play, panel_item, pick_first

from bot.ui.edits import defer_late


def deferred_first(w: Any) -> None:
    """Card picks deferred by the router before their handler runs (``update``)."""
    router = w.bot.app.router
    router._verbs["sel"] = replace(router._verbs["sel"], ack="update")


async def test_a_card_pick_answered_with_the_panel_is_one_call(tmp_path: Path) -> None:
    async with alice_to_play(tmp_path) as (w, alice):
        first = panel_item(w, alice, "sel").options[0].value
        calls = await pick_first(w, alice)
        assert [(c.method, c.path.split("/")[1]) for c in calls] == [("POST", "interactions")]
        assert calls[0].json["type"] == 7  # UPDATE_MESSAGE: the panel is the answer
        panel = w.dm_panel(alice)
        assert "Selected:" in panel.content, panel.content
        chosen = [o.value for c in components(panel) if ":sel:" in (c.custom_id or "")
                  for o in c.options if o.default]
        assert chosen == [first]
        assert len(panel.attachments) == 1
        assert not w.env.errors, w.env.errors


async def test_a_click_not_answered_in_time_is_deferred_then_edited(tmp_path: Path) -> None:
    async with alice_to_play(tmp_path) as (w, alice):
        router = w.bot.app.router
        verb = router._verbs["sel"]

        async def slow(interaction: Any, cid: Any, values: list[str]) -> None:
            await defer_late(interaction, 0)  # the answer did not begin in time
            await verb.handler(interaction, cid, values)

        router._verbs["sel"] = replace(verb, ack=cast(Any, "answer"), handler=slow)
        calls = await pick_first(w, alice)
        assert [(c.method, c.path.split("/")[1]) for c in calls] == [
            ("POST", "interactions"), ("PATCH", "webhooks")]
        assert calls[0].json["type"] == 6  # DEFERRED_UPDATE_MESSAGE, then the edit
        assert calls[1].path.endswith("/messages/@original")  # through the interaction
        assert "Selected:" in w.dm_panel(alice).content
        assert not w.env.errors, w.env.errors


async def test_a_deferred_pick_edits_the_dm_panel_through_the_interaction(
        tmp_path: Path) -> None:
    """A pick the router deferred first: the DM panel is then edited through the click's
    interaction (its original response), not with a channel message edit, which counts
    against the bot's global rate limit."""
    async with alice_to_play(tmp_path) as (w, alice):
        deferred_first(w)
        panel = w.dm_panel(alice)
        calls = await pick_first(w, alice)
        assert [(c.method, c.path.split("/")[1]) for c in calls] == [
            ("POST", "interactions"), ("PATCH", "webhooks")]
        assert w.dm_panel(alice).id == panel.id
        assert "Selected:" in w.dm_panel(alice).content
        assert not w.env.errors, w.env.errors


async def test_a_pick_whose_token_is_refused_edits_the_dm_panel_as_a_message(
        tmp_path: Path) -> None:
    async with alice_to_play(tmp_path) as (w, alice):
        deferred_first(w)
        w.env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=401,
                           code=50027, message="Invalid Webhook Token", times=1)
        calls = await pick_first(w, alice)
        assert [(c.method, c.path.split("/")[1]) for c in calls] == [
            ("POST", "interactions"), ("PATCH", "webhooks"), ("PATCH", "channels")]
        assert "Selected:" in w.dm_panel(alice).content
