"""The router's ``answer`` acknowledgement (card picks): the handler answers the click with
the redrawn panel (one call); a handler that has not begun answering within
`ANSWER_WITHIN` seconds has the click deferred by the router, and then edits the panel;
a refusal waits for that deferral and follows it up, once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

from botkit import reply_texts
from test_publish_pictures import alice_to_play, panel_item, pick_first

from bot.core.errors import UserFacingError
from bot.i18n import t
from bot.ui.components import ANSWER_WITHIN


def kinds(calls: list[Any]) -> list[tuple[str, str]]:
    return [(c.method, c.path.split("/")[1]) for c in calls]


async def test_every_card_pick_is_one_call(tmp_path: Path) -> None:
    async with alice_to_play(tmp_path) as (w, alice):
        verbs = w.bot.app.router._verbs
        assert {v: verbs[v].ack for v in ("sel", "quick", "clear", "refresh")} == dict.fromkeys(
            ("sel", "quick", "clear", "refresh"), "answer")
        tried = []
        for verb in ("sel", "quick", "clear", "refresh"):
            panel = w.dm_panel(alice)
            item = panel_item(w, alice, verb)
            if item is None:  # not on this panel (a lead has no quick picks)
                continue
            tried.append(verb)
            mark = len(w.env.http_requests)
            if verb in ("sel", "quick"):
                await alice.user.select(panel, [item.options[0].value], custom_id=item.custom_id)
            else:
                await alice.user.click(panel, custom_id=item.custom_id)
            calls = w.env.http_requests[mark:]
            assert kinds(calls) == [("POST", "interactions")], (verb, kinds(calls))
            assert calls[0].json["type"] == 7, verb
        assert {"sel", "clear"} <= set(tried), tried
        assert not w.env.errors, w.env.errors


async def test_a_slow_pick_is_deferred_in_time_then_edited(tmp_path: Path) -> None:
    async with alice_to_play(tmp_path) as (w, alice):
        router = w.bot.app.router
        verb = router._verbs["sel"]

        async def slow(interaction: Any, cid: Any, values: list[str]) -> None:
            await asyncio.sleep(1)  # the database is slow today
            await verb.handler(interaction, cid, values)

        router._verbs["sel"] = replace(verb, handler=slow)
        panel = w.dm_panel(alice)
        select = panel_item(w, alice, "sel")
        mark = len(w.env.http_requests)
        await alice.user.select(panel, [select.options[0].value], custom_id=select.custom_id)
        assert w.env.http_requests[mark:] == []  # not answered yet, nor deferred
        await w.env.advance_time(ANSWER_WITHIN + 0.01)
        calls = w.env.http_requests[mark:]
        assert kinds(calls) == [("POST", "interactions")]
        assert calls[0].json["type"] == 6  # the late deferral
        await w.env.advance_time(1)
        calls = w.env.http_requests[mark:]
        assert kinds(calls) == [("POST", "interactions"), ("PATCH", "webhooks")]
        assert calls[1].path.endswith("/messages/@original")
        assert "Selected:" in w.dm_panel(alice).content
        assert not w.env.errors, w.env.errors


async def test_a_refusal_after_the_late_deferral_follows_it_up_once(tmp_path: Path) -> None:
    async with alice_to_play(tmp_path) as (w, alice):
        router = w.bot.app.router
        verb = router._verbs["clear"]

        async def refused(interaction: Any, cid: Any, values: list[str]) -> None:
            await asyncio.sleep(1)
            raise UserFacingError("error.no_match")

        router._verbs["clear"] = replace(verb, handler=refused)
        await pick_first(w, alice)  # Clear is pressable with a card picked
        panel = w.dm_panel(alice)
        item = panel_item(w, alice, "clear")
        mark = len(w.env.http_requests)
        result = await alice.user.click(panel, custom_id=item.custom_id)
        await w.env.advance_time(ANSWER_WITHIN + 1)
        calls = w.env.http_requests[mark:]
        assert kinds(calls) == [("POST", "interactions"), ("POST", "webhooks")]
        assert calls[0].json["type"] == 6
        assert calls[1].json.get("flags") == 64  # the refusal: ephemeral, once
        assert w.dm_panel(alice).id == panel.id
        refusal = t("error.no_match", "en")
        assert [x for x in reply_texts(result) if refusal in x] == [refusal]
        assert not w.env.errors, w.env.errors


async def test_a_quick_refusal_is_acknowledged_first(tmp_path: Path) -> None:
    """A refusal before the handler began answering: deferred (as every verb is) and
    followed up, with nothing left to fire later."""
    async with alice_to_play(tmp_path) as (w, alice):
        router = w.bot.app.router

        async def refused(interaction: Any, cid: Any, values: list[str]) -> None:
            raise UserFacingError("error.no_match")

        router._verbs["clear"] = replace(router._verbs["clear"], handler=refused)
        await pick_first(w, alice)  # Clear is pressable with a card picked
        panel = w.dm_panel(alice)
        item = panel_item(w, alice, "clear")
        mark = len(w.env.http_requests)
        result = await alice.user.click(panel, custom_id=item.custom_id)
        await w.env.advance_time(ANSWER_WITHIN * 4)
        calls = w.env.http_requests[mark:]
        assert kinds(calls) == [("POST", "interactions"), ("POST", "webhooks")]
        assert calls[0].json["type"] == 6
        refusal = t("error.no_match", "en")
        assert [x for x in reply_texts(result) if refusal in x] == [refusal]
        assert not w.env.errors, w.env.errors


async def test_a_card_pick_builds_nothing_from_discords_answer(tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    """The answer's reply is read for its attachment only: no callback response and no
    message are built from it (a panel with four selects costs a few hundred µs to parse)."""
    import discord.interactions

    built: list[Any] = []
    original = discord.interactions.InteractionCallbackResponse._update

    def counting(self: Any, data: Any) -> None:
        built.append(data)
        original(self, data)

    monkeypatch.setattr(discord.interactions.InteractionCallbackResponse, "_update", counting)
    async with alice_to_play(tmp_path) as (w, alice):
        panel = w.dm_panel(alice)
        item = panel_item(w, alice, "sel")
        assert item is not None
        built.clear()  # the setup's commands
        await alice.user.select(panel, [item.options[0].value], custom_id=item.custom_id)
        assert w.dm_panel(alice).components != panel.components  # the pick is shown
        assert not built
        assert not w.env.errors, w.env.errors
