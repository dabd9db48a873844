"""THE registry of table options (R12), built from the engine's `RuleSet` (Discord-free).

Each option is declared once: its `RuleSet` field, kind, the values the lobby's selects
offer, the ``/tractor new`` parameter (None: not settable there), and its catalog keys
(``option.<name>`` the line in the options list, ``option.<name>.name`` its title,
``choice.<name>.<value>`` a choice's label, ``cmd.new.<command>.desc`` the parameter's
description). ``/tractor new``, ``/tractor rules``, the lobby's options selects, help and
the table message all read it. The default and the validation are the engine's.

Adding an option: add the field to `engine.rules.RuleSet` (default and validation), one
`Option` line below, and its catalog keys in the three languages; plus a parameter of
``/tractor new`` (bot/features/lobby.py) if it can be set there. An option only the bot
reads (how the table is shown, not the game) is declared in `BOT_DEFAULTS` instead of the
`RuleSet`; its values are exactly its `choices`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, Literal

from bot.core.errors import UserFacingError
from bot.i18n import t
from engine.rules import RuleSet
from engine.variant import find_variant

__all__ = ["BOT_DEFAULTS", "HOUSE_RULES", "OPTIONS", "Option", "changed_options", "house_rule",
           "house_rules_help", "house_rules_line", "option_values", "options_from",
           "options_text", "parse_value", "rules_from", "rules_of", "shape_mode", "with_option"]

Kind = Literal["seconds", "number", "choice", "bool"]

BOT_DEFAULTS: dict[str, Any] = {"unseen_count": True}
"""Table options the engine never reads, with their defaults (the Tricks view's count of
unseen cards)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One table option (see the module docstring)."""

    name: str
    kind: Kind
    choices: tuple[Any, ...]
    command: str | None
    zero: str | None = None
    """The catalog key that names the value 0: a ``seconds`` option's is ``option.off``
    unless given; a ``number`` option's 0 is a number unless given (decks: by players)."""

    @property
    def default(self) -> Any:
        if self.name in BOT_DEFAULTS:
            return BOT_DEFAULTS[self.name]
        return RuleSet().to_dict()[self.name]

    def title(self, locale: str) -> str:
        return t(f"option.{self.name}.name", locale)

    def choice_key(self, value: Any) -> str:
        return f"choice.{self.name}.{str(value).lower()}"

    def label(self, value: Any, locale: str) -> str:
        """A value as players read it."""
        if self.kind == "seconds":
            return t(self.zero or "option.off", locale) if value == 0 else \
                t("option.seconds", locale, seconds=value)
        if self.kind == "bool":
            return t("option.yes" if value else "option.no", locale)
        if self.kind == "number":
            return t(self.zero, locale) if value == 0 and self.zero else str(value)
        return t(self.choice_key(value), locale)

    def line(self, value: Any, locale: str) -> str:
        return t(f"option.{self.name}", locale, value=self.label(value, locale))

    def encode(self, value: Any) -> str:
        """A value as a select option's value."""
        return str(value).lower() if self.kind == "bool" else str(value)


def _values(name: str) -> tuple[Any, ...]:
    field_type = {f.name: f.type for f in fields(RuleSet)}[name]
    enum_type = {"mode", "kitty_multiplier", "no_bid", "match_end", "must_defend", "follow",
                 "throw_ruff", "level_scoring", "fixed_trump"}
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
    Option("follow", "choice", _values("follow"), "follow"),
    Option("throw_ruff", "choice", _values("throw_ruff"), "throw_ruff"),
    Option("level_scoring", "choice", _values("level_scoring"), "level_scoring"),
    Option("fixed_trump", "choice", _values("fixed_trump"), "fixed_trump"),
    Option("take_backs", "bool", (False, True), "take_backs"),
    Option("unseen_count", "bool", (True, False), "unseen_count"),
    Option("mode", "choice", _values("mode"), "mode"),
    Option("players", "number", (4, 5, 6, 7, 8), "players"),
    Option("decks", "number", (0, 2, 3, 4), "decks", zero="option.decks_by_players"),
)}
assert set(OPTIONS) == {f.name for f in fields(RuleSet)} | set(BOT_DEFAULTS), \
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
        base = rules_of(defaults)
    except (TypeError, ValueError):
        base = RuleSet()
    try:
        return base.with_changes(**chosen)
    except (TypeError, ValueError):
        raise UserFacingError("error.bad_option") from None


def _bot_values(options: Mapping[str, Any], *, strict: bool) -> dict[str, Any]:
    """The bot-only options of `options` (defaults for missing ones; an invalid value is
    refused with ``error.bad_option`` when `strict`, else replaced by the default)."""
    values = dict(BOT_DEFAULTS)
    for name in BOT_DEFAULTS:
        if name in options:
            value = options[name]
            if value in OPTIONS[name].choices and type(value) is type(BOT_DEFAULTS[name]):
                values[name] = value
            elif strict:
                raise UserFacingError("error.bad_option")
    return values


