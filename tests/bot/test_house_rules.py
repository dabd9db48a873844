"""House rules at the table (R12): set in ``/tractor new``, listed with the table's options,
changed in the lobby's selects, refused when out of range; the bot judges with the table's
rules (the panel's preview, tricks); fixed trump shown; take-backs by button and command,
across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import (
    assert_ok,
    by_panel,
    find,
    forge,
    playing,
    reply_texts,
    seats_to_act,
    world,
)
from simcord.backend.errors import OptionError

from bot.core.errors import UserFacingError
from bot.core.options import OPTIONS, option_values, options_from, rules_of, with_option
from bot.core.table import TableDoc
from bot.features.lobby import option_page, selectable
from bot.ui.panels import _selected_line
from engine.cards import parse_cards
from engine.events import TrumpHow
from engine.game import Phase
from engine.rules import Follow, RuleSet

HOUSE = {"follow": "suit_only", "throw_ruff": "highest_card", "level_scoring": "one_per_hand",
         "take_backs": True, "unseen_count": False}


@pytest.mark.parametrize(("follow", "illegal"), [(Follow.R8, True), (Follow.SUIT_ONLY, False)])
def test_the_panel_preview_judges_with_the_tables_follow_rule(follow: Follow,
                                                              illegal: bool) -> None:
    match = playing(["5S 5S 3C", "9S 9S KS QS 3D", "4C 5C 6C", "7C 8C 9C"], "2H",
                    RuleSet(follow=follow))
    from engine.actions import Play
    match, _ = match.apply(Play(0, tuple(parse_cards("5S 5S"))))
    line = _selected_line(match.view_for(1), parse_cards("KS QS"), "en")
    assert ("must play a pair" in line) is illegal, line


def test_the_registry_has_every_house_rule_with_its_values() -> None:
    for name in ("follow", "throw_ruff", "level_scoring", "fixed_trump", "take_backs",
                 "unseen_count"):
        assert OPTIONS[name].command == name
    assert OPTIONS["fixed_trump"].choices == ("none", "S", "H", "D", "C", "NT")
    values = options_from({}, HOUSE)
    assert {k: values[k] for k in HOUSE} == HOUSE
    assert option_values({})["unseen_count"] is True
    assert with_option(values, "unseen_count", True)["unseen_count"] is True
    assert rules_of(values).follow is Follow.SUIT_ONLY
    for bad in ({"follow": "r9"}, {"unseen_count": "maybe"}, {"fixed_trump": "X"}):
        with pytest.raises(UserFacingError) as refused:
            options_from({}, bad)
        assert refused.value.key == "error.bad_option"


async def test_house_rules_set_at_new_shown_and_changed(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, **HOUSE)
        doc = await w.doc()
        assert {k: doc.options[k] for k in HOUSE} == HOUSE
        text = w.table_message().content
        for line in ("Following: Suit and count only", "Ruffing a throw: Highest card only",
                     "Level scoring: One level per hand won", "Take-backs: yes",
                     "Count of unseen cards: no", "Fixed trump: None (declare)"):
            assert line in text, text
        # the lobby's option selects: the creator sets a fixed trump on its page
        alice = w.users[0]
        shown = (await alice.slash(w.channel, "tractor rules")).response
        page = find(shown, "optpage", extra=str(option_page(OPTIONS["fixed_trump"])))
        assert page is not None, [c.custom_id for r in shown.message.components
                                  for c in r.children]
        turned = await alice.click(shown, custom_id=page.custom_id)
        assert_ok(turned)
        shown = turned.response if turned.response is not None else shown
        fixed = next(c for row in shown.message.components for c in row.children
                     if (c.custom_id or "").endswith(":fixed_trump"))
        assert "Fixed trump: ♡ Hearts" in [o.label for o in fixed.options]
        assert_ok(await alice.select(shown, ["H"], custom_id=fixed.custom_id))
        assert (await w.doc()).options["fixed_trump"] == "H"
        assert "Fixed trump: ♡ Hearts" in w.table_message().content
        version = await w.version()
        refused = await alice.slash(w.channel, "tractor new", follow="suit_only")
        assert len(reply_texts(refused)) == 1 and "already" in reply_texts(refused)[0]
        assert await w.version() == version


async def test_every_lobby_select_names_its_option_and_current_value(tmp_path: Path) -> None:
    """Issue 31 item 6: on every page of the lobby's option selects, what a select shows
    (its chosen option, or its placeholder when the value is not among its choices, as a
    45 s turn timer) names the option and its current value; before, page 1 showed a value
    without its name and page 3 a name without its value."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, turn_timer=45, take_backs=True)
        alice = w.users[0]
        current = option_values((await w.doc()).options)
        shown = (await alice.slash(w.channel, "tractor rules")).response
        pages = {option_page(o) for o in selectable()}
        seen = set()
        for page in sorted(pages):
            if page:
                turn = find(shown, "optpage", extra=str(page))
                assert turn is not None
                turned = await alice.click(shown, custom_id=turn.custom_id)
                shown = turned.response if turned.response is not None else shown
            for row in shown.message.components:
                for select in row.children:
                    name = (select.custom_id or "").rsplit(":", 1)[-1]
                    if name not in OPTIONS or not hasattr(select, "options"):
                        continue
                    option = OPTIONS[name]
                    chosen = [o.label for o in select.options if o.default]
                    showing = chosen[0] if chosen else select.placeholder
                    assert showing == option.line(current[name], "en"), (name, showing)
                    seen.add(name)
        assert seen == {o.name for o in selectable()}
        assert "Turn timer: 45 s" in (await alice.slash(w.channel, "tractor rules")
                                      ).response.content


