"""What players get, per seeded position (tests/bot/panel_positions.py): each hand panel's
text and components JSON, and each table message's, as discord.py sends them (the exact
bytes: key order included), digested. tests/bot/test_panel_golden.py compares them with
tests/bot/fixtures/panel_golden.json, written from the builder that used discord.ui items
(before the panels built their JSON directly). Rewrite it only for a change players are
meant to see: ``PYTHONPATH=. python tests/bot/panel_golden.py --write``
(from the checkout's root)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from panel_positions import Position, positions

from bot.core.table import TableDoc
from bot.i18n import SUPPORTED
from bot.services.players import quick_plays
from bot.ui.panels import compose_panel, table_text, table_view
from engine.game import Phase

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "panel_golden.json"


def wire(components: Any) -> str:
    """The components as discord.py writes them (``discord.utils._to_json``)."""
    rows = None if components is None else components.to_components()
    return json.dumps(rows, separators=(",", ":"), ensure_ascii=True)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:16]


def plays_for(position: Position, locale: str) -> list[Any]:
    match = position.doc.get_match()
    assert match is not None
    view = match.view_for(position.seat)
    if view.public.phase is not Phase.PLAYING or not view.to_move:
        return []
    return quick_plays(view)


def panel(position: Position, locale: str) -> tuple[str, str]:
    """One hand panel: its text and its components' JSON."""
    match = position.doc.get_match()
    assert match is not None
    view = match.view_for(position.seat)
    content, components = compose_panel(position.doc, 7, view, list(position.selected),
                                         locale, plays_for(position, locale))
    return content, wire(components)


def table(doc: TableDoc, locale: str) -> tuple[str, str]:
    """The table message in `locale`: its text and its components' JSON."""
    match = doc.get_match()
    kept, doc.locale = doc.locale, locale
    try:
        return (table_text(doc, None if match is None else match.public_view()),
                wire(table_view(doc, 7, locale)))
    finally:
        doc.locale = kept


def digests() -> dict[str, str]:
    """One digest per position (``mode/seed/step``): every seat's panel with each selection
    and the table message, in every language."""
    parts: dict[str, list[str]] = {}
    for position in positions():
        name = position.label.rsplit("/", 1)[0]
        first = name not in parts
        out = parts.setdefault(name, [])
        for locale in SUPPORTED:
            out += panel(position, locale)
            if first:
                out += table(position.doc, locale)
    return {name: _digest(*texts) for name, texts in parts.items()}


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        FIXTURE.write_text(json.dumps(digests(), indent=0) + "\n")
        print(f"wrote {FIXTURE}")
