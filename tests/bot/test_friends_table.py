"""Finding Friends at a Discord table (issue 14, "Discord"): a whole six-seat hand with two
people and four computers and a restart in the middle; the friend call's panel (legal
calls only, forged values, the wrong person, the wrong phase); the lobby resizing the
seats; a restart while the starter calls, and a timed-out starter given a computer's call.

Everything is driven through SimCord and its simulated clock; the stored table is read
only as an oracle."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from botkit import (
    LeakScanner,
    World,
    assert_ok,
    by_panel,
    components,
    find,
    forge,
    ready_all,
    reply_texts,
    seats_to_act,
    world,
)

from bot.core.calls import CallDraft
from bot.core.errors import UserFacingError
from bot.core.options import OPTIONS
from bot.core.table import Seat, TableDoc
from bot.features.lobby import option_page
from bot.runtime.offload import Workers
from bot.services.pictures import Pictures
from bot.services.players import computer_action
from bot.ui.calling import calling
from bot.ui.friend_calls import call_choices, parse_calls
from bot.ui.ids import InvalidId, VerbSpec, parse_id
from bot.ui.panels import build_panel
from engine.actions import CloseWindow, StartHand
from engine.cards import Card, Rank
from engine.deal import deal_shape
from engine.friends import FriendCall
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet
from engine.views import PublicView

CALLED = re.compile(r"Friends called: (.*)")
SIDE = re.compile(r"Starter's side so far: (.*)")
FRIEND = re.compile(r"(.+) played .+: a friend found, now on the side of the starter \((.+)\)!")


def text_of(result: Any) -> str:
    return "\n".join(reply_texts(result))


class FriendsScanner(LeakScanner):
    """The hidden-card check of `LeakScanner` (called cards are public), and no friend
    named before their called card is played: every public line naming the starter's
    side, a call's player or a friend names only seats the public view has revealed."""

    def __init__(self, w: World) -> None:
        super().__init__(w)
        self.texts: dict[int, str] = {}

    async def check(self) -> None:
        await super().check()
        doc = await self.w.doc()
        match = doc.get_match()
        assert match is not None
        public = match.public_view()
        if public.result is not None:
            return
        names = {doc.names()[s] or f"Bot {s + 1}": s for s in range(doc.seat_count)}
        names |= {f"Bot {s + 1}": s for s in range(doc.seat_count)}
        side = set(public.declarer_seats)
        for message in self.w.public_messages():
            content = message.content or ""
            if self.texts.get(message.id) == content:
                continue
            self.texts[message.id] = content
            for line in content.splitlines():
                for pattern in (SIDE, FRIEND):
                    found = pattern.search(line)
                    if found:
                        shown = {names[n] for n in names if n in found.group(0)}
                        assert shown <= side, f"a friend named before the reveal: {line}"
                found = CALLED.search(line)
                if found:
                    for part, seat in zip(found.group(1).split(" · "), public.call_seats,
                                          strict=False):
                        who = part.rsplit("→ ", 1)[-1]
                        assert (who == "?") == (seat is None), line


