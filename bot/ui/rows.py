"""A message's buttons and selects built as the JSON Discord gets (issue 16).

The panels are only ever serialised: building a `discord.ui` item per component (and its
``DynamicItem`` wrapper, its ``_ViewWeights`` placement) to turn it into a dict at once
cost more than the rest of a panel. These build the same dicts directly, key for key in
the order discord.py writes them (``discord.components.Button.to_dict``,
``SelectMenu.to_dict``, ``SelectOption.to_dict``), so the bytes a player's client gets are
unchanged (tests/bot/test_panel_golden.py).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DANGER", "PRIMARY", "SECONDARY", "SUCCESS", "Component", "Rows", "StaticView", "button",
           "link", "option", "select"]

Component = dict[str, Any]
PRIMARY, SECONDARY, SUCCESS, DANGER, LINK = 1, 2, 3, 4, 5
"""`discord.ButtonStyle` values."""
MAX_ROWS = 5
MAX_PER_ROW = 5


def button(custom_id: str, label: str, *, style: int = SECONDARY,
           disabled: bool = False) -> Component:
    """A button (`bot.ui.components.button`'s JSON). A disabled one is grey (secondary),
    never green or blue, which look pressable (issue 38)."""
    style = SECONDARY if disabled else style
    if label:
        return {"type": 2, "style": style, "disabled": disabled, "label": label,
                "custom_id": custom_id}
    return {"type": 2, "style": style, "disabled": disabled, "custom_id": custom_id}


def link(label: str, url: str) -> Component:
    """A link button (`bot.ui.components.link_button`'s JSON)."""
    return {"type": 2, "style": LINK, "disabled": False, "label": label, "url": url}


def option(label: str, value: str, default: bool = False,
           description: str | None = None) -> Component:
    """A select's option (`discord.SelectOption`'s JSON)."""
    if description:
        return {"label": label, "value": value, "default": default,
                "description": description}
    return {"label": label, "value": value, "default": default}


def select(custom_id: str, options: list[Component], *, placeholder: str,
           min_values: int = 1, max_values: int = 1, disabled: bool = False) -> Component:
    """A string select (`bot.ui.components.select`'s JSON); at least one option."""
    out: Component = {"type": 3, "custom_id": custom_id, "min_values": min_values,
                      "max_values": max_values, "disabled": disabled, "required": True}
    if placeholder:
        out["placeholder"] = placeholder
    out["options"] = options
    return out


class StaticView:
    """Components discord.py only serialises, given as a message's ``view``: nothing for its
    view store to keep (clicks reach `bot.ui.components.ComponentRouter` by custom id)."""

    __discord_ui_view__ = True
    __slots__ = ("timeout",)

    def __init__(self) -> None:
        self.timeout: float | None = None

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return False

    def is_dispatchable(self) -> bool:
        return False


class Rows(StaticView):
    """A message's classic components as JSON rows (a `StaticView`)."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[list[Component]]) -> None:
        """`rows`: the components of each row, top down (empty rows are left out)."""
        super().__init__()
        self.rows = [{"type": 1, "components": row} for row in rows if row]
        assert len(self.rows) <= MAX_ROWS and all(len(r) <= MAX_PER_ROW for r in rows)

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows
