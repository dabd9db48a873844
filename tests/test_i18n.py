"""The message catalog: complete in every language, consistent placeholders, locale mapping
and the slash-command Translator (bot/i18n)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from discord import app_commands
from discord.app_commands import (
    TranslationContext,
    TranslationContextLocation,
    TranslationContextTypes,
)

from bot.i18n import (
    LOCALES_DIR,
    SUPPORTED,
    TractorTranslator,
    lstr,
    messages,
    resolve_locale,
    t,
    tn,
)
from engine.reasons import ENGLISH

KEY_RE = re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+)+")
DISCORD_TEXT_LIMIT = 100  # command/option descriptions and choice names


def po_path(lang: str) -> Path:
    return LOCALES_DIR / lang / "LC_MESSAGES" / "tractor.po"


def raw_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fh:
        return read_po(fh, abort_invalid=True)


def entries(lang: str) -> dict[str, str]:
    """Every non-header entry of a .po file as written, empty or fuzzy ones included."""
    out: dict[str, str] = {}
    for m in raw_catalog(lang):
        if m.id:
            assert isinstance(m.id, str), f"{lang}: plural entry {m.id!r}: use a .one key"
            assert isinstance(m.string, str)
            out[m.id] = m.string
    return out


def placeholders(text: str) -> set[str]:
    """Named ``str.format`` fields of a template; rejects positional ones."""
    names: set[str] = set()
    for _, field, spec, _ in string.Formatter().parse(text):
        if field is None:
            continue
        root = re.split(r"[.\[]", field, maxsplit=1)[0]
        assert root and not root.isdigit(), f"positional placeholder in {text!r}"
        names.add(root)
        if spec:
            names |= placeholders(spec)
    return names


ALL_KEYS = sorted(set().union(*(entries(lang) for lang in SUPPORTED)))


# ---- the .po files ----------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_po_file_has_no_duplicates_obsolete_or_fuzzy_header(lang: str) -> None:
    text = po_path(lang).read_text(encoding="utf-8")
    ids = re.findall(r'^msgid "(.*)"$', text, flags=re.MULTILINE)
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"{lang}: duplicate msgids {dupes}"
    assert "\n#~" not in text, f"{lang}: obsolete (#~) entries left in the file"
    catalog = raw_catalog(lang)
    assert not catalog.fuzzy, f"{lang}: the header entry is marked fuzzy"
    assert not catalog.obsolete


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_fuzzy_or_empty_translations(lang: str) -> None:
    fuzzy = sorted(str(m.id) for m in raw_catalog(lang) if m.id and m.fuzzy)
    empty = sorted(k for k, v in entries(lang).items() if not v.strip())
    assert not fuzzy, f"{lang}: fuzzy translations {fuzzy}"
    assert not empty, f"{lang}: empty translations {empty}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_key_is_in_every_language(lang: str) -> None:
    missing = sorted(set(ALL_KEYS) - set(entries(lang)))
    assert not missing, f"{lang}/LC_MESSAGES/tractor.po lacks {missing}"
    # What the runtime loads is exactly what is in the file.
    assert set(messages(lang)) == set(ALL_KEYS)


def test_keys_are_dotted_lowercase_names() -> None:
    bad = [k for k in ALL_KEYS if not KEY_RE.fullmatch(k)]
    assert not bad, f"keys must look like 'area.what': {bad}"


@pytest.mark.parametrize("key", ALL_KEYS)
def test_placeholders_agree_across_languages(key: str) -> None:
    # A key missing in some language is test_every_key_is_in_every_language's failure.
    found = {lang: placeholders(messages(lang)[key]) for lang in SUPPORTED if key in messages(lang)}
    assert len({frozenset(v) for v in found.values()}) == 1, f"{key}: {found}"


@pytest.mark.parametrize("key", ALL_KEYS)
def test_every_text_formats(key: str) -> None:
    for lang in SUPPORTED:
        text = messages(lang).get(key, "")
        values = dict.fromkeys(placeholders(text), "x")
        text.format(**values)  # raises on a stray brace or a bad field


def test_plural_variants_have_a_base_key() -> None:
    orphans = [k for k in ALL_KEYS if k.endswith(".one") and k.removesuffix(".one") not in ALL_KEYS]
    assert not orphans


@pytest.mark.parametrize("lang", SUPPORTED)
def test_command_texts_fit_discord_limits(lang: str) -> None:
    too_long = {
        k: v
        for k, v in messages(lang).items()
        if k.startswith(("cmd.", "choice.")) and len(v) > DISCORD_TEXT_LIMIT
    }
    assert not too_long


# ---- vocabulary the players use ---------------------------------------------------

VOCABULARY = {
    # key: (简体中文, 繁體中文)
    "term.level": ("级", "級"),
    "term.trump": ("主", "主"),
    "term.declare": ("亮主", "亮主"),
    "term.overturn": ("反主", "反主"),
    "term.kitty": ("底牌", "底牌"),
    "term.bury": ("扣底", "扣底"),
    "term.tractor": ("拖拉机", "拖拉機"),
    "term.throw": ("甩牌", "甩牌"),
    "term.declarers": ("庄家", "莊家"),
    "term.opponents": ("闲家", "閒家"),
    "term.point_takers": ("抓分方", "抓分方"),
    "term.starter": ("庄", "莊"),
    "term.big_joker": ("大王", "大王"),
    "term.small_joker": ("小王", "小王"),
    "term.pair": ("对子", "對子"),
    "term.single": ("单张", "單張"),
    "term.points": ("分", "分"),
    "term.pass_declare": ("不亮", "不亮"),
    "term.pass": ("过", "過"),
    "term.triple": ("三张", "三張"),
    "term.quad": ("四张", "四張"),
}


@pytest.mark.parametrize("key", sorted(VOCABULARY))
def test_game_vocabulary(key: str) -> None:
    hans, hant = VOCABULARY[key]
    assert t(key, "zh-CN") == hans
    assert t(key, "zh-TW") == hant
    assert t(key, "en-US") not in (hans, hant)


# ---- the engine's rulings (engine/reasons.py) ------------------------------------

CITATION = re.compile(r"\(R\d+\)")


@pytest.mark.parametrize("key", sorted(ENGLISH))
def test_every_engine_ruling_is_in_the_catalog(key: str) -> None:
    """Each ruling key has ``engine.<key>`` in every language, with the English text of
    the engine, the same placeholders and the same rule citations."""
    entry = f"engine.{key}"
    for lang in SUPPORTED:
        assert entry in messages(lang), f"{lang}/LC_MESSAGES/tractor.po lacks {entry}"
    assert messages("en")[entry] == ENGLISH[key], "English must say what the engine says"
    base = ENGLISH[key.removesuffix(".one")]
    for lang in SUPPORTED:
        text = messages(lang)[entry]
        assert placeholders(text) == placeholders(ENGLISH[key]), (lang, text)
        assert placeholders(text) <= placeholders(base) | {"count"}, (lang, text)
        assert CITATION.findall(text) == CITATION.findall(ENGLISH[key]), (lang, text)


def test_engine_catalog_keys_are_rulings() -> None:
    stray = sorted(k for k in ALL_KEYS if k.startswith("engine.")
                   and k.removeprefix("engine.") not in ENGLISH)
    assert not stray, f"engine.* keys that engine/reasons.py does not define: {stray}"


# ---- locale mapping and lookups ---------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (discord.Locale.chinese, "zh_Hans"),
        (discord.Locale.taiwan_chinese, "zh_Hant"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.japanese, "en"),
        ("zh-CN", "zh_Hans"),
        ("zh-TW", "zh_Hant"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("en", "en"),
        ("zh_Hans", "zh_Hans"),
        ("zh_Hant", "zh_Hant"),
        ("zh", "zh_Hans"),
        ("zh-HK", "zh_Hant"),
        ("zh_TW.UTF-8", "zh_Hant"),
        ("zh-Hant-TW", "zh_Hant"),
        ("zh-Hans-SG", "zh_Hans"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_resolve_locale(value: str | discord.Locale | None, expected: str) -> None:
    assert resolve_locale(value) == expected


def test_only_the_chinese_discord_locales_are_chinese() -> None:
    chinese = {loc for loc in discord.Locale if resolve_locale(loc) != "en"}
    assert chinese == {discord.Locale.chinese, discord.Locale.taiwan_chinese}


def test_t_formats_and_falls_back_to_english() -> None:
    assert t("table.waiting_for", "en-US", player="Alice") == "Waiting for Alice"
    assert t("table.waiting_for", "zh-CN", player="小明") == "等待 小明"
    assert t("table.waiting_for", "xx-YY", player="Bob") == "Waiting for Bob"
    assert t("table.waiting_for", None, player="{Bob}") == "Waiting for {Bob}"
    assert t("term.kitty", discord.Locale.taiwan_chinese) == "底牌"


def test_t_rejects_unknown_keys_and_missing_placeholders() -> None:
    with pytest.raises(KeyError, match=r"no\.such_key"):
        t("no.such_key", "en")
    with pytest.raises(KeyError, match="player"):
        t("table.waiting_for", "en")


def test_tn_picks_the_singular() -> None:
    assert tn("table.cards_left", 1, "en") == "1 card left"
    assert tn("table.cards_left", 25, "en-GB") == "25 cards left"
    assert tn("table.cards_left", 1, "zh-TW") == "剩 1 張"
    assert tn("table.cards_left", 0, "zh-CN") == "剩 0 张"


def test_unknown_catalog_name_is_an_error() -> None:
    with pytest.raises(ValueError):
        messages("fr")


# ---- the slash-command Translator -------------------------------------------------


def ctx(location: TranslationContextLocation) -> TranslationContextTypes:
    """A context as discord.py builds one (the Translator only reads ``location``)."""
    made: TranslationContextTypes = TranslationContext(location=location, data=None)  # type: ignore[call-overload]
    return made


async def test_translator_localizes_keyed_strings() -> None:
    translator = TractorTranslator()
    await translator.load()
    desc = app_commands.locale_str("Open a table", key="cmd.new.desc")
    where = ctx(TranslationContextLocation.command_description)
    assert await translator.translate(desc, discord.Locale.chinese, where) == "开一桌"
    assert await translator.translate(desc, discord.Locale.taiwan_chinese, where) == "開一桌"
    # English and languages without a catalog use the default text.
    assert await translator.translate(desc, discord.Locale.american_english, where) is None
    assert await translator.translate(desc, discord.Locale.british_english, where) is None
    assert await translator.translate(desc, discord.Locale.french, where) is None
    option = ctx(TranslationContextLocation.parameter_description)
    player = app_commands.locale_str("x", key="cmd.stats.player.desc")
    assert await translator.translate(player, discord.Locale.chinese, option) is not None


async def test_translator_leaves_names_and_unkeyed_strings_alone() -> None:
    translator = TractorTranslator()
    keyed = app_commands.locale_str("new", key="cmd.new.desc")
    for location in (
        TranslationContextLocation.command_name,
        TranslationContextLocation.group_name,
        TranslationContextLocation.parameter_name,
    ):
        assert await translator.translate(keyed, discord.Locale.chinese, ctx(location)) is None
    plain = app_commands.locale_str("Open a table")
    where = ctx(TranslationContextLocation.command_description)
    assert await translator.translate(plain, discord.Locale.chinese, where) is None
    unknown = app_commands.locale_str("?", key="cmd.no_such.desc")
    assert await translator.translate(unknown, discord.Locale.chinese, where) is None


async def test_translator_in_a_command_payload() -> None:
    """End to end through discord.py: the payload Discord receives for a command."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    group = app_commands.Group(name="tractor", description=lstr("cmd.tractor.desc"))

    @group.command(name="stats", description=lstr("cmd.stats.desc"))
    @app_commands.describe(player=lstr("cmd.stats.player.desc"))
    async def stats(interaction: discord.Interaction, player: discord.Member | None) -> None:
        raise AssertionError("not called")

    tree.add_command(group)
    payload = await group.get_translated_payload(tree, TractorTranslator())
    assert payload["name"] == "tractor"
    assert payload.get("name_localizations") in (None, {})
    assert payload["description"] == t("cmd.tractor.desc", "en")
    assert payload["description_localizations"] == {
        "zh-CN": t("cmd.tractor.desc", "zh-CN"),
        "zh-TW": t("cmd.tractor.desc", "zh-TW"),
    }
    (sub,) = payload["options"]
    assert sub["name"] == "stats"
    assert sub["description_localizations"]["zh-CN"] == "查看玩家战绩"
    (opt,) = sub["options"]
    assert opt["name"] == "player"
    assert opt.get("name_localizations") in (None, {})
    assert opt["description"] == "The player to look up (you if empty)"
    assert opt["description_localizations"]["zh-TW"] == "要查看的玩家（預設是你）"