def _watch_pictures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record what every table picture is drawn from."""
    seen: list[Any] = []
    original = Pictures.table_picture

    async def table_picture(self: Pictures, public: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(public)
        return await original(self, public, *args, **kwargs)

    monkeypatch.setattr(Pictures, "table_picture", table_picture)
    return seen


async def test_six_seat_hand_two_people_four_computers_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _watch_pictures(monkeypatch)
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2, mode="friends", players=6)
        doc = await w.doc()
        assert doc.seat_count == 6 and doc.full and doc.rules.players == 6
        lobby = w.table_message().content or ""
        assert "Seat 6: " in lobby and "(team " not in lobby
        await w.start()
        scanner = FriendsScanner(w)
        restarted = False
        for _ in range(600):
            match = await w.match()
            public = match.public_view()
            if public.phase is Phase.BETWEEN_HANDS:
                break
            if (not restarted and public.phase is Phase.PLAYING and public.friend_calls
                    and public.tricks_played >= 3):
                await w.restart()  # during play, after the call
                restarted = True
                await scanner.check()
                continue
            doc = await w.doc()
            humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
            assert humans, f"nobody to act: {public.phase}"
            await by_panel(w, humans[0])
            await scanner.check()
        assert restarted
        match = await w.match()
        public = match.public_view()
        result = public.result
        assert public.phase is Phase.BETWEEN_HANDS and result is not None
        assert len(public.friend_calls) == deal_shape(match.rules).friends == 2
        assert set(result.declarer_seats) >= {public.starter}
        winners = set(result.declarer_seats) if result.side == "declarers" else \
            set(range(6)) - set(result.declarer_seats)
        for seat in range(6):
            gained = result.levels_gained if seat in winners else 0
            assert result.new_levels[seat] == Rank(result.levels[seat] + gained)
        summary = next(m.content for m in reversed(w.public_messages())
                       if "is over" in (m.content or ""))
        doc = await w.doc()
        levels = " · ".join(f"{doc.names()[s] or f'Bot {s + 1}'} {result.new_levels[s]}"
                            for s in range(6))
        assert f"Levels now: {levels}" in summary
        announced = [m.content or "" for m in w.public_messages()]
        assert any("Friends called by " in text for text in announced)
        starter = doc.names()[public.starter] or f"Bot {public.starter + 1}"
        for seat in public.call_seats:  # each reveal announced when it happened
            if seat is not None and seat != public.starter:
                name = doc.names()[seat] or f"Bot {seat + 1}"
                side = f"the side of the starter ({starter})!"
                assert any(f"{name} played " in text and side in text
                           for text in announced), name
        assert scanner.checked > 20
        assert drawn and all(isinstance(view, PublicView) for view in drawn)
        shown = await w.users[1].click(w.table_message(), label="Tricks")
        lines = [line for text in reply_texts(shown) for line in text.splitlines()
                 if re.match(r"\*\*\d+\.\*\* ", line)]
        assert len(lines) == public.tricks_played > 0
        assert all(line.count(" · ") == 5 for line in lines)  # six plays a trick
        await ready_all(w)  # the Ready check of six seats deals the next hand
        match = await w.match()
        assert match.hand_no == 2 and match.public_view().starter == result.next_starter


async def _humans_play_until(w: World, phase: Phase, steps: int = 50) -> None:
    """The humans act by their panels (the computers by themselves) until `phase`."""
    for _ in range(steps):
        match = await w.match()
        if match.phase is phase:
            return
        doc = await w.doc()
        humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
        assert humans, match.phase
        await by_panel(w, humans[0])


async def _calling_table(w: World, players: int = 5) -> Any:
    """alice (seat 1, the starter: fixed trump ♥) has buried and calls; bob is seat 2."""
    await w.open_table(2, mode="friends", players=players, fixed_trump="H")
    await w.start()
    await _humans_play_until(w, Phase.CALLING)
    match = await w.match()
    assert match.phase is Phase.CALLING and match.public_view().turn == 0
    return match


async def test_call_panel_legal_forged_wrong_person_wrong_phase(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await _calling_table(w)
        alice, bob = w.users[0], w.users[1]
        # the ephemeral My hand panel calls too; bob's shows who is calling
        mine = (await alice.click(w.table_message(), label="My hand")).response
        assert mine is not None and mine.ephemeral and find(mine, "fsuit") is not None
        assert_ok(await alice.select(mine, ["D"], custom_id=find(mine, "fsuit").custom_id))
        assert "♢" in find(mine, "fadd").label
        theirs = (await bob.click(w.table_message(), label="My hand")).response
        assert "alice" in theirs.content and "Calling 1 friend(s): " in theirs.content
        assert find(theirs, "fadd") is None
        panel = w.dm_panel(alice)
        assert "Call 1 friend" in (panel.content or "")
        suits = find(panel, "fsuit")
        assert sorted(o.value for o in suits.options) == ["C", "D", "S"]  # ♥ is trump
        ranks = find(panel, "frank")
        assert "2" not in [o.value for o in ranks.options]  # the level: trump
        copies = find(panel, "fcopy")
        assert [o.value for o in copies.options] == ["1", "2"]  # two decks at five seats
        assert find(panel, "fcall").disabled
        # a suit, a rank, a copy picked: Add names that card
        assert_ok(await alice.user.select(panel, ["C"], custom_id=suits.custom_id))
        panel = w.dm_panel(alice)
        assert_ok(await alice.user.select(panel, ["K"], custom_id=find(panel, "frank").custom_id))
        panel = w.dm_panel(alice)
        assert_ok(await alice.user.select(panel, ["2"], custom_id=find(panel, "fcopy").custom_id))
        panel = w.dm_panel(alice)
        assert "the 2nd K♧" in find(panel, "fadd").label
        # forged: a value the select does not offer, an id the message does not carry
        refused = await forge(alice.user, panel, find(panel, "fsuit").custom_id, ["H"])
        assert any("not valid" in text for text in reply_texts(refused))
        forged_id = find(panel, "fcall").custom_id + ".2H1"
        refused = await forge(alice.user, panel, forged_id)
        assert any("not valid" in text for text in reply_texts(refused))
        # the wrong person: bob presses alice's Add (on his own panel)
        refused = await forge(bob.user, w.dm_panel(bob), find(panel, "fadd").custom_id)
        assert any("not valid" in text for text in reply_texts(refused))
        assert (await w.match()).phase is Phase.CALLING
        # Add, Undo, Add again, Call friends
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fadd").custom_id))
        panel = w.dm_panel(alice)
        assert "the 2nd K♧" in (panel.content or "") and not find(panel, "fcall").disabled
        assert find(panel, "fsuit") is None and find(panel, "fadd") is None  # every call made
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fundo").custom_id))
        panel = w.dm_panel(alice)
        assert find(panel, "fcall").disabled
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fadd").custom_id))
        panel = w.dm_panel(alice)
        old_call = find(panel, "fcall").custom_id
        assert_ok(await alice.user.click(panel, custom_id=old_call))
        match = await w.match()
        assert match.phase is Phase.PLAYING
        assert match.public_view().friend_calls == (FriendCall(Card.parse("KC"), 2),)
        texts = [m.content or "" for m in w.public_messages()]
        assert any("Friends called by alice: the 2nd K♧" in text for text in texts)
        assert "Friends called: the 2nd K♧ → ?" in (w.table_message().content or "")
        # the wrong phase: the call's old button (a modified client) changes nothing
        late = await forge(alice.user, panel, old_call)
        assert any("not valid" in text or "moved on" in text for text in reply_texts(late))
        assert len((await w.match()).public_view().friend_calls) == 1


def test_one_parser_refuses_forged_calls() -> None:
    """`parse_calls`: only calls the engine allows, no duplicate, at most F; anything
    else is the one refusal (the values of the call components)."""
    legal = [FriendCall(Card.parse(c), k) for c in ("AS", "KS", "10C") for k in (1, 2)]
    assert parse_calls("AS1-10C2", legal, 2) == [legal[0], legal[5]]
    for forged in ("2H1", "AS3", "AS1-AS1", "AS1-KS1-KS2", "AS", "A♠1", "RJ1", "AS1--",
                   "x" * 40):
        with pytest.raises(UserFacingError) as refused:
            parse_calls(forged, legal, 2)
        assert refused.value.key == "error.bad_button"
    choices = call_choices(CallDraft("AS1", "S", "A", 2), legal, 2)
    assert choices.pick == legal[1] and choices.made == (legal[0],)
    assert call_choices(CallDraft("", "H", "", 0), legal, 2).pick == legal[0]  # ♥: none


async def test_players_option_resizes_the_seats(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.new_table()
        assert (await w.doc()).seat_count == 4

        async def set_option(name: str, value: str) -> Any:
            shown = (await alice.slash(w.channel, "tractor rules")).response
            page = find(shown, "optpage", extra=str(option_page(OPTIONS[name])))
            if page is not None:
                turned = await alice.click(shown, custom_id=page.custom_id)
                shown = turned.response if turned.response is not None else shown
            select = next(c for c in components(shown)
                          if (c.custom_id or "").endswith(f":{name}"))
            return await alice.select(shown, [value], custom_id=select.custom_id)

        await set_option("players", "7")
        doc = await w.doc()
        assert doc.seat_count == 7 and doc.rules.mode.value == "friends"
        assert "Seat 7" in (w.table_message().content or "")
        rules = text_of(await w.users[0].slash(w.channel, "tractor rules"))
        assert "**Finding Friends (找朋友)**" in rules and "calls friends" in rules
        result = await alice.slash(w.channel, "tractor addbot", seat=7)
        assert "7" in text_of(result)
        result = await alice.slash(w.channel, "tractor addbot", seat=8)  # no eighth seat
        assert "numbered 1 to 7" in text_of(result)
        for _ in range(5):
            await alice.click(w.table_message(), label="Add bot")
        doc = await w.doc()
        assert doc.full and not find(w.table_message(), "start").disabled
        swapped = await alice.slash(w.channel, "tractor seat swap", first=1, second=2)
        assert "swapped" in text_of(swapped).lower(), text_of(swapped)
        assert not any("partnerships" in (m.content or "") for m in w.public_messages())
        refused = await set_option("players", "5")  # seven seated do not fit five seats
        assert any("too few" in text for text in reply_texts(refused))
        assert (await w.doc()).seat_count == 7
        await alice.slash(w.channel, "tractor seat removebot", seat=7)
        await alice.slash(w.channel, "tractor seat removebot", seat=6)
        await set_option("players", "5")
        doc = await w.doc()
        assert doc.seat_count == 5 and doc.full  # the computer of seat 3…5 moved down
        await alice.slash(w.channel, "tractor seat removebot", seat=5)
        await set_option("mode", "teams")  # the four-player game: four seats
        doc = await w.doc()
        assert doc.seat_count == 4 and doc.rules.players == 4 and doc.full
        assert "team A" in (w.table_message().content or "")


async def test_restart_while_calling_then_timeout_calls_for_the_starter(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await _calling_table(w)
        alice = w.users[0]
        panel = w.dm_panel(alice)
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fadd").custom_id))
        await w.restart()
        match = await w.match()
        assert match.phase is Phase.CALLING  # nothing lost, nothing decided by the restart
        # a call added but not confirmed is a draft, kept with the table: the restored panel
        # shows it, its text and buttons agreeing; Undo takes it back
        panel = w.dm_panel(alice)
        assert "restored after a restart" in (panel.content or "")
        assert "(1/1)" in (panel.content or "") and find(panel, "fsuit") is None
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fundo").custom_id))
        panel = w.dm_panel(alice)
        assert "(0/1)" in (panel.content or "")
        assert_ok(await alice.user.select(panel, ["D"],
                                          custom_id=find(panel, "fsuit").custom_id))
        doc = await w.doc()
        assert doc.timer == "call" and doc.deadline is not None
        await w.env.advance_time(doc.deadline - w.bot.service.clock() + 1)
        await w.bot.publisher.idle()
        match = await w.match()
        public = match.public_view()
        assert public.phase is Phase.PLAYING and len(public.friend_calls) == 1
        notes = "\n".join((await w.doc()).notes)
        assert "Friends called by " in notes
        assert (await w.doc()).seat(0).misses == 1


async def test_restart_with_a_half_made_call_shows_it_and_the_call_completes(
        tmp_path: Path) -> None:
    """Issue 32 item 2: the friend call being drafted survives a restart. At six seats the
    starter calls 2 friends; 1 is added, the bot restarts: the restored DM panel (and the
    My hand panel) show that call, and adding the second completes the call with both."""
    async with world(tmp_path, humans=2) as w:
        await _calling_table(w, players=6)
        alice = w.users[0]
        panel = w.dm_panel(alice)
        assert "(0/2)" in (panel.content or "")
        assert_ok(await alice.user.select(panel, ["D"],
                                          custom_id=find(panel, "fsuit").custom_id))
        panel = w.dm_panel(alice)
        first = find(panel, "fadd").label.removeprefix("Add ")
        assert "♢" in first  # diamonds, as text writes suits (outlined)
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fadd").custom_id))
        panel = w.dm_panel(alice)
        assert f"(1/2): {first}" in (panel.content or "")
        await w.restart()
        assert (await w.match()).phase is Phase.CALLING
        panel = w.dm_panel(alice)
        assert "restored after a restart" in (panel.content or "")
        assert f"(1/2): {first}" in (panel.content or ""), panel.content
        mine = (await alice.click(w.table_message(), label="My hand")).response
        assert f"(1/2): {first}" in (mine.content or "")
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fadd").custom_id))
        panel = w.dm_panel(alice)
        assert "(2/2)" in (panel.content or "") and not find(panel, "fcall").disabled
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "fcall").custom_id))
        public = (await w.match()).public_view()
        assert public.phase is Phase.PLAYING and len(public.friend_calls) == 2
        assert first in "\n".join(m.content or "" for m in w.public_messages())


async def test_legal_calls_are_computed_once_a_click(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: each call click (a select, Add, Undo) lists the legal calls once, for its
    checks and for the panel it redraws; the draft is kept with the table at the same step."""
    import bot.ui.calling as ui_calling
    async with world(tmp_path, humans=2) as w:
        await _calling_table(w, players=6)
        alice = w.users[0]
        listed: list[int] = []
        original = ui_calling.legal_calls

        def counted(view: Any) -> Any:
            listed.append(view.seat)
            return original(view)
        monkeypatch.setattr(ui_calling, "legal_calls", counted)
        step = (await w.doc()).step
        for verb, value in (("fsuit", "S"), ("frank", None), ("fadd", None),
                            ("fundo", None), ("fadd", None)):
            panel = w.dm_panel(alice)
            component = find(panel, verb)
            if verb == "frank":
                value = component.options[-1].value
            listed.clear()
            if value is None:
                assert_ok(await alice.user.click(panel, custom_id=component.custom_id))
            else:
                assert_ok(await alice.user.select(panel, [value],
                                                  custom_id=component.custom_id))
            assert listed == [0], verb
        doc = await w.doc()
        assert doc.step == step and doc.call_draft is not None
        assert len(doc.call_draft_now().calls.split("-")) == 1
        assert "(1/2)" in (w.dm_panel(alice).content or "")


