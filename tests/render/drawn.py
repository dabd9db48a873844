"""What a renderer draws: the words passed to one of its drawing functions, spied on."""

from __future__ import annotations

from typing import Any

import pytest


def drawn_words(monkeypatch: pytest.MonkeyPatch, module: Any, name: str = "text") -> list[str]:
    """Every value `module.name(draw, xy, value, ...)` is called with from now on, in order
    (the list fills as the module draws; clear it between pictures)."""
    drawn: list[str] = []
    real = getattr(module, name)

    def spy(draw: Any, xy: Any, value: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(value)
        return real(draw, xy, value, *args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return drawn
