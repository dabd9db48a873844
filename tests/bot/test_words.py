"""Words that mean what they say (issue 12, items 8 and 10): a follow is never called a
throw; the bury panel counts the cards it lists; help lists every registered command."""

from __future__ import annotations

from pathlib import Path

from botkit import by_panel, reply_texts, seats_to_act, world
from discord import app_commands

from bot.features import ALIAS_KEY
from bot.i18n import t
from bot.present.text import shape_word
from engine.cards import parse_cards
from engine.game import Phase
from engine.trump import Trump
from engine.units import shape_of


def test_only_a_lead_of_several_units_is_a_throw() -> None:
    trump = Trump.parse("2S")
    cards = parse_cards("AH AH KH")
    assert shape_of(cards, trump) == "throw"
    assert shape_of(cards, trump, leading=False) == "mixed"
    assert shape_of(parse_cards("AH AH"), trump, leading=False) == "pair"


def test_triples_and_quadruples_have_words_of_their_own() -> None:
    """With three or four decks (F2) a triple is called a triple, not "mixed"."""
    trump = Trump.parse("2S")
    for cards, shape, words in [("AH AH AH", "triple", ("Triple", "三张", "三張")),
                                ("AH AH AH AH", "quad", ("Quadruple", "四张", "四張")),
                                ("AH AH AH KH KH KH", "tractor", ("Tractor", "拖拉机", "拖拉機"))]:
        assert shape_of(parse_cards(cards), trump) == shape
        said = tuple(shape_word(shape, locale) for locale in ("en", "zh-CN", "zh-TW"))
        assert said == words
    assert shape_word("mixed", "en") == t("shape.mixed", "en")


async def test_bury_panel_counts_what_it_lists_and_help_lists_every_command(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4, turn_timer=0)
        result = await w.users[0].slash(w.channel, "tractor help")
        text = "\n".join(reply_texts(result))
        names = [c.qualified_name for c in w.bot.tractor_group.walk_commands()
                 if not isinstance(c, app_commands.Group) and not c.extras.get(ALIAS_KEY)]
        assert len(names) >= 20 and "tractor records stats" in names
        for name in names:
            assert f"/{name}`" in text, name
        # Grouped commands: the new name and the name players already type both work.
        assert len(w.bot.tractor_group.commands) <= 25
        for name in ("tractor records stats", "tractor stats"):
            result = await w.users[0].slash(w.channel, name)
            assert result.response is not None and result.response.embeds, name
        await w.start()
        for _ in range(200):
            match = await w.match()
            if match.phase is Phase.BURYING:
                break
            await by_panel(w, seats_to_act(match)[0])
        starter = seats_to_act(await w.match())[0]
        panel = w.dm_panel(await w.user_of(starter))
        assert "Your hand (33)" in panel.content, panel.content[:300]


def test_the_decks_option_says_what_zero_means() -> None:
    """Issue 38: "Decks: 0 (0: by players)". Zero decks reads as what it is, the others as
    the number."""
    from bot.core.options import OPTIONS, options_text
    from bot.i18n import SUPPORTED

    decks = OPTIONS["decks"]
    assert decks.line(0, "en") == "Decks: by players (2 for 4–5, 3 for 6–7, 4 for 8)"
    assert decks.line(3, "en") == "Decks: 3"
    for locale in SUPPORTED:
        assert "0" not in decks.line(0, locale).replace("0 ", "")
        assert "(0" not in options_text({}, locale) and "（0" not in options_text({}, locale)
    assert OPTIONS["throw_penalty"].line(0, "en") == "Failed throw penalty: 0 per card"


def test_a_fixed_trump_table_shows_its_trump_before_the_first_deal() -> None:
    """Issue 38: the waiting picture of a fixed-trump table said "Trump not set"."""
    from bot.render import ENGLISH
    from bot.render.board import shown_trump
    from bot.render.draw import trump_parts
    from engine.cards import Suit
    from engine.game import Match
    from engine.rules import RuleSet

    for fixed, suit in (("H", Suit.HEARTS), ("NT", None)):
        view = Match.new(RuleSet(fixed_trump=fixed)).public_view()
        assert view.trump is None and view.hand_no == 0
        trump = shown_trump(view)
        assert trump is not None and trump.suit is suit
        assert ENGLISH.trump_not_set not in trump_parts(trump, ENGLISH)
    assert shown_trump(Match.new(RuleSet()).public_view()) is None