def test_seat_ids_and_stored_tables_of_four_seats() -> None:
    """Ids take seats 0–7 (the table's own count is checked by `Access.owner`); a table
    stored before Finding Friends (four seats, no ``waiting``) loads as it was."""
    specs = {"play": VerbSpec("play", "panel", seat="required")}
    assert parse_id("tr:5:1:2:play:7", specs).seat == 7
    with pytest.raises(InvalidId):
        parse_id("tr:5:1:2:play:8", specs)
    old = TableDoc(guild_id=1, channel_id=2, creator_id=3).to_dict()
    del old["waiting"]
    doc = TableDoc.from_dict(old)
    assert doc.seat_count == 4 and doc.waiting == [None] * 4
    assert TableDoc.from_dict(doc.to_dict()) == doc
    doc.seats[3] = Seat(9, "dan")
    doc.resize(6)
    assert doc.seat_count == 6 and doc.seats[3] is not None and len(doc.waiting) == 6
    doc.resize(4)
    assert doc.seats[3] is not None and doc.seat_count == 4
    doc.seats = [Seat(i, str(i)) for i in range(4)] + [Seat(9, "x"), None]
    with pytest.raises(UserFacingError):
        doc.resize(4)


@pytest.mark.parametrize("phase", [Phase.DECLARING, Phase.BURYING])
async def test_restart_while_declaring_or_burying(tmp_path: Path, phase: Phase) -> None:
    """A restart in the other phases of a hand: the hand goes on from where it was."""
    async with world(tmp_path, humans=2) as w:
        fixed = {"fixed_trump": "H"} if phase is Phase.BURYING else {}
        await w.open_table(2, mode="friends", players=5, **fixed)
        await w.start()
        await _humans_play_until(w, phase)
        before = (await w.match()).to_dict()
        assert (await w.match()).phase is phase
        await w.restart()
        assert (await w.match()).to_dict() == before
        await _humans_play_until(w, Phase.PLAYING, 80)
        assert (await w.match()).phase is Phase.PLAYING


