"""`Components` (the bot's sent components without a `ui.View` per message) lays items out
exactly as `ui.View` does, and refuses what View refuses."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import ui

from bot.ui.components import Components, button, link_button, select
from bot.ui.ids import ComponentId


def _items() -> list[ui.Item[Any]]:
    def cid(verb: str, extra: str = "0") -> ComponentId:
        return ComponentId(7, 1, 3, verb, extra)

    options = [discord.SelectOption(label=f"c{i}", value=f"v{i}") for i in range(5)]
    return [
        button(cid("play"), label="Play", row=4),
        select(cid("sel", "0.1"), options=options, max_values=5, row=1),
        button(cid("clear"), label="Clear"),  # no row: the first row with room
        select(cid("quick"), options=options[:2], row=0),
        link_button("Table", "https://discord.com/channels/1/2/3", row=4),
        button(cid("hint"), label="Hint", disabled=True),
    ]


def test_same_payload_as_view() -> None:
    async def both() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        view = ui.View(timeout=None)
        for item in _items():
            view.add_item(item)
        return view.to_components(), Components(_items()).to_components()

    expected, got = asyncio.run(both())
    assert got == expected
    assert [len(row["components"]) for row in got] == [1, 2, 1, 2]


def test_full_row_and_too_many_items_refused() -> None:
    cid = ComponentId(7, 1, 3, "play", "0")
    with pytest.raises(ValueError):
        Components([button(cid, label=str(i), row=0) for i in range(6)])
    with pytest.raises(ValueError):
        Components([button(cid, label=str(i)) for i in range(26)])


def test_nothing_for_the_view_store() -> None:
    cid = ComponentId(7, 1, 3, "play", "0")
    components = Components([button(cid, label="Play")])
    assert components.__discord_ui_view__ and not components.is_dispatchable()
    assert not components.is_finished() and not components.has_components_v2()


def test_discord_py_never_dispatches_a_click_to_the_item() -> None:
    """Clicks are served by `ComponentRouter.dispatch` alone: discord.py's dynamic-item
    dispatch (``fullmatch`` on the template) must never fire, or a click would run twice."""
    from bot.ui.components import TractorItem

    for custom_id in ("tr:7:1:3:play:0", "rec:1:2", "tr:", "tr:x" * 30):
        assert TractorItem.__discord_ui_compiled_template__.fullmatch(custom_id) is None
    assert TractorItem.__discord_ui_compiled_template__.match("tr:7:1:3:play:0")


def test_a_disabled_button_is_grey_in_every_panel() -> None:
    """Issue 38: disabled buttons were drawn green (Bury, Play), as if pressable. Every
    disabled button of every seeded panel and table message, in every phase, is grey."""
    import json

    from panel_golden import panel, table
    from panel_positions import positions

    from bot.ui import rows

    assert rows.button("x", "Bury", style=rows.SUCCESS, disabled=True)["style"] == rows.SECONDARY
    assert rows.button("x", "Bury", style=rows.SUCCESS)["style"] == rows.SUCCESS
    disabled = 0
    for n, position in enumerate(positions()):
        if n % 7:  # a sample of every phase is enough
            continue
        for _, wire in (panel(position, "en"), table(position.doc, "en")):
            for row in json.loads(wire) or []:
                for item in row["components"]:
                    if item["type"] == 2 and item.get("disabled"):
                        disabled += 1
                        assert item["style"] == rows.SECONDARY, item
    assert disabled
    cid = ComponentId(7, 1, 3, "bury")
    item = button(cid, label="Bury", style=discord.ButtonStyle.success, disabled=True)
    assert item.item.style is discord.ButtonStyle.secondary  # type: ignore[attr-defined]