async def test_the_table_message_and_rules_name_the_house_rules(tmp_path: Path) -> None:
    """Issue 31 item 6: during play the table message names every option that differs
    from the defaults (and only those); ``/tractor rules`` names them too, or says there
    are none."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, take_backs=True, throw_penalty=10)
        await w.start()
        text = w.table_message().content
        line = next(x for x in text.splitlines() if x.startswith("House rules"))
        assert "Take-backs: yes" in line and "10" in line, line
        assert "Turn timer" not in line and "Kitty" not in line, line  # the defaults
        rules = (await w.users[0].slash(w.channel, "tractor rules")).response.content
        assert line in rules, rules
    async with world(tmp_path / "plain", humans=1) as w:
        await w.open_table(1)
        await w.start()
        assert "House rules" not in w.table_message().content
        rules = (await w.users[0].slash(w.channel, "tractor rules")).response.content
        assert "House rules: none (the defaults)" in rules, rules


async def test_a_bad_option_value_is_refused_once_and_changes_nothing(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        with pytest.raises(OptionError):  # Discord (SimCord) offers the choices only
            await alice.slash(w.channel, "tractor new", fixed_trump="X")
        assert await w.bot.store.table_in_channel(w.channel.id) is None
        await w.open_table(1)
        shown = (await alice.slash(w.channel, "tractor rules")).response
        select = find(shown, "opt")
        assert select is not None
        version = await w.version()
        for values in (["X"], ["30", "60"], ["true"]):
            result = await forge(alice, shown, select.custom_id, values)
            refusals = [x for x in reply_texts(result) if "not allowed" in x or "not valid" in x]
            assert len(refusals) == 1, reply_texts(result)
        forged = select.custom_id.rsplit(":", 1)[0] + ":unseen_count"
        result = await forge(alice, shown, forged, ["maybe"])
        assert len([x for x in reply_texts(result) if "not" in x]) == 1
        assert await w.version() == version
        assert (await w.doc()).options["fixed_trump"] == "none"


async def test_fixed_trump_no_declaring_creator_starts(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, fixed_trump="S")
        await w.start()
        match = await w.match()
        public = match.public_view()
        assert public.trump_how is TrumpHow.FIXED and str(public.trump).endswith("S")
        assert public.phase is Phase.BURYING and public.starter == 0
        doc = await w.doc()
        assert doc.seat(0).user_id == w.users[0].id
        text = w.table_message().content
        assert "fixed for the match" in text, text
        assert any("Trump for the whole match: ♤" in note for note in doc.notes), doc.notes


async def test_take_backs_by_button_and_command_across_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4, take_backs=True)
        await w.start()
        for _ in range(200):
            match = await w.match()
            if match.phase is Phase.PLAYING:
                break
            from botkit import seats_to_act
            await by_panel(w, seats_to_act(match)[0])
        match = await w.match()
        leader = match.public_view().turn
        assert leader is not None
        user = await w.user_of(leader)
        # nothing to take back yet: one refusal, nothing changes
        version = await w.version()
        refused = await user.slash(w.channel, "tractor tricks takeback")
        texts = reply_texts(refused)
        assert len(texts) == 1 and "Only your last play" in texts[0], texts
        assert await w.version() == version
        await by_panel(w, leader)
        after = (await w.match()).public_view()
        assert after.take_back_seat == leader and after.turn == (leader + 1) % 4
        panel = w.dm_panel(user)
        button = find(panel, "takeback")
        assert button is not None and button.label == "Take back" and not button.disabled
        # the next seat's Take back is disabled (in its place: issue 38 item 1); a forged
        # click is refused
        other = await w.user_of((leader + 1) % 4)
        assert find(w.dm_panel(other), "takeback").disabled
        await w.restart()
        panel = w.dm_panel(user)
        button = find(panel, "takeback")
        assert button is not None
        assert_ok(await user.user.click(panel, custom_id=button.custom_id))
        back = (await w.match()).public_view()
        assert back.turn == leader and back.take_back_seat is None and not back.played
        doc = await w.doc()
        assert any("took back" in note for note in doc.notes), doc.notes
        assert "took back" in w.table_message().content
        assert find(w.dm_panel(user), "takeback").disabled
        assert (await w.doc()).timer == "turn"
        # by command: play again, then /tractor takeback
        await by_panel(w, leader)
        done = await user.slash(w.channel, "tractor tricks takeback")
        assert reply_texts(done) and "You took back" in reply_texts(done)[0]
        assert (await w.match()).public_view().turn == leader


async def test_take_backs_off_refused(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        version = await w.version()
        result = await w.users[0].slash(w.channel, "tractor tricks takeback")
        texts = reply_texts(result)
        assert len(texts) == 1 and "does not allow taking back" in texts[0], texts
        assert await w.version() == version
        assert isinstance(await w.doc(), TableDoc)


async def test_fixed_trump_turns_the_seats_so_the_creator_starts(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2, fixed_trump="NT")
        alice, bob = w.users[:2]
        await alice.slash(w.channel, "tractor leave")
        await alice.slash(w.channel, "tractor join", seat=4)  # a computer's seat
        await alice.slash(w.channel, "tractor addbot", seat=1)
        doc = await w.doc()
        before = [None if s is None else s.user_id for s in doc.seats]
        assert before[3] == alice.id and before[1] == bob.id
        await w.start()
        doc = await w.doc()
        after = [None if s is None else s.user_id for s in doc.seats]
        assert after == before[3:] + before[:3] and after[0] == alice.id
        assert after[2] == bob.id  # Bob still sits opposite Alice: partners unchanged
        public = (await w.match()).public_view()
        assert public.starter == 0 and public.phase is Phase.BURYING
        assert any("moved round the table" in (m.content or "") for m in w.public_messages())


async def test_take_back_pushes_no_other_button_out_when_the_winner_leads(tmp_path: Path
                                                                          ) -> None:
    """Issue 31 item 3: having just won a trick, the leader's panel offers Take back *and*
    every other action (Play, Clear, Hint, Type…). At a table with take-backs, Take back
    has the table link's place all hand long (issue 38 item 1: no button comes and goes;
    the link is navigation, not an action)."""
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4, take_backs=True)
        await w.start()
        from botkit import components, seats_to_act
        for _ in range(300):
            match = await w.match()
            public = match.public_view()
            if (public.phase is Phase.PLAYING and public.trick is None and public.tricks_played
                    and public.take_back_seat == public.turn):
                break
            await by_panel(w, seats_to_act(match)[0])
        else:
            raise AssertionError("no trick was won")
        user = await w.user_of(public.turn)
        panel = w.dm_panel(user)
        for verb in ("takeback", "hint", "play", "clear", "type"):
            assert find(panel, verb) is not None, verb
        assert not find(panel, "hint").disabled and not find(panel, "takeback").disabled
        assert not any(getattr(c, "url", None) for c in components(panel))


def test_fit_rows_keeps_every_action() -> None:
    """Take back goes on a row of its own when the cards leave one; when the cards need
    every select row, the table link (navigation) gives way, never an action."""
    from bot.ui import rows
    from bot.ui.panels import fit_rows
    actions = [rows.button(f"tr:1:1:1:{verb}:0", verb) for verb in
               ("play", "clear", "hint", "type")]
    link = rows.link("Table", "https://discord.com/channels/1/2/3")
    takeback = rows.button("tr:1:1:1:takeback:0", "Take back")
    few = [parse_cards("AS KS"), parse_cards("2H 3H"), parse_cards("4C")]
    two, chunks = fit_rows([*actions, link, takeback], few, 4)
    assert two == [[*actions, link], [takeback]] and sum(map(len, chunks)) == 5
    many = [parse_cards(" ".join(["AS"] * 25)), parse_cards(" ".join(["KH"] * 25)),
            parse_cards(" ".join(["QC"] * 25))]
    one, chunks = fit_rows([*actions, link, takeback], many, 4)
    assert one == [[*actions, takeback]] and sum(map(len, chunks)) == 75


async def test_a_take_back_against_computers_has_its_window_and_undoes_its_trick(
        tmp_path: Path) -> None:
    """Issue 38 item 5. With computers at the table, the window to take back was their
    one-second pause; now they wait `TAKE_BACK_WINDOW` while a person may take back (R12).
    Taking back a trick's last card takes its "won trick" line off the table, and a Take
    back pressed too late says so (not "here is a fresh panel")."""
    from bot.services.autopilot import TAKE_BACK_WINDOW

    async with world(tmp_path, humans=1, action_delay=1.0) as w:
        await w.open_table(1, take_backs=True)
        await w.start()
        alice = w.users[0]
        for _ in range(400):  # to alice's turn as the trick's last player
            public = (await w.match()).public_view()
            if public.phase is Phase.PLAYING and public.turn == 0 and public.trick is not None \
                    and len(public.trick.plays) == 3:
                break
            if 0 in seats_to_act(await w.match()):
                await by_panel(w, 0)
            else:
                await w.env.advance_time(TAKE_BACK_WINDOW + 1)
        else:
            raise AssertionError("alice never played a trick's last card")
        number = public.tricks_played + 1
        await by_panel(w, 0)
        won = f"won trick {number} "
        assert any(won in note for note in (await w.doc()).notes)
        assert won in w.table_message().content
        version = await w.version()
        await w.env.advance_time(TAKE_BACK_WINDOW - 1)  # the computers' pause has passed
        assert await w.version() == version  # nobody moved: alice may still take back
        panel = w.dm_panel(alice)
        button = find(panel, "takeback")
        assert button is not None
        assert_ok(await alice.user.click(panel, custom_id=button.custom_id))
        public = (await w.match()).public_view()
        assert public.turn == 0 and public.tricks_played == number - 1
        notes = (await w.doc()).notes
        assert not any(won in note for note in notes), notes
        assert any("took back" in note for note in notes), notes
        assert won not in w.table_message().content
        # play again; the next seat plays as the window closes, and alice's Take back,
        # pressed before her panel shows that (a race: the commit's publish held back),
        # is told it came too late, not "here is a fresh panel"
        await by_panel(w, 0)
        panel = w.dm_panel(alice)
        late = find(panel, "takeback")
        assert late is not None
        service = w.bot.service
        publish = service._publish
        service._publish = lambda *args: None  # type: ignore[method-assign]
        try:
            await w.env.advance_time(TAKE_BACK_WINDOW + 1)
        finally:
            service._publish = publish  # type: ignore[method-assign]
        assert (await w.match()).public_view().take_back_seat != 0  # the next seat played
        texts = reply_texts(await alice.user.click(panel, custom_id=late.custom_id))
        assert any("Too late to take back" in text for text in texts), texts
        assert not any("fresh panel" in text for text in texts), texts