async def test_new_shape_after_a_match_goes_back_to_the_lobby(tmp_path: Path) -> None:
    """After a six-seat match, five seats: the finished match is not read again with the
    new seats; the table is a lobby again."""
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.new_table(mode="friends", players=6)
        doc = await w.doc()
        over = Match(rules=doc.rules, levels=(Rank.ACE,) * 6, hand_no=9, winner=0)
        await w.bot.service.update_meta(w.table_id, lambda d: d.set_match(over))
        assert (await w.doc()).phase is Phase.MATCH_OVER
        shown = (await alice.slash(w.channel, "tractor rules")).response
        page = find(shown, "optpage", extra=str(option_page(OPTIONS["players"])))
        if page is not None:
            shown = (await alice.click(shown, custom_id=page.custom_id)).response or shown
        select = next(c for c in components(shown) if (c.custom_id or "").endswith(":players"))
        assert_ok(await alice.select(shown, ["5"], custom_id=select.custom_id))
        doc = await w.doc()
        assert doc.match is None and doc.seat_count == 5 and doc.in_lobby
        assert "Seat 5: " in (w.table_message().content or "")


def _calling_match(players: int, seed: int) -> Match:
    """A match of `players` seats whose starter is calling (computers decided so far)."""
    match = Match.new(RuleSet(mode=Mode.FRIENDS, players=players))
    match, _ = match.apply(StartHand(seed))
    for step in range(3000):
        public = match.public_view()
        if public.phase is Phase.CALLING:
            return match
        if public.phase is Phase.DECLARING and not public.awaiting:
            match, _ = match.apply(CloseWindow())
            continue
        seat = public.awaiting[0] if public.phase is Phase.DECLARING else public.turn
        assert seat is not None
        match, _ = match.apply(computer_action(match.view_for(seat), "greedy", seed, step))
    raise AssertionError("no calling")


