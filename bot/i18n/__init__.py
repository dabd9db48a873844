"""The message catalog: every user-facing string, in English, 简体中文 and 繁體中文.

Use it::

    from bot.i18n import t, tn, lstr
    t("table.waiting_for", interaction.locale, player=member.mention)
    tn("table.cards_left", 3, locale)              # "3 cards left"; count=1 → .one key
    @app_commands.command(description=lstr("cmd.new.desc"))

Rules for adding a message (tests/test_i18n.py enforces them):

1. Add the same ``msgid`` to all three files ``locales/{en,zh_Hans,zh_Hant}/LC_MESSAGES/
   tractor.po``, in the same section, with a non-empty ``msgstr`` and no ``#, fuzzy`` flag.
   English is a translation like the others: the ``msgid`` is a key, never shown.
2. Keys are lowercase dotted names, ``area.what`` (``[a-z0-9_]`` parts): ``term.*`` game
   vocabulary, ``cmd.<command>[.<option>].desc`` slash-command descriptions (at most 100
   characters, Discord's limit), ``table.*``, ``button.*``, ``error.*`` and so on.
   ``engine.<key>`` are the engine's rulings: one per key of ``engine/reasons.py``'s
   ``ENGLISH`` table, whose text the English entry repeats; show them with
   ``bot.present.text.ruling_text``.
3. Texts are ``str.format`` templates with named placeholders (``{player}``), always
   formatted, so a literal brace is written ``{{`` / ``}}``. Every language uses exactly
   the same set of placeholder names for a key (order may differ).
4. An English plural is a second key ``<key>.one`` (used by ``tn`` when count == 1), present
   in every language too: Chinese just repeats the text.
5. Add a ``#.`` comment above the entry when the context is not obvious to a translator.
6. Callers escape user text (``discord.utils.escape_markdown``) before passing it in;
   messages may use Discord markdown.
7. Images draw messages with the subset font in assets/fonts: if the test reports a
   character it lacks, rerun ``assets/fonts/make_subset.py`` (see assets/README.md).

Locales: ``en`` (default and fallback), ``zh_Hans`` (Discord ``zh-CN``), ``zh_Hant``
(Discord ``zh-TW``); see ``resolve_locale``. Slash-command names stay English; the
``TractorTranslator`` localizes descriptions and choice names only.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import discord
from babel.messages.pofile import read_po
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes

__all__ = [
    "DEFAULT",
    "LOCALES_DIR",
    "NATIVE_NAMES",
    "SUPPORTED",
    "TractorTranslator",
    "lstr",
    "messages",
    "resolve_locale",
    "server_locale",
    "stored_server_language",
    "t",
    "tn",
]

SUPPORTED: Final = ("en", "zh_Hans", "zh_Hant")
DEFAULT: Final = "en"
NATIVE_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {"en": "English", "zh_Hans": "简体中文", "zh_Hant": "繁體中文"}
)
LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "tractor"

# Lowercased, "_" → "-" tags; anything not here falls back by language, then to English.
_TAGS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "zh": "zh_Hans",
        "zh-cn": "zh_Hans",
        "zh-sg": "zh_Hans",
        "zh-my": "zh_Hans",
        "zh-hans": "zh_Hans",
        "zh-tw": "zh_Hant",
        "zh-hk": "zh_Hant",
        "zh-mo": "zh_Hant",
        "zh-hant": "zh_Hant",
    }
)
# Command and option names must stay English: only these locations are localized.
_TRANSLATED_LOCATIONS: Final = frozenset(
    {
        TranslationContextLocation.command_description,
        TranslationContextLocation.group_description,
        TranslationContextLocation.parameter_description,
        TranslationContextLocation.choice_name,
        TranslationContextLocation.other,
    }
)


def resolve_locale(value: str | discord.Locale | None) -> str:
    """Map a Discord locale (``zh-CN``, ``zh-TW``, ``en-US`` …), a BCP 47 / POSIX tag
    (``zh_Hant_TW``) or a catalog name to one of ``SUPPORTED``; English otherwise."""
    if value is None:
        return DEFAULT
    if value in _RESOLVED:  # a catalog name, or a tag seen before
        return _RESOLVED[value]
    found = _resolve(value)
    if isinstance(value, str) and len(_RESOLVED) < 1000:
        _RESOLVED[value] = found
    return found


_RESOLVED: dict[str, str] = {}


def _resolve(value: str | discord.Locale) -> str:
    tag = (value.value if isinstance(value, discord.Locale) else str(value)).strip()
    tag = tag.split(".")[0].replace("_", "-").lower()  # "zh_CN.UTF-8" → "zh-cn"
    if tag in _TAGS:
        return _TAGS[tag]
    parts = tag.split("-")
    if parts[0] != "zh":
        return DEFAULT
    if "hant" in parts or any(p in ("tw", "hk", "mo") for p in parts):
        return "zh_Hant"
    return "zh_Hans"


GUILD_UNSET: Final = "en"
"""``guilds.language`` when nobody chose a server language (the column's default): public
messages then follow the server's Discord language (``Interaction.guild_locale``)."""
GUILD_ENGLISH: Final = "en-US"
"""How an explicit English server language is stored (distinct from `GUILD_UNSET`)."""


def server_locale(stored: str | None, guild_locale: str | discord.Locale | None) -> str:
    """The language of a server's public messages: its ``/tractor settings
    server_language`` when one was chosen (`stored`), else the server's Discord language."""
    if stored and stored != GUILD_UNSET:
        return resolve_locale(stored)
    return resolve_locale(guild_locale)


def stored_server_language(choice: str) -> str:
    """What to store for a chosen server language (English must differ from unset)."""
    lang = resolve_locale(choice)
    return GUILD_ENGLISH if lang == DEFAULT else lang


@functools.cache
def messages(locale: str) -> Mapping[str, str]:
    """The catalog of one of ``SUPPORTED`` as a read-only ``{key: text}`` mapping."""
    if locale not in SUPPORTED:
        raise ValueError(f"unknown catalog {locale!r}; expected one of {SUPPORTED}")
    path = LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale, domain=DOMAIN, abort_invalid=True)
    out: dict[str, str] = {}
    for message in catalog:
        # Skip the header entry (id ""), plural entries, and empty or fuzzy texts.
        if (
            isinstance(message.id, str)
            and message.id
            and isinstance(message.string, str)
            and message.string
            and not message.fuzzy
        ):
            out[message.id] = message.string
    return MappingProxyType(out)


