"""The hand panels and table messages players get stay exactly what they were (text and
components JSON, byte for byte) on seeded positions in every phase, in every language
(tests/bot/panel_golden.py)."""

from __future__ import annotations

import json

from panel_golden import FIXTURE, digests


def test_panels_are_what_players_got() -> None:
    expected = json.loads(FIXTURE.read_text())
    got = digests()
    assert got.keys() == expected.keys()
    changed = [name for name, digest in got.items() if expected[name] != digest]
    assert not changed, f"panels changed at {changed[:10]} ({len(changed)} positions)"
