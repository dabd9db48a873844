"""``/tractor play`` autocomplete matches what is typed (issue 12, item 1): the typed
cards first when they parse (legal or not), then the legal plays that hold every typed
card or start with a typed prefix; Enter plays exactly the typed cards or gets a ruling."""

from __future__ import annotations

from pathlib import Path

from botkit import World, by_panel, reply_texts, seats_to_act, world

from engine.cards import Card, parse_cards
from engine.game import Phase


async def to_a_follow(w: World) -> int:
    """Play on until a human must follow a trick; returns that seat."""
    for _ in range(300):
        match = await w.match()
        public = match.public_view()
        doc = await w.doc()
        seat = seats_to_act(match)[0]
        if (public.phase is Phase.PLAYING and public.trick is not None
                and doc.seat(seat).user_id is not None):
            return seat
        await by_panel(w, seat)
    raise AssertionError("no follow reached")


async def test_offers_match_the_typed_text(tmp_path: Path) -> None:
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4, turn_timer=0)
        await w.start()
        seat = await to_a_follow(w)
        user = await w.user_of(seat)
        view = (await w.match()).view_for(seat)
        hand = list(view.hand)
        card: Card = hand[len(hand) // 2]
        # A whole card typed (in another notation): it is offered first, as typed.
        for typed in (str(card).lower(), card.pretty):
            choices = await user.autocomplete(w.channel, "tractor play", "cards", typed)
            assert choices and choices[0]["value"] == str(card), (typed, choices)
            for choice in choices[1:]:
                assert card in parse_cards(choice["value"]), (typed, choice)
        # A rank alone (a partial card) narrows the legal plays to those holding it.
        rank = str(card)[:-1]
        choices = await user.autocomplete(w.channel, "tractor play", "cards", rank)
        for choice in choices:
            assert any(str(c).startswith(rank) for c in parse_cards(choice["value"])), choice
        # Nothing typed: the recommended play first, as before.
        choices = await user.autocomplete(w.channel, "tractor play", "cards", "")
        assert choices and choices[0]["name"].startswith("★")
        # Enter with the typed text plays exactly those cards, or answers with the ruling.
        before = len((await w.match()).public_view().trick.plays)  # type: ignore[union-attr]
        result = await user.slash(w.channel, "tractor play", cards=str(card).lower())
        texts = reply_texts(result)
        match = await w.match()
        played = [cards for s, cards in match.public_view().played if s == seat]
        if any("Not allowed" in t for t in texts):
            trick = match.public_view().trick
            assert trick is not None and len(trick.plays) == before
        else:
            assert played and list(played[-1]) == [card], (texts, played)
