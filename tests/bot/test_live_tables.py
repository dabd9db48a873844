"""Live tables stay in memory between moves (issue 16): a hand is played without parsing
the stored match again; storage stays the truth (every move written, a refused move or a
stale save leaves the cached table as stored)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from botkit import by_panel, play_hand, world

from bot.core.errors import UserFacingError
from bot.core.table import Seat, TableDoc
from bot.services.repository import fresh_copy
from bot.storage import StaleVersion
from engine.game import Match


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the bot's `Match.from_dict` calls (not those of botkit's oracle)."""
    calls = [0]
    real = Match.from_dict.__func__  # type: ignore[attr-defined]

    def from_dict(cls: type[Match], data: dict[str, Any]) -> Match:
        frame = sys._getframe(1)
        for _ in range(4):
            if frame is None or frame.f_code.co_filename.endswith("botkit.py"):
                break
            frame = frame.f_back  # type: ignore[assignment]
        else:
            calls[0] += 1
        return real(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(Match, "from_dict", classmethod(from_dict))
    return calls


async def test_a_hand_is_played_without_parsing_the_match_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        repository = w.bot.service.repository
        parses = counting_parses(monkeypatch)
        saves = repository.stats["save"]
        reads = repository.stats["load"]
        version = await w.version()
        await play_hand(w, by_panel)
        assert repository.stats["save"] - saves == await w.version() - version  # all written
        assert repository.stats["load"] - reads <= 2  # a channel lookup or two at most
        monkeypatch.undo()
        assert parses[0] == 0
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None
        _, live = await repository.load(w.table_id)
        assert live.to_dict() == TableDoc.from_dict(stored.doc).to_dict()


async def test_refused_and_stale_changes_never_reach_the_live_table(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        service = w.bot.service
        repository = service.repository
        before = (await repository.load(w.table_id))[1].to_dict()

        def refuse(tx: Any) -> None:
            tx.doc.seat(0).name = "mallory"
            tx.doc.notes.append("never")
            raise UserFacingError("error.stale")

        with pytest.raises(UserFacingError):
            await service.transact(w.table_id, refuse)
        assert (await repository.load(w.table_id))[1].to_dict() == before
        stored, doc = await repository.load(w.table_id)
        doc.notes.append("written by someone else")
        await repository.save(stored, doc)  # moves the version on under `stored`
        with pytest.raises(StaleVersion):
            await repository.save(stored, doc)
        assert w.table_id not in repository._live  # dropped: the next load reads storage
        _, again = await repository.load(w.table_id)
        assert again.notes[-1] == "written by someone else"


def test_fresh_copy_shares_only_the_immutable_match() -> None:
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.seats[0] = Seat(3, "alice")
    doc.match = {"x": 1}
    copy = fresh_copy(doc)
    copy.seats[0].name = "bob"  # type: ignore[union-attr]
    copy.notes.append("n")
    copy.options["turn_timer_s"] = 5
    assert doc.seats[0].name == "alice" and doc.notes == []  # type: ignore[union-attr]
    assert doc.options.get("turn_timer_s") != 5
    assert copy.match is doc.match


def test_fresh_copy_is_equal_and_every_container_its_own() -> None:
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3, notes=["a"], ready=[1],
                   start_levels=["2", "3"], results=[{"hand_no": 1}], deadline=5.0)
    doc.seats = [Seat(3, "alice"), None, Seat(None, "bot", level="hard"), None]
    doc.waiting[1] = Seat(4, "bob")
    doc.holders = [[3], [None, 4]]
    copy = fresh_copy(doc)
    assert copy == doc and type(copy) is TableDoc
    for name in ("options", "seats", "notes", "ready", "start_levels", "results", "holders",
                 "waiting", "decision"):
        assert getattr(copy, name) is not getattr(doc, name), name
    assert copy.seats[0] is not doc.seats[0] and copy.waiting[1] is not doc.waiting[1]
    assert copy.holders[1] is not doc.holders[1] and copy.results[0] is not doc.results[0]
    copy.holders[1].append(5)
    copy.results[0]["hand_no"] = 2
    assert doc.holders == [[3], [None, 4]] and doc.results == [{"hand_no": 1}]


async def test_a_shared_document_is_never_changed_by_a_later_move(tmp_path: Path) -> None:
    """Readers get the live document itself (no copy); a transaction works on a copy and
    hands it over once written, so what a reader holds stays as it was read."""
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        service = w.bot.service
        _, shared = await service.load(w.table_id)
        before = shared.to_dict()

        def note(tx: Any) -> None:
            tx.doc.add_note("a later move")
            tx.doc.seat(0).misses = 7

        tx, _ = await service.transact(w.table_id, note)
        assert shared.to_dict() == before
        _, now = await service.load(w.table_id)
        assert now is tx.doc and now.notes[-1] == "a later move" and now.seat(0).misses == 7
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None and TableDoc.from_dict(stored.doc).to_dict() == now.to_dict()
