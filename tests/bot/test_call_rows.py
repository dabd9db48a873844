"""The friend call's rows on the starter's panel are what players got (issue 39: built as
Discord's JSON like the rest of the panel, one component model): seeded calling positions
at 4–8 seats, fresh and half-made drafts, with and without the table link, byte for byte
against the digest of what the `discord.ui` items gave."""

from __future__ import annotations

import hashlib
import json

from bot.core.calls import CallDraft, encode_calls
from bot.core.table import TableDoc
from bot.services.players import computer_action
from bot.ui.calling import calling, usable_calling
from bot.ui.panels import panel_view
from engine.actions import CloseWindow, StartHand
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet
from engine.views import PlayerView

DIGEST = "d770680cf923391c"  # issue 38 walk: the first pick is the advised call
URL = "https://discord.com/channels/1/2/3"


def _calling_view(players: int, seed: int) -> PlayerView:
    match = Match.new(RuleSet(mode=Mode.FRIENDS, players=players))
    match, _ = match.apply(StartHand(seed))
    step = 0
    while match.phase is not Phase.CALLING:
        public = match.public_view()
        if public.phase is Phase.DECLARING and not public.awaiting:
            match, _ = match.apply(CloseWindow())
            continue
        actor = public.awaiting[0] if public.phase is Phase.DECLARING else public.turn
        assert actor is not None
        match, _ = match.apply(computer_action(match.view_for(actor), "expert", seed, step))
        step += 1
    turn = match.public_view().turn
    assert turn is not None
    return match.view_for(turn)


def rows_json() -> list[str]:
    out = []
    for players in (4, 5, 6, 7, 8):
        for seed in range(6):
            view = _calling_view(players, seed)
            fresh = calling(view, CallDraft())
            legal = fresh.legal
            drafts = [CallDraft(), CallDraft(encode_calls(legal[:1])),
                      CallDraft(encode_calls(legal[:fresh.wanted])), CallDraft("", "H", "", 2),
                      CallDraft(encode_calls(legal[1:2]), "S", "A", 1)]
            for draft in drafts:
                for url in (None, URL):
                    components = panel_view(TableDoc(1, 2, 3), 7, view, [], "en", url, [],
                                            usable_calling(view, draft))
                    assert components is not None
                    out.append(json.dumps(components.to_components()))
    return out


def test_the_call_rows_are_what_players_got() -> None:
    digest = hashlib.sha256("\n".join(rows_json()).encode()).hexdigest()[:16]
    assert digest == DIGEST