async def test_panel_of_eight_seats_and_a_draft_no_longer_legal() -> None:
    """Eight seats: three calls of up to four copies; a kept draft naming a trump (another
    hand's) is dropped by the panel, refused by the verbs."""
    match = _calling_match(8, 5)
    view = match.view_for(match.public_view().turn or 0)
    trump = view.public.trump
    assert trump is not None
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.resize(8)
    doc.seats = [Seat(100 + s, f"P{s}") for s in range(8)]
    doc.options = {**doc.options, **match.rules.to_dict()}
    doc.set_match(match)
    level = f"{trump.level}{'S' if trump.suit is None else trump.suit.value}1"
    doc.call_draft = (doc.step, CallDraft(level))
    assert TableDoc.from_dict(doc.to_dict()).call_draft_now() == CallDraft(level)
    panel = await build_panel(doc, 1, view.seat, "en", [], pictures=Pictures(Workers()))
    assert "Your calls (0/3): —" in panel.content
    assert panel.view is not None
    copies = next(c for row in panel.view.to_components() for c in row["components"]
                  if ":fcopy:" in c.get("custom_id", ""))
    assert len(copies["options"]) == 4  # four decks
    with pytest.raises(UserFacingError):
        calling(view, CallDraft(level))


async def test_eight_seats_one_person_buries_calls_three_and_plays(tmp_path: Path) -> None:
    """Eight seats, four decks: alice (the starter, fixed trump) buries 8 of her 34 cards
    and calls three friends with her panel, then the hand is played out and settles."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, mode="friends", players=8, fixed_trump="S")
        await w.start()
        scanner = FriendsScanner(w)
        called = False
        for _ in range(200):
            match = await w.match()
            if match.phase is Phase.BETWEEN_HANDS:
                break
            called = called or match.phase is Phase.CALLING
            doc = await w.doc()
            humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
            assert humans, match.phase
            await by_panel(w, humans[0])
            await scanner.check()
        public = (await w.match()).public_view()
        assert called and public.result is not None and len(public.friend_calls) == 3
        assert {c.copy for c in public.friend_calls} <= {1, 2, 3, 4}