def options_from(defaults: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """`rules_from` plus the bot-only options: every option's value of a new table."""
    rules = rules_from({k: v for k, v in defaults.items() if k not in BOT_DEFAULTS},
                       {k: v for k, v in given.items() if k not in BOT_DEFAULTS})
    return rules.to_dict() | _bot_values(defaults, strict=False) | _bot_values(
        {k: v for k, v in given.items() if k in BOT_DEFAULTS}, strict=True)


def rules_of(options: Mapping[str, Any]) -> RuleSet:
    """The engine's rules among a table's stored `options` (the bot-only ones left out)."""
    return RuleSet.from_dict({k: v for k, v in options.items() if k not in BOT_DEFAULTS})


def option_values(options: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value of a table whose stored options are `options`."""
    return rules_of(options).to_dict() | _bot_values(options, strict=False)


def with_option(options: Mapping[str, Any], name: str, value: Any) -> dict[str, Any]:
    """`options` with one option changed (``error.bad_option`` if invalid)."""
    if name not in OPTIONS:
        raise UserFacingError("error.bad_option")
    values = option_values(options)
    if name in BOT_DEFAULTS:
        return values | _bot_values({name: value}, strict=True)
    try:
        rules = rules_of(values).with_changes(**{name: value, **_implied(values, name, value)})
    except (TypeError, ValueError):
        raise UserFacingError("error.bad_option") from None
    return values | rules.to_dict()


def shape_mode(players: int | None = None, decks: int | None = None) -> str | None:
    """The mode a table's shape implies: ``friends`` when more players, or other decks, than
    the four-player game's (4 players, 2 decks; None or 0: not asked) are asked for, else
    None. THE one place the mode is inferred (``/tractor new``, an options select, local
    play's ``--seats``/``--decks``)."""
    return "friends" if (players or 4) != 4 or (decks or 2) != 2 else None


def _implied(values: Mapping[str, Any], name: str, value: Any) -> dict[str, Any]:
    """The table's shape follows one change: a mode takes the shape it plays nearest the
    table's (`Variant.fitted`: back to teams is four players and two decks); a shape the
    table's mode cannot play is the one it implies (`shape_mode`: Finding Friends)."""
    players, decks = values["players"], values["decks"]
    if name == "mode":
        players, decks = find_variant(value).fitted(players, decks)
        return {"players": players, "decks": decks}
    if name in ("players", "decks") and isinstance(value, int):
        shape = {"players": players, "decks": decks, name: value}
        implied = shape_mode(**{name: value})
        if implied is not None and find_variant(values["mode"]).table_error(**shape):
            return {"mode": implied}
    return {}


def options_text(rules: RuleSet | Mapping[str, Any], locale: str) -> str:
    """One line per option, for the lobby and ``/tractor rules`` (`rules`: a `RuleSet`, or
    a table's stored options with the bot-only ones)."""
    values = option_values(rules.to_dict() if isinstance(rules, RuleSet) else rules)
    return "\n".join(f"• {o.line(values[o.name], locale)}" for o in OPTIONS.values())


SHAPE = frozenset({"mode", "players", "decks"})
"""The options that make the table's shape (local play: ``--mode``, ``--seats``, ``--decks``)."""

HOUSE_RULES: dict[str, Option] = {o.command: o for o in OPTIONS.values()
                                  if o.command and o.name not in SHAPE}
"""The house rules by their ``/tractor new`` parameter name (``--rule NAME=VALUE``)."""

_TRUE = {"true": True, "yes": True, "on": True, "1": True,
         "false": False, "no": False, "off": False, "0": False}


def house_rule(text: str) -> tuple[Option, Any]:
    """``NAME=VALUE`` (local play's ``--rule``; NAME as ``/tractor new`` names it) as the
    option and its value. `ValueError` (one line, naming the values allowed) otherwise."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip().replace("-", "_"), raw.strip()
    option = HOUSE_RULES.get(name) or next(
        (o for o in HOUSE_RULES.values() if o.name == name), None)
    if not sep or option is None:
        raise ValueError(f"--rule {text}: say NAME=VALUE with NAME one of "
                         f"{', '.join(HOUSE_RULES)}")
    value: Any
    if option.kind == "bool":
        value = _TRUE.get(raw.lower())
    elif option.kind in ("seconds", "number"):
        value = int(raw) if raw.isdigit() else None
    else:
        value = next((v for v in option.choices
                      if option.encode(v).lower() == raw.lower()), None)
    if value is not None:
        try:
            options_from({}, {option.name: value})
        except UserFacingError:
            value = None
    if value is None:
        raise ValueError(f"--rule {text}: {option.command} takes {_allowed(option)}")
    return option, value


def _allowed(option: Option) -> str:
    if option.kind == "bool":
        return "true or false"
    if option.kind == "seconds":
        if 0 not in option.choices:
            return "a number of seconds"
        return "a number of seconds (0: " + ("off)" if option.zero is None else
                                              "no limit)")
    if option.kind == "number":
        return "a number (" + ", ".join(map(str, option.choices)) + " in the lobby)"
    return " or ".join(option.encode(v) for v in option.choices)


def house_rules_help() -> str:
    """One line per house rule for ``--help``: its name, its values, its default."""
    return "\n".join(f"  {o.command}: {_allowed(o)} (default {o.encode(o.default)})"
                      for o in HOUSE_RULES.values())


def changed_options(options: Mapping[str, Any]) -> list[Option]:
    """The options of a table (its stored `options`) whose value differs from the default,
    in the registry's order (the house rules in force: the table message shows them)."""
    values = option_values(options)
    defaults = option_values({})
    return [o for o in OPTIONS.values() if o.name not in SHAPE
            and values[o.name] != defaults[o.name]]


def house_rules_line(options: Mapping[str, Any], locale: str, *, always: bool = False) -> str:
    """The line naming every option of a table (its stored `options`) that differs from
    the default ("" when none does, unless `always`): the table message, ``/tractor
    rules``."""
    changed = changed_options(options)
    if not changed:
        return t("table.house_rules_none", locale) if always else ""
    values = option_values(options)
    return t("table.house_rules", locale,
             rules=" · ".join(o.line(values[o.name], locale) for o in changed))
