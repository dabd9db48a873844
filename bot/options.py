"""THE registry of table options (R12), built from the engine's `RuleSet` (Discord-free).

Each option is declared once: its `RuleSet` field, kind, the values the lobby's selects
offer, the ``/tractor new`` parameter (None: not settable there), and its catalog keys
(``option.<name>`` the line in the options list, ``option.<name>.name`` its title,
``choice.<name>.<value>`` a choice's label, ``cmd.new.<command>.desc`` the parameter's
description). ``/tractor new``, ``/tractor rules``, the lobby's options selects, help and
the table message all read it. The default and the validation are the engine's.

Adding an option: add the field to `engine.rules.RuleSet` (default and validation), one
`Option` line below, and its catalog keys in the three languages; plus a parameter of
``/tractor new`` (bot/features/lobby.py) if it can be set there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, Literal

from bot.errors import UserFacingError
from bot.i18n import t
from engine.rules import RuleSet

__all__ = ["OPTIONS", "Option", "options_text", "parse_value", "rules_from"]

Kind = Literal["seconds", "number", "choice", "bool"]


@dataclass(frozen=True, slots=True)
class Option:
    """One table option (see the module docstring)."""

    name: str
    kind: Kind
    choices: tuple[Any, ...]
    command: str | None
    zero: str = "option.off"
    """The catalog key that names 0 of a ``seconds`` option."""

    @property
    def default(self) -> Any:
        return RuleSet().to_dict()[self.name]

    def title(self, locale: str) -> str:
        return t(f"option.{self.name}.name", locale)

    def choice_key(self, value: Any) -> str:
        return f"choice.{self.name}.{str(value).lower()}"

    def label(self, value: Any, locale: str) -> str:
        """A value as players read it."""
        if self.kind == "seconds":
            return t(self.zero, locale) if value == 0 else t("option.seconds", locale,
                                                             seconds=value)
        if self.kind == "bool":
            return t("option.yes" if value else "option.no", locale)
        if self.kind == "number":
            return str(value)
        return t(self.choice_key(value), locale)

    def line(self, value: Any, locale: str) -> str:
        return t(f"option.{self.name}", locale, value=self.label(value, locale))

    def encode(self, value: Any) -> str:
        """A value as a select option's value."""
        return str(value).lower() if self.kind == "bool" else str(value)


def _values(name: str) -> tuple[Any, ...]:
    field_type = {f.name: f.type for f in fields(RuleSet)}[name]
    enum_type = {"kitty_multiplier", "no_bid", "match_end", "must_defend"}
    if name in enum_type:
        default = getattr(RuleSet(), name)
        assert isinstance(default, Enum), field_type
        return tuple(member.value for member in type(default))
    raise KeyError(name)


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("turn_timer_s", "seconds", (0, 30, 60, 90, 180, 300), "turn_timer"),
    Option("declare_window_s", "seconds", (10, 15, 30, 60), "declare_window"),
    Option("ready_timeout_s", "seconds", (0, 30, 60, 120, 300), "ready_timeout",
           zero="option.no_limit"),
    Option("kitty_multiplier", "choice", _values("kitty_multiplier"), "kitty_multiplier"),
    Option("no_bid", "choice", _values("no_bid"), "no_bid"),
    Option("must_defend", "choice", _values("must_defend"), "must_defend"),
    Option("match_end", "choice", _values("match_end"), "match_end"),
    Option("no_trump_allowed", "bool", (True, False), "no_trump"),
    Option("throw_penalty", "number", (0, 5, 10, 20), "throw_penalty"),
)}
HOUSE_NOT_OFFERED = frozenset({"follow", "throw_ruff", "level_scoring", "fixed_trump",
                               "take_backs"})
"""R12 house rules from main's engine not yet offered at the table (left at their defaults)."""
assert set(OPTIONS) == {f.name for f in fields(RuleSet)} - HOUSE_NOT_OFFERED, \
    "every RuleSet field is an option"


def parse_value(option: Option, raw: str) -> Any:
    """A select's value back to the option's value (`UserFacingError` if not offered)."""
    for value in option.choices:
        if option.encode(value) == raw:
            return value
    raise UserFacingError("error.bad_option")


def rules_from(defaults: Mapping[str, Any], given: Mapping[str, Any]) -> RuleSet:
    """The options of a new table: the server's `defaults` (ignored if no longer valid),
    then the `given` ones (refused with ``error.bad_option`` when invalid). A turn timer
    under 15 s (but not off) becomes 15 s."""
    chosen = dict(given)
    timer = chosen.get("turn_timer_s")
    if isinstance(timer, int) and 0 < timer < 15:
        chosen["turn_timer_s"] = 15
    try:
        base = RuleSet.from_dict(dict(defaults))
    except (TypeError, ValueError):
        base = RuleSet()
    try:
        return base.with_changes(**chosen)
    except (TypeError, ValueError):
        raise UserFacingError("error.bad_option") from None


def options_text(rules: RuleSet, locale: str) -> str:
    """One line per option, for the lobby and ``/tractor rules``."""
    values = rules.to_dict()
    return "\n".join(f"• {o.line(values[o.name], locale)}" for o in OPTIONS.values())