# ---- the shipped font covers the catalog ------------------------------------------

FONTS_DIR = Path(__file__).resolve().parents[1] / "assets" / "fonts"


def test_shipped_font_covers_every_catalog_character() -> None:
    """Any message may end up drawn on a table image with the subset font."""
    covered = set((FONTS_DIR / "charset.txt").read_text(encoding="utf-8").strip("\n"))
    used = {c for lang in SUPPORTED for text in messages(lang).values() for c in text}
    missing = sorted(c for c in used if c not in covered and c != "\n")
    assert not missing, f"not in assets/fonts (rerun make_subset.py with them): {missing}"


@pytest.mark.parametrize("weight", ["Regular", "Bold"])
def test_shipped_font_loads(weight: str) -> None:
    from PIL import ImageFont

    font = ImageFont.truetype(str(FONTS_DIR / f"NotoSansCJKsc-{weight}-subset.otf"), 24)
    assert font.getbbox("大王 小王 主 庄 龍 Alice ♠")[2] > 100


PERSON = re.compile(r"\{(player|name|who|starter|partner|by|winner|leader)\}")
AGREES = re.compile(r"\{(player|name|who|starter|partner|by|winner|leader)\}"
                    r"('s\b| (is|has|was|does|[a-z]+s)\b)")


def test_any_name_reads_right_in_english() -> None:
    """A player's name is never the subject of a verb in the third person, never given an
    ``'s`` and never referred back to as they/them: the local player is "You", so "You
    calls friends… You's side" (issue 31 item 8). Chinese has no such agreement."""
    wrong = []
    for key, text in messages("en").items():
        if AGREES.search(text) or (PERSON.search(text) and re.search(
                r"\b(they|them|their)\b", text)):
            wrong.append(f"{key}: {text}")
    assert wrong == []
    assert t("announce.friends_called", "en", player="You", calls="the 1st A♥") == (
        "Friends called by You: the 1st A♥. Whoever plays a called card joins the starter's "
        "side.")
