"""The cluster soak's forwarded ``Type…`` submissions (issue 36), for `tools.soak_cluster`.

Each worker, as the process holding shard 0 does with every DM, receives the ``Type…``
modal's submissions of the people at tables other workers drive and forwards them through
the inbox (`bot.services.inbox.Inbox.forward`: a payload shaped as Discord's modal
submission, its id the ``typed`` verb's); each worker serves its own inbox
(`Inbox.serve`: on PostgreSQL woken by ``NOTIFY``, on SQLite by polling) and applies what it
claims as the bot's owner does: the id parsed by the one parser, the person's seat checked
against the id's, the step against the table's, in the table's own transaction
(`TableService.act`). Some submissions name the wrong seat (a modified client): refused.

Each forward's outcome is logged by its receiver (``forwarded id table outcome``), each
application by its owner (``applied id table version ms``, `ms` from the queuing to the
owner starting on it; ``refused id table ms``), and ``listening owner`` once a worker's
notifications arrive. `verify` then counts what must be 0: a submission applied twice, one
the player was told was applied but none was, one told "try again" but applied, one left
unanswered in the inbox after the quiet spell that ends the soak (every owner alive by
then: a claim whose claimer died is claimed again after `RETRY_AFTER`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.core.errors import UserFacingError
from bot.core.table import TableDoc
from bot.features.play import TYPED
from bot.present.text import plain
from bot.runtime.config import shard_of
from bot.services.inbox import TRY_AGAIN, Inbox
from bot.services.players import computer_action
from bot.services.tables import TableService
from bot.storage import Store
from bot.storage.cluster import ClusterStore, InboxItem
from bot.ui.ids import make_id, parse_id
from engine.actions import Play
from engine.entry import parse_action
from engine.game import Phase
from engine.reasons import TractorError

GAP = 0.05
"""Seconds between two submissions a worker forwards."""
RETRY_AFTER = 2.0
"""Seconds before a claim whose claimer died is claimed again (the bot's is 30)."""
QUIET = RETRY_AFTER + 3.0
"""Seconds the soak ends with no new submission (every claim finished or claimed again)."""
QUIET_SIGNAL = signal.SIGRTMIN
"""Stops the forwarding (the soak's quiet end); not a signal the fault injections use."""
WRONG_SEAT = 10
"""One submission in this many names another seat than the person's."""
APPLIED, REFUSED = "applied", "refused"
SUFFIX = ".inbox"
"""A worker's log of forwarded submissions (beside its ``.log`` of saves)."""


def submission(iid: int, table_id: int, hand: int, step: int, seat: int, user_id: int,
               cards: str) -> dict[str, Any]:
    """A ``Type…`` submission as the receiver forwards it (`bot.ui.forward.payload_of`'s
    fields the owner reads)."""
    return {"id": str(iid), "type": 5, "user": {"id": str(user_id)},
            "data": {"custom_id": make_id(table_id, hand, step, TYPED.name, f"{seat}.play"),
                     "components": [{"type": 1, "components": [
                         {"type": 4, "custom_id": "cards", "value": cards}]}]}}


def handler(service: TableService, fd: int) -> Callable[[InboxItem], Any]:
    """The owner's application of a forwarded submission (see the module)."""
    async def apply(item: InboxItem) -> str:
        waited = (time.time() - item.created_at) * 1000
        payload = item.payload
        cid = parse_id(payload["data"]["custom_id"], {TYPED.name: TYPED})
        text = payload["data"]["components"][0]["components"][0]["value"]
        action = parse_action("play", plain(text), 0)
        assert isinstance(action, Play)
        typed: Play = action

        def make(seat: int) -> Play:
            if seat != cid.seat:  # the router's seat check (`Access.owner`)
                raise UserFacingError("error.not_your_button")
            return replace(typed, seat=seat)

        try:
            tx = await service.act(cid.table, int(payload["user"]["id"]), make,
                                   step=cid.step)
        except (UserFacingError, TractorError):
            os.write(fd, f"refused {item.interaction_id} {cid.table} {waited:.1f}\n".encode())
            return REFUSED
        os.write(fd, f"applied {item.interaction_id} {cid.table} {tx.table.version}"
                     f" {waited:.1f}\n".encode())
        return APPLIED

    return apply


async def forward_typed(store: Store, inbox: Inbox, held: Callable[[], Mapping[int, int]],
                        count: int, fd: int, forwarding: asyncio.Event) -> None:
    """Forward the people's submissions at tables this worker does not drive, while
    `forwarding` is set (until cancelled)."""
    rng = random.Random(secrets.randbits(32))
    guilds: dict[int, int] = {}
    while True:
        await asyncio.sleep(GAP)
        await forwarding.wait()
        if not guilds:
            guilds = {s.id: s.guild_id for s in await store.active_tables()}
        others = [t for t, g in guilds.items() if shard_of(g, count) not in held()]
        if not others:
            continue
        table_id = rng.choice(others)
        stored = await store.load_table(table_id)  # never cached: not this worker's
        if stored is None:
            continue
        doc = TableDoc.from_dict(stored.doc)
        match = doc.get_match()
        turn = None if match is None else match.public_view().turn
        if match is None or match.phase is not Phase.PLAYING or turn is None:
            continue
        play = computer_action(match.view_for(turn), "random", stored.version)
        if not isinstance(play, Play):
            continue
        seat = turn if rng.randrange(WRONG_SEAT) else (turn + 1) % doc.seat_count
        person = doc.seat(turn).user_id
        assert person is not None
        iid = secrets.randbits(62)
        payload = submission(iid, table_id, match.hand_no, doc.step, seat, person,
                             " ".join(map(str, play.cards)))
        outcome = await inbox.forward(iid, shard_of(stored.guild_id, count), table_id,
                                      payload)
        os.write(fd, f"forwarded {iid} {table_id} {outcome}\n".encode())


async def note_listening(inbox: Inbox, owner: str, fd: int) -> None:
    """Log once this worker's notifications arrive (PostgreSQL)."""
    while inbox.listener is None or not inbox.listener.listening:
        await asyncio.sleep(0.05)
    os.write(fd, f"listening {owner}\n".encode())


class Worker:
    """A worker's side of it: its inbox served, submissions forwarded (`start`, `stop`);
    `QUIET_SIGNAL` stops the forwarding (the soak's quiet end)."""

    def __init__(self, store: Store, service: TableService, owner: str,
                 held: Callable[[], Mapping[int, int]], count: int, logdir: str) -> None:
        self.fd = os.open(Path(logdir) / f"{owner.replace('/', '_')}{SUFFIX}",
                          os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        self.inbox = Inbox(ClusterStore(store), retry_after=RETRY_AFTER)
        self.forwarding = asyncio.Event()
        self.forwarding.set()
        self.tasks = [
            asyncio.ensure_future(self.inbox.serve(owner, held, handler(service, self.fd))),
            asyncio.ensure_future(forward_typed(store, self.inbox, held, count, self.fd,
                                                self.forwarding)),
            asyncio.ensure_future(note_listening(self.inbox, owner, self.fd))]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        os.close(self.fd)


async def verify(store: Store, logdir: Path, postgres: bool) -> dict[str, Any]:
    """The forwarded submissions' counts (see the module)."""
    told: dict[int, str] = {}
    applied: Counter[int] = Counter()
    refused: set[int] = set()
    waits: list[float] = []
    listening = 0
    for log in logdir.glob(f"*{SUFFIX}"):
        for line in log.read_text().splitlines():
            words = line.split()
            if words[0] == "forwarded":
                told[int(words[1])] = words[3]
            elif words[0] == APPLIED:
                applied[int(words[1])] += 1
                waits.append(float(words[4]))
            elif words[0] == REFUSED:
                refused.add(int(words[1]))
                waits.append(float(words[3]))
            elif words[0] == "listening":
                listening += 1
    outcomes: Counter[str] = Counter(told.values())
    undone = await store._db.read(lambda db: db.execute(
        "SELECT COUNT(*) FROM cluster_inbox WHERE done_at IS NULL").fetchone()[0])
    waits.sort()
    by_outcome: dict[str, int] = defaultdict(int, outcomes)
    return {
        "forwarded": len(told), "forwarded_outcomes": dict(by_outcome),
        "forwarded_owner_ms_p50_p99": [
            round(waits[len(waits) // 2], 1) if waits else 0.0,
            round(waits[min(len(waits) - 1, len(waits) * 99 // 100)], 1) if waits else 0.0],
        "forwarded_applied_twice": sum(n > 1 for n in applied.values()),
        "forwarded_told_applied_not_applied": sum(
            1 for iid, outcome in told.items() if outcome == APPLIED and not applied[iid]),
        "forwarded_told_try_again_applied": sum(
            1 for iid, outcome in told.items() if outcome == TRY_AGAIN and applied[iid]),
        "forwarded_unanswered": int(undone),
        "notify_listeners": listening,
        "notify_expected": postgres,
    }


def failures(result: Mapping[str, Any]) -> list[str]:
    """The forwarded submissions' failed checks."""
    bad = [key for key in ("forwarded_applied_twice", "forwarded_told_applied_not_applied",
                           "forwarded_told_try_again_applied", "forwarded_unanswered")
           if result[key]]
    outcomes = result["forwarded_outcomes"]
    if not outcomes.get(APPLIED, 0) + outcomes.get(REFUSED, 0):
        bad.append("forwarded_outcomes")  # no owner answered: the path was not exercised
    if result["notify_expected"] and not result["notify_listeners"]:
        bad.append("notify_listeners")
    return bad