def _lookup(key: str, locale: str) -> str:
    text = messages(locale).get(key)
    if text is None and locale != DEFAULT:
        text = messages(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"no message {key!r} in the catalog (bot/i18n/locales)")
    return text


_TEMPLATES: dict[tuple[str, str | discord.Locale | None], str] = {}
"""``(key, locale as given) → template``: a panel looks up a few dozen texts per move."""
_PLAIN: dict[tuple[str, str | discord.Locale | None], str] = {}
"""The same for texts without placeholders, formatted (``{{`` unescaped)."""
TEMPLATES_KEPT = 20_000


def _template(key: str, locale: str | discord.Locale | None) -> str:
    found = _TEMPLATES.get((key, locale))
    if found is None:
        found = _lookup(key, resolve_locale(locale))  # raises KeyError: nothing kept
        if len(_TEMPLATES) >= TEMPLATES_KEPT:
            _TEMPLATES.clear()
        _TEMPLATES[(key, locale)] = found
    return found


def t(key: str, locale: str | discord.Locale | None, /, **kw: Any) -> str:
    """The message ``key`` in ``locale`` (English if unknown), formatted with ``kw``.

    Raises ``KeyError`` for a key that is in no catalog or a placeholder not given.
    """
    if kw:
        return _template(key, locale).format(**kw)
    found = _PLAIN.get((key, locale))
    if found is None:
        found = _template(key, locale).format()  # raises KeyError: nothing kept
        if len(_PLAIN) >= TEMPLATES_KEPT:
            _PLAIN.clear()
        _PLAIN[(key, locale)] = found
    return found


def tn(key: str, count: int, locale: str | discord.Locale | None, /, **kw: Any) -> str:
    """Like ``t`` with ``count=count``, using ``<key>.one`` when ``count == 1`` and it exists."""
    one = f"{key}.one"
    chosen = one if count == 1 and one in messages(DEFAULT) else key
    return _template(chosen, locale).format(count=count, **kw)


def lstr(key: str, /, **extras: Any) -> app_commands.locale_str:
    """A ``locale_str`` for a command/option description or choice name: the English
    text from the catalog as the default, with ``key`` for ``TractorTranslator``."""
    return app_commands.locale_str(_lookup(key, DEFAULT), key=key, **extras)


class TractorTranslator(app_commands.Translator):
    """Localizes ``locale_str``s that carry ``key=...`` in their extras.

    Returns ``None`` (Discord shows the English default) for English and unsupported
    locales, for strings without a key, and for command, group and option names.
    Install it in ``setup_hook``: ``await bot.tree.set_translator(TractorTranslator())``.
    """

    async def load(self) -> None:
        for locale in SUPPORTED:
            messages(locale)

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str) or context.location not in _TRANSLATED_LOCATIONS:
            return None
        lang = resolve_locale(locale)
        if lang == DEFAULT:
            return None
        return messages(lang).get(key)
